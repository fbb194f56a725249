//! The Klaverjas app: the engine's match at a Bevy table, three bots, saves
//! in the platform's data directory. This file assembles the rooms; the
//! map of them, floor by floor, is in docs/DESIGN.md.
//!
//! Data flows one way. Input becomes [`seats::PlayerAction`] messages; the
//! [`seats::Seats`] resource applies them to the engine (and has the bots
//! think away from the frames), writing [`seats::GameEvent`]s; the
//! [`show::Show`] paces those into what the table shows, the cards
//! ([`table::cards`]) are entities that follow it, and the save listens to
//! the same events. The engine decides every rule.
//!
//! Plugins: [`logic_plugin`] (the match, bots, show and saves: no window,
//! so tests run it headless), [`table_plugin`] (the card entities, their
//! pictures and the input: headless with an asset server), [`ui_plugin`]
//! (egui: the menu screens and the table's panels), and with a window
//! `--screenshot` ([`demo::capture_plugin`]) and `--stats` ([`stats`]).

pub mod cli;
pub mod coach;
pub mod daily;
pub mod demo;
pub mod disk;
pub mod drawn;
pub mod forms;
pub mod friends;
pub mod i18n;
pub mod look;
pub mod panels;
pub mod paste;
pub mod pictures;
pub mod platform;
pub mod progress;
pub mod save;
pub mod screens;
pub mod seats;
pub mod settings;
pub mod show;
pub mod shown;
pub mod sound;
pub mod state;
pub mod stats;
pub mod table;
pub mod thinking;
pub mod turns;
pub mod tutorial;
pub mod web_text;
pub mod window;
pub mod words;

use bevy::prelude::*;
use cli::Options;
use std::process::ExitCode;

/// The match, bots, show and saves. Needs only `MinimalPlugins` +
/// `StatesPlugin`.
pub fn logic_plugin(options: Options) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.add_plugins(state::plugin(options.clone())).add_plugins((
            seats::plugin,
            show::plugin,
            turns::plugin,
            tutorial::plugin,
            coach::plugin,
            demo::plugin,
            progress::plugin,
            friends::plugin,
            daily::plugin,
        ));
    }
}

/// The card entities, their pictures and sounds, and the player's input.
/// Needs an asset server (`AssetPlugin` and `ImagePlugin` in a headless
/// test, with a [`sound::Speaker::recorder`]).
pub fn table_plugin(app: &mut App) {
    app.add_plugins((table::plugin, pictures::plugin, sound::plugin));
}

/// The egui screens and the table's panels.
pub fn ui_plugin(app: &mut App) {
    app.add_plugins((
        look::plugin,
        screens::plugin,
        panels::plugin,
        tutorial::bubble::plugin,
        paste::plugin,
        web_text::plugin,
    ));
}

/// The game's one entry point: the desktop's `main` and the phones'
/// (`crates/klaverjas-mobile`, through `#[bevy_main]`) both call it. The
/// command line is the desktop's; a phone starts with none.
pub fn main() -> ExitCode {
    // A phone's system may pass its own arguments (Xcode does): there the
    // game has no command line.
    #[cfg(target_arch = "wasm32")]
    let args = platform::web_args();
    #[cfg(not(target_arch = "wasm32"))]
    let args: Vec<String> = if platform::TARGET.is_phone() { Vec::new() } else { std::env::args().skip(1).collect() };
    match cli::parse(&args) {
        Ok(cli::Command::Help) => {
            println!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Ok(cli::Command::Version) => {
            println!("klaverjas {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Ok(cli::Command::Lessons) => match tutorial::lesson::all() {
            Ok(lessons) => {
                let texts = i18n::Texts::load(settings::Language::English, settings::Skin::French);
                for l in &lessons {
                    println!("{}", tutorial::teacher::lesson_line(l, &texts));
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("klaverjas: {e}");
                ExitCode::from(2)
            }
        },
        Ok(cli::Command::Run(options)) if let Err(message) = tutorial::teacher::check_option(&options) => {
            eprintln!("klaverjas: {message}");
            ExitCode::from(2)
        }
        Ok(cli::Command::Run(options)) if let Some(day) = options.daily.filter(|&d| d > platform::today()) => {
            eprintln!("klaverjas: --daily: {day} is in the future; its deals are not out yet");
            ExitCode::from(2)
        }
        Ok(cli::Command::Run(_)) if let Some(missing) = cli::no_display(|name| std::env::var(name).ok()) => {
            eprintln!("klaverjas: {missing}");
            ExitCode::from(1)
        }
        Ok(cli::Command::Run(options)) => match run(*options) {
            bevy::app::AppExit::Success => ExitCode::SUCCESS,
            bevy::app::AppExit::Error(code) => ExitCode::from(code.get()),
        },
        Err(message) => {
            eprintln!("klaverjas: {message}");
            ExitCode::from(2)
        }
    }
}

/// Builds and runs the windowed game.
pub fn run(options: Options) -> AppExit {
    let mut app = App::new();
    app.add_plugins(window::default_plugins(&options))
        .add_plugins((bevy_egui::EguiPlugin::default(), window::plugin, drawn::plugin))
        .add_plugins(logic_plugin(options.clone()))
        .add_plugins((table_plugin, ui_plugin, demo::capture_plugin));
    if options.targets {
        app.add_plugins((forms::targets_plugin, table::input::targets_plugin));
    }
    if let Some(path) = options.stats {
        app.add_plugins(stats::plugin(path));
    }
    app.run()
}
