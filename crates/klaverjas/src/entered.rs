//! A deal played with real cards, entered by hand on a score sheet: what
//! the table writes down (who played and what was trump, the playing
//! team's card points, each team's roem, a pit, a revoke), scored by the
//! same rules as a deal played here ([`score_deal`]), into the same
//! [`DealResult`]. The score sheet in the app and the club evening on the
//! server both score through [`score_entered`]; `kj score` prints it.

use crate::bidding::Contract;
use crate::card::ParseError;
use crate::roem;
use crate::rules::Rules;
use crate::score::{BOEM_TARGET, DealResult, GoingOn, ScoreSheet, Stakes, score_deal};
use crate::seat::{PerTeam, Seat, Team};
use std::fmt;
use std::str::FromStr;

/// What a table writes down of one deal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EnteredDeal {
    /// Who played (chose trump, or was made to) and the trump.
    pub contract: Contract,
    /// Doubles (*kraken*) where the rules have them.
    pub stakes: Stakes,
    /// The playing team's card points, the last trick's bonus with them;
    /// the other team has the rest of the deal's.
    pub points: u16,
    /// The roem each team counted (called, or all of it where roem is
    /// automatic), before any doubling.
    pub roem: PerTeam<u16>,
    /// The team that took every trick.
    pub pit: Option<Team>,
    /// The team that did not follow suit when it could (*verzaakt*): the
    /// other team scores the deal as if it were nat, 162 and all the roem.
    pub revoke: Option<Team>,
    /// In a boem: the side that went on in this hand, and how.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub out: Option<Out>,
    /// In a boem, where a side went on before the last trick: the other
    /// team's card points so far (`None`: the rest of the deal's).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub others: Option<u16>,
}

/// How a side went on the boem in a hand entered by hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Out {
    /// It reached the target: two strokes if the others stood under 50.
    ByPoints(Team),
    /// *Vyf-eenderse* or four of a kind won the game outright, on these
    /// strokes (one only for four aces, kings or queens in old play with
    /// the others at 50 or more).
    Outright(Team, u8),
}

impl Out {
    pub const fn team(self) -> Team {
        match self {
            Out::ByPoints(t) | Out::Outright(t, _) => t,
        }
    }
}

/// A deal as written in one line (`kj score --deals`): who played, the
/// trump and the playing team's card points, then any of `roem NS/EW`,
/// `pit` (to the team with every card point), `revoke TEAM` and
/// `doubles N TEAM` (the team that doubled last), e.g. `S H 102 roem 20/0`;
/// in a boem `out TEAM` (went on by points), `outright TEAM [STROKES]` and
/// `others N` (the other team's card points where the hand ended early).
impl FromStr for EnteredDeal {
    type Err = ParseError;
    fn from_str(line: &str) -> Result<EnteredDeal, ParseError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = std::cell::Cell::new(0);
        let next = |what: &'static str| {
            at.set(at.get() + 1);
            words.get(at.get() - 1).copied().ok_or_else(|| ParseError::new(what, "(nothing)"))
        };
        let declarer = next("seat")?.parse()?;
        let trump = next("suit")?.parse()?;
        let word = next("card points")?;
        let points = word.parse().map_err(|_| ParseError::new("card points", word))?;
        let contract = Contract { trump, declarer, forced: false };
        let mut deal = EnteredDeal {
            contract,
            stakes: Stakes::default(),
            points,
            roem: PerTeam::new(0, 0),
            pit: None,
            revoke: None,
            out: None,
            others: None,
        };
        let playing = contract.playing_team();
        let number = |what: &'static str, w: &str| w.parse::<u16>().map_err(|_| ParseError::new(what, w));
        while let Ok(word) = next("word") {
            match word.to_ascii_lowercase().as_str() {
                "roem" => {
                    let both = next("roem")?;
                    let (ns, ew) = both.split_once('/').ok_or_else(|| ParseError::new("roem (NS/EW)", both))?;
                    deal.roem = PerTeam::new(number("roem", ns)?, number("roem", ew)?);
                }
                "pit" => deal.pit = Some(if points == 0 { playing.other() } else { playing }),
                "revoke" => deal.revoke = Some(next("team")?.parse()?),
                "doubles" => {
                    let n = next("doubles")?;
                    deal.stakes.doubles = n.parse().map_err(|_| ParseError::new("doubles", n))?;
                    deal.stakes.challenger = Some(next("team")?.parse()?);
                }
                "out" => deal.out = Some(Out::ByPoints(next("team")?.parse()?)),
                "outright" => {
                    let team = next("team")?.parse()?;
                    // The strokes, where given: 1 or 2 (two by default).
                    let strokes = match words.get(at.get()).and_then(|w| w.parse::<u8>().ok()) {
                        Some(n) => {
                            at.set(at.get() + 1);
                            n
                        }
                        None => 2,
                    };
                    deal.out = Some(Out::Outright(team, strokes));
                }
                "others" => deal.others = Some(number("the others' card points", next("the others' card points")?)?),
                _ => return Err(ParseError::new("word (roem, pit, revoke, doubles, out, outright, others)", word)),
            }
        }
        Ok(deal)
    }
}

/// Why an entry cannot be a deal of these rules, said in words.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EntryError {
    /// The sheet keeps deals of two teams with a playing team; a game of
    /// players alone or of the boem is not entered this way.
    NotATeamGame,
    /// More card points than the deal has.
    TooManyPoints { points: u16, most: u16 },
    /// Roem where the rules count none.
    NoRoemInTheseRules { team: Team },
    /// Roem that no combinations of these rules add up to.
    NotRoem { team: Team, roem: u16 },
    /// A pit takes every card point.
    PitWithoutAllPoints { team: Team, points: u16 },
    /// A team that took no trick counted no roem in one.
    RoemWithoutATrick { team: Team },
    /// A deal lost by a revoke has no pit.
    PitAndRevoke,
    /// Doubles where the rules have none, or more than three.
    Doubles { doubles: u8 },
    /// Going on, or a hand ended early, where the rules have no boem.
    NoBoem,
    /// A hand ended before its last trick only when a side went on.
    EndedWithoutGoingOn,
    /// The two teams' card points are more than the deal's.
    PointsTogether { points: u16, most: u16 },
    /// Went on by points below the target.
    NotThereYet { team: Team, count: u16 },
    /// A side reached the target and nobody said it went on.
    OutUnsaid { team: Team, count: u16 },
    /// Strokes an outright win cannot bring.
    Strokes { strokes: u8 },
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EntryError::NotATeamGame => write!(f, "this game is not kept on a sheet of two teams"),
            EntryError::TooManyPoints { points, most } => {
                write!(f, "{points} card points: a deal has {most}")
            }
            EntryError::NoRoemInTheseRules { team } => write!(f, "{team}: these rules count no roem"),
            EntryError::NotRoem { team, roem } => {
                write!(f, "{team}: {roem} roem is no sum of this game's roem values")
            }
            EntryError::PitWithoutAllPoints { team, points } => {
                write!(f, "{team}: a pit takes all the card points, not {points}")
            }
            EntryError::RoemWithoutATrick { team } => {
                write!(f, "{team} took no trick, so it counted no roem in one")
            }
            EntryError::PitAndRevoke => write!(f, "a deal lost by a revoke has no pit"),
            EntryError::Doubles { doubles } => write!(f, "{doubles} doubles: these rules have no such kraken"),
            EntryError::NoBoem => write!(f, "these rules have no boem to go on"),
            EntryError::EndedWithoutGoingOn => {
                write!(f, "a hand ends before its last trick only when a side goes on")
            }
            EntryError::PointsTogether { points, most } => {
                write!(f, "{points} card points together: a deal has {most}")
            }
            EntryError::NotThereYet { team, count } => {
                write!(f, "{team} counts {count}, not yet {BOEM_TARGET}: it cannot go on")
            }
            EntryError::OutUnsaid { team, count } => {
                write!(f, "{team} counts {count}: say who went on")
            }
            EntryError::Strokes { strokes } => write!(f, "an outright win brings no {strokes} strokes here"),
        }
    }
}

impl std::error::Error for EntryError {}

/// The most roem one team can count in a deal: eight tricks of the
/// highest value with stuk beside it.
fn most_roem(rules: &Rules) -> u16 {
    let best = roem::values(rules.roem_table).into_iter().max().unwrap_or(0);
    8 * (best + roem::STUK)
}

/// Whether `total` is a sum of `values` (each used any number of times).
fn is_a_sum(total: u16, values: &[u16]) -> bool {
    let mut reachable = vec![false; total as usize + 1];
    reachable[0] = true;
    for t in 1..=total as usize {
        reachable[t] = values.iter().any(|&v| v as usize <= t && reachable[t - v as usize]);
    }
    reachable[total as usize]
}

/// Whether a match of `rules` is kept on a sheet of two teams with a
/// Whether a match of `rules` is kept on a sheet of two teams, deal by
/// deal (in a boem hand by hand), not one of players alone. Where the
/// last card dealt makes trump, the dealer's team counts as the playing
/// one: nobody is nat there, both sides simply count.
fn kept_on_a_sheet(rules: &Rules) -> bool {
    rules.players.partnerships()
}

/// Scores a deal entered by hand, or says why it cannot be one; in a boem,
/// as a game's first hand ([`score_entered_after`] for old play).
pub fn score_entered(rules: &Rules, deal: &EnteredDeal) -> Result<DealResult, EntryError> {
    score_entered_after(rules, None, deal)
}

/// [`score_entered`] in a boem's old play: the sides bring `carry` from
/// the game's earlier hands (`None`: a game's first hand).
pub fn score_entered_after(
    rules: &Rules,
    carry: Option<PerTeam<u16>>,
    deal: &EnteredDeal,
) -> Result<DealResult, EntryError> {
    if !kept_on_a_sheet(rules) {
        return Err(EntryError::NotATeamGame);
    }
    let most = rules.deal_points();
    if deal.points > most {
        return Err(EntryError::TooManyPoints { points: deal.points, most });
    }
    if deal.stakes.doubles > 3 || (deal.stakes.doubles > 0 && !rules.kraken) {
        return Err(EntryError::Doubles { doubles: deal.stakes.doubles });
    }
    let values = roem::values(rules.roem_table);
    for team in Team::BOTH {
        let r = deal.roem[team];
        if r > 0 && values.is_empty() {
            return Err(EntryError::NoRoemInTheseRules { team });
        }
        if r > most_roem(rules) || !is_a_sum(r, &values) {
            return Err(EntryError::NotRoem { team, roem: r });
        }
    }
    let boem = rules.races_to_the_boem();
    if !boem && (deal.out.is_some() || deal.others.is_some()) {
        return Err(EntryError::NoBoem);
    }
    if deal.others.is_some() && deal.out.is_none() {
        return Err(EntryError::EndedWithoutGoingOn);
    }
    let playing = deal.contract.playing_team();
    let mut points = PerTeam::new(0, 0);
    points[playing] = deal.points;
    points[playing.other()] = match deal.others {
        Some(n) if u32::from(n) + u32::from(deal.points) > u32::from(most) => {
            return Err(EntryError::PointsTogether { points: n.saturating_add(deal.points), most });
        }
        Some(n) => n,
        None => most - deal.points,
    };
    if let Some(team) = deal.pit {
        if deal.revoke.is_some() {
            return Err(EntryError::PitAndRevoke);
        }
        if points[team] != most {
            return Err(EntryError::PitWithoutAllPoints { team, points: points[team] });
        }
        // Table roem is counted in the tricks a team took.
        if deal.roem[team.other()] > 0 && rules.roem_source == crate::rules::RoemSource::Table {
            return Err(EntryError::RoemWithoutATrick { team: team.other() });
        }
    }
    // Only a pit's trick count is known: eight to one team.
    let mut tricks = PerTeam::new(0, 0);
    if let Some(team) = deal.pit {
        tricks[team] = 8;
    }
    let stakes =
        Stakes { multiplier: Stakes::multiplier(rules, deal.contract.trump, deal.stakes.doubles), ..deal.stakes };
    let mut result = score_deal(rules, deal.contract, stakes, points, deal.roem, tricks);
    if boem {
        result.going_on = going_on(carry, points, deal)?;
    }
    // A revoke decides the deal, as nat does, whatever the points were.
    if let Some(offender) = deal.revoke {
        let winner = offender.other();
        result.nat = offender == playing;
        result.revoke = Some(offender);
        result.pit_bonus = None;
        result.sheet_points = PerTeam::new(0, 0);
        result.sheet_roem = PerTeam::new(0, 0);
        result.sheet_points[winner] = most * stakes.multiplier;
        result.sheet_roem[winner] = (deal.roem.ns + deal.roem.ew) * stakes.multiplier;
    }
    Ok(result)
}

/// Who went on the boem in an entered hand, and on how many strokes: as
/// [`crate::Game`] decides it from the sides' counts (what they bring,
/// their card points and roem).
fn going_on(
    carry: Option<PerTeam<u16>>,
    points: PerTeam<u16>,
    deal: &EnteredDeal,
) -> Result<Option<GoingOn>, EntryError> {
    let brought = carry.unwrap_or(PerTeam::new(0, 0));
    let count = |t: Team| brought[t].saturating_add(points[t]).saturating_add(deal.roem[t]);
    match deal.out {
        None => match Team::BOTH.into_iter().find(|&t| count(t) >= BOEM_TARGET) {
            Some(team) => Err(EntryError::OutUnsaid { team, count: count(team) }),
            None => Ok(None),
        },
        Some(Out::ByPoints(team)) if count(team) < BOEM_TARGET => {
            Err(EntryError::NotThereYet { team, count: count(team) })
        }
        Some(Out::ByPoints(team)) => {
            let strokes = GoingOn::strokes_against(count(team.other()));
            Ok(Some(GoingOn { team, strokes, outright: false }))
        }
        Some(Out::Outright(team, strokes)) => {
            // One stroke only in old play, the others (their roem and what
            // they brought, before the first trick) at 50 or more.
            let others = brought[team.other()].saturating_add(deal.roem[team.other()]);
            let one = carry.is_some() && GoingOn::strokes_against(others) == 1;
            if !(strokes == 2 || (strokes == 1 && one)) {
                return Err(EntryError::Strokes { strokes });
            }
            Ok(Some(GoingOn { team, strokes, outright: true }))
        }
    }
}

/// A match played with real cards, its sheet kept by hand: the deals as
/// the table entered them, each scored by [`score_entered`] whenever the
/// sheet is read, so a correction changes every total after it.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KeptSheet {
    pub rules: Rules,
    /// Who dealt the first deal; the deal turns in the direction of play.
    pub first_dealer: Seat,
    pub lines: Vec<SheetLine>,
}

/// One deal on a kept sheet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SheetLine {
    pub deal: EnteredDeal,
    /// Changed after it was first entered: the sheet shows it as such.
    pub corrected: bool,
}

/// Why a kept sheet takes no entry.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SheetError {
    /// The deal cannot be, for this reason.
    Entry(EntryError),
    /// The match is over: no deal follows.
    Over,
    /// There is no deal of that number to correct.
    NoSuchDeal { number: usize },
    /// The correction would leave a later deal that no longer scores (in a
    /// boem, the counts it was entered on have changed).
    Breaks { number: usize, error: EntryError },
}

impl fmt::Display for SheetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SheetError::Entry(e) => e.fmt(f),
            SheetError::Over => write!(f, "the match is over"),
            SheetError::NoSuchDeal { number } => write!(f, "there is no deal {number} on the sheet"),
            SheetError::Breaks { number, error } => write!(f, "deal {number} would no longer score: {error}"),
        }
    }
}

impl std::error::Error for SheetError {}

impl From<EntryError> for SheetError {
    fn from(e: EntryError) -> SheetError {
        SheetError::Entry(e)
    }
}

impl KeptSheet {
    /// A new sheet, where these rules are kept on one.
    pub fn new(rules: Rules, first_dealer: Seat) -> Result<KeptSheet, EntryError> {
        if !kept_on_a_sheet(&rules) {
            return Err(EntryError::NotATeamGame);
        }
        Ok(KeptSheet { rules, first_dealer, lines: Vec::new() })
    }

    /// Who deals the next deal.
    pub fn dealer(&self) -> Seat {
        self.dealer_of(self.lines.len() + 1)
    }

    /// Who leads the next deal: the player after the dealer.
    pub fn leader(&self) -> Seat {
        self.rules.players.next(self.rules.direction, self.dealer())
    }

    /// Who dealt (or deals) deal `number`, from 1.
    pub fn dealer_of(&self, number: usize) -> Seat {
        self.rules.players.step(self.rules.direction, self.first_dealer, number.saturating_sub(1))
    }

    /// The first line that does not score (a sheet kept by an older
    /// version, or damaged), with why.
    pub fn broken(&self) -> Option<(usize, EntryError)> {
        self.scored().1
    }

    /// Every deal scored, as a sheet. A saved sheet's lines that no longer
    /// score (a damaged file) are left out.
    pub fn sheet(&self) -> ScoreSheet {
        self.scored().0
    }

    /// Every deal scored in turn, each with what the boem's sides bring
    /// to it; and the first line that does not score, with why.
    fn scored(&self) -> (ScoreSheet, Option<(usize, EntryError)>) {
        let mut sheet = ScoreSheet { rows: Vec::with_capacity(self.lines.len()) };
        let mut broken = None;
        for (i, line) in self.lines.iter().enumerate() {
            match score_entered_after(&self.rules, sheet.carry(), &line.deal) {
                Ok(result) => sheet.rows.push(result),
                Err(e) => {
                    broken = broken.or(Some((i + 1, e)));
                }
            }
        }
        (sheet, broken)
    }

    /// What the boem's sides bring to the next hand (`None`: a new game).
    pub fn carry(&self) -> Option<PerTeam<u16>> {
        self.sheet().carry()
    }

    pub fn is_over(&self) -> bool {
        !self.lines.is_empty() && self.sheet().match_over(&self.rules)
    }

    /// The winning team once the match is over; `None` on a tie.
    pub fn winner(&self) -> Option<Team> {
        self.sheet().leading_team(&self.rules).filter(|_| self.is_over())
    }

    /// Adds the next deal, or says why it cannot be.
    pub fn enter(&mut self, deal: EnteredDeal) -> Result<DealResult, SheetError> {
        if self.is_over() {
            return Err(SheetError::Over);
        }
        let result = score_entered_after(&self.rules, self.carry(), &deal)?;
        self.lines.push(SheetLine { deal, corrected: false });
        Ok(result)
    }

    /// Replaces deal `number` (from 1); the deals after it stay.
    pub fn correct(&mut self, number: usize, deal: EnteredDeal) -> Result<DealResult, SheetError> {
        let i = number.checked_sub(1).filter(|&i| i < self.lines.len()).ok_or(SheetError::NoSuchDeal { number })?;
        let before = KeptSheet { lines: self.lines[..i].to_vec(), ..self.clone() };
        let result = score_entered_after(&self.rules, before.carry(), &deal)?;
        let was = std::mem::replace(&mut self.lines[i], SheetLine { deal, corrected: true });
        if let (_, Some((number, error))) = self.scored() {
            self.lines[i] = was;
            return Err(SheetError::Breaks { number, error });
        }
        Ok(result)
    }

    /// Takes the last deal off the sheet.
    pub fn undo(&mut self) -> Option<SheetLine> {
        self.lines.pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Deal, Game, Preset, Seat, Suit};

    /// A deal of `rules` played to its end by picking among the legal
    /// actions with a small generator seeded by `seed`.
    fn played(rules: Rules, seed: u64) -> DealResult {
        played_after(rules, seed, None)
    }

    /// [`played`] in a boem's old play, the sides bringing `carry`.
    fn played_after(rules: Rules, seed: u64, carry: Option<PerTeam<u16>>) -> DealResult {
        let deal = Deal::shuffled(seed, Seat::ALL[seed as usize % 4]);
        let mut game = Game::new(rules, deal).unwrap().with_carry(carry);
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while let Some(seat) = game.to_act() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let legal = game.view(seat).legal;
            game.apply(legal[state as usize % legal.len()]).unwrap();
        }
        *game.result().unwrap()
    }

    /// What a person at the table writes down of a played deal: in a
    /// boem, who went on and how, and both teams' points where the hand
    /// ended before its last trick.
    fn entered(result: &DealResult) -> EnteredDeal {
        let playing = result.contract.playing_team();
        let early = result.tricks.ns + result.tricks.ew < 8;
        EnteredDeal {
            contract: result.contract,
            stakes: result.stakes,
            points: result.points[playing],
            roem: result.roem,
            pit: result.pit,
            revoke: None,
            out: result
                .going_on
                .map(|g| if g.outright { Out::Outright(g.team, g.strokes) } else { Out::ByPoints(g.team) }),
            others: early.then_some(result.points[playing.other()]),
        }
    }

    /// Only a pit's trick count is written down.
    fn pit_tricks(result: &DealResult) -> PerTeam<u8> {
        result.pit.map_or(PerTeam::new(0, 0), |t| if t == Team::NS { PerTeam::new(8, 0) } else { PerTeam::new(0, 8) })
    }

    #[test]
    fn entered_hands_of_a_boem_score_as_the_played_ones_did() {
        let rules = Preset::Klawerjas.rules();
        let mut kept = KeptSheet::new(rules, Seat::West).unwrap();
        let (mut early, mut outright, mut one_stroke, mut boems) = (0, 0, 0, 0);
        for seed in 0..3000u64 {
            let carry = kept.carry();
            let result = played_after(rules, seed, carry);
            let deal = entered(&result);
            let scored =
                score_entered_after(&rules, carry, &deal).unwrap_or_else(|e| panic!("seed {seed}: {e} ({deal:?})"));
            assert_eq!(scored, DealResult { tricks: pit_tricks(&result), ..result }, "seed {seed}");
            kept.enter(deal).unwrap();
            early += deal.others.is_some() as u32;
            outright += matches!(deal.out, Some(Out::Outright(..))) as u32;
            one_stroke += result.going_on.is_some_and(|g| g.strokes == 1) as u32;
            if kept.is_over() {
                boems += 1;
                kept = KeptSheet::new(rules, Seat::West).unwrap();
            }
        }
        // Random play makes each case often enough to count.
        println!("{early} ended early, {outright} outright, {one_stroke} on one stroke, {boems} boems");
        assert!(early > 0 && outright > 0 && one_stroke > 0 && boems > 0);
    }

    #[test]
    fn an_entered_deal_scores_as_the_played_one_did() {
        for preset in [Preset::Classic, Preset::Amsterdam, Preset::Rotterdam, Preset::WildeBoom] {
            let (mut pits, mut nats, mut doubled) = (0, 0, 0);
            for seed in 0..3000 {
                let result = played(preset.rules(), seed);
                let scored = score_entered(&preset.rules(), &entered(&result)).unwrap();
                assert_eq!(scored, DealResult { tricks: pit_tricks(&result), ..result }, "{preset} seed {seed}");
                assert_eq!(scored.marks(Team::NS), result.marks(Team::NS));
                pits += result.pit.is_some() as u32;
                nats += result.nat as u32;
                doubled += (result.stakes.doubles > 0) as u32;
            }
            // Random play makes each case often enough to count.
            assert!(pits > 0 && nats > 0, "{preset}: {pits} pits, {nats} nats");
            assert!(preset != Preset::WildeBoom || doubled > 0, "no kraken in {preset}");
        }
    }

    fn deal(points: u16, roem: (u16, u16)) -> EnteredDeal {
        let contract = Contract { trump: Suit::Hearts, declarer: Seat::South, forced: false };
        EnteredDeal {
            contract,
            stakes: Stakes::default(),
            points,
            roem: PerTeam::new(roem.0, roem.1),
            pit: None,
            revoke: None,
            out: None,
            others: None,
        }
    }

    #[test]
    fn entries_that_cannot_be_are_refused_with_their_reason() {
        let classic = Rules::classic();
        let refused = |d: EnteredDeal| score_entered(&classic, &d).unwrap_err();
        assert_eq!(refused(deal(163, (0, 0))), EntryError::TooManyPoints { points: 163, most: 162 });
        assert_eq!(refused(deal(100, (30, 0))), EntryError::NotRoem { team: Team::NS, roem: 30 });
        assert_eq!(refused(deal(100, (0, 10))), EntryError::NotRoem { team: Team::EW, roem: 10 });
        assert_eq!(
            refused(EnteredDeal { pit: Some(Team::NS), ..deal(150, (0, 0)) }),
            EntryError::PitWithoutAllPoints { team: Team::NS, points: 150 }
        );
        assert_eq!(
            refused(EnteredDeal { pit: Some(Team::NS), ..deal(162, (0, 20)) }),
            EntryError::RoemWithoutATrick { team: Team::EW }
        );
        assert_eq!(
            refused(EnteredDeal { pit: Some(Team::NS), revoke: Some(Team::EW), ..deal(162, (0, 0)) }),
            EntryError::PitAndRevoke
        );
        assert_eq!(
            refused(EnteredDeal {
                stakes: Stakes { doubles: 1, challenger: Some(Team::EW), multiplier: 2 },
                ..deal(100, (0, 0))
            }),
            EntryError::Doubles { doubles: 1 }
        );
        assert_eq!(
            score_entered(&Rules::klawerjas(), &EnteredDeal { out: Some(Out::ByPoints(Team::NS)), ..deal(90, (0, 0)) }),
            Err(EntryError::NotThereYet { team: Team::NS, count: 90 })
        );
        assert_eq!(
            score_entered(&classic, &EnteredDeal { out: Some(Out::ByPoints(Team::NS)), ..deal(90, (0, 0)) }),
            Err(EntryError::NoBoem)
        );
        // The two teams' points together are refused past the deal's, not
        // wrapped around.
        let huge = EnteredDeal { out: Some(Out::ByPoints(Team::NS)), others: Some(65500), ..deal(100, (0, 0)) };
        assert_eq!(
            score_entered(&Rules::klawerjas(), &huge),
            Err(EntryError::PointsTogether { points: u16::MAX, most: Rules::klawerjas().deal_points() })
        );
        assert_eq!(score_entered(&Rules::three(), &deal(100, (0, 0))), Err(EntryError::NotATeamGame));
        // Every refusal says what is wrong in words.
        assert_eq!(refused(deal(100, (30, 0))).to_string(), "NS: 30 roem is no sum of this game's roem values");
        // 40, 70 and 90 are sums (20+20, 50+20, 50+20+20); 20, 50 and 100 values.
        for roem in [20, 40, 50, 70, 90, 100, 140] {
            assert!(score_entered(&classic, &deal(100, (roem, 0))).is_ok(), "{roem}");
        }
    }

    #[test]
    fn a_line_reads_as_a_deal_and_a_bad_word_is_named() {
        let d: EnteredDeal = "S H 102 roem 20/0".parse().unwrap();
        assert_eq!(d, EnteredDeal { roem: PerTeam::new(20, 0), ..deal(102, (0, 0)) });
        let d: EnteredDeal = "W s 0 pit revoke EW doubles 2 NS".parse().unwrap();
        assert_eq!(
            (d.pit, d.revoke, d.stakes.doubles, d.stakes.challenger),
            (Some(Team::NS), Some(Team::EW), 2, Some(Team::NS))
        );
        let bad = |line: &str| line.parse::<EnteredDeal>().unwrap_err().to_string();
        assert_eq!(bad("S H 10x"), "unknown card points '10x'");
        assert_eq!(bad("S H 100 roem 20-0"), "unknown roem (NS/EW) '20-0'");
        assert_eq!(bad("S H 100 nat"), "unknown word (roem, pit, revoke, doubles, out, outright, others) 'nat'");
        assert_eq!(bad("Q H 100"), "unknown seat 'Q'");
        assert_eq!(bad("S"), "unknown suit '(nothing)'");
    }

    #[test]
    fn a_kept_sheet_turns_the_deal_corrects_undoes_and_ends() {
        let mut kept = KeptSheet::new(Rules::classic(), Seat::West).unwrap();
        assert_eq!((kept.dealer(), kept.leader()), (Seat::West, Seat::North));
        for n in 0..16 {
            assert!(!kept.is_over());
            kept.enter(deal(100 + n, (20, 0))).unwrap();
        }
        assert_eq!(kept.dealer(), Seat::West, "sixteen deals turn the deal round four times");
        assert!(kept.is_over());
        assert_eq!(kept.winner(), Some(Team::NS));
        assert_eq!(kept.enter(deal(100, (0, 0))), Err(SheetError::Over));
        let before = kept.sheet().totals();
        // Deal 3 was nat after all: everything goes to EW, corrected.
        assert!(kept.correct(3, deal(60, (0, 0))).unwrap().nat);
        assert!(kept.lines[2].corrected);
        assert_eq!(kept.sheet().totals().ew, before.ew - 60 + 162);
        assert_eq!(kept.correct(17, deal(60, (0, 0))), Err(SheetError::NoSuchDeal { number: 17 }));
        // A refused correction keeps what was there.
        assert_eq!(
            kept.correct(4, deal(170, (0, 0))),
            Err(SheetError::Entry(EntryError::TooManyPoints { points: 170, most: 162 }))
        );
        assert_eq!(kept.lines[3].deal.points, 103);
        assert_eq!(kept.undo().map(|l| l.deal.points), Some(115));
        assert!(!kept.is_over());
        assert_eq!(KeptSheet::new(Rules::three(), Seat::West), Err(EntryError::NotATeamGame));
    }

    #[test]
    fn a_revoke_gives_the_other_team_everything() {
        let classic = Rules::classic();
        let by_players =
            score_entered(&classic, &EnteredDeal { revoke: Some(Team::NS), ..deal(120, (20, 50)) }).unwrap();
        assert!(by_players.nat);
        assert_eq!((by_players.sheet_points, by_players.sheet_roem), (PerTeam::new(0, 162), PerTeam::new(0, 70)));
        assert_eq!((by_players.marks(Team::NS), by_players.marks(Team::EW)), (String::new(), roem::marks(70)));
        let by_defenders =
            score_entered(&classic, &EnteredDeal { revoke: Some(Team::EW), ..deal(40, (0, 20)) }).unwrap();
        assert!(!by_defenders.nat);
        assert_eq!((by_defenders.sheet_points, by_defenders.sheet_roem), (PerTeam::new(162, 0), PerTeam::new(20, 0)));
    }

    mod fuzz {
        use super::*;
        use proptest::prelude::*;

        /// One thing a person does at the sheet, whatever they type.
        #[derive(Clone, Debug)]
        enum Op {
            Enter(u8, u8, u16, u16, u16, u8, u8, u8),
            Correct(usize, u16),
            Undo,
        }

        fn op() -> impl Strategy<Value = Op> {
            prop_oneof![
                // Mostly what a table could write (roem in tens), sometimes anything.
                6 => (0u8..4, 0u8..4, 0u16..175, roem(), roem(), 0u8..6, 0u8..8, 0u8..5)
                    .prop_map(|(s, t, p, a, b, pit, rev, d)| Op::Enter(s, t, p, a, b, pit, rev, d)),
                2 => (0usize..20, 0u16..175).prop_map(|(n, p)| Op::Correct(n, p)),
                1 => Just(Op::Undo),
            ]
        }

        fn roem() -> impl Strategy<Value = u16> {
            prop_oneof![4 => Just(0u16), 4 => (0u16..30).prop_map(|r| r * 10), 1 => 0u16..400]
        }

        /// Mostly none.
        fn team(n: u8) -> Option<Team> {
            match n {
                1 => Some(Team::NS),
                2 => Some(Team::EW),
                _ => None,
            }
        }

        proptest! {
            /// Nothing panics, every refusal says why, every line kept
            /// scores, and the sheet saved (JSON here, RON in the app)
            /// reads back the same at every step.
            #[test]
            fn any_entries_keep_a_sheet_that_replays(preset in 0usize..4, ops in proptest::collection::vec(op(), 0..60)) {
                let preset = [Preset::Classic, Preset::Amsterdam, Preset::Rotterdam, Preset::WildeBoom][preset];
                let mut kept = KeptSheet::new(preset.rules(), Seat::West).unwrap();
                for op in ops {
                    let outcome = match op {
                        Op::Enter(seat, trump, points, ns, ew, pit, revoke, doubles) => {
                            let contract = Contract { trump: Suit::ALL[trump as usize], declarer: Seat::ALL[seat as usize], forced: false };
                            let challenger = (doubles > 0).then_some(contract.playing_team().other());
                            let stakes = Stakes { doubles, challenger, multiplier: 1 };
                            let deal = EnteredDeal { contract, stakes, points, roem: PerTeam::new(ns, ew), pit: team(pit), revoke: team(revoke), out: None, others: None };
                            kept.enter(deal).map(|_| ())
                        }
                        Op::Correct(n, points) => {
                            let deal = kept.lines.get(n.saturating_sub(1)).map_or(deal(points, (0, 0)), |l| EnteredDeal { points, ..l.deal });
                            kept.correct(n, deal).map(|_| ())
                        }
                        Op::Undo => {
                            kept.undo();
                            Ok(())
                        }
                    };
                    if let Err(e) = outcome {
                        prop_assert!(!e.to_string().is_empty());
                    }
                    prop_assert_eq!(kept.sheet().rows.len(), kept.lines.len());
                    let saved = serde_json::to_string(&kept).unwrap();
                    let back: KeptSheet = serde_json::from_str(&saved).unwrap();
                    prop_assert_eq!(&back, &kept);
                    prop_assert_eq!(back.sheet().totals(), kept.sheet().totals());
                }
            }
        }
    }
}
