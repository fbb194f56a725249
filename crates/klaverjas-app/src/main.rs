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
        Ok(Command::Lessons) => match klaverjas_app::tutorial::lesson::all() {
            Ok(lessons) => {
                let texts = klaverjas_app::i18n::Texts::load(
                    klaverjas_app::settings::Language::English,
                    klaverjas_app::settings::Skin::French,
                );
                for l in &lessons {
                    println!("{}", klaverjas_app::tutorial::lesson_line(l, &texts));
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("klaverjas: {e}");
                ExitCode::from(2)
            }
        },
        Ok(Command::Run(options)) if let Err(message) = klaverjas_app::tutorial::check_option(&options) => {
            eprintln!("klaverjas: {message}");
            ExitCode::from(2)
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
