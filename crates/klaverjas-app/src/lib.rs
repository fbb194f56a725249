//! The Klaverjas app: the engine's match rendered on a Bevy window with
//! egui, three bots at the table, saves in the platform's data directory.
//!
//! Plugins, one per concern: [`logic_plugin`] (the match, bots, saves; no
//! rendering, so tests run it headless), [`ui_plugin`] (egui screens and
//! the table), and [`capture_plugin`] (`--screenshot`).

pub mod cli;
pub mod i18n;
pub mod pictures;
pub mod save;
pub mod session;
pub mod settings;
pub mod table;
pub mod ui;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy_egui::egui;
use cli::Options;
use klaverjas::{Match, Rules, Seat};
use save::{Loaded, Store};
use session::Session;
use settings::Settings;

/// The screens of the app.
#[derive(States, Default, Debug, Clone, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Title,
    NewGame,
    Settings,
    Rules,
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

/// A message for the title screen (a save that had to be set aside).
#[derive(Resource, Default)]
pub struct TitleMessage(pub Option<String>);

/// The rules being set up on the new-game screen.
#[derive(Resource)]
pub struct SetupRules(pub Rules);

/// Counts frames after the last deal ends, so the final screenshot is on
/// disk before `--quit-after-deals` closes the app.
#[derive(Resource, Default)]
struct QuitCountdown(Option<u32>);

/// When a finished deal's sheet appeared (demo mode moves on by itself).
#[derive(Resource, Default)]
struct DealOverSince(Option<f32>);

/// The match, bots and saves. Needs only `MinimalPlugins` + `StatesPlugin`.
pub fn logic_plugin(options: Options) -> impl Fn(&mut App) {
    move |app: &mut App| {
        let store = Store::new(options.data_dir.clone());
        let settings = match store.read::<Settings>(&store.settings_path()) {
            Loaded::Found(s) => s,
            _ => Settings::default(),
        };
        let texts = i18n::Texts::load(settings.language, settings.skin);
        let rules = options.rules.map(|p| p.rules()).unwrap_or_default();
        app.init_state::<Screen>()
            .insert_resource(Config(options.clone()))
            .insert_resource(Files(store))
            .insert_resource(Texts(texts))
            .insert_resource(PlayerSettings(settings))
            .insert_resource(SetupRules(rules))
            .init_resource::<TitleMessage>()
            .init_resource::<QuitCountdown>()
            .init_resource::<DealOverSince>()
            .init_resource::<table::Selection>()
            .add_message::<RequestRedraw>()
            .add_systems(Startup, start)
            .add_systems(Update, drive.run_if(in_state(Screen::Table)));
    }
}

/// A fresh match with the app's seed (or one from the clock).
pub fn new_match(rules: Rules, seed: Option<u64>) -> Match {
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
    });
    Match::new(rules, seed, Seat::West)
}

fn start(
    mut commands: Commands,
    config: Res<Config>,
    files: Res<Files>,
    settings: Res<PlayerSettings>,
    texts: Res<Texts>,
    mut message: ResMut<TitleMessage>,
    mut next: ResMut<NextState<Screen>>,
) {
    let o = &config.0;
    match files.0.load_game() {
        Loaded::Found((save, m)) if !o.demo && !save.demo => {
            commands.insert_resource(Session::new(m, save.demo, &settings.0));
        }
        Loaded::SetAside { reason, moved_to } => {
            message.0 = Some(
                texts
                    .0
                    .fill("notice.save_set_aside", &[("reason", &reason), ("path", &moved_to.display().to_string())]),
            );
        }
        _ => {}
    }
    if o.demo {
        let rules = o.rules.map(|p| p.rules()).unwrap_or_default();
        commands.insert_resource(Session::new(new_match(rules, o.seed), true, &settings.0));
        next.set(Screen::Table);
    }
}

/// Moves the show on, lets bots play, saves after every action, and in
/// demo mode deals on and quits when asked.
#[allow(clippy::too_many_arguments)]
fn drive(
    time: Res<Time>,
    session: Option<ResMut<Session>>,
    settings: Res<PlayerSettings>,
    texts: Res<Texts>,
    files: Res<Files>,
    config: Res<Config>,
    mut countdown: ResMut<QuitCountdown>,
    mut over_since: ResMut<DealOverSince>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(mut s) = session else { return };
    let now = time.elapsed_secs();
    let before = (s.m.deal_number(), s.m.game().actions().len());
    let mut moving = false;
    for _ in 0..256 {
        if !s.step(now, &settings.0, &texts.0) {
            break;
        }
        moving = true;
        if s.busy() > now {
            break;
        }
    }
    // A demo never writes over the player's own saved game.
    if (s.m.deal_number(), s.m.game().actions().len()) != before
        && !s.demo
        && let Err(e) = s.save(&files.0)
    {
        s.notice(texts.0.fill("notice.save_failed", &[("reason", &e)]), None, now, true);
    }
    if s.notices.iter().any(|n| n.until > now) || moving || !s.screenshots.is_empty() {
        redraw.write(RequestRedraw);
    }
    // End of a deal: demo mode waits a moment, then deals on or quits.
    if s.shown.result.is_some() && s.idle(now) {
        let since = *over_since.0.get_or_insert(now);
        if let Some(n) = config.0.quit_after_deals
            && s.deals_finished >= n
            && s.screenshots.is_empty()
        {
            let left = countdown.0.get_or_insert(30);
            *left = left.saturating_sub(1);
            redraw.write(RequestRedraw);
            if *left == 0 {
                exit.write(AppExit::Success);
            }
            return;
        }
        if s.demo && now - since > 2.0 {
            over_since.0 = None;
            if !s.next_deal(now, &settings.0) {
                // The match is over: a demo starts another.
                let rules = *s.rules();
                *s = Session::new(new_match(rules, None), true, &settings.0);
            }
        }
        redraw.write(RequestRedraw);
    } else {
        over_since.0 = None;
    }
}

/// The egui screens and the table.
pub fn ui_plugin(app: &mut App) {
    app.insert_resource(pictures::CardPictures::new(pictures::find_root()))
        .add_systems(bevy_egui::EguiPrimaryContextPass, draw_ui)
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

#[allow(clippy::too_many_arguments)]
fn draw_ui(
    mut commands: Commands,
    mut contexts: bevy_egui::EguiContexts,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    session: Option<ResMut<Session>>,
    mut settings: ResMut<PlayerSettings>,
    mut texts: ResMut<Texts>,
    files: Res<Files>,
    mut setup: ResMut<SetupRules>,
    message: Res<TitleMessage>,
    mut selection: ResMut<table::Selection>,
    mut pictures: ResMut<pictures::CardPictures>,
    time: Res<Time>,
    mut exit: MessageWriter<AppExit>,
    windows: Query<&Window>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    if let Ok(w) = windows.single() {
        let scale = table::zoom_for(w.width(), w.height());
        if (ctx.zoom_factor() - scale).abs() > 0.01 {
            ctx.set_zoom_factor(scale);
        }
    }
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let now = time.elapsed_secs();
    let t = &texts.0;
    pictures.use_skin(settings.0.skin);
    let action = match screen.get() {
        Screen::Title => {
            let message = message.0.as_deref().or(pictures.problem.as_deref());
            ui::title(&mut root, t, session.is_some(), message)
        }
        Screen::NewGame => ui::new_game(&mut root, t, &mut setup.0),
        Screen::Settings => ui::settings(&mut root, t, &mut settings.0, &mut pictures),
        Screen::Rules => {
            let rules = session.as_ref().map(|s| *s.rules()).unwrap_or(setup.0);
            ui::rules_page(&mut root, t, &rules)
        }
        Screen::Table => {
            let Some(mut s) = session else {
                next.set(Screen::Title);
                return Ok(());
            };
            let mut chosen = ui::table_overlays(&mut root, t, &s, now, &mut pictures);
            egui::CentralPanel::default().frame(egui::Frame::new()).show(&mut root, |ui| {
                if let Some(a) = table::draw(ui, &mut s, t, now, &mut selection, &mut pictures) {
                    chosen = Some(ui::TableAction::Game(a));
                }
            });
            match chosen {
                Some(ui::TableAction::Game(a)) => {
                    let _ = s.human(a, t, now);
                }
                Some(ui::TableAction::NextDeal) => {
                    s.next_deal(now, &settings.0);
                }
                Some(ui::TableAction::NewMatch) => {
                    let rules = *s.rules();
                    *s = Session::new(new_match(rules, None), false, &settings.0);
                }
                Some(ui::TableAction::Menu) => next.set(Screen::Title),
                None => {}
            }
            None
        }
    };
    match action {
        Some(ui::MenuAction::Continue) => next.set(Screen::Table),
        Some(ui::MenuAction::OpenNewGame) => next.set(Screen::NewGame),
        Some(ui::MenuAction::OpenSettings) => next.set(Screen::Settings),
        Some(ui::MenuAction::OpenRules) => next.set(Screen::Rules),
        Some(ui::MenuAction::Back) => next.set(Screen::Title),
        Some(ui::MenuAction::Quit) => {
            exit.write(AppExit::Success);
        }
        Some(ui::MenuAction::NewGame(rules)) => {
            files.0.delete_game();
            commands.insert_resource(Session::new(new_match(rules, None), false, &settings.0));
            next.set(Screen::Table);
        }
        Some(ui::MenuAction::SettingsChanged) => {
            texts.0 = i18n::Texts::load(settings.0.language, settings.0.skin);
            let _ = files.0.write(&files.0.settings_path(), &settings.0);
        }
        None => {}
    }
    Ok(())
}

/// `--screenshot DIR`: a PNG of the window whenever the session asks.
pub fn capture_plugin(app: &mut App) {
    app.add_systems(Update, capture.after(drive));
}

fn capture(mut commands: Commands, session: Option<ResMut<Session>>, config: Res<Config>, time: Res<Time>) {
    let Some(mut s) = session else { return };
    let now = time.elapsed_secs();
    let (due, later): (Vec<_>, Vec<_>) = s.screenshots.drain(..).partition(|(_, at)| *at <= now);
    s.screenshots = later;
    let names: Vec<String> = due.into_iter().map(|(name, _)| name).collect();
    let Some(dir) = &config.0.screenshot else { return };
    let _ = std::fs::create_dir_all(dir);
    for name in names {
        let path = dir.join(name);
        commands
            .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
            .observe(bevy::render::view::screenshot::save_to_disk(path));
    }
}

/// Builds and runs the windowed game.
pub fn run(options: Options) -> AppExit {
    let (w, h) = options.window;
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window { title: "Klaverjas".into(), resolution: (w, h).into(), ..default() }),
        ..default()
    }))
    .add_plugins(bevy_egui::EguiPlugin::default())
    // Redraw only on input or when something moves: an idle table costs
    // next to no CPU.
    .insert_resource(bevy::winit::WinitSettings::desktop_app())
    .insert_resource(ClearColor(Color::srgb_u8(22, 96, 58)))
    .add_systems(Startup, |mut commands: Commands| {
        commands.spawn(Camera2d);
    })
    .add_plugins(logic_plugin(options))
    .add_plugins(ui_plugin)
    .add_plugins(capture_plugin);
    app.run()
}
