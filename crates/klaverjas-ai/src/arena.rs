//! Bots playing whole matches against each other: the measure of strength.
//! In a duplicate pair the same deals are played twice with the partnerships
//! swapped, so the luck of the cards cancels. Where everyone plays alone
//! (three players), the first level takes one seat and the second the
//! others, and a duplicate set plays the same deals with the first level
//! in every seat in turn.

use crate::Level;
use crate::expert::Idea;
use klaverjas::{Match, PerTeam, Rules, Seat, Team};

/// What one level achieved in a match, from its own seats.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct Tally {
    pub score: u64,
    pub deals: u64,
    pub playing: u64,
    pub nat: u64,
    pub pit: u64,
    /// Deals it played because the rules made it (everyone passed, or
    /// *verplicht*), and how many of those went nat.
    pub forced: u64,
    pub forced_nat: u64,
    /// Strokes gone on in a boem.
    pub strokes: u64,
}

/// A finished match, reported per level: `first` is the level that sat
/// North-South in the first (or only) match.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct Outcome {
    pub first: Tally,
    pub second: Tally,
}

impl Outcome {
    /// The first level's score a deal minus the second's, each a seat.
    pub fn margin_per_deal(&self) -> f64 {
        self.first.per_deal() - self.second.per_deal()
    }
}

impl Tally {
    /// The score a deal, at one seat.
    pub fn per_deal(&self) -> f64 {
        self.score as f64 / self.deals.max(1) as f64
    }

    fn add(self, y: Tally) -> Tally {
        Tally {
            score: self.score + y.score,
            deals: self.deals + y.deals,
            playing: self.playing + y.playing,
            nat: self.nat + y.nat,
            pit: self.pit + y.pit,
            forced: self.forced + y.forced,
            forced_nat: self.forced_nat + y.forced_nat,
            strokes: self.strokes + y.strokes,
        }
    }
}

/// One side of a match: its bots' level, and the expert's ideas they play
/// without (to measure what each is worth, against the full expert).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Side<'a> {
    pub level: Level,
    pub without: &'a [Idea],
}

impl Side<'_> {
    /// The level's name, with the ideas it plays without.
    pub fn name(&self) -> String {
        let off: Vec<&str> = self.without.iter().map(|i| i.name()).collect();
        match off.is_empty() {
            true => self.level.name().to_string(),
            false => format!("{} without {}", self.level, off.join(", ")),
        }
    }
}

impl From<Level> for Side<'static> {
    fn from(level: Level) -> Side<'static> {
        Side { level, without: &[] }
    }
}

/// Plays one match: `ns` bots North-South, `ew` bots East-West.
pub fn play_match(rules: Rules, seed: u64, ns: Side, ew: Side) -> (Tally, Tally) {
    let m = run_match(rules, seed, |s| if s.team() == Team::NS { ns } else { ew });
    let mut tallies = PerTeam::<Tally>::default();
    for row in &m.sheet().rows {
        for team in Team::BOTH {
            let t = &mut tallies[team];
            t.score += row.total(team) as u64;
            t.deals += 1;
            if row.contract.playing_team() == team {
                t.playing += 1;
                t.nat += row.nat as u64;
                if row.contract.forced {
                    t.forced += 1;
                    t.forced_nat += row.nat as u64;
                }
            }
            t.pit += (row.pit == Some(team)) as u64;
            t.strokes += row.going_on.filter(|on| on.team == team).map_or(0, |on| on.strokes as u64);
        }
    }
    (tallies.ns, tallies.ew)
}

/// Plays one match where everyone plays alone: `one` at `seat`, `others`
/// at the other seats. The others' tally adds up both their seats.
pub fn play_match_alone(rules: Rules, seed: u64, one: Side, others: Side, seat: Seat) -> (Tally, Tally) {
    let m = run_match(rules, seed, |s| if s == seat { one } else { others });
    let (mut mine, mut theirs) = (Tally::default(), Tally::default());
    for row in &m.sheet().rows {
        let Some(each) = row.players else { continue };
        for &s in rules.players.seats() {
            let t = if s == seat { &mut mine } else { &mut theirs };
            t.score += each.score[s.index()] as u64;
            t.deals += 1;
            if row.contract.declarer == s {
                t.playing += 1;
                t.nat += row.nat as u64;
            }
        }
    }
    (mine, theirs)
}

/// Plays a match to its end, each seat's bot of the level `side_of` gives.
fn run_match<'a>(rules: Rules, seed: u64, side_of: impl Fn(Seat) -> Side<'a>) -> Match {
    run(Match::new(rules, seed, Seat::North), seed, side_of)
}

/// Plays `m` on to its end, each seat's bot of the level `side_of` gives,
/// the bots' own choices following from `seed`.
pub fn run<'a>(mut m: Match, seed: u64, side_of: impl Fn(Seat) -> Side<'a>) -> Match {
    let mut bots: Vec<_> = Seat::ALL
        .iter()
        .map(|&s| {
            let side = side_of(s);
            side.level.bot_without(seed.wrapping_mul(31).wrapping_add(s.index() as u64 + 1), side.without)
        })
        .collect();
    loop {
        while let Some(seat) = m.game().to_act() {
            let view = m.game().view(seat);
            let decision = bots[seat.index()].decide(&view);
            if m.apply(decision.action).is_err() {
                // A bot answered with an illegal action: a bug, but the
                // match must not hang; take the first legal action.
                let fallback = m.game().legal_actions()[0];
                let _ = m.apply(fallback);
            }
        }
        if m.is_over() || m.next_deal().is_err() {
            break;
        }
    }
    m
}

/// One match, or a duplicate pair with the levels swapped on the same deals.
/// Where everyone plays alone, the first level takes South, or with
/// `duplicate` every seat in turn on the same deals.
pub fn play(rules: Rules, seed: u64, first: Side, second: Side, duplicate: bool) -> Outcome {
    if !rules.players.partnerships() {
        let seats: &[Seat] = if duplicate { rules.players.seats() } else { &[Seat::South] };
        let mut out = Outcome::default();
        for &seat in seats {
            let (a, b) = play_match_alone(rules, seed, first, second, seat);
            out = Outcome { first: out.first.add(a), second: out.second.add(b) };
        }
        return out;
    }
    let (a, b) = play_match(rules, seed, first, second);
    if !duplicate {
        return Outcome { first: a, second: b };
    }
    let (b2, a2) = play_match(rules, seed, second, first);
    Outcome { first: a.add(a2), second: b.add(b2) }
}
