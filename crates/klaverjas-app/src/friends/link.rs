//! The table with friends, frame by frame: what came over the socket is
//! taken in, the player's messages go out, the match follows the table once
//! the show has caught up, and the chair is kept on disk.

use super::sitting::{Chairkeeper, Connection, KeptChair, Sitting};
use super::socket::Wake;
use crate::seats::{Flow, GameEvent, Seats};
use crate::show::Show;
use crate::state::{Files, Screen};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use std::path::PathBuf;
use std::sync::Arc;

pub fn plugin(app: &mut App) {
    // After the turns and before the show, but in any screen: the first
    // news of a table takes the player from the waiting room to it.
    app.add_systems(Update, take_in.before(Flow::Input)).add_systems(
        Update,
        (send_out, follow_the_table).chain().after(crate::turns::Turns).after(Flow::Engine).before(Flow::React),
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

fn chair_path(files: &Files) -> PathBuf {
    files.0.dir.join("chair.ron")
}

/// The chair kept from an earlier sitting, if any.
pub fn kept_chair(files: &Files) -> Option<Chairkeeper> {
    match files.0.read::<KeptChair>(&chair_path(files)) {
        crate::save::Loaded::Found(kept) => Some(kept.chair),
        _ => None,
    }
}

pub fn forget_chair(files: &Files) {
    let _ = crate::disk::remove(&chair_path(files));
}

fn take_in(
    sitting: Option<ResMut<Sitting>>,
    time: Res<Time>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    files: Res<Files>,
    mut kept: Local<Option<Chairkeeper>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(mut sitting) = sitting else { return };
    sitting.poll(time.elapsed_secs(), waker(proxy.as_deref()));
    // While the table is out of reach, frames go on: the next try is
    // timed by them, and the table says so.
    if matches!(sitting.connection, Connection::Reconnecting { .. }) {
        redraw.write(RequestRedraw);
    }
    let keeper = sitting.keeper();
    if keeper != *kept {
        match &keeper {
            Some(chair) => {
                let file = KeptChair { format: KeptChair::FORMAT, chair: chair.clone() };
                if let Err(e) = files.0.write(&chair_path(&files), &file) {
                    warn!("the chair at the table could not be kept: {e}");
                }
            }
            None => forget_chair(&files),
        }
        *kept = keeper;
    }
}

fn send_out(seats: Option<ResMut<Seats>>, sitting: Option<Res<Sitting>>) {
    let (Some(mut seats), Some(sitting)) = (seats, sitting) else { return };
    let Some(remote) = &mut seats.remote else { return };
    for message in remote.outbox.drain(..) {
        sitting.send(&message);
    }
}

/// The match follows the table's news once the show has shown the last;
/// the first news of a table not yet at the table sits the player down.
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
) {
    let Some(mut sitting) = sitting else { return };
    if !sitting.news {
        return;
    }
    let Some(m) = sitting.stand_in.as_ref().and_then(|s| s.seen_from_seat().ok()) else { return };
    let hints = sitting.setup.as_ref().is_some_and(|s| s.hints);
    match seats {
        Some(mut seats) if seats.remote.is_some() => {
            if !seats.ready(show.stage(time.elapsed_secs())) {
                return;
            }
            seats.follow(m, &mut events);
        }
        _ => crate::seats::sit_down(&mut commands, &mut events, Seats::at_table(m, hints)),
    }
    sitting.news = false;
    if *screen.get() != Screen::Table {
        next.set(Screen::Table);
    }
}
