//! The desktop entry point: `cargo run --release`.

use klaverjas_app::cli::{self, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match cli::parse(&args) {
        Ok(Command::Help) => {
            println!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::Run(_)) if let Some(missing) = cli::no_display(|name| std::env::var(name).ok()) => {
            eprintln!("klaverjas: {missing}");
            ExitCode::from(1)
        }
        Ok(Command::Run(options)) => match klaverjas_app::run(options) {
            bevy::app::AppExit::Success => ExitCode::SUCCESS,
            bevy::app::AppExit::Error(code) => ExitCode::from(code.get()),
        },
        Err(message) => {
            eprintln!("klaverjas: {message}");
            ExitCode::from(2)
        }
    }
}
