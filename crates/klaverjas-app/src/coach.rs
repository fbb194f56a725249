//! The coach at the table. In a practice game: a hint with its reason on
//! the player's turn (the Hint button or H), and taking back the player's
//! last card (the Undo button or U); the match counts both, and the sheet
//! marks the deals where they were used. After any deal: its review, every
//! card the player chose against every card they could have played with
//! all hands known, and the expert's choice from the player's view. Hints
//! and reviews are worked out off the main thread.

use crate::seats::{GameEvent, HUMAN, Moment, Seats};
use crate::show::{NoticeText, Show};
use crate::state::Screen;
use bevy::prelude::*;
use bevy::tasks::{Task, block_on, poll_once};
use klaverjas::Phase;
use klaverjas::{Action, Game};
use klaverjas_ai::coach::{Advice, Review};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What the player asks of the coach.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum CoachCommand {
    Hint,
    Undo,
    /// Review the deal just finished, or the last finished one.
    Review,
    /// Review deal `n` (1-based) of the match, if it is finished.
    ReviewDeal(usize),
    /// Close the review.
    CloseReview,
}

/// The hint for the player's turn: being worked out, then shown until the
/// player acts.
#[derive(Resource, Default)]
pub struct Hint {
    /// The moment it answers; any other moment makes it stale.
    pub at: Option<Moment>,
    task: Option<Task<Option<Advice>>>,
    pub advice: Option<Advice>,
    /// The player asked why: the figures behind it show.
    pub why: bool,
}

impl Hint {
    pub fn working(&self) -> bool {
        self.task.is_some()
    }

    /// The hint, if it is for `now`.
    pub fn shown(&self, now: Moment) -> Option<&Advice> {
        self.advice.as_ref().filter(|_| self.at == Some(now))
    }
}

/// The review of a finished deal: being worked out, then shown trick by
/// trick.
#[derive(Resource, Default)]
pub struct DealReview {
    /// The sitting it belongs to ([`Moment::table`]): another match's
    /// review is not shown.
    pub table: u64,
    /// The deal as played, and its number in the match.
    pub deal: Option<(usize, Game)>,
    /// The player's decisions reviewed so far and in all.
    progress: Arc<AtomicUsize>,
    pub decisions: usize,
    task: Option<Task<Result<Review, String>>>,
    pub review: Option<Review>,
    /// The trick shown, from 0.
    pub trick: usize,
}

impl DealReview {
    pub fn working(&self) -> bool {
        self.task.is_some()
    }

    pub fn reviewed(&self) -> usize {
        self.progress.load(Ordering::Relaxed)
    }

    /// The number of the deal under review at this sitting, if any.
    pub fn showing(&self, seats: &Seats) -> Option<usize> {
        self.deal.as_ref().filter(|_| self.table == seats.moment().table).map(|(n, _)| *n)
    }
}

pub fn plugin(app: &mut App) {
    app.add_message::<CoachCommand>().init_resource::<Hint>().init_resource::<DealReview>().add_systems(
        Update,
        (keys.run_if(in_state(Screen::Table)), coach_commands, finish_hint, finish_review)
            .chain()
            .in_set(crate::seats::Flow::Input),
    );
}

/// At the table, H (or ?) asks for a hint and U takes the last card back
/// (in the menus the letters are for the text fields). While hearts may
/// be named trump, H is hearts' key (`panels::bidding::bid_key`).
fn keys(keys: Option<Res<ButtonInput<KeyCode>>>, seats: Option<Res<Seats>>, mut out: MessageWriter<CoachCommand>) {
    let Some(keys) = keys else { return };
    let hearts = Action::Bid(klaverjas::Bid::Trump(klaverjas::Suit::Hearts));
    let h_is_hearts =
        seats.is_some_and(|s| s.game().to_act() == Some(HUMAN) && s.game().legal_actions().contains(&hearts));
    if keys.just_pressed(KeyCode::Slash) || keys.just_pressed(KeyCode::KeyH) && !h_is_hearts {
        out.write(CoachCommand::Hint);
    }
    if keys.just_pressed(KeyCode::KeyU) {
        out.write(CoachCommand::Undo);
    }
}

/// Whether the player sits at the table in a game of their own: not a
/// demo, and not a lesson, which has its own coach.
fn own_game(seats: &Seats) -> bool {
    !seats.demo() && !seats.lesson() && seats.is_human(HUMAN)
}

/// Whether the coach gives hints in this match: practice games, and tables
/// with friends whose host allows them.
pub fn helps(seats: &Seats) -> bool {
    own_game(seats) && (seats.m.is_practice() || seats.remote().is_some_and(|r| r.hints))
}

/// Whether a card may be taken back: in practice games, never at a table
/// with people.
pub fn may_undo(seats: &Seats) -> bool {
    seats.remote().is_none() && helps(seats)
}

fn coach_commands(
    mut commands: MessageReader<CoachCommand>,
    seats: Option<ResMut<Seats>>,
    mut hint: ResMut<Hint>,
    mut review: ResMut<DealReview>,
    mut show: ResMut<Show>,
    time: Res<Time>,
    mut events: MessageWriter<GameEvent>,
) {
    let Some(mut seats) = seats else {
        commands.clear();
        return;
    };
    let now = time.elapsed_secs();
    for command in commands.read() {
        match command {
            CoachCommand::Review => {
                let last = seats.m.deals_finished().max(1);
                start_review(&seats, &mut review, last);
            }
            CoachCommand::ReviewDeal(n) => start_review(&seats, &mut review, *n),
            CoachCommand::CloseReview => *review = DealReview::default(),
            _ if !own_game(&seats) => {}
            CoachCommand::Undo if seats.remote().is_some() => {}
            _ if !helps(&seats) => {
                show.notice(NoticeText::Aid(klaverjas::AidError::CountingMatch), Some(HUMAN), now, true);
            }
            CoachCommand::Hint => {
                let at = seats.moment();
                let asked = hint.at == Some(at) && (hint.working() || hint.advice.is_some());
                if asked || seats.game().to_act() != Some(HUMAN) {
                    continue;
                }
                // A table with friends keeps no count of the help taken.
                if seats.remote().is_none()
                    && let Err(e) = seats.m.note_hint()
                {
                    show.notice(NoticeText::Aid(e), Some(HUMAN), now, true);
                    continue;
                }
                let view = seats.game().view(HUMAN);
                let seed = seats.m.seed() ^ at.actions as u64;
                hint.at = Some(seats.moment());
                hint.advice = None;
                hint.why = false;
                hint.task = Some(crate::thinking::hint(view, seed));
                events.write(GameEvent::Helped);
            }
            CoachCommand::Undo => match seats.m.undo(HUMAN) {
                Ok(_) => {
                    // The table is put back as it was before the card; the
                    // save follows the event.
                    events.write(GameEvent::Dealt { number: seats.m.deal_number() });
                    seats.unseen = true;
                }
                Err(e) => show.notice(NoticeText::Aid(e), Some(HUMAN), now, true),
            },
        }
    }
}

/// Starts the review of South's cards in deal `number` of the match, if
/// it is finished and its review not already under way or shown. A demo's
/// is asked for by `--review`.
fn start_review(seats: &Seats, review: &mut DealReview, number: usize) {
    if review.showing(seats) == Some(number) {
        return;
    }
    let Some(game) = seats.m.finished_deal(number) else { return };
    // A finished deal of the match was played, so it is whole.
    let Ok(start) = Game::new(*game.rules(), *game.deal()) else { return };
    let decisions = klaverjas_ai::coach::decisions(&start, game.actions(), HUMAN);
    let progress = Arc::new(AtomicUsize::new(0));
    let seed = seats.m.seed() ^ number as u64;
    let task =
        crate::thinking::review(*game.rules(), *game.deal(), game.actions().to_vec(), HUMAN, seed, progress.clone());
    *review = DealReview {
        table: seats.moment().table,
        deal: Some((number, game.clone())),
        progress,
        decisions,
        task: Some(task),
        review: None,
        trick: 0,
    };
}

/// A window that redraws only on input must still look at a task in
/// flight, and show its answer.
fn finish_review(mut review: ResMut<DealReview>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    let Some(task) = review.task.as_mut() else { return };
    redraw.write(bevy::window::RequestRedraw);
    if let Some(done) = block_on(poll_once(task)) {
        review.task = None;
        match done {
            Ok(r) => {
                // Open at the costliest choice, else at the first trick.
                review.trick = r.costliest(1).first().map_or(0, |&i| r.cards[i].trick as usize - 1);
                review.review = Some(r);
            }
            Err(e) => {
                error!("the review of the deal failed: {e}");
                *review = DealReview::default();
            }
        }
    }
}

fn finish_hint(mut hint: ResMut<Hint>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    let Some(task) = hint.task.as_mut() else { return };
    redraw.write(bevy::window::RequestRedraw);
    if let Some(advice) = block_on(poll_once(task)) {
        hint.task = None;
        hint.advice = advice;
    }
}

/// Whether the player has a card to take back: one played in this deal,
/// which is not over.
pub fn can_undo(game: &klaverjas::Game) -> bool {
    game.result().is_none()
        && !matches!(game.phase(), Phase::Bidding | Phase::Doubling | Phase::Discarding)
        && game.hand(HUMAN).len() < game.rules().hand_size()
}
