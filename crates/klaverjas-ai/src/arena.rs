//! Bots playing whole matches against each other: the measure of strength.
//! In a duplicate pair the same deals are played twice with the partnerships
//! swapped, so the luck of the cards cancels.

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
    /// The first level's score minus the second's, per deal.
    pub fn margin_per_deal(&self) -> f64 {
        let deals = self.first.deals.max(1) as f64;
        (self.first.score as f64 - self.second.score as f64) / deals
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
    let mut m = Match::new(rules, seed, Seat::North);
    let mut bots: Vec<_> = Seat::ALL
        .iter()
        .map(|&s| {
            let side = if s.team() == Team::NS { ns } else { ew };
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

/// One match, or a duplicate pair with the levels swapped on the same deals.
pub fn play(rules: Rules, seed: u64, first: Side, second: Side, duplicate: bool) -> Outcome {
    let (a, b) = play_match(rules, seed, first, second);
    if !duplicate {
        return Outcome { first: a, second: b };
    }
    let (b2, a2) = play_match(rules, seed, second, first);
    let add = |x: Tally, y: Tally| Tally {
        score: x.score + y.score,
        deals: x.deals + y.deals,
        playing: x.playing + y.playing,
        nat: x.nat + y.nat,
        pit: x.pit + y.pit,
        forced: x.forced + y.forced,
        forced_nat: x.forced_nat + y.forced_nat,
        strokes: x.strokes + y.strokes,
    };
    Outcome { first: add(a, a2), second: add(b, b2) }
}
