//! The expert: determinized search. It deals the hidden cards many times in
//! ways that agree with what its seat has seen (voids, failed overtrumps,
//! the bidding), solves each deal exactly with the double-dummy solver, and
//! plays the card with the best average. Bids are chosen by the same
//! sampling: the solver says whether each sampled deal is made with the
//! candidate trump, and heuristic players size the margin.
//!
//! Everything is seeded and limited by node counts, never by the clock, so
//! the same seed plays the same game on every machine.

use crate::heuristic::{self, HeuristicBot, PLAY_THRESHOLD, hand_strength};
use crate::knowledge::Knowledge;
use crate::sample::sample_with;
use crate::solver::Solver;
use crate::{Bot, Decision, Mean, Reason};
use klaverjas::{
    Action, Bid, Bidding, Card, CardSet, Contract, Deal, Game, Phase, PileCard, PlayState, PlayerView, Rng, Seat, Suit,
    Team,
};

/// Sampled deals per card decision.
pub const SAMPLES: usize = 20;
/// Solver nodes allowed per card decision, over all samples: about 60 ms
/// on one core of the project's machine.
pub const NODE_BUDGET: u64 = 900_000;
/// How many points more than the opponents a declarer's team must make
/// under perfect play before a sampled deal counts as made. The solver sees
/// every card and the declarer will not, so perfect play flatters it. Chosen
/// by `kj sim --rules classic --ns expert --ew heuristic --matches 100
/// --seed 1 --duplicate`: margin a deal +32.5 with 0, +33.9 with 20, +35.0
/// with 40, +34.2 with 60.
pub const BID_SAFETY: i32 = 40;
/// Sampled deals per bid candidate.
pub const BID_SAMPLES: usize = 12;
/// Solver nodes allowed per bid decision, over all candidates and samples:
/// about 200 ms on one core of the project's machine. A bid is made once a
/// deal, so it may think longer than a card.
pub const BID_NODE_BUDGET: u64 = 3_000_000;
/// Solver nodes allowed per sampled deal of a bid, so that one hard deal
/// cannot eat the budget of the others.
pub const BID_SAMPLE_BUDGET: u64 = 400_000;

pub struct ExpertBot {
    rng: Rng,
    solver: Solver,
    pub samples: usize,
    pub node_budget: u64,
}

impl ExpertBot {
    pub fn new(seed: u64) -> ExpertBot {
        ExpertBot { rng: Rng::new(seed), solver: Solver::default(), samples: SAMPLES, node_budget: NODE_BUDGET }
    }
}

impl Bot for ExpertBot {
    fn decide(&mut self, view: &PlayerView) -> Decision {
        match view.phase {
            Phase::Bidding => self.bid(view),
            Phase::ClaimRoem => heuristic::claim(view),
            _ => heuristic::call_before_playing(view).unwrap_or_else(|| self.play(view)),
        }
    }
}

/// Keeps sampled deals that agree with the bidding: those who passed (or
/// chose another suit) did not hold a clearly strong hand in the suit they
/// refused, and a voluntary declarer holds a fair one.
fn agrees_with_bidding(view: &PlayerView, hands: &[CardSet; 4]) -> bool {
    let turned = view.turned.first().map(|c| c.suit);
    for &(seat, bid) in &view.bids {
        if seat == view.seat {
            continue;
        }
        let hand = original_hand(view, seat, hands[seat.index()]);
        match (bid, view.rules.bidding) {
            (Bid::Pass, Bidding::TurnedCard) => {
                if turned.is_some_and(|t| hand_strength(hand, t) >= PLAY_THRESHOLD + 15) {
                    return false;
                }
            }
            (Bid::Pass, _) => {
                if Suit::ALL.iter().any(|&s| hand_strength(hand, s) >= PLAY_THRESHOLD + 15) {
                    return false;
                }
            }
            (Bid::Play, _) => {
                if turned.is_some_and(|t| hand_strength(hand, t) < PLAY_THRESHOLD - 25) {
                    return false;
                }
            }
            (Bid::Trump(s), _) => {
                let forced = view.contract.is_some_and(|c| c.forced && c.declarer == seat);
                if !forced && hand_strength(hand, s) < PLAY_THRESHOLD - 25 {
                    return false;
                }
            }
        }
    }
    true
}

/// A seat's hand as dealt: what it holds now plus what it has played.
fn original_hand(view: &PlayerView, seat: Seat, now: CardSet) -> CardSet {
    let done = view.tricks.iter().flat_map(|t| t.plays().collect::<Vec<_>>());
    done.chain(view.trick.iter().copied()).filter(|&(s, _)| s == seat).map(|(_, c)| c).fold(now, |h, c| h.with(c))
}

impl ExpertBot {
    /// The card to play, even where the seat might first call roem.
    pub fn play(&mut self, view: &PlayerView) -> Decision {
        let legal: Vec<Card> =
            view.legal.iter().filter_map(|a| if let Action::Play(c) = a { Some(*c) } else { None }).collect();
        let (Some(trump), Some(trick)) = (view.trump(), view.current_trick()) else {
            return HeuristicBot.decide(view);
        };
        if let Some(only) = heuristic::only_card(legal.iter().copied().collect(), trump) {
            return only;
        }
        let k = Knowledge::from_view(view);
        let sign = if view.seat.team() == Team::NS { 1 } else { -1 };
        let mut totals = vec![0i64; 32];
        let mut solved = 0;
        let start_nodes = self.solver.nodes;
        for _ in 0..self.samples {
            let Some(hands) = sample_with(&k, view.hand, &mut self.rng, |h| agrees_with_bidding(view, h)) else {
                break;
            };
            let mut state = PlayState::new(hands, trump, trick.leader(), &view.rules);
            state.trick = trick;
            state.tricks_done = view.tricks.len() as u8;
            let used = self.solver.nodes - start_nodes;
            let Some(values) = self.solver.card_values_within(&state, self.node_budget.saturating_sub(used)) else {
                break;
            };
            for (card, v) in values {
                totals[card.index()] += (sign * v) as i64;
            }
            solved += 1;
        }
        if solved == 0 {
            let d = HeuristicBot.decide(view);
            return Decision::new(d.action, Reason::TooEarlyToSearch(Box::new(d.reason)));
        }
        let mut ranked = legal.clone();
        ranked.sort_by_key(|c| (std::cmp::Reverse(totals[c.index()]), c.index()));
        let (best, next) = (ranked[0], ranked.get(1).copied().unwrap_or(ranked[0]));
        let margin = Mean { total: totals[best.index()] - totals[next.index()], count: solved };
        Decision::new(Action::Play(best), Reason::BestOverSamples { card: best, trump, solved, next, margin })
    }

    /// Scores each trump the seat could choose over sampled deals and bids
    /// the best if it pays. Whether a sampled deal is made is the solver's
    /// verdict under perfect play (one null-window test, far cheaper than
    /// the exact value); the margin comes from heuristic players playing it
    /// out, bent to agree with that verdict. A deal the solver could not
    /// settle within its share of nodes keeps the playout's verdict.
    fn bid(&mut self, view: &PlayerView) -> Decision {
        let candidates: Vec<(Action, Suit)> = view
            .legal
            .iter()
            .filter_map(|&a| match a {
                Action::Bid(Bid::Play) => view.turned.first().map(|c| (a, c.suit)),
                Action::Bid(Bid::Trump(s)) => Some((a, s)),
                _ => None,
            })
            .collect();
        let can_pass = view.legal.contains(&Action::Bid(Bid::Pass));
        let k = Knowledge::from_view(view);
        let start_nodes = self.solver.nodes;
        let mut best: Option<(Action, Suit, BidEstimate, Mean)> = None;
        for (action, suit) in candidates {
            let contract = Contract { trump: suit, declarer: view.seat, forced: !can_pass };
            let mut estimate = BidEstimate::default();
            for _ in 0..BID_SAMPLES {
                let Some(hands) = sample_with(&k, view.hand, &mut self.rng, |h| agrees_with_bidding(view, h)) else {
                    break;
                };
                let budget = BID_NODE_BUDGET.saturating_sub(self.solver.nodes - start_nodes).min(BID_SAMPLE_BUDGET);
                let made = made_with_perfect_play(&mut self.solver, &view.rules, hands, view.dealer, contract, budget);
                estimate.add(playout(view, hands, contract), made);
            }
            // Without a single consistent deal, the hand alone is judged.
            let average = estimate
                .mean()
                .unwrap_or(Mean { total: (hand_strength(view.hand, suit) - PLAY_THRESHOLD) as i64, count: 1 });
            if best.as_ref().is_none_or(|b| average.value() > b.3.value()) {
                best = Some((action, suit, estimate, average));
            }
        }
        let Some((action, suit, e, average)) = best else {
            return HeuristicBot.decide(view);
        };
        let (made, samples, solved) = (e.made as u32, e.samples as u32, e.solved as u32);
        if !can_pass || average.value() > 0.0 {
            Decision::new(action, Reason::BidSampled { suit, made, samples, solved, average })
        } else {
            Decision::new(Action::Bid(Bid::Pass), Reason::PassSampled { suit, made, samples, solved, average })
        }
    }
}

/// What sampled deals say of one candidate trump.
#[derive(Default)]
struct BidEstimate {
    /// Whole points, summed exactly.
    margin: i64,
    samples: usize,
    made: usize,
    /// Samples the solver settled (the others rest on the playout alone).
    solved: usize,
}

impl BidEstimate {
    fn add(&mut self, playout: Playout, solver_made: Option<bool>) {
        let made = solver_made.unwrap_or(playout.made);
        // The playout's score when it agrees with the solver; otherwise
        // the least the solver's verdict allows: a deal made by perfect
        // play counts as made by a point, a failed one costs the whole
        // deal, as nat does.
        self.margin += match (made, playout.made) {
            (true, true) | (false, false) => playout.margin,
            (true, false) => 0,
            (false, true) => -playout.total,
        };
        self.samples += 1;
        self.made += made as usize;
        self.solved += solver_made.is_some() as usize;
    }

    fn mean(&self) -> Option<Mean> {
        (self.samples > 0).then_some(Mean { total: self.margin, count: self.samples as u32 })
    }
}

/// Whether the declarer's team makes the contract on these hands under
/// perfect play by both sides, with [`BID_SAFETY`] points to spare: more
/// than half of all points, roem counted as if always called. `None` when
/// `budget` nodes did not settle it.
fn made_with_perfect_play(
    solver: &mut Solver,
    rules: &klaverjas::Rules,
    hands: [CardSet; 4],
    dealer: Seat,
    contract: Contract,
    budget: u64,
) -> Option<bool> {
    let state = PlayState::new(hands, contract.trump, dealer.next(), rules);
    // NS minus EW must be positive for NS to make it (a tie is nat), by
    // the safety margin.
    match contract.declarer.team() {
        Team::NS => solver.at_least_within(&state, 1 + BID_SAFETY, budget),
        Team::EW => solver.at_least_within(&state, -BID_SAFETY, budget).map(|ns_close_enough| !ns_close_enough),
    }
}

/// A sampled deal played out by heuristic players, from the declarer's side.
struct Playout {
    made: bool,
    /// Declarer's team's score minus the opponents' (nat and pit included).
    margin: i64,
    /// Both teams' scores together: what a nat hands the opponents.
    total: i64,
}

/// Plays a sampled deal out with four heuristic players.
fn playout(view: &PlayerView, hands: [CardSet; 4], contract: Contract) -> Playout {
    let Ok(deal) = Deal::from_hands(view.dealer, hands, PileCard::showing(contract.trump)) else {
        return Playout { made: false, margin: 0, total: 0 };
    };
    let mut game = Game::with_contract(view.rules, deal, contract);
    while let Some(seat) = game.to_act() {
        let d = HeuristicBot.decide(&game.view(seat));
        if game.apply(d.action).is_err() {
            break;
        }
    }
    let Some(r) = game.result() else {
        return Playout { made: false, margin: 0, total: 0 };
    };
    let me = view.seat.team();
    let (mine, theirs) = (r.final_score()[me] as i64, r.final_score()[me.other()] as i64);
    Playout { made: !r.nat, margin: mine - theirs, total: mine + theirs }
}
