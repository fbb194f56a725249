//! The draw of a round: tables of four, partners by lot, no partner twice
//! in an evening wherever that can be done and as few repeated opponents
//! as the tries find, the sit-outs in turn. A pure function of its seed,
//! the players present and the rounds before.

use crate::PlayerId;
use klaverjas::{Rng, Seat};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One table of a round. Partners sit opposite: North with South, East
/// with West. `None`: a bot takes the chair (online tables only).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct DrawnTable {
    pub chairs: [Option<PlayerId>; 4],
    /// Who deals the table's first deal.
    pub dealer: Seat,
}

impl DrawnTable {
    pub fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| self.chairs[s.index()] == Some(player))
    }

    pub fn players(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.chairs.iter().flatten().copied()
    }
}

/// A round's draw.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Draw {
    pub tables: Vec<DrawnTable>,
    pub sitting_out: Vec<PlayerId>,
}

/// How a count that is not a multiple of four is seated.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Leftover {
    /// The ones left over sit the round out, in turn.
    SitOut,
    /// They play at a table of their own, bots in its empty chairs.
    Bots,
}

/// Why a round cannot be drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawError {
    /// Fewer players than one table needs.
    TooFew { present: usize, needed: usize },
}

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawError::TooFew { present, needed } => {
                write!(f, "{present} players are checked in; a round needs at least {needed}")
            }
        }
    }
}

impl std::error::Error for DrawError {}

/// Who partnered and faced whom in the rounds before, and who sat out.
#[derive(Default, Debug)]
pub struct Met {
    partners: HashMap<(PlayerId, PlayerId), u32>,
    opponents: HashMap<(PlayerId, PlayerId), u32>,
    sat_out: HashMap<PlayerId, u32>,
}

fn pair(a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
    if a < b { (a, b) } else { (b, a) }
}

impl Met {
    pub fn of(rounds: &[Draw]) -> Met {
        let mut met = Met::default();
        for draw in rounds {
            met.add(draw);
        }
        met
    }

    fn add(&mut self, draw: &Draw) {
        for table in &draw.tables {
            for seat in Seat::ALL {
                let Some(a) = table.chairs[seat.index()] else { continue };
                if let Some(b) = table.chairs[seat.partner().index()].filter(|b| a < *b) {
                    *self.partners.entry(pair(a, b)).or_default() += 1;
                }
                if let Some(b) = table.chairs[seat.next().index()] {
                    *self.opponents.entry(pair(a, b)).or_default() += 1;
                }
            }
        }
        for p in &draw.sitting_out {
            *self.sat_out.entry(*p).or_default() += 1;
        }
    }

    pub fn partnered(&self, a: PlayerId, b: PlayerId) -> u32 {
        self.partners.get(&pair(a, b)).copied().unwrap_or(0)
    }

    pub fn faced(&self, a: PlayerId, b: PlayerId) -> u32 {
        self.opponents.get(&pair(a, b)).copied().unwrap_or(0)
    }

    pub fn sat_out(&self, p: PlayerId) -> u32 {
        self.sat_out.get(&p).copied().unwrap_or(0)
    }
}

/// Whole draws tried, each from its own shuffle; the best is kept.
const TRIES: u32 = 48;
/// Steps one search for partners may take before it settles for repeats.
const SEARCH_STEPS: u32 = 20_000;

/// The round's draw for `present` (in check-in order) after the rounds
/// `before`; `more` rounds follow this one. The same arguments give the
/// same draw.
pub fn draw(
    seed: u64,
    present: &[PlayerId],
    before: &[Draw],
    more: usize,
    leftover: Leftover,
) -> Result<Draw, DrawError> {
    let needed = match leftover {
        Leftover::SitOut => 4,
        Leftover::Bots => 2,
    };
    if present.len() < needed {
        return Err(DrawError::TooFew { present: present.len(), needed });
    }
    let met = Met::of(before);
    let mut rng = Rng::new(seed);
    let mut best: Option<((u32, u32, u32), Draw)> = None;
    for _ in 0..TRIES {
        let mut order = present.to_vec();
        rng.shuffle(&mut order);
        // Who sits out: the fewest sit-outs so far first, the shuffle
        // deciding between equals.
        let (mut playing, sitting_out, with_bots) = match leftover {
            Leftover::SitOut => {
                let mut by_turn = order.clone();
                by_turn.sort_by_key(|p| std::cmp::Reverse(met.sat_out(*p)));
                let out: Vec<PlayerId> = by_turn.split_off(by_turn.len() - present.len() % 4);
                (by_turn, out, Vec::new())
            }
            Leftover::Bots => {
                let left = order.len() % 4;
                let bots = order.split_off(order.len() - left);
                (order, Vec::new(), bots)
            }
        };
        // Shuffled again: the sort above kept the sit-out order's ties.
        rng.shuffle(&mut playing);
        let pairs = partners(&playing, &met);
        let repeats = pairs.iter().filter(|(a, b)| met.partnered(*a, *b) > 0).count() as u32;
        let (mut tables, faced) = tables_of(&pairs, &met, &mut rng);
        if !with_bots.is_empty() {
            let mut chairs = [None; 4];
            // Alone with bots, each beside a bot as partner where there
            // are two: they play against each other.
            for (p, seat) in with_bots.iter().zip([Seat::North, Seat::East, Seat::South]) {
                chairs[seat.index()] = Some(*p);
            }
            tables.push(DrawnTable { chairs, dealer: Seat::North });
        }
        for t in &mut tables {
            t.dealer = Seat::ALL[rng.below(4) as usize];
        }
        let drawn = Draw { tables, sitting_out };
        let stuck = u32::from(
            more > 0 && repeats == 0 && leftover == Leftover::SitOut && present.len().is_multiple_of(4) && {
                let mut after = before.to_vec();
                after.push(drawn.clone());
                let met = Met::of(&after);
                !has_fresh_partners(present, &met)
            },
        );
        let score = (repeats, stuck, faced);
        if best.as_ref().is_none_or(|(b, _)| score < *b) {
            best = Some((score, drawn));
        }
        if score == (0, 0, 0) {
            break;
        }
    }
    // TRIES > 0: a draw was kept.
    Ok(best.map(|(_, d)| d).unwrap_or(Draw { tables: Vec::new(), sitting_out: Vec::new() }))
}

/// Partners for `players` (an even count): a matching with no pair that
/// partnered before where the search finds one, else the fewest repeats
/// a greedy pass gives.
fn partners(players: &[PlayerId], met: &Met) -> Vec<(PlayerId, PlayerId)> {
    let mut steps = 0;
    let mut used = vec![false; players.len()];
    let mut out = Vec::with_capacity(players.len() / 2);
    if search(players, met, &mut used, &mut out, &mut steps) {
        return out;
    }
    let mut left = players.to_vec();
    let mut pairs = Vec::new();
    while let Some(a) = left.pop() {
        let least = (0..left.len()).min_by_key(|i| met.partnered(a, left[*i])).unwrap_or(0);
        if left.is_empty() {
            break;
        }
        pairs.push((a, left.swap_remove(least)));
    }
    pairs
}

/// Depth first over the first unmatched player's fresh partners: finds a
/// matching without repeats whenever one exists, within the steps.
fn search(
    players: &[PlayerId],
    met: &Met,
    used: &mut [bool],
    out: &mut Vec<(PlayerId, PlayerId)>,
    steps: &mut u32,
) -> bool {
    let Some(i) = used.iter().position(|u| !u) else { return true };
    used[i] = true;
    for j in i + 1..players.len() {
        if used[j] || met.partnered(players[i], players[j]) > 0 {
            continue;
        }
        *steps += 1;
        if *steps > SEARCH_STEPS {
            break;
        }
        used[j] = true;
        out.push((players[i], players[j]));
        if search(players, met, used, out, steps) {
            return true;
        }
        out.pop();
        used[j] = false;
    }
    used[i] = false;
    false
}

/// Whether `players` could all be given partners they never had.
pub fn has_fresh_partners(players: &[PlayerId], met: &Met) -> bool {
    let mut steps = 0;
    search(players, met, &mut vec![false; players.len()], &mut Vec::new(), &mut steps)
}

/// The pairs two by two at tables, each pair meeting the pair it has met
/// least; with the count of opponents met again.
fn tables_of(pairs: &[(PlayerId, PlayerId)], met: &Met, rng: &mut Rng) -> (Vec<DrawnTable>, u32) {
    let mut left = pairs.to_vec();
    rng.shuffle(&mut left);
    let cost = |x: &(PlayerId, PlayerId), y: &(PlayerId, PlayerId)| {
        met.faced(x.0, y.0) + met.faced(x.0, y.1) + met.faced(x.1, y.0) + met.faced(x.1, y.1)
    };
    let mut tables = Vec::new();
    let mut faced = 0;
    while let Some(ns) = left.pop() {
        if left.is_empty() {
            break;
        }
        let i = (0..left.len()).min_by_key(|i| cost(&ns, &left[*i])).unwrap_or(0);
        let ew = left.swap_remove(i);
        faced += cost(&ns, &ew);
        tables.push(DrawnTable { chairs: [Some(ns.0), Some(ew.0), Some(ns.1), Some(ew.1)], dealer: Seat::North });
    }
    (tables, faced)
}
