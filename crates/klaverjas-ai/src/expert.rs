//! The expert: determinized search. It deals the hidden cards many times in
//! ways that agree with what its seat has seen (voids, failed overtrumps,
//! the bidding), solves each deal exactly with the double-dummy solver, and
//! plays the card with the best average. Bids are chosen by the same
//! sampling: the solver says whether each sampled deal is made with the
//! candidate trump, and heuristic players size the margin.
//!
//! Over that plain search (the `pimc` level) the expert reads the play
//! ([`inference`]: deals that explain the cards seen count more), thinks
//! longer, and values a pass by what follows it: a later seat's bid, or the
//! contract the rules force when all pass.
//!
//! Everything is seeded and limited by node counts, never by the clock, so
//! the same seed plays the same game on every machine.

use crate::heuristic::{self, DOUBLE_THRESHOLDS, HeuristicBot, PLAY_THRESHOLD, hand_strength};
use crate::inference;
use crate::knowledge::Knowledge;
use crate::sample::sample_with;
use crate::solver::Solver;
use crate::{Bot, Decision, Mean, Reason};
use klaverjas::{
    Action, Bid, Bidding, Card, CardSet, Contract, Deal, Game, Phase, PileCard, PlayState, PlayerView, Rng, Seat, Suit,
    Team,
};

/// How much the expert thinks and what it reads, as data: the `expert`
/// level and the `pimc` level it is measured against are two of these, and
/// [`Settings::without`] switches one idea off to measure its share.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settings {
    /// Deals a card decision is averaged over. With inference these are
    /// the picks of the resampling: a deal picked twice is solved once and
    /// counted twice.
    pub samples: usize,
    /// Deals drawn, and weighted by how likely the play seen is in each
    /// ([`inference`]), for every deal solved; 1 draws only the deals it
    /// solves and reads nothing from how the others played.
    pub drawn_per_sample: usize,
    /// Solver nodes allowed per card decision, over all its deals.
    pub node_budget: u64,
    /// Sampled deals per bid (where [`Settings::value_pass`], the same
    /// deals for every choice and the pass; without it, fresh deals for each
    /// trump) and per doubling decision.
    pub bid_samples: usize,
    /// Solver nodes allowed per bid, over all its choices and deals; a
    /// deal the solver could not settle is judged by its playout alone.
    pub bid_node_budget: u64,
    /// Whether a pass is valued by what follows it (the others' bids, or
    /// the contract the rules force when all pass) rather than as nothing;
    /// with it every choice of a bid is judged on the same deals, each with
    /// an even share of the nodes. Under a turned card a bid need beat
    /// only half the pass's value (`halves_pass`).
    pub value_pass: bool,
}

impl Settings {
    /// The expert of the app and of `kj`.
    pub const EXPERT: Settings = Settings {
        samples: 100,
        drawn_per_sample: 4,
        node_budget: 3_000_000,
        bid_samples: 32,
        bid_node_budget: 600_000,
        value_pass: true,
    };
    /// Plain determinized search, as the expert first played: uniform
    /// samples, a small budget, a pass worth nothing. Kept so that every
    /// later expert is measured against it.
    pub const PIMC: Settings = Settings {
        samples: 20,
        drawn_per_sample: 1,
        node_budget: 900_000,
        bid_samples: 12,
        bid_node_budget: 3_000_000,
        value_pass: false,
    };

    /// These settings with one of the expert's ideas switched off.
    pub fn without(self, idea: Idea) -> Settings {
        match idea {
            Idea::Inference => Settings { drawn_per_sample: 1, ..self },
            Idea::Budget => Settings {
                samples: Settings::PIMC.samples,
                node_budget: Settings::PIMC.node_budget,
                bid_samples: Settings::PIMC.bid_samples,
                bid_node_budget: Settings::PIMC.bid_node_budget,
                ..self
            },
            Idea::PassValue => Settings { value_pass: false, ..self },
        }
    }
}

/// One idea of the expert's over plain sampling, named for `kj sim
/// --ns-without` and `--ew-without` and for `kj bench bot --without`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Idea {
    /// Deals weighted by the play seen.
    Inference,
    /// The thinking time allowed, as the expert spends it: more deals and
    /// nodes a card; more deals a bid, each settled by the solver on fewer
    /// nodes, since where a bid values the pass it judges the pass on the
    /// same deals.
    Budget,
    /// A pass valued by what follows it ([`Settings::value_pass`]).
    PassValue,
}

impl Idea {
    pub const ALL: [Idea; 3] = [Idea::Inference, Idea::Budget, Idea::PassValue];

    pub fn name(self) -> &'static str {
        match self {
            Idea::Inference => "inference",
            Idea::Budget => "budget",
            Idea::PassValue => "pass-value",
        }
    }
}

impl std::str::FromStr for Idea {
    type Err = String;
    fn from_str(s: &str) -> Result<Idea, String> {
        Idea::ALL.into_iter().find(|i| i.name().eq_ignore_ascii_case(s.trim())).ok_or_else(|| {
            let known: Vec<&str> = Idea::ALL.iter().map(|i| i.name()).collect();
            format!("unknown idea '{}' (known: {})", s.trim(), known.join(", "))
        })
    }
}

/// How many points more than the opponents the seat's own team must make
/// under perfect play before a sampled deal counts as made. The solver sees
/// every card and the declarer will not, so perfect play flatters it. Chosen
/// for the first expert (now `pimc`) by duplicate matches against the
/// heuristic; docs/BENCHMARKS.md has the figures.
pub const BID_SAFETY: i32 = 40;
/// Solver nodes allowed per sampled deal of a bid, so that one hard deal
/// cannot eat the budget of the others.
pub const BID_SAMPLE_BUDGET: u64 = 400_000;

pub struct ExpertBot {
    rng: Rng,
    solver: Solver,
    pub settings: Settings,
}

impl ExpertBot {
    pub fn new(seed: u64) -> ExpertBot {
        ExpertBot::with(seed, Settings::EXPERT)
    }

    pub fn with(seed: u64, settings: Settings) -> ExpertBot {
        ExpertBot { rng: Rng::new(seed), solver: Solver::default(), settings }
    }
}

impl Bot for ExpertBot {
    fn decide(&mut self, view: &PlayerView) -> Decision {
        // The solver and the sampling know four hands in two partnerships;
        // at three and at two the expert plays as the club player does.
        if !view.rules.players.partnerships() {
            return HeuristicBot.decide(view);
        }
        match view.phase {
            Phase::Bidding => self.bid(view),
            Phase::Doubling => self.double(view),
            Phase::ClaimRoem => heuristic::claim(view),
            _ => heuristic::call_before_playing(view).unwrap_or_else(|| self.play(view)),
        }
    }
}

/// Keeps sampled deals that agree with the bidding: those who passed did
/// not hold a clearly strong hand in the turned suit (without a turned
/// card, in any suit), and a voluntary declarer holds a fair one in its
/// trump. Of the doubling
/// calls, a double shows a fair hand in trumps and a pass no very strong
/// one, by the club player's thresholds.
fn agrees_with_bidding(view: &PlayerView, hands: &[CardSet; 4]) -> bool {
    let turned = view.turned.first().map(|c| c.suit);
    let (bids, doubles) = view.bids_and_doubles();
    if let Some(trump) = view.trump() {
        let mut level = 0;
        for &(seat, call) in doubles {
            let threshold = DOUBLE_THRESHOLDS[level.min(DOUBLE_THRESHOLDS.len() - 1)];
            if seat != view.seat {
                let strength = hand_strength(original_hand(view, seat, hands[seat.index()]), trump);
                let doubled = call == Bid::Double;
                if (doubled && strength < threshold - 25) || (!doubled && strength >= threshold + 15) {
                    return false;
                }
            }
            level += usize::from(call == Bid::Double);
        }
    }
    for &(seat, bid) in bids {
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
            (Bid::Double, _) => {}
        }
    }
    true
}

/// A seat's hand as dealt: what it holds now plus what it has played.
pub(crate) fn original_hand(view: &PlayerView, seat: Seat, now: CardSet) -> CardSet {
    view.plays().filter(|&(s, _)| s == seat).fold(now, |h, (_, c)| h.with(c))
}

/// One guess at the hidden hands that agrees with the cards the seat has
/// seen played and, where one of the sampler's tries fits it, the bidding.
fn consistent_deal(view: &PlayerView, k: &Knowledge, rng: &mut Rng) -> Option<[CardSet; 4]> {
    sample_with(k, view.hand, rng, |h| agrees_with_bidding(view, h))
}

/// The value of each card of the player to act, from the seat's side
/// (`sign`), summed over `worlds` each solved on its own and counted as
/// often as it was drawn, until `budget` nodes run out; and how many
/// worlds were counted (a world drawn twice counts twice).
fn solve_each(
    solver: &mut Solver,
    worlds: impl IntoIterator<Item = (PlayState, usize)>,
    sign: i32,
    budget: u64,
) -> ([i64; 32], u32) {
    let start = solver.nodes;
    let mut totals = [0i64; 32];
    let mut solved = 0;
    for (state, count) in worlds {
        let Some(values) = solver.card_values_within(&state, budget.saturating_sub(solver.nodes - start)) else {
            break;
        };
        for (card, v) in values {
            totals[card.index()] += (sign * v) as i64 * count as i64;
        }
        solved += count as u32;
    }
    (totals, solved)
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
        let state_of = |hands: [CardSet; 4]| {
            let mut state = PlayState::new(hands, trump, trick.leader(), &view.rules);
            state.trick = trick;
            state.tricks_done = view.tricks.len() as u8;
            state
        };
        let Settings { samples, drawn_per_sample, node_budget, .. } = self.settings;
        let (totals, solved) = if drawn_per_sample > 1 {
            // The worlds are drawn first, weighted by the play seen, then
            // solved, the likeliest first.
            let states: Vec<(PlayState, usize)> =
                self.likely_deals(view, &k).into_iter().map(|(h, n)| (state_of(h), n)).collect();
            solve_each(&mut self.solver, states, sign, node_budget)
        } else {
            // Plain sampling: each world is sampled as it is solved, until
            // the budget runs out.
            let rng = &mut self.rng;
            let worlds = std::iter::from_fn(|| consistent_deal(view, &k, rng)).take(samples);
            solve_each(&mut self.solver, worlds.map(|h| (state_of(h), 1)), sign, node_budget)
        };
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

    /// Deals drawn as the seat may see them, resampled in proportion to how
    /// likely the play seen is in each, each with how often it was drawn;
    /// the most often drawn first.
    fn likely_deals(&mut self, view: &PlayerView, k: &Knowledge) -> Vec<([CardSet; 4], usize)> {
        let Settings { samples, drawn_per_sample, .. } = self.settings;
        let mut drawn = Vec::with_capacity(samples * drawn_per_sample);
        for _ in 0..samples * drawn_per_sample {
            match consistent_deal(view, k, &mut self.rng) {
                Some(hands) => drawn.push(hands),
                None => break,
            }
        }
        let weights: Vec<f64> = drawn.iter().map(|h| inference::likelihood(view, h)).collect();
        let counts = inference::resample(&weights, samples, &mut self.rng);
        let mut chosen: Vec<([CardSet; 4], usize)> = drawn.into_iter().zip(counts).filter(|&(_, n)| n > 0).collect();
        chosen.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        chosen
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
        let contracts: Vec<Contract> = candidates
            .iter()
            .map(|&(_, suit)| Contract { trump: suit, declarer: view.seat, forced: !can_pass })
            .collect();
        let mut estimates: Vec<BidEstimate> = contracts.iter().map(|_| BidEstimate::default()).collect();
        // What passing is worth to the seat's team: what follows it, another
        // seat's contract or the one the rules force when all pass. Plain
        // sampling counts it as nothing.
        let value_pass = can_pass && self.settings.value_pass;
        let mut pass = Mean { total: 0, count: 0 };
        let budget = self.settings.bid_node_budget;
        if self.settings.value_pass {
            // Every choice is judged on the same deals, each with its own
            // share of the nodes, so that neither the luck of the sampling
            // nor the budget running out favours one.
            let share = budget / (contracts.len() + value_pass as usize).max(1) as u64;
            let mut used = vec![0; contracts.len() + 1];
            for _ in 0..self.settings.bid_samples {
                let Some(hands) = consistent_deal(view, &k, &mut self.rng) else {
                    break;
                };
                for (i, (estimate, &contract)) in estimates.iter_mut().zip(&contracts).enumerate() {
                    let (playout, made) = self.judge(view, hands, contract, &mut used[i], share);
                    estimate.add(playout, made);
                }
                if value_pass && let Some(contract) = contract_after_pass(view, hands, &mut self.rng) {
                    let (playout, made) = self.judge(view, hands, contract, &mut used[contracts.len()], share);
                    let (_, margin) = judged(playout, made);
                    pass.total += if contract.playing_team() == view.seat.team() { margin } else { -margin };
                    pass.count += 1;
                }
            }
        } else {
            let mut used = 0;
            for (estimate, &contract) in estimates.iter_mut().zip(&contracts) {
                for _ in 0..self.settings.bid_samples {
                    let Some(hands) = consistent_deal(view, &k, &mut self.rng) else {
                        break;
                    };
                    let (playout, made) = self.judge(view, hands, contract, &mut used, budget);
                    estimate.add(playout, made);
                }
            }
        }
        let mut best: Option<(Action, Suit, BidEstimate, Mean)> = None;
        for ((action, suit), estimate) in candidates.into_iter().zip(estimates) {
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
        let halved = halves_pass(view.rules.bidding);
        let reason = match (!can_pass || beats_pass(average, pass, halved), value_pass) {
            (true, false) => Reason::BidSampled { suit, made, samples, solved, average },
            (false, false) => Reason::PassSampled { suit, made, samples, solved, average },
            (true, true) => Reason::BidOverPass { suit, made, samples, solved, average, pass, halved },
            (false, true) => Reason::PassOverBid { suit, made, samples, solved, average, pass, halved },
        };
        let bids = matches!(reason, Reason::BidSampled { .. } | Reason::BidOverPass { .. });
        Decision::new(if bids { action } else { Action::Bid(Bid::Pass) }, reason)
    }

    /// Doubles (*kraken*) when, over sampled deals that fit the view, the
    /// deal doubled and played out by club players (who also make the
    /// doubling calls that follow) brings the seat's team more than a pass.
    fn double(&mut self, view: &PlayerView) -> Decision {
        if !view.legal.contains(&Action::Bid(Bid::Double)) {
            return HeuristicBot.decide(view);
        }
        let k = Knowledge::from_view(view);
        let me = view.seat.team();
        let (mut double, mut pass) = (Mean { total: 0, count: 0 }, Mean { total: 0, count: 0 });
        for _ in 0..self.settings.bid_samples {
            let Some(hands) = consistent_deal(view, &k, &mut self.rng) else {
                break;
            };
            for (call, mean) in [(Bid::Double, &mut double), (Bid::Pass, &mut pass)] {
                let Some(mut game) = bids_replayed(view, hands, &mut self.rng) else {
                    continue;
                };
                if game.apply(Action::Bid(call)).is_err() {
                    continue;
                }
                club_players_play(&mut game, None);
                if let Some(r) = game.result() {
                    mean.total += r.final_score()[me] as i64 - r.final_score()[me.other()] as i64;
                    mean.count += 1;
                }
            }
        }
        if double.count == 0 || pass.count == 0 {
            return HeuristicBot.decide(view);
        }
        if double.value() > pass.value() {
            Decision::new(Action::Bid(Bid::Double), Reason::DoubleSampled { double, pass })
        } else {
            Decision::new(Action::Bid(Bid::Pass), Reason::PassOverDouble { double, pass })
        }
    }

    /// A sampled deal under `contract`: the heuristic players' playout and
    /// the solver's verdict, within what is left of `share` nodes after
    /// `used` (which it adds to). The seat's own team must make its
    /// contracts with [`BID_SAFETY`] points to spare; the other team's are
    /// judged as they stand, so that a pass is not flattered by opponents
    /// held to a margin they do not need.
    fn judge(
        &mut self,
        view: &PlayerView,
        hands: [CardSet; 4],
        contract: Contract,
        used: &mut u64,
        share: u64,
    ) -> (Playout, Option<bool>) {
        let budget = share.saturating_sub(*used).min(BID_SAMPLE_BUDGET);
        let spare = if contract.playing_team() == view.seat.team() { BID_SAFETY } else { 0 };
        let start = self.solver.nodes;
        let made = made_with_perfect_play(&mut self.solver, &view.rules, hands, view.dealer, contract, spare, budget);
        *used += self.solver.nodes - start;
        (playout(view, hands, contract), made)
    }
}

/// Whether a bid under `bidding` counts the pass at half its sampled value,
/// which moves the bar a bid must beat halfway towards nothing: under a
/// turned card (`classic`). There a pass by the player left of the dealer
/// or its partner risks the hidden second card's forced contract, and a
/// pass by the other two seats may leave it to their opponents; counted in
/// full, the first made weak hands bid to escape it, and those bids lost.
/// Half had the highest margin of nothing, half, all, and only a gain,
/// though not one that 50 pairs tell from nothing (docs/BENCHMARKS.md's strength
/// tables).
fn halves_pass(bidding: Bidding) -> bool {
    bidding == Bidding::TurnedCard
}

/// Whether a bid's `average` beats passing, whose value is `pass`, or half
/// of it where `halved`.
fn beats_pass(average: Mean, pass: Mean, halved: bool) -> bool {
    let bar = if halved { pass.half() } else { pass };
    average.value() > bar.value()
}

/// The contract a sampled deal comes to when the view's seat passes and
/// every later bid is the club player's.
fn contract_after_pass(view: &PlayerView, hands: [CardSet; 4], rng: &mut Rng) -> Option<Contract> {
    let mut game = bids_replayed(view, hands, rng)?;
    game.apply(Action::Bid(Bid::Pass)).ok()?;
    club_players_play(&mut game, Some(Phase::Bidding));
    game.contract()
}

/// A sampled deal with the view's bids said again. The pile's second card,
/// which decides trump when all pass a turned card, is the one turned if it
/// was, and otherwise drawn from the nineteen the seat has not seen.
fn bids_replayed(view: &PlayerView, hands: [CardSet; 4], rng: &mut Rng) -> Option<Game> {
    let turned = view.turned.first().copied().unwrap_or(PileCard { suit: Suit::Clubs, rank: 2 });
    let second = view.turned.get(1).copied().unwrap_or_else(|| {
        loop {
            let i = rng.below(20) as usize;
            let card = PileCard { suit: Suit::from_index(i / 5), rank: (i % 5) as u8 + 2 };
            if card != turned {
                break card;
            }
        }
    });
    let deal = Deal::from_hands(view.dealer, hands, [turned, second]).ok()?;
    let mut game = Game::new(view.rules, deal).ok()?;
    for &(_, bid) in &view.bids {
        game.apply(Action::Bid(bid)).ok()?;
    }
    Some(game)
}

/// Lets heuristic players act for every seat while the game is in `phase`
/// (to its end for `None`); an action the game refuses stops them.
fn club_players_play(game: &mut Game, phase: Option<Phase>) {
    while let Some(seat) = game.to_act().filter(|_| phase.is_none_or(|p| game.phase() == p)) {
        if game.apply(HeuristicBot.decide(&game.view(seat)).action).is_err() {
            break;
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
        let (made, margin) = judged(playout, solver_made);
        self.margin += margin;
        self.samples += 1;
        self.made += made as usize;
        self.solved += solver_made.is_some() as usize;
    }

    fn mean(&self) -> Option<Mean> {
        (self.samples > 0).then_some(Mean { total: self.margin, count: self.samples as u32 })
    }
}

/// Whether a sampled contract is made, and the declarer's team's margin:
/// the playout's score when it agrees with the solver; otherwise the least
/// the solver's verdict allows: a deal made by perfect play counts as made
/// with a margin of 0, a failed one costs the whole deal, as nat does.
fn judged(playout: Playout, solver_made: Option<bool>) -> (bool, i64) {
    let made = solver_made.unwrap_or(playout.made);
    let margin = match (made, playout.made) {
        (true, true) | (false, false) => playout.margin,
        (true, false) => 0,
        (false, true) => -playout.total,
    };
    (made, margin)
}

/// Whether the declarer's team makes the contract on these hands under
/// perfect play by both sides, with `spare` points to spare: more than half
/// of all points, roem counted as if always called. `None` when `budget`
/// nodes did not settle it.
fn made_with_perfect_play(
    solver: &mut Solver,
    rules: &klaverjas::Rules,
    hands: [CardSet; 4],
    dealer: Seat,
    contract: Contract,
    spare: i32,
    budget: u64,
) -> Option<bool> {
    let state = PlayState::new(hands, contract.trump, rules.direction.next(dealer), rules);
    // NS minus EW must be positive for NS to make it (a tie is nat), by
    // the safety margin.
    match contract.declarer.team() {
        Team::NS => solver.at_least_within(&state, 1 + spare, budget),
        Team::EW => solver.at_least_within(&state, -spare, budget).map(|ns_close_enough| !ns_close_enough),
    }
}

/// A sampled deal played out by heuristic players, from the declarer's
/// team's side.
struct Playout {
    made: bool,
    /// The declarer's team's score minus the opponents' (nat and pit
    /// included).
    margin: i64,
    /// Both teams' scores together: what a nat hands the opponents.
    total: i64,
}

/// Plays a sampled deal out with four heuristic players.
fn playout(view: &PlayerView, hands: [CardSet; 4], contract: Contract) -> Playout {
    let Ok(deal) = Deal::from_hands(view.dealer, hands, PileCard::showing(contract.trump)) else {
        return Playout { made: false, margin: 0, total: 0 };
    };
    let Ok(mut game) = Game::with_contract(view.rules, deal, contract) else {
        return Playout { made: false, margin: 0, total: 0 };
    };
    club_players_play(&mut game, None);
    let Some(r) = game.result() else {
        return Playout { made: false, margin: 0, total: 0 };
    };
    let me = contract.playing_team();
    let (mine, theirs) = (r.final_score()[me] as i64, r.final_score()[me.other()] as i64);
    Playout { made: !r.nat, margin: mine - theirs, total: mine + theirs }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::hand;
    use klaverjas::Rules;

    /// Under a turned card a bid need beat only half the pass's value;
    /// switching the idea off stops valuing the pass.
    #[test]
    fn the_pass_counts_at_half_under_a_turned_card() {
        const { assert!(Settings::EXPERT.value_pass && !Settings::PIMC.value_pass) };
        assert!(!Settings::EXPERT.without(Idea::PassValue).value_pass);
        assert!(halves_pass(Bidding::TurnedCard));
        assert!(!halves_pass(Bidding::DealerFirst) && !halves_pass(Bidding::FreeChoice));
        let (weak, fair) = (Mean { total: -400, count: 10 }, Mean { total: 150, count: 10 });
        // A bid worth -40 beats a pass worth -60, but not half of it.
        let bad_pass = Mean { total: -600, count: 10 };
        assert!(beats_pass(weak, bad_pass, false) && !beats_pass(weak, bad_pass, true));
        // A bid worth +15 loses to a pass worth +20, but beats half of it.
        let good_pass = Mean { total: 200, count: 10 };
        assert!(!beats_pass(fair, good_pass, false) && beats_pass(fair, good_pass, true));
    }

    /// A pass is judged by the contract that follows it: a later seat's
    /// bid, or the second card's forced contract when all four pass.
    #[test]
    fn a_pass_leads_to_the_contract_that_follows_it() {
        let hands = [
            "7D 8D 9D TD 7C 8C 9C TC",
            "7S 8S 9S TS QD KD QC KC",
            "JH 9H AH TH KH AS AC AD",
            "7H 8H QH JS QS KS JD JC",
        ]
        .map(hand);
        let turned = PileCard { suit: Suit::Hearts, rank: 4 };
        let deal = Deal::from_hands(Seat::North, hands, [turned, PileCard { suit: Suit::Clubs, rank: 2 }]).unwrap();
        // East speaks first and passes; South, with the jack, nine and
        // ace of hearts, plays.
        let game = Game::new(Rules::classic(), deal).unwrap();
        let mut rng = Rng::new(1);
        let after = contract_after_pass(&game.view(Seat::East), hands, &mut rng).unwrap();
        assert_eq!(after, Contract { trump: Suit::Hearts, declarer: Seat::South, forced: false });
        // North, last to speak after three passes: all four pass, and East
        // must play on the second card, which North has not seen.
        let mut game = Game::new(Rules::classic(), deal).unwrap();
        for _ in 0..3 {
            game.apply(Action::Bid(Bid::Pass)).unwrap();
        }
        let view = game.view(Seat::North);
        let mut trumps = CardSet::EMPTY;
        for _ in 0..200 {
            let c = contract_after_pass(&view, hands, &mut rng).unwrap();
            assert!(c.forced && c.declarer == Seat::East, "{c:?}");
            trumps.insert(klaverjas::Card::new(c.trump, klaverjas::Rank::Ace));
        }
        assert_eq!(trumps.len(), 4, "every suit can come up second");
    }

    /// Every deal the expert solves, weighted or not, agrees with what the
    /// seat has seen: its own hand, the other hands' sizes, and no card a
    /// seat showed it cannot hold (a void, a failed overtrump).
    #[test]
    fn no_world_solved_contradicts_the_play_seen() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let rules = [Rules::classic(), Rules::amsterdam(), Rules::rotterdam()][seed as usize % 3];
            let mut game = Game::new(rules, Deal::shuffled(seed, Seat::from_index(seed as usize % 4))).unwrap();
            let mut rng = Rng::new(seed);
            let mut bot = ExpertBot::with(seed, Settings { samples: 8, ..Settings::EXPERT });
            while let Some(seat) = game.to_act() {
                let view = game.view(seat);
                if view.phase == Phase::Playing && !view.tricks.is_empty() {
                    let k = Knowledge::from_view(&view);
                    for (hands, count) in bot.likely_deals(&view, &k) {
                        assert!(count > 0);
                        assert_eq!(hands[seat.index()], view.hand);
                        for s in Seat::ALL {
                            assert_eq!(hands[s.index()].len(), game.hand(s).len(), "seed {seed}");
                            assert!(hands[s.index()].intersect(k.cannot_hold[s.index()]).is_empty(), "seed {seed}");
                        }
                        checked += 1;
                    }
                }
                let legal = game.legal_actions();
                game.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
