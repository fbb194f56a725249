//! The Klaverjas app: the engine's match at a Bevy table, three bots, saves
//! in the platform's data directory.
//!
//! Data flows one way. Input becomes [`seats::PlayerAction`] messages; the
//! [`seats::Seats`] resource applies them to the engine (and runs the bots
//! on the task pool), writing [`seats::GameEvent`]s; the [`show::Show`]
//! paces those into what the table shows, the cards ([`table::cards`]) are
//! entities that follow it, and the save listens to the same events. The
//! engine decides every rule.
//!
//! Plugins: [`logic_plugin`] (the match, bots, show and saves: no window,
//! so tests run it headless), [`table_plugin`] (the card entities, their
//! pictures and the input: headless with an asset server), [`ui_plugin`]
//! (egui: the menu screens and the table's words), [`capture_plugin`]
//! (`--screenshot`) and [`stats_plugin`] (`--stats`).

pub mod cli;
pub mod coach;
pub mod disk;
pub mod i18n;
pub mod pictures;
pub mod platform;
pub mod save;
pub mod screens;
pub mod seats;
pub mod settings;
pub mod show;
pub mod stats;
pub mod table;
pub mod thinking;
pub mod tutorial;
pub mod words;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_egui::egui;
use cli::Options;
use klaverjas::{Match, Rules, Seat};
use save::{Loaded, Store};
use seats::{GameEvent, Seats, TableCommand};
use settings::Settings;
use show::Show;
use std::process::ExitCode;

/// The screens of the app.
#[derive(States, Default, Debug, Clone, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Title,
    NewGame,
    Settings,
    Rules,
    Lessons,
    Table,
}

/// The command line, for every system that needs it.
#[derive(Resource, Clone)]
pub struct Config(pub Options);

#[derive(Resource)]
pub struct Files(pub Store);

#[derive(Resource)]
pub struct PlayerSettings(pub Settings);

#[derive(Resource)]
pub struct Texts(pub i18n::Texts);

/// Messages for the title screen, until a new game starts.
#[derive(Resource, Default)]
pub struct TitleMessage(pub Vec<TitleNote>);

#[derive(Clone, Debug, PartialEq)]
pub enum TitleNote {
    /// The saved game could not be used and was moved aside.
    SaveSetAside { damage: save::Damage, moved_to: std::path::PathBuf },
    /// The settings could not be used and were moved aside: the defaults
    /// hold until the player changes them.
    SettingsSetAside { damage: save::Damage, moved_to: std::path::PathBuf },
}

/// The rules being set up on the new-game screen: a preset, and its
/// options as they will be played.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct SetupRules {
    pub preset: klaverjas::Preset,
    pub rules: Rules,
}

impl SetupRules {
    /// `preset` with the player's house rules for it.
    pub fn of(preset: klaverjas::Preset, settings: &Settings) -> SetupRules {
        SetupRules { preset, rules: settings.rules_for(preset) }
    }
}

/// The match, bots, show and saves. Needs only `MinimalPlugins` +
/// `StatesPlugin`.
pub fn logic_plugin(options: Options) -> impl Fn(&mut App) {
    move |app: &mut App| {
        let store = Store::new(options.data_dir.clone());
        let mut notes = Vec::new();
        let settings = match store.read::<Settings>(&store.settings_path()) {
            Loaded::Found(s) => s,
            Loaded::Nothing => Settings::default(),
            Loaded::SetAside { damage, moved_to } => {
                notes.push(TitleNote::SettingsSetAside { damage, moved_to });
                Settings::default()
            }
        };
        let texts = i18n::Texts::load(settings.language, settings.skin);
        // The command line's preset and options, else the player's own.
        let setup = match options.rules {
            Some(preset) => SetupRules { preset, rules: options.rules(None) },
            None => SetupRules::of(settings.home_rules.unwrap_or(klaverjas::Preset::Classic), &settings),
        };
        app.init_state::<Screen>()
            .insert_resource(Config(options.clone()))
            .insert_resource(platform::Device::new(options.phone.is_some()))
            .insert_resource(Files(store))
            .insert_resource(Texts(texts))
            .insert_resource(PlayerSettings(settings))
            .insert_resource(setup)
            .insert_resource(TitleMessage(notes))
            .add_message::<bevy::window::RequestRedraw>()
            .add_plugins((seats::plugin, show::plugin, tutorial::plugin, coach::plugin))
            .add_systems(Startup, start)
            .add_systems(Update, deal_on_and_quit.after(seats::Flow::React).run_if(in_state(Screen::Table)));
    }
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
        Ok(cli::Command::Lessons) => match crate::tutorial::lesson::all() {
            Ok(lessons) => {
                let texts = crate::i18n::Texts::load(crate::settings::Language::English, crate::settings::Skin::French);
                for l in &lessons {
                    println!("{}", crate::tutorial::lesson_line(l, &texts));
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("klaverjas: {e}");
                ExitCode::from(2)
            }
        },
        Ok(cli::Command::Run(options)) if let Err(message) = crate::tutorial::check_option(&options) => {
            eprintln!("klaverjas: {message}");
            ExitCode::from(2)
        }
        Ok(cli::Command::Run(_)) if let Some(missing) = cli::no_display(|name| std::env::var(name).ok()) => {
            eprintln!("klaverjas: {missing}");
            ExitCode::from(1)
        }
        Ok(cli::Command::Run(options)) => match run(options) {
            bevy::app::AppExit::Success => ExitCode::SUCCESS,
            bevy::app::AppExit::Error(code) => ExitCode::from(code.get()),
        },
        Err(message) => {
            eprintln!("klaverjas: {message}");
            ExitCode::from(2)
        }
    }
}

/// A fresh match with the app's seed (or one from the clock).
pub fn new_match(rules: Rules, seed: Option<u64>) -> Match {
    Match::new(rules, seed.unwrap_or_else(clock_seed), Seat::West)
}

/// A seed from the clock, for a match nobody asked to repeat.
pub fn clock_seed() -> u64 {
    // A browser has no system clock for std: its own counts milliseconds.
    #[cfg(target_arch = "wasm32")]
    return (js_sys::Date::now() * 1e6) as u64 ^ (js_sys::Math::random() * 1e9) as u64;
    #[cfg(not(target_arch = "wasm32"))]
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
}

#[allow(clippy::too_many_arguments)]
fn start(
    mut commands: Commands,
    config: Res<Config>,
    files: Res<Files>,
    settings: Res<PlayerSettings>,
    mut message: ResMut<TitleMessage>,
    mut next: ResMut<NextState<Screen>>,
    mut events: MessageWriter<GameEvent>,
    mut show: ResMut<Show>,
) {
    let o = &config.0;
    show.photograph = o.screenshot.is_some();
    let level = o.bots.unwrap_or(settings.0.bot_level.level());
    let mut seats = None;
    match files.0.load_game() {
        Loaded::Found((save, m)) if !o.demo && !save.demo => seats = Some(Seats::new(m, false, level)),
        Loaded::SetAside { damage, moved_to } => {
            message.0.push(TitleNote::SaveSetAside { damage, moved_to });
        }
        _ => {}
    }
    // With --lesson, --demo lets the lesson play itself (the tutorial
    // opens it); otherwise four bots play a match.
    if o.demo && o.lesson.is_none() {
        let rules = o.rules(None);
        seats = Some(Seats::new(new_match(rules, o.seed), true, level));
        next.set(Screen::Table);
    }
    if let Some(seats) = seats {
        seats::sit_down(&mut commands, &mut events, seats);
    }
}

/// Counts frames after the last deal ends, so the final screenshot is on
/// disk before `--quit-after-deals` closes the app.
#[derive(Default)]
struct QuitCountdown(Option<u32>);

/// A demo deals on by itself a moment after each deal's score, and starts
/// a new match when one ends; `--quit-after-deals` ends the app.
#[allow(clippy::too_many_arguments)]
fn deal_on_and_quit(
    seats: Option<Res<Seats>>,
    mut show: ResMut<Show>,
    config: Res<Config>,
    time: Res<Time>,
    mut over_since: Local<Option<f32>>,
    mut countdown: Local<QuitCountdown>,
    mut commands: MessageWriter<TableCommand>,
    mut coach: MessageWriter<coach::CoachCommand>,
    review: Res<coach::DealReview>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(seats) = seats else { return };
    let now = time.elapsed_secs();
    // Everyone passed: the cards are thrown in and dealt again, at any
    // table, once the players have seen the passes.
    if seats.game().phase() == klaverjas::Phase::ThrownIn && show.idle(now) {
        let since = *over_since.get_or_insert(now);
        if now - since > 1.0 {
            *over_since = None;
            commands.write(TableCommand::NextDeal);
        }
        redraw.write(bevy::window::RequestRedraw);
        return;
    }
    if show.shown.result.is_none() || !show.idle(now) {
        *over_since = None;
        return;
    }
    // Only a demo or a timed quit has anything to wait for.
    if seats.demo || config.0.quit_after_deals.is_some() {
        redraw.write(bevy::window::RequestRedraw);
    }
    // With --review a demo's every deal is reviewed, and photographed,
    // before the match goes on.
    if config.0.review && seats.demo {
        let number = seats.m.deal_number();
        match review.showing(&seats) {
            Some(n) if n == number && review.review.is_none() => return,
            Some(n) if n == number => {
                if over_since.is_none() {
                    show.photograph(format!("deal{number:02}-review.png"), now + 1.0);
                }
            }
            _ => {
                coach.write(coach::CoachCommand::Review);
                return;
            }
        }
    }
    let since = *over_since.get_or_insert(now);
    if let Some(n) = config.0.quit_after_deals
        && show.deals_finished >= n
        && show.screenshots.is_empty()
    {
        let left = countdown.0.get_or_insert(30);
        *left = left.saturating_sub(1);
        if *left == 0 {
            exit.write(AppExit::Success);
        }
        return;
    }
    if seats.demo && now - since > 2.0 {
        *over_since = None;
        commands.write(if seats.m.is_over() { TableCommand::NewMatch } else { TableCommand::NextDeal });
    }
}

/// The card entities, their pictures and the player's input. Needs an
/// asset server (`AssetPlugin` and `ImagePlugin` in a headless test).
pub fn table_plugin(app: &mut App) {
    app.add_plugins((table::plugin, pictures::plugin));
}

/// The egui screens and the table's words.
pub fn ui_plugin(app: &mut App) {
    app.add_plugins((screens::plugin, table::overlay_plugin, tutorial::bubble::plugin, coach::panel_plugin))
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            screens::draw_phone_bars.after(screens::Zoom).run_if(|c: Res<Config>| c.0.phone.is_some()),
        )
        .add_systems(
            PreUpdate,
            drop_unchanged_modifiers
                .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        );
}

/// bevy_egui 0.42 reports the modifier keys to egui every frame; egui 0.36
/// answers any input event with a repaint, and so an idle window redrew
/// forever (83% of a core measured). Only a real change is passed on.
fn drop_unchanged_modifiers(mut inputs: Query<&mut bevy_egui::EguiInput>, mut last: Local<Option<egui::Modifiers>>) {
    for mut input in &mut inputs {
        let mut seen = *last;
        input.0.events.retain(|e| match e {
            egui::Event::ModifiersChanged(m) if seen == Some(*m) => false,
            egui::Event::ModifiersChanged(m) => {
                seen = Some(*m);
                true
            }
            _ => true,
        });
        *last = seen;
    }
}

/// `--screenshot DIR`: a PNG of the window whenever the show asks.
pub fn capture_plugin(app: &mut App) {
    app.add_systems(Update, capture.after(seats::Flow::React)).add_systems(OnEnter(Screen::Title), capture_title);
}

/// The title screen too, once the pictures are in.
fn capture_title(mut show: ResMut<Show>, time: Res<Time>) {
    show.photograph("title.png".into(), time.elapsed_secs() + 0.5);
}

#[allow(clippy::too_many_arguments)]
fn capture(
    mut commands: Commands,
    mut show: ResMut<Show>,
    config: Res<Config>,
    time: Res<Time>,
    images: Res<pictures::CardImages>,
    server: Res<AssetServer>,
    taking: Query<(), With<Screenshot>>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    // A screenshot is written a frame or two after it is taken: keep
    // drawing until it is on disk, even on an idle screen.
    if !taking.is_empty() {
        redraw.write(bevy::window::RequestRedraw);
    }
    let now = time.elapsed_secs();
    // Until the skin's pictures are loaded and halved, the window may show
    // nothing yet (software rendering takes seconds to upload them).
    if show.screenshots.iter().all(|s| s.at > now) || !images.ready(&server) {
        return;
    }
    let (due, later): (Vec<_>, Vec<_>) = show.screenshots.drain(..).partition(|s| s.at <= now);
    show.screenshots = later;
    let Some(dir) = &config.0.screenshot else { return };
    let _ = std::fs::create_dir_all(dir);
    for shot in due {
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(dir.join(shot.name)));
    }
}

pub use stats::plugin as stats_plugin;

/// Builds and runs the windowed game.
pub fn run(options: Options) -> AppExit {
    let (w, h) = options.window;
    let mut resolution = bevy::window::WindowResolution::new(w, h);
    if let Some(scale) = options.phone {
        resolution = resolution.with_scale_factor_override(scale);
    }
    // A phone's app fills the screen; the system's bars are kept clear of
    // by the layout (`platform::safe_area`).
    let mode = if platform::TARGET.is_phone() {
        bevy::window::WindowMode::BorderlessFullscreen(bevy::window::MonitorSelection::Primary)
    } else {
        bevy::window::WindowMode::Windowed
    };
    // The assets have no .meta files: not asking for them spares a browser
    // a request (and a 404) for every picture.
    let mut asset_plugin = AssetPlugin { meta_check: bevy::asset::AssetMetaCheck::Never, ..AssetPlugin::default() };
    if let Some(dir) = pictures::find_assets() {
        asset_plugin.file_path = dir.display().to_string();
    }
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Klaverjas".into(),
                    resolution,
                    mode,
                    // iOS: the status bar stays hidden, as Info.plist asks.
                    prefers_status_bar_hidden: platform::TARGET.is_phone(),
                    // In a browser the page's canvas, filling the page.
                    canvas: cfg!(target_arch = "wasm32").then(|| "#klaverjas".to_string()),
                    fit_canvas_to_parent: true,
                    prevent_default_event_handling: true,
                    ..default()
                }),
                ..default()
            })
            .set(asset_plugin),
    )
    .add_plugins(bevy_egui::EguiPlugin::default())
    // Redraw only on input or when something moves: an idle table costs
    // next to no CPU, and on a phone no battery.
    .insert_resource(bevy::winit::WinitSettings::desktop_app())
    .insert_resource(ClearColor(Color::srgb_u8(screens::FELT.r(), screens::FELT.g(), screens::FELT.b())))
    // Flat sprites need neither multisampling nor tone mapping; each is a
    // pass over the whole window, costly where the GPU is software.
    .add_systems(Startup, |mut commands: Commands| {
        commands.spawn((Camera2d, bevy::render::view::Msaa::Off, bevy::core_pipeline::tonemapping::Tonemapping::None));
    })
    .add_plugins(logic_plugin(options.clone()))
    .add_plugins((table_plugin, ui_plugin, capture_plugin));
    if let Some(path) = options.stats {
        app.add_plugins(stats::plugin(path));
    }
    app.run()
}
