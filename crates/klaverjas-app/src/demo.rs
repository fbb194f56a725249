//! What the command line asks of a run besides the rules: the first table
//! (the saved game, or with `--demo` four bots), a demo dealing on by
//! itself, `--quit-after-deals`, `--review` after each deal, and
//! `--screenshot`'s pictures whenever the show asks for one.

use crate::coach;
use crate::save::{Loaded, Slot};
use crate::seats::{self, GameEvent, Seats, TableCommand, new_match};
use crate::show::Show;
use crate::state::{Config, Files, PlayerSettings, Screen, TitleMessage, TitleNote};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

/// The first table, and a demo's dealing on and quitting.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, start)
        .add_systems(Update, deal_on_and_quit.after(seats::Flow::React).run_if(in_state(Screen::Table)));
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
    // The match comes up first; a day's deals wait in their slot, read
    // here too so that a damaged one is set aside and said at once.
    for slot in [Slot::Day, Slot::Match] {
        match files.0.load_game(slot) {
            Loaded::Found((save, m)) if slot == Slot::Match && !o.demo && !save.demo => {
                seats = Some(Seats::saved(&save, m, level))
            }
            Loaded::SetAside { damage, moved_to } => {
                message.0.push(TitleNote::SaveSetAside { damage, moved_to });
            }
            _ => {}
        }
    }
    // With --lesson, --demo lets the lesson play itself (the tutorial
    // opens it); otherwise four bots play a match.
    // With --join-table, --demo lets a bot play the player's chair there.
    if o.demo && o.lesson.is_none() && o.join_table.is_none() {
        let rules = o.rules(None);
        // With --daily the four bots play that day's deals.
        seats = Some(match o.daily {
            Some(day) => {
                let preset = o.rules.unwrap_or(klaverjas::Preset::Classic);
                let play = klaverjas_ai::daily::Play { day, preset, bots: level, record: false };
                Seats::of_day(klaverjas_ai::daily::new_match(day, play.preset), true, play)
            }
            None => Seats::new(new_match(rules, o.seed), true, level),
        });
        next.set(Screen::Table);
    } else if o.play && o.lesson.is_none() {
        let new = || {
            let m = new_match(o.rules(settings.0.home_rules), o.seed).with_practice(settings.0.practice);
            Seats::new(m, false, level)
        };
        seats = Some(seats.unwrap_or_else(new));
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
    (mut redraw, statistics): (MessageWriter<bevy::window::RequestRedraw>, Res<crate::progress::Reviewing>),
    mut exit: MessageWriter<AppExit>,
) {
    // A day's end opens its result (`crate::daily`), which ends the run.
    let Some(seats) = seats.filter(|s| s.daily().is_none() || !s.m.is_over()) else { return };
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
    if seats.demo() || config.0.quit_after_deals.is_some() {
        redraw.write(bevy::window::RequestRedraw);
    }
    // The deal's end is photographed before anything opens over it.
    if !show.screenshots.is_empty() {
        return;
    }
    // With --review a demo's every deal is reviewed, and photographed,
    // before the match goes on.
    if config.0.review && seats.demo() {
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
    // The statistics' reviews are finished before the game quits, so
    // the learning curve holds every deal played.
    if let Some(n) = config.0.quit_after_deals
        && show.deals_finished >= n
        && show.screenshots.is_empty()
        && statistics.is_empty()
    {
        let left = countdown.0.get_or_insert(30);
        *left = left.saturating_sub(1);
        if *left == 0 {
            exit.write(AppExit::Success);
        }
        return;
    }
    if seats.demo() && now - since > 2.0 {
        *over_since = None;
        commands.write(if seats.m.is_over() { TableCommand::NewMatch } else { TableCommand::NextDeal });
    }
}

/// `--screenshot DIR`: a PNG of the window whenever the show asks, and of
/// each menu screen as it opens.
pub fn capture_plugin(app: &mut App) {
    app.init_resource::<Settling>().add_systems(Update, capture.after(seats::Flow::React));
    for screen in Screen::MENUS {
        let name = screen.name();
        // The first screen is entered before `start` sets the show to
        // photograph: this asks whatever the flag says (the capture
        // writes only with --screenshot).
        let friends = screen == Screen::Friends;
        app.add_systems(OnEnter(screen), move |mut show: ResMut<Show>, time: Res<Time>, config: Res<Config>| {
            // A table being hosted is photographed once its code is up; one
            // being joined, at its tricks.
            if friends && (config.0.host_table.is_some() || config.0.join_table.is_some()) {
                return;
            }
            let at = time.elapsed_secs() + 0.5;
            show.screenshots.push(crate::show::ScreenshotDue { name: format!("{name}.png"), at });
        });
    }
}

/// The picture being taken: a picture is kept only once two captures in a
/// row are the same, so that nothing in it is mid-change (a card still
/// landing, a notice fading, letters or a texture on their way).
#[derive(Resource, Default)]
struct Settling {
    shot: Option<String>,
    /// A hash of the last capture's pixels.
    last: Option<u64>,
    tries: u32,
}

/// Captures a picture may take to settle; past them it is kept as it is.
const SETTLE_TRIES: u32 = 60;

#[allow(clippy::too_many_arguments)]
fn capture(
    mut commands: Commands,
    mut show: ResMut<Show>,
    config: Res<Config>,
    time: Res<Time>,
    images: Res<crate::pictures::CardImages>,
    server: Res<AssetServer>,
    mut settling: ResMut<Settling>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    glyphs: Res<crate::window::GlyphsChanged>,
) {
    // A picture settling keeps the window drawing, even an idle one.
    if settling.shot.is_some() {
        redraw.write(bevy::window::RequestRedraw);
        return;
    }
    let now = time.elapsed_secs();
    // A picture still to come keeps the window looking, whatever the
    // screen: an idle one would wait for input (or its minute) past the
    // moment the picture names.
    if !show.screenshots.is_empty() {
        redraw.write(bevy::window::RequestRedraw);
    }
    // Until the skin's pictures are loaded, the window may show nothing yet
    // (software rendering takes seconds to upload them).
    if show.screenshots.iter().all(|s| s.at > now) || !images.ready(&server) {
        return;
    }
    if config.0.screenshot.is_none() {
        show.screenshots.retain(|s| s.at > now);
        return;
    }
    // Nor while new letters are on their way to the screen.
    if glyphs.0 {
        redraw.write(bevy::window::RequestRedraw);
        return;
    }
    // One picture at a time (Bevy takes one screenshot of a window at a
    // time): the first due now; it stays due, holding the show, until kept.
    let Some(first) = show.screenshots.iter().find(|s| s.at <= now) else { return };
    *settling = Settling { shot: Some(first.name.clone()), last: None, tries: 0 };
    commands.spawn(Screenshot::primary_window()).observe(settle);
    redraw.write(bevy::window::RequestRedraw);
}

/// A capture of the picture being settled: kept if it equals the one
/// before, else taken again.
fn settle(
    captured: On<ScreenshotCaptured>,
    mut commands: Commands,
    mut settling: ResMut<Settling>,
    mut show: ResMut<Show>,
    config: Res<Config>,
    mut exit: MessageWriter<AppExit>,
) {
    use std::hash::{Hash, Hasher};
    let (Some(name), Some(dir)) = (settling.shot.clone(), config.0.screenshot.clone()) else { return };
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    captured.image.data.hash(&mut hasher);
    let hash = hasher.finish();
    let settled = settling.last == Some(hash);
    settling.tries += 1;
    if !settled && settling.tries < SETTLE_TRIES {
        settling.last = Some(hash);
        commands.spawn(Screenshot::primary_window()).observe(settle);
        return;
    }
    if !settled {
        warn!("{name}: the window did not settle in {SETTLE_TRIES} captures; kept as it is");
    }
    let _ = std::fs::create_dir_all(&dir);
    save_to_disk(dir.join(&name))(captured);
    show.screenshots.retain(|s| s.name != name);
    *settling = Settling::default();
    // `--screen NAME --screenshot DIR`: the screen's picture is the run.
    if config.0.screen.as_ref().is_some_and(|screen| name == format!("{screen}.png")) {
        exit.write(AppExit::Success);
    }
}
