//! The coach. A hint: the expert's choice for a seat from its own view,
//! with the reason a player would give. A review of a deal: for every card
//! a seat played, what each of its legal cards was worth with all hands known (the double-dummy value,
//! from the seat's team's side), what the card chosen gave away against the
//! best, and what the expert would have played from what the seat could
//! see; for every bid, the expert's bid and the verdict of its sampled
//! deals.
//!
//! The exact values see every hand: that is the point of a review after the
//! deal, and no bot plays from them. The expert's choices are made from the
//! seat's own view, as in play.

use crate::expert::ExpertBot;
use crate::heuristic::HeuristicBot;
use crate::solver::Solver;
use crate::{Bot, Decision, Reason};
use klaverjas::{Action, ActionError, Bid, Card, CardSet, Game, Phase, PlayerView, Position, Seat, Team};

/// The expert's choice for the view's seat, seeded by `seed`, with the
/// reason a player would give first ([`Advice::plain`]) and the expert's
/// figures from sampled deals, where it has them, to show on request.
pub fn hint(view: &PlayerView, seed: u64) -> Advice {
    let expert = ExpertBot::new(seed).decide(view);
    if !from_figures(&expert.reason) {
        return Advice { plain: Plain::Reason(expert.reason.clone()), decision: expert };
    }
    // The club player's (the heuristic's) reason where that player would
    // choose the same card or bid: a player follows "Your partner wins
    // this trick: add the ace" or "Pass: too weak in hearts" better than
    // figures from sampled deals.
    let club = HeuristicBot.decide(view);
    let plain = if club.action == expert.action {
        Plain::Reason(club.reason)
    } else {
        Plain::Instead { club: club.action, why: why_not(view, expert.action, club.action) }
    };
    Advice { decision: expert, plain }
}

/// Whether a reason is made of figures from sampled deals.
fn from_figures(reason: &Reason) -> bool {
    matches!(
        reason,
        Reason::BestOverSamples { .. }
            | Reason::BidSampled { .. }
            | Reason::PassSampled { .. }
            | Reason::BidOverPass { .. }
            | Reason::PassOverBid { .. }
            | Reason::DoubleSampled { .. }
            | Reason::PassOverDouble { .. }
            | Reason::TooEarlyToSearch(_)
    )
}

/// A hint: the expert's decision, and what to say first.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Advice {
    /// The expert's choice, with its own reason: figures from sampled
    /// deals, where [`Advice::figures`] says so.
    pub decision: Decision,
    pub plain: Plain,
}

impl Advice {
    /// The expert's figures, to show when the player asks why: none where
    /// the plain reason is the whole of it.
    pub fn figures(&self) -> Option<&Reason> {
        Some(&self.decision.reason).filter(|r| from_figures(r))
    }
}

/// A hint's reason in plain words, before any figures.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Plain {
    /// A reason of the club player's, who chooses the same.
    Reason(Reason),
    /// The club player would choose `club`; the expert's choice is better
    /// for this plain cause.
    Instead { club: Action, why: WhyNot },
}

/// Why the expert's choice beats the club player's, in a player's terms,
/// from what the seat can see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum WhyNot {
    /// The club player's card is a trump and the expert's not: the trump
    /// is worth more later.
    KeepTrump,
    /// A lower card of the same suit does the job.
    LowerDoes,
    /// The trick goes to the other side: fewer points in it.
    FewerPoints,
    /// The trick is the partner's: more points in it.
    MorePoints,
    /// The bid: playing is made on most of the ways the cards could lie.
    Made,
    /// The pass: playing would fail too often.
    FailsTooOften,
    /// No simpler cause: it does better on most of the ways the hidden
    /// cards could lie.
    MostWays,
}

/// The plain cause of choosing `expert` over `club` in `view`.
fn why_not(view: &PlayerView, expert: Action, club: Action) -> WhyNot {
    let (Action::Play(card), Action::Play(other)) = (expert, club) else {
        return match expert {
            Action::Bid(Bid::Pass) => WhyNot::FailsTooOften,
            Action::Bid(_) => WhyNot::Made,
            _ => WhyNot::MostWays,
        };
    };
    let Some(trump) = view.contract.map(|c| c.trump) else { return WhyNot::MostWays };
    let values = view.rules.card_values;
    let strength = |c: Card| values.strength(c.rank(), c.suit() == trump);
    let points = |c: Card| values.points(c, trump);
    // Whose the trick is, where the seat plays last to it: before that a
    // later card may take it, and saying "your side has this trick" gave
    // the trick away.
    let last = view.trick.len() + 1 == view.rules.players.seats().len();
    let winning = view.trick.iter().copied().reduce(|best, (seat, c)| {
        let beats = if c.suit() == best.1.suit() { strength(c) > strength(best.1) } else { c.suit() == trump };
        if beats { (seat, c) } else { best }
    });
    let partners = winning.filter(|_| last).map(|(seat, _)| seat.team() == view.seat.team());
    if other.suit() == trump && card.suit() != trump {
        WhyNot::KeepTrump
    } else if card.suit() == other.suit() && strength(card) < strength(other) {
        WhyNot::LowerDoes
    } else if partners == Some(false) && points(card) < points(other) {
        WhyNot::FewerPoints
    } else if partners == Some(true) && points(card) > points(other) {
        WhyNot::MorePoints
    } else {
        WhyNot::MostWays
    }
}

use std::fmt;

/// One card the seat played, reviewed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CardReview {
    /// The trick, counted from 1.
    pub trick: u8,
    pub card: Card,
    /// Every legal card at that moment with the rest of the deal's value
    /// under perfect play: the seat's team's points and roem minus the
    /// other team's, from this trick on.
    pub values: Vec<(Card, i32)>,
    /// A card of the highest value: the one chosen when it is among them.
    pub best: Card,
    /// What the card chosen gave away against the best: 0 or more.
    pub loss: i32,
    /// The expert's choice from the seat's view, with its reason.
    pub expert: Decision,
}

impl CardReview {
    /// The value of `card`, if it was legal.
    pub fn value(&self, card: Card) -> Option<i32> {
        self.values.iter().find(|(c, _)| *c == card).map(|(_, v)| *v)
    }
}

/// One bid the seat made, beside the expert's.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BidReview {
    pub bid: Bid,
    /// The expert's bid from the same view; its reason holds the verdict of
    /// its sampled deals.
    pub expert: Decision,
}

/// A seat's deal, reviewed.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Review {
    pub bids: Vec<BidReview>,
    pub cards: Vec<CardReview>,
}

impl Review {
    /// All the seat's cards gave away together.
    pub fn total_loss(&self) -> i32 {
        self.cards.iter().map(|c| c.loss).sum()
    }

    /// The indices into `cards` of the costliest choices, costliest first:
    /// at most `n`, and only cards that gave something away.
    pub fn costliest(&self, n: usize) -> Vec<usize> {
        let mut costly: Vec<usize> = (0..self.cards.len()).filter(|&i| self.cards[i].loss > 0).collect();
        costly.sort_by_key(|&i| (std::cmp::Reverse(self.cards[i].loss), i));
        costly.truncate(n);
        costly
    }
}

/// Why a deal could not be reviewed.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewError {
    /// An action of the record is not legal where it comes: the record is
    /// not of this deal. `index` counts from 0.
    Action { index: usize, action: Action, error: ActionError },
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Action { index, action, error } => {
                write!(f, "action {} ({action}) cannot be played there: {error}", index + 1)
            }
        }
    }
}

impl std::error::Error for ReviewError {}

/// A review made one decision at a time, so that a caller can show its
/// progress and stop between steps.
pub struct Reviewer {
    game: Game,
    actions: Vec<Action>,
    next: usize,
    decisions: usize,
    seat: Seat,
    solver: Solver,
    expert: ExpertBot,
    review: Review,
}

impl Reviewer {
    /// Reviews `seat`'s choices in `actions`, played from `start`. The
    /// expert's sampling is fixed by `seed`.
    pub fn new(start: Game, actions: Vec<Action>, seat: Seat, seed: u64) -> Reviewer {
        Reviewer {
            decisions: decisions(&start, &actions, seat),
            game: start,
            actions,
            next: 0,
            seat,
            solver: Solver::default(),
            expert: ExpertBot::new(seed),
            review: Review::default(),
        }
    }

    /// The seat's decisions reviewed so far and in all: the costly part of
    /// the work, for a progress bar.
    pub fn progress(&self) -> (usize, usize) {
        (self.review.bids.len() + self.review.cards.len(), self.decisions)
    }

    pub fn is_done(&self) -> bool {
        self.next >= self.actions.len()
    }

    /// Replays actions up to and including the seat's next decision,
    /// reviewing it.
    pub fn step(&mut self) -> Result<(), ReviewError> {
        while let Some(&action) = self.actions.get(self.next) {
            let reviewed = is_decision(&self.game, self.seat, action);
            if reviewed {
                self.review_decision(action);
            }
            let index = self.next;
            self.game.apply(action).map_err(|error| ReviewError::Action { index, action, error })?;
            self.next += 1;
            if reviewed {
                break;
            }
        }
        Ok(())
    }

    pub fn finish(self) -> Result<Review, ReviewError> {
        self.finish_with(&mut |_| {})
    }

    /// Reviews what is left, telling `progress` how many decisions are
    /// done after each step.
    pub fn finish_with(mut self, progress: &mut dyn FnMut(usize)) -> Result<Review, ReviewError> {
        while !self.is_done() {
            self.step()?;
            progress(self.progress().0);
        }
        Ok(self.review)
    }

    fn review_decision(&mut self, action: Action) {
        let view = self.game.view(self.seat);
        match action {
            Action::Bid(bid) => {
                let expert = self.expert.decide(&view);
                self.review.bids.push(BidReview { bid, expert });
            }
            Action::Play(card) => {
                let Some(values) = exact_values(&self.game, &mut self.solver, self.seat) else { return };
                let top = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
                let chosen = values.iter().find(|(c, _)| *c == card).map_or(top, |&(_, v)| v);
                let best = if chosen == top {
                    card
                } else {
                    values.iter().find(|&&(_, v)| v == top).map_or(card, |&(c, _)| c)
                };
                let expert = self.expert.play(&view);
                let trick = self.game.tricks().len() as u8 + 1;
                self.review.cards.push(CardReview { trick, card, values, best, loss: top - chosen, expert });
            }
            Action::ClaimRoem | Action::PassRoem | Action::Announce | Action::Discard(_) | Action::Swap => {}
        }
    }
}

/// How many of `actions`, played from `start`, are `seat`'s bids and
/// cards: the decisions a review looks at.
pub fn decisions(start: &Game, actions: &[Action], seat: Seat) -> usize {
    let mut replay = start.clone();
    let mut decisions = 0;
    for &action in actions {
        decisions += is_decision(&replay, seat, action) as usize;
        if replay.apply(action).is_err() {
            break;
        }
    }
    decisions
}

/// Whether `action`, next in `game`, is a bid or card of `seat`'s.
fn is_decision(game: &Game, seat: Seat, action: Action) -> bool {
    game.to_act() == Some(seat) && matches!(action, Action::Play(_) | Action::Bid(_))
}

/// The exact value of each legal card of `seat`, to act in `game`'s play,
/// for `seat`'s team. `None` outside the play.
pub fn exact_values(game: &Game, solver: &mut Solver, seat: Seat) -> Option<Vec<(Card, i32)>> {
    if game.phase() != Phase::Playing {
        return None;
    }
    let trick = game.current_trick()?;
    let trump = game.contract()?.trump;
    let hands: [CardSet; 4] = Seat::ALL.map(|s| game.hand(s));
    let position = Position::new(game.rules(), trump, trick.leader(), hands, trick.cards()).ok()?;
    let sign = if seat.team() == Team::NS { 1 } else { -1 };
    Some(solver.card_values(&position.play_state()).into_iter().map(|(c, v)| (c, sign * v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use klaverjas::{Deal, Preset, Rng};

    #[test]
    fn the_hint_is_the_experts_choice_from_the_same_view() {
        let (mut worded, mut instead) = (0, 0);
        for seed in 0..6u64 {
            let mut game =
                Game::new(Preset::Classic.rules(), Deal::shuffled(seed, Seat::from_index(seed as usize))).unwrap();
            let mut rng = Rng::new(seed);
            while let Some(seat) = game.to_act() {
                let view = game.view(seat);
                let advice = hint(&view, seed);
                assert_eq!(advice.decision.action, ExpertBot::new(seed).decide(&view).action, "seed {seed}");
                // The plain words come first, never the figures.
                match &advice.plain {
                    Plain::Reason(r) => {
                        assert!(!from_figures(r), "{r:?}");
                        worded += 1;
                    }
                    Plain::Instead { club, why } => {
                        assert_ne!(*club, advice.decision.action);
                        // Whose the trick is is said only where nobody
                        // plays after the seat.
                        if matches!(why, WhyNot::MorePoints | WhyNot::FewerPoints) {
                            assert_eq!(view.trick.len() + 1, view.rules.players.seats().len(), "{why:?}");
                        }
                        assert!(advice.figures().is_some());
                        instead += 1;
                    }
                }
                let legal = game.legal_actions();
                let action = legal[rng.below(legal.len() as u32) as usize];
                game.apply(action).unwrap();
            }
        }
        assert!(
            worded > 0 && instead > 0,
            "{worded} hints in the club player's words, {instead} instead of its choice"
        );
    }
}
