//! The app's logic without a window or GPU: `MinimalPlugins` + `StatesPlugin`
//! and the logic plugin, driven by `app.update()`.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use klaverjas::{Action, Bid, Phase, Preset};
use klaverjas_app::cli::Options;
use klaverjas_app::session::{HUMAN, Session};
use klaverjas_app::settings::Speed;
use klaverjas_app::{PlayerSettings, Screen, Texts, TitleMessage, logic_plugin};
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("klaverjas-app-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn headless_app(options: Options) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin)).add_plugins(logic_plugin(options));
    app.world_mut().resource_mut::<PlayerSettings>().0.speed = Speed::Instant;
    app.update();
    app
}

fn session(app: &mut App) -> Mut<'_, Session> {
    app.world_mut().resource_mut::<Session>()
}

#[test]
fn bots_play_a_full_deal_to_the_score() {
    let dir = temp_dir("demo");
    let mut app =
        headless_app(Options { demo: true, seed: Some(4), data_dir: Some(dir.clone()), ..Options::default() });
    assert_eq!(app.world().resource::<State<Screen>>().get(), &Screen::Table);
    for _ in 0..2000 {
        app.update();
        if app.world().resource::<Session>().shown.result.is_some() {
            break;
        }
    }
    let s = app.world().resource::<Session>();
    let result = s.shown.result.expect("the deal was scored");
    assert!(!dir.join("save.ron").exists(), "a demo leaves the player's save alone");
    assert_eq!(result.points.ns + result.points.ew, 162);
    assert_eq!(s.m.sheet().rows.len(), 1);
    assert_eq!(s.shown.tricks_won.ns + s.shown.tricks_won.ew, 8, "the table showed every trick");
}

/// Plays the human's turns with `choose` until `stop` holds.
fn play_until(app: &mut App, stop: impl Fn(&Session) -> bool, choose: impl Fn(&Session) -> Action) {
    for _ in 0..5000 {
        app.update();
        let now = app.world().resource::<Time>().elapsed_secs();
        let texts = app.world().resource::<Texts>().0.clone();
        let mut s = session(app);
        if stop(&s) {
            return;
        }
        if s.waiting_for(now) == Some(HUMAN) {
            let action = choose(&s);
            s.human(action, &texts, now).expect("a legal action");
        }
    }
    panic!("never reached the wanted position");
}

/// Starts a match with the player at South and shows the table.
fn sit_down(app: &mut App, preset: Preset, seed: u64) {
    let settings = app.world().resource::<PlayerSettings>().0.clone();
    let session = Session::new(klaverjas_app::new_match(preset.rules(), Some(seed)), false, &settings);
    app.world_mut().insert_resource(session);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Table);
}

fn first_legal(s: &Session) -> Action {
    let g = s.m.game();
    match g.phase() {
        Phase::Bidding if g.legal_actions().contains(&Action::Bid(Bid::Pass)) => Action::Bid(Bid::Pass),
        _ => g.legal_actions()[0],
    }
}

#[test]
fn a_card_that_may_not_be_played_is_refused_with_the_rule() {
    let dir = temp_dir("refuse");
    let mut app = headless_app(Options {
        seed: Some(11),
        rules: Some(Preset::Rotterdam),
        data_dir: Some(dir),
        ..Options::default()
    });
    sit_down(&mut app, Preset::Rotterdam, 11);
    let now = |app: &App| app.world().resource::<Time>().elapsed_secs();
    // Play on until South holds a card the rules forbid.
    play_until(
        &mut app,
        |s| {
            let g = s.m.game();
            s.waiting_for(f32::MAX) == Some(HUMAN)
                && g.phase() == Phase::Playing
                && !g.hand(HUMAN).minus(g.legal_cards()).is_empty()
        },
        first_legal,
    );
    let t = now(&app);
    let texts = app.world().resource::<Texts>().0.clone();
    let mut s = session(&mut app);
    let (bad, engine_reason) = {
        let g = s.m.game();
        let bad = g.hand(HUMAN).minus(g.legal_cards()).first().unwrap();
        (bad, g.check(Action::Play(bad)).unwrap_err())
    };
    let before = s.m.clone();
    let message = s.human(Action::Play(bad), &texts, t).unwrap_err();
    let trump = s.m.game().contract().map(|c| c.trump);
    assert_eq!(message, klaverjas_app::session::explain(&engine_reason, &texts, trump));
    assert!(s.notices.iter().any(|n| n.text == message && n.warning), "the refusal is shown");
    assert_eq!(s.m, before, "nothing changed");
    assert!(!message.is_empty() && !message.contains("rule."), "translated: {message}");
}

#[test]
fn save_and_continue_mid_trick() {
    let dir = temp_dir("continue");
    let options = Options { seed: Some(5), data_dir: Some(dir.clone()), ..Options::default() };
    let mut app = headless_app(options.clone());
    sit_down(&mut app, Preset::Classic, 5);
    play_until(
        &mut app,
        |s| s.m.game().tricks().len() >= 2 && s.m.game().current_trick().is_some_and(|t| t.len() == 2),
        first_legal,
    );
    let saved = app.world().resource::<Session>().m.clone();
    // A new app on the same data directory continues the same match.
    let again = headless_app(options);
    let back = &again.world().resource::<Session>().m;
    assert_eq!(back, &saved);
    assert_eq!(back.game().current_trick().unwrap().len(), 2, "mid-trick");
}

#[test]
fn a_corrupt_save_is_moved_aside_and_reported() {
    let dir = temp_dir("corrupt");
    std::fs::write(dir.join("save.ron"), "(format: 1, demo: false, record: (garbage").unwrap();
    let app = headless_app(Options { data_dir: Some(dir.clone()), ..Options::default() });
    let message = app.world().resource::<TitleMessage>().0.clone().expect("the player is told");
    assert!(message.contains("could not be used"), "{message}");
    assert!(dir.join("save.ron.unreadable-1").exists(), "the file is kept aside");
    assert!(!dir.join("save.ron").exists());
    assert!(app.world().get_resource::<Session>().is_none(), "a fresh game will start");
}
