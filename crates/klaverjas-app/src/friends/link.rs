//! The table with friends, frame by frame: what came over the socket is
//! taken in, the player's messages go out, the match follows the table once
//! the show has caught up, and the chair is kept on disk.
//!
//! The table's clock is the real one: the game's own clock moves on by at
//! most a second a frame, and an idle window updates only every few
//! seconds, so a card the table never answers in 10 s was noticed after
//! a minute or more while the player waited for it.

use super::sitting::{Chairkeeper, Connection, KeptChair, Sitting};
use super::socket::Wake;
use crate::seats::{Flow, GameEvent, Seats};
use crate::show::Show;
use crate::state::{Files, Screen};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use klaverjas_net::ToTable;
use std::sync::Arc;

pub fn plugin(app: &mut App) {
    // After the turns and before the show, but in any screen: the first
    // news of a table takes the player from the waiting room to it.
    app.add_systems(Update, (wake_up, take_in).chain().before(Flow::Input)).add_systems(
        Update,
        (send_out, follow_the_table, show_the_people)
            .chain()
            .after(crate::turns::Turns)
            .after(Flow::Engine)
            .before(Flow::React),
    );
}

/// Wakes an app asleep between frames when something comes over the socket
/// (none in a headless test, which runs frame after frame).
pub fn waker(proxy: Option<&bevy::winit::EventLoopProxyWrapper>) -> Wake {
    match proxy {
        Some(proxy) => {
            let proxy = (**proxy).clone();
            Arc::new(move || {
                let _ = proxy.send_event(bevy::winit::WinitUserEvent::WakeUp);
            })
        }
        None => Arc::new(|| {}),
    }
}

fn take_in(
    sitting: Option<ResMut<Sitting>>,
    time: Res<Time<Real>>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    files: Res<Files>,
    mut kept: Local<Option<Chairkeeper>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(mut sitting) = sitting else { return };
    sitting.poll(time.elapsed_secs(), waker(proxy.as_deref()));
    // While the table is out of reach, frames go on: the next try is
    // timed by them, and the table says so. So while an answer is awaited:
    // one that never comes is noticed in time.
    if matches!(sitting.connection, Connection::Reconnecting { .. }) || sitting.awaiting_answer() {
        redraw.write(RequestRedraw);
    }
    let keeper = sitting.keeper();
    if keeper != *kept {
        match &keeper {
            Some(chair) => {
                if let Err(e) = KeptChair::keep(&files.0, chair) {
                    warn!("the chair at the table could not be kept: {e}");
                }
            }
            None => KeptChair::forget(&files.0),
        }
        *kept = keeper;
    }
}

fn send_out(
    seats: Option<ResMut<Seats>>,
    sitting: Option<ResMut<Sitting>>,
    time: Res<Time<Real>>,
    mut refusals: Local<u32>,
) {
    let (Some(mut seats), Some(mut sitting)) = (seats, sitting) else { return };
    let Some(remote) = seats.remote_mut() else { return };
    // The table refused what was sent: the player may try again.
    if sitting.refusals != *refusals {
        *refusals = sitting.refusals;
        remote.waiting = false;
    }
    for message in remote.outbox.drain(..) {
        // A card or a call is answered at once; Ready and Rematch wait
        // for the others.
        if matches!(message, ToTable::Act { .. } | ToTable::CallRoem) {
            sitting.ask(&message, time.elapsed_secs());
        } else {
            sitting.send(&message);
        }
    }
}

/// The match follows the table's news once the show has shown the last.
/// From the waiting room, a table under way sits the player down; a
/// player who went from the table to the menus, or to a game of their own,
/// is not pulled back.
#[allow(clippy::too_many_arguments)]
fn follow_the_table(
    mut commands: Commands,
    seats: Option<ResMut<Seats>>,
    sitting: Option<ResMut<Sitting>>,
    show: Res<Show>,
    time: Res<Time>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut events: MessageWriter<GameEvent>,
    config: Res<crate::state::Config>,
) {
    let Some(mut sitting) = sitting else { return };
    let waiting_room = *screen.get() == Screen::Friends;
    let following = seats.as_ref().is_some_and(|s| s.remote().is_some());
    let news = sitting.news && following;
    let arriving = waiting_room && sitting.started;
    if !(news || arriving) {
        return;
    }
    let Some(m) = sitting.stand_in.as_ref().and_then(|s| s.seen_from_seat().ok()) else { return };
    let hints = sitting.setup.as_ref().is_some_and(|s| s.hints);
    match seats {
        Some(mut seats) if following => {
            // Caught up, or holding the last trick for a word the table
            // has now heard.
            if !seats.may_act(show.stage(time.elapsed_secs())) {
                return;
            }
            seats.follow(m, &mut events);
        }
        _ => {
            // `--demo`: a bot plays this chair too.
            let autoplay = config.0.demo.then(|| config.0.bots.unwrap_or(klaverjas_ai::Level::Heuristic));
            crate::seats::sit_down(&mut commands, &mut events, Seats::at_table(m, hints, autoplay));
        }
    }
    sitting.news = false;
    if waiting_room {
        next.set(Screen::Table);
    }
}

/// A phone back from the background opens its connection anew: the old
/// one may have died while it slept, unnoticed.
fn wake_up(
    mut lifecycle: MessageReader<bevy::window::AppLifecycle>,
    sitting: Option<ResMut<Sitting>>,
    time: Res<Time<Real>>,
) {
    let woke = lifecycle.read().any(|e| matches!(e, bevy::window::AppLifecycle::WillResume));
    if let Some(mut sitting) = sitting.filter(|s| woke && s.connection == Connection::Open) {
        sitting.cut(time.elapsed_secs());
    }
}

/// Who sits where, as the table's plates show it: names, who is away and
/// for how long yet, where a bot stands in; whether the table is out of
/// reach; the last deal's seal as checked here.
fn show_the_people(
    seats: Option<ResMut<Seats>>,
    sitting: Option<Res<Sitting>>,
    time: Res<Time<Real>>,
    mut gone_since: Local<[Option<f32>; 4]>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let (Some(mut seats), Some(sitting)) = (seats, sitting) else { return };
    let Some(remote) = seats.remote() else { return };
    let now = time.elapsed_secs();
    let turn = sitting.seat.map_or(0, |s| s.turn_to_south());
    let grace = sitting.setup.as_ref().and_then(|s| s.grace);
    let mut people: [crate::seats::Person; 4] = Default::default();
    for chair in &sitting.chairs {
        let since = &mut gone_since[chair.seat.index()];
        *since = if chair.gone { Some(since.unwrap_or(now)) } else { None };
        let bot_in = match (chair.gone && !chair.away, grace, *since) {
            (true, Some(grace), Some(since)) => Some((grace as f32 - (now - since)).max(0.0).ceil() as u32),
            _ => None,
        };
        people[chair.seat.after(turn).index()] =
            crate::seats::Person { name: chair.name.clone(), bot_in, stood_in: chair.away, chair: Some(chair.seat) };
    }
    let told = crate::seats::Told {
        people,
        reconnecting: matches!(sitting.connection, Connection::Reconnecting { .. }),
        opened: sitting.opened.last().and_then(|o| match o.check {
            super::sitting::SealCheck::Holds => Some((o.deal, o.code.clone(), true)),
            super::sitting::SealCheck::Broken => Some((o.deal, o.code.clone(), false)),
            super::sitting::SealCheck::Unheard => None,
        }),
        host: sitting.is_host(),
        trouble: match &sitting.connection {
            Connection::Closed(why) => Some(why.clone()),
            _ => sitting.refused.as_ref().filter(|_| sitting.refusals > 0).map(|(_, text)| text.clone()),
        },
    };
    // A countdown on a plate moves every second.
    if told.people.iter().any(|p| p.bot_in.is_some()) {
        redraw.write(RequestRedraw);
    }
    // Written only when it changed: the seats are read every frame.
    if remote.told != told
        && let Some(remote) = seats.remote_mut()
    {
        remote.told = told;
    }
}
