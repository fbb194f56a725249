//! Whose turn it is, frame by frame: the player's actions, the bots'
//! thinking and the scripted seats go to the [`Seats`] only once the
//! [`Show`] has caught up (a bot's word on the last trick, once the trick
//! lies there), and every accepted action is saved before the
//! frame that shows it. The seats do not know the show: they are told its
//! [`Stage`](crate::seats::Stage) here.

use crate::seats::{ActionGate, Flow, GameEvent, PlayerAction, Seats, Suspended, apply_table_commands};
use crate::show::{NoticeText, Pacing, Show};
use crate::state::Files;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (apply_player_actions, apply_table_commands, finish_thinking, start_thinking, play_scripts)
            .chain()
            .in_set(Flow::Engine)
            .in_set(Turns),
    )
    // After the show's own notices of the frame, so that a failed save's
    // word is not replaced by one of them.
    .add_systems(Update, save_after_events.in_set(Flow::React).after(Pacing))
    .add_systems(Update, photograph_the_bid.in_set(Flow::React));
}

/// The seats' turns of a frame, in the engine's part of it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Turns;

/// With `--screenshot`, the player's bid as the table asks it, each time:
/// a moment the show names, so it is the same picture every run.
fn photograph_the_bid(
    seats: Option<Res<Seats>>,
    mut show: ResMut<Show>,
    time: Res<Time>,
    mut taken: Local<Option<crate::seats::Moment>>,
) {
    // A lesson photographs its own steps.
    let Some(seats) = seats.filter(|s| show.photograph && !s.lesson()) else { return };
    let now = time.elapsed_secs();
    let bidding = matches!(seats.game().phase(), klaverjas::Phase::Bidding | klaverjas::Phase::Doubling);
    let asked = seats.is_human(crate::seats::HUMAN) && seats.waiting_for(show.stage(now)) == Some(crate::seats::HUMAN);
    if bidding && asked && *taken != Some(seats.moment()) {
        *taken = Some(seats.moment());
        let name = format!("deal{:02}-bid{}.png", seats.m.deal_number(), seats.game().actions().len());
        show.photograph(name, now + 0.5);
    }
}

fn apply_player_actions(
    mut actions: MessageReader<PlayerAction>,
    seats: Option<ResMut<Seats>>,
    show: Res<Show>,
    gate: Res<ActionGate>,
    time: Res<Time>,
    mut events: MessageWriter<GameEvent>,
) {
    let Some(mut seats) = seats else {
        actions.clear();
        return;
    };
    let stage = show.stage(time.elapsed_secs());
    for &action in actions.read() {
        seats.take_player_action(action, stage, &gate, &mut events);
    }
}

fn finish_thinking(
    seats: Option<ResMut<Seats>>,
    show: Res<Show>,
    time: Res<Time>,
    suspended: Res<Suspended>,
    mut events: MessageWriter<GameEvent>,
) {
    if let Some(mut seats) = seats.filter(|_| !suspended.0) {
        seats.finish_thinking(show.stage(time.elapsed_secs()), &mut events);
    }
}

fn start_thinking(seats: Option<ResMut<Seats>>, show: Res<Show>, time: Res<Time>, suspended: Res<Suspended>) {
    if let Some(mut seats) = seats.filter(|_| !suspended.0) {
        seats.start_thinking(show.stage(time.elapsed_secs()));
    }
}

fn play_scripts(seats: Option<ResMut<Seats>>, show: Res<Show>, time: Res<Time>, mut events: MessageWriter<GameEvent>) {
    if let Some(mut seats) = seats {
        seats.play_script(show.stage(time.elapsed_secs()), &mut events);
    }
}

/// Every accepted action is on disk before the frame that shows it is
/// drawn. A demo never writes over the player's own saved game.
fn save_after_events(
    mut events: MessageReader<GameEvent>,
    seats: Option<Res<Seats>>,
    files: Res<Files>,
    mut show: ResMut<Show>,
    time: Res<Time>,
) {
    let changed = events.read().filter(|e| !matches!(e, GameEvent::Refused { .. })).count() > 0;
    let Some(seats) = seats else { return };
    // A table with friends is kept by its server, a lesson in the
    // player's progress; a demo is nobody's.
    if !changed || seats.kind.slot().is_none() {
        return;
    }
    if let Err(e) = files.0.write_game(&seats.save()) {
        show.notice(NoticeText::SaveFailed(e), None, time.elapsed_secs(), true);
    }
}
