//! The player's progress, kept as they play: every finished deal and match
//! counted in the profile ([`PlayerProfile`]) and written at once, and
//! every deal reviewed in the background, as the review does on request,
//! for the learning curve. Lessons count nothing; a demo counts as
//! watched, a practice deal with a hint or undo as helped, and so does a
//! day's deal played again for practice.

use crate::seats::{GameEvent, HUMAN, Seats};
use crate::show::Pacing;
use crate::state::{Files, PlayerProfile};
use bevy::prelude::*;
use bevy::tasks::{Task, block_on, poll_once};
use klaverjas::{Event, Game};
use klaverjas_ai::coach::Review;
use klaverjas_ai::progress::Kind;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

/// A deal being reviewed for the learning curve, and how it counts.
type UnderReview = (Game, Kind, u64, Task<Result<Review, String>>);

/// Reviews under way for the learning curve, oldest first.
#[derive(Resource, Default)]
pub struct Reviewing(Vec<UnderReview>);

impl Reviewing {
    /// How many deals are still being reviewed.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Drops the reviews under way (the statistics were reset): their
    /// deals belong to what was reset.
    pub fn forget(&mut self) {
        self.0.clear();
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Reviewing>().add_systems(Update, (count_finished_deals.after(Pacing), finish_reviews).chain());
}

/// How the deal just finished counts, if it does.
fn kind_of(seats: &Seats) -> Option<Kind> {
    if seats.lesson() {
        None
    } else if seats.demo() {
        Some(Kind::Watched)
    } else if seats.m.aids(seats.m.deal_number()).any() || seats.daily().is_some_and(|p| !p.record) {
        // A day's deals played again for practice were known: helped.
        Some(Kind::Helped)
    } else {
        Some(Kind::Counted)
    }
}

/// A deal over: counted, the match too when it ended, the profile written,
/// and the deal's review started.
fn count_finished_deals(
    mut events: MessageReader<GameEvent>,
    seats: Option<Res<Seats>>,
    mut profile: ResMut<PlayerProfile>,
    files: Res<Files>,
    mut reviewing: ResMut<Reviewing>,
) {
    let over = events.read().any(|e| matches!(e, GameEvent::Engine(Event::DealOver(_))));
    let Some(seats) = seats.filter(|_| over) else { return };
    let (Some(kind), Some(bots)) = (kind_of(&seats), seats.bots()) else { return };
    let game = seats.game().clone();
    profile.0.note_deal(&game, HUMAN, bots, kind);
    profile.0.note_match(&seats.m, HUMAN, bots, kind);
    if let Err(e) = files.0.write_profile(&profile.0) {
        error!("the statistics could not be saved: {e}");
    }
    let seed = seats.m.seed() ^ seats.m.deal_number() as u64;
    let task = crate::thinking::review(
        *game.rules(),
        *game.deal(),
        game.actions().to_vec(),
        HUMAN,
        seed,
        Arc::new(AtomicUsize::new(0)),
    );
    reviewing.0.push((game, kind, seed, task));
}

/// Reviews that are done go on the learning curve, in the order the deals
/// were played.
fn finish_reviews(
    mut reviewing: ResMut<Reviewing>,
    mut profile: ResMut<PlayerProfile>,
    files: Res<Files>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if reviewing.0.is_empty() {
        return;
    }
    // A window that redraws only on input must still look at the tasks.
    redraw.write(bevy::window::RequestRedraw);
    let mut changed = false;
    while let Some((game, kind, seed, task)) = reviewing.0.first_mut() {
        let Some(done) = block_on(poll_once(task)) else { break };
        match done {
            Ok(review) => {
                profile.0.note_review(game, &review, *kind, *seed);
                changed = true;
            }
            Err(e) => error!("the deal could not be reviewed for the statistics: {e}"),
        }
        drop(reviewing.0.remove(0));
    }
    if changed && let Err(e) = files.0.write_profile(&profile.0) {
        error!("the statistics could not be saved: {e}");
    }
}
