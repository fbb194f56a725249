//! Scoring a deal (RULES section 6) and the match score sheet as players
//! write it (seed 000's example score card).

use crate::bidding::{Bid, Contract};
use crate::card::Suit;
use crate::roem::marks;
use crate::rules::{MatchLength, Rules};
use crate::seat::{PerTeam, Seat, Team};
use std::fmt::Write;

/// Pit (*mars*): all eight tricks to one team.
pub const PIT_BONUS: u16 = 100;

/// What a deal is played for: how often it was doubled (*kraken*) and the
/// factor every score of the deal is multiplied by.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Stakes {
    /// 0 to 3: none, kraak, rekraak, superkraak.
    pub doubles: u8,
    /// The team that doubled last: it must score more than the other.
    pub challenger: Option<Team>,
    /// 1, 2, 4 or 8 for the doubles, twice that where spades as trump
    /// count double.
    pub multiplier: u16,
}

impl Default for Stakes {
    fn default() -> Stakes {
        Stakes { doubles: 0, challenger: None, multiplier: 1 }
    }
}

impl Stakes {
    /// The stakes the bids so far have set, with `trump` as trump.
    pub fn of(rules: &Rules, trump: Suit, bids: &[(Seat, Bid)]) -> Stakes {
        let doublers: Vec<Seat> = bids.iter().filter(|(_, b)| *b == Bid::Double).map(|&(s, _)| s).collect();
        let doubles = doublers.len() as u8;
        Stakes {
            doubles,
            challenger: doublers.last().map(|s| s.team()),
            multiplier: Stakes::multiplier(rules, trump, doubles),
        }
    }

    /// The factor a deal's scores are multiplied by after `doubles`
    /// doubles with `trump` as trump.
    pub const fn multiplier(rules: &Rules, trump: Suit, doubles: u8) -> u16 {
        let spades = rules.spades_double && matches!(trump, Suit::Spades);
        1 << (doubles as u16 + spades as u16)
    }
}

/// The outcome of one deal, ready for the score sheet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DealResult {
    pub contract: Contract,
    /// Card points won in tricks, with the last-trick bonus (sum 162).
    pub points: PerTeam<u16>,
    /// Roem that counts: called (or, in automatic presets, all) roem of the
    /// tricks each team won.
    pub roem: PerTeam<u16>,
    pub tricks: PerTeam<u8>,
    /// The playing team did not score more than half: *nat*.
    pub nat: bool,
    /// The team that took all eight tricks, if one did.
    pub pit: Option<Team>,
    /// The team that receives the pit bonus (not the defenders where the
    /// rules give pit to the playing team only).
    pub pit_bonus: Option<Team>,
    /// The sheet's points column: trick points, or 162 to the team that
    /// takes everything (the defenders when the playing team is nat, the
    /// winner of a doubled deal), times the stakes' multiplier.
    pub sheet_points: PerTeam<u16>,
    /// The sheet's roem column: credited roem plus any pit bonus, times
    /// the stakes' multiplier.
    pub sheet_roem: PerTeam<u16>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub stakes: Stakes,
    /// The side that went on the boem in this hand, if one did.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub going_on: Option<GoingOn>,
    /// Where everyone plays alone (three players), what each player won
    /// and scores; the team columns then only add seats up by
    /// [`Seat::team`] and mean nothing at the table.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub players: Option<PlayerScores>,
    /// The team that did not follow suit when it could, in a deal entered
    /// by hand ([`crate::entered`]): the other team takes everything.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub revoke: Option<Team>,
}

/// One deal's count where everyone plays alone, by [`Seat::index`] (the
/// empty chair holds zeros).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerScores {
    /// Trick points, the last trick's bonus and the cards laid away
    /// with them.
    pub points: [u16; 4],
    pub roem: [u16; 4],
    pub tricks: [u8; 4],
    /// What each writes on the sheet, times the stakes' multiplier.
    pub score: [u16; 4],
}

/// The points a side must reach to win a game of the boem (002: "the
/// first to win at least 100 of the minimum 146 points available").
pub const BOEM_TARGET: u16 = 100;

/// A side that reaches the target while the other has fewer than this
/// goes on two strokes (002: "When a team reaches 100 points before the
/// opposing team has scored 50 points or more, they gain two strokes").
pub const TWO_STROKES_UNDER: u16 = 50;

/// A side going on the boem: it won the game, by reaching the target or
/// by a combination that wins outright.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GoingOn {
    pub team: Team,
    /// 1 or 2.
    pub strokes: u8,
    /// Won by *vyf-eenderse* or four of a kind rather than by points.
    pub outright: bool,
}

impl GoingOn {
    /// Strokes for reaching the target, the other side standing at
    /// `others`.
    pub const fn strokes_against(others: u16) -> u8 {
        if others < TWO_STROKES_UNDER { 2 } else { 1 }
    }
}

impl DealResult {
    /// What each team scores for the deal.
    pub fn final_score(&self) -> PerTeam<u16> {
        PerTeam::new(self.total(Team::NS), self.total(Team::EW))
    }

    pub fn total(&self, team: Team) -> u16 {
        self.sheet_points[team] + self.sheet_roem[team]
    }

    /// The team that scores everything of the deal: the defenders when
    /// the playing team is nat, and the winner of a doubled deal.
    pub fn takes_all(&self) -> Option<Team> {
        if let Some(offender) = self.revoke {
            return Some(offender.other());
        }
        let playing = self.contract.playing_team();
        if self.nat { Some(playing.other()) } else { (self.stakes.doubles > 0).then_some(playing) }
    }

    /// The roem written beside `team`'s score, before the stakes'
    /// multiplier: its own, all of it when it takes everything, none when
    /// the other team does.
    pub fn credited_roem(&self, team: Team) -> u16 {
        match self.takes_all() {
            None => self.roem[team],
            Some(t) if t == team => self.roem.ns + self.roem.ew,
            Some(_) => 0,
        }
    }

    /// The marks players write beside a score: VV for pit, then the roem as
    /// strokes (20 = I, 50 = V, 100 = O), as it counts: times the stakes'
    /// multiplier.
    pub fn marks(&self, team: Team) -> String {
        let pit = if self.pit_bonus == Some(team) { "VV" } else { "" };
        format!("{pit}{}", marks(self.credited_roem(team) * self.stakes.multiplier))
    }
}

/// Scores a deal from what each team won (RULES section 6): the playing
/// team must score more than half of 162 plus all counted roem; a tie is
/// nat, and then the defenders receive 162 plus all roem. Pit adds 100.
///
/// A doubled deal (RULES section 8, seed 001's Wilde Boom) is won by the
/// team that doubled last if it scores more than the other, and by the
/// other team if not (so a kraak that only ties is lost); its winner takes
/// everything: "a number of points equal to all the points earned by both
/// teams during that hand". The stakes' multiplier applies to all of it.
pub fn score_deal(
    rules: &Rules,
    contract: Contract,
    stakes: Stakes,
    points: PerTeam<u16>,
    roem: PerTeam<u16>,
    tricks: PerTeam<u8>,
) -> DealResult {
    let playing = contract.playing_team();
    let pit = Team::BOTH.into_iter().find(|&t| tricks[t] == 8);
    // Undoubled, the playing team must score more than the defenders,
    // which is more than half.
    let challenger = stakes.challenger.unwrap_or(playing);
    let total = |t: Team| points[t] + roem[t];
    let winner = if total(challenger) > total(challenger.other()) { challenger } else { challenger.other() };
    // Where the last card dealt makes trump nobody plays against the other
    // side, so nobody can be nat, unless a double made one side challenge.
    let nat = winner != playing && (rules.has_playing_team() || stakes.doubles > 0);
    let mut result = DealResult {
        contract,
        points,
        roem,
        tricks,
        nat,
        pit,
        // Pit goes with the deal: a team that took every trick and still
        // lost it (to roem from the hands) scores nothing.
        // 002 knows no bonus for every trick.
        pit_bonus: pit
            .filter(|&t| rules.has_playing_team() && t == winner && (t == playing || rules.pit_for_defenders)),
        sheet_points: points,
        sheet_roem: roem,
        stakes,
        going_on: None,
        players: None,
        revoke: None,
    };
    if let Some(all) = result.takes_all() {
        result.sheet_points = PerTeam::default();
        result.sheet_roem = PerTeam::default();
        result.sheet_points[all] = rules.deal_points();
        result.sheet_roem[all] = roem.ns + roem.ew;
    }
    if let Some(team) = result.pit_bonus {
        result.sheet_roem[team] += PIT_BONUS;
    }
    for team in Team::BOTH {
        result.sheet_points[team] *= stakes.multiplier;
        result.sheet_roem[team] *= stakes.multiplier;
    }
    result
}

/// Scores a deal of the game for three (001): "If the Trumpmaker manages
/// to score more than half the total points scored by all during that
/// hand, each player, including the Trumpmaker score a number of Game
/// Points equal to the points earned during that hand"; if not, "the
/// Trumpmaker scores zero points for the hand, and each opponent scores a
/// number of points equal to the total of all points scored during that
/// hand by all players". Roem counts with the points. The source knows no
/// bonus for every trick, so there is no pit.
pub fn score_alone(
    rules: &Rules,
    contract: Contract,
    stakes: Stakes,
    points: [u16; 4],
    roem: [u16; 4],
    tricks: [u8; 4],
) -> DealResult {
    let own = |i: usize| points[i] + roem[i];
    let all: u16 = (0..4).map(own).sum();
    let maker = contract.declarer.index();
    let nat = 2 * own(maker) <= all;
    let score: [u16; 4] = std::array::from_fn(|i| {
        let seated = rules.players.seats_at(Seat::from_index(i));
        let won = match (seated, nat) {
            (false, _) => 0,
            (true, false) => own(i),
            (true, true) if i == maker => 0,
            (true, true) => all,
        };
        won * stakes.multiplier
    });
    DealResult {
        contract,
        points: by_team(points),
        roem: by_team(roem),
        tricks: by_team(tricks),
        nat,
        pit: None,
        pit_bonus: None,
        sheet_points: by_team(score),
        sheet_roem: PerTeam::default(),
        stakes,
        going_on: None,
        players: Some(PlayerScores { points, roem, tricks, score }),
        revoke: None,
    }
}

/// Values by [`Seat::index`] added up by [`Seat::team`].
fn by_team<T: Copy + Default + std::ops::AddAssign>(v: [T; 4]) -> PerTeam<T> {
    let mut t = PerTeam::default();
    Seat::ALL.into_iter().for_each(|seat| t[seat.team()] += v[seat.index()]);
    t
}

/// The score sheet of a match: one row per deal and the totals.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScoreSheet {
    pub rows: Vec<DealResult>,
}

impl ScoreSheet {
    /// Sum of the points column ("points in rounds").
    pub fn points(&self) -> PerTeam<u32> {
        self.sum(|r, t| r.sheet_points[t])
    }

    /// Sum of the roem column, pit included.
    pub fn roem(&self) -> PerTeam<u32> {
        self.sum(|r, t| r.sheet_roem[t])
    }

    pub fn totals(&self) -> PerTeam<u32> {
        self.sum(|r, t| r.total(t))
    }

    /// Each player's total where everyone plays alone, by
    /// [`Seat::index`].
    pub fn player_totals(&self) -> [u32; 4] {
        std::array::from_fn(|i| self.rows.iter().filter_map(|r| r.players).map(|p| p.score[i] as u32).sum())
    }

    /// Strokes each side has gone on the boem.
    pub fn strokes(&self) -> PerTeam<u8> {
        let on = |t: Team| {
            let mine = self.rows.iter().filter_map(|r| r.going_on).filter(|g| g.team == t);
            mine.fold(0u8, |n, g| n.saturating_add(g.strokes))
        };
        PerTeam::new(on(Team::NS), on(Team::EW))
    }

    /// What each side carries into the next hand of the boem: the points
    /// of the hands since a side last went on (*old play*); nothing at the
    /// start of a game.
    pub fn carry(&self) -> Option<PerTeam<u16>> {
        let since = self.rows.iter().rev().take_while(|r| r.going_on.is_none());
        let rows: Vec<&DealResult> = since.collect();
        (!rows.is_empty()).then(|| {
            let carried = |t: Team| rows.iter().fold(0u16, |n, r| n.saturating_add(r.total(t)));
            PerTeam::new(carried(Team::NS), carried(Team::EW))
        })
    }

    /// Whether a match of `rules` is over with this sheet, at the end of
    /// a deal: its deals played, a target reached (and no tie), or the
    /// boem's strokes gone on.
    pub fn match_over(&self, rules: &Rules) -> bool {
        let totals = self.totals();
        match rules.match_length {
            MatchLength::Deals(n) => self.rows.len() >= n as usize,
            MatchLength::Points(target) if !rules.players.partnerships() => {
                self.top_player(rules).is_some_and(|s| self.player_totals()[s.index()] >= target)
            }
            MatchLength::Points(target) => totals.ns.max(totals.ew) >= target && totals.ns != totals.ew,
            MatchLength::Boem(strokes) => {
                let on = self.strokes();
                on.ns.max(on.ew) >= strokes
            }
        }
    }

    /// The team ahead by what decides a match of `rules` (strokes on the
    /// boem, else the totals); `None` on a tie.
    pub fn leading_team(&self, rules: &Rules) -> Option<Team> {
        let t = match rules.match_length {
            MatchLength::Boem(_) => self.strokes().map(u32::from),
            _ => self.totals(),
        };
        (t.ns != t.ew).then_some(if t.ns > t.ew { Team::NS } else { Team::EW })
    }

    /// The player alone at the top of the sheet where everyone plays
    /// alone, if nobody ties there.
    pub fn top_player(&self, rules: &Rules) -> Option<Seat> {
        let totals = self.player_totals();
        let seats = rules.players.seats();
        let top = seats.iter().copied().max_by_key(|s| totals[s.index()])?;
        let tied = seats.iter().filter(|s| totals[s.index()] == totals[top.index()]).count();
        (tied == 1).then_some(top)
    }

    fn sum(&self, f: impl Fn(&DealResult, Team) -> u16) -> PerTeam<u32> {
        let total = |t| self.rows.iter().map(|r| f(r, t) as u32).sum();
        PerTeam::new(total(Team::NS), total(Team::EW))
    }

    /// The sheet as players write it: marks, points (a dash for nothing),
    /// then the points, roem and grand totals.
    pub fn render(&self, names: PerTeam<&str>) -> String {
        let mut s = String::new();
        let cell = |marks: &str, value: String| format!("{marks:<5}{value:>5}");
        let line = "-".repeat(11) + "+" + &"-".repeat(11);
        let _ = writeln!(s, "{:>10} | {:<10}", names.ns, names.ew);
        let _ = writeln!(s, "{line}");
        for row in &self.rows {
            let value = |t: Team| {
                if row.total(t) == 0 { "-".to_string() } else { row.sheet_points[t].to_string() }
            };
            let _ = writeln!(
                s,
                "{} | {:>5}  {}{}",
                cell(&row.marks(Team::NS), value(Team::NS)),
                value(Team::EW),
                row.marks(Team::EW),
                match (row.revoke, row.nat) {
                    (Some(_), _) => "  (revoke)",
                    (None, true) => "  (nat)",
                    (None, false) => "",
                },
            );
            if let Some(on) = row.going_on {
                let team = if on.team == Team::NS { names.ns } else { names.ew };
                let how = if on.outright { ", outright" } else { "" };
                let _ = writeln!(s, "{:>10} | {:<10}  ({team} on {}{how})", "", "", on.strokes);
            }
            if row.stakes.multiplier > 1 {
                let _ = writeln!(s, "{:>10} | {:<10}  (x{})", "", "", row.stakes.multiplier);
            }
        }
        let _ = writeln!(s, "{line}");
        for (label, sum) in [("points", self.points()), ("roem", self.roem())] {
            let _ = writeln!(s, "{:>10} | {:>5}       ({label})", sum.ns, sum.ew);
        }
        let _ = writeln!(s, "{line}");
        let t = self.totals();
        let _ = writeln!(s, "{:>10} | {:>5}       (total)", t.ns, t.ew);
        if self.rows.iter().any(|r| r.going_on.is_some()) {
            let st = self.strokes();
            let _ = writeln!(s, "{:>10} | {:>5}       (strokes)", st.ns, st.ew);
        }
        s
    }
}

impl DealResult {
    /// The same result with the table turned so that `seat` sits at South
    /// ([`crate::Deal::seen_from`]): every seat moves as many places, and
    /// the teams swap names when the turn is odd.
    pub fn seen_from(&self, seat: Seat) -> DealResult {
        let turn = seat.turn_to_south();
        let swap = turn % 2 == 1;
        let team = |t: Team| if swap { t.other() } else { t };
        fn teams<T: Copy>(p: PerTeam<T>, swap: bool) -> PerTeam<T> {
            if swap { PerTeam::new(p.ew, p.ns) } else { p }
        }
        fn seats<T: Copy>(a: [T; 4], turn: usize) -> [T; 4] {
            let mut out = a;
            for s in Seat::ALL {
                out[s.after(turn).index()] = a[s.index()];
            }
            out
        }
        DealResult {
            contract: Contract { declarer: self.contract.declarer.after(turn), ..self.contract },
            points: teams(self.points, swap),
            roem: teams(self.roem, swap),
            tricks: teams(self.tricks, swap),
            nat: self.nat,
            pit: self.pit.map(team),
            pit_bonus: self.pit_bonus.map(team),
            sheet_points: teams(self.sheet_points, swap),
            sheet_roem: teams(self.sheet_roem, swap),
            stakes: Stakes { challenger: self.stakes.challenger.map(team), ..self.stakes },
            going_on: self.going_on.map(|g| GoingOn { team: team(g.team), ..g }),
            players: self.players.map(|p| PlayerScores {
                points: seats(p.points, turn),
                roem: seats(p.roem, turn),
                tricks: seats(p.tricks, turn),
                score: seats(p.score, turn),
            }),
            revoke: self.revoke.map(team),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;
    use crate::seat::Seat;

    fn contract(team: Team) -> Contract {
        let declarer = if team == Team::NS { Seat::North } else { Seat::East };
        Contract { trump: Suit::Hearts, declarer, forced: false }
    }

    fn deal(playing: Team, points: (u16, u16), roem: (u16, u16), tricks: (u8, u8)) -> DealResult {
        score_deal(
            &Rules::classic(),
            contract(playing),
            Stakes::default(),
            PerTeam::new(points.0, points.1),
            PerTeam::new(roem.0, roem.1),
            PerTeam::new(tricks.0, tricks.1),
        )
    }

    #[test]
    fn a_result_seen_from_a_seat_is_that_of_the_deal_seen_from_it() {
        use crate::{Deal, Game, Phase, Players, Preset, Rng};
        let mut compared = 0;
        for preset in Preset::ALL.into_iter().filter(|p| p.rules().players == Players::Four) {
            let rules = preset.rules();
            for seed in 0..24 {
                // A deal from its code, as the turned deal is: neither has
                // a deck order to take the last card dealt from.
                let shuffled = Deal::shuffled_for(&rules, seed, Seat::from_index(seed as usize));
                let deal = Deal::from_code(&shuffled.code()).unwrap();
                let mut game = Game::new(rules, deal).unwrap();
                let mut rng = Rng::new(seed);
                while game.result().is_none() && game.phase() != Phase::ThrownIn {
                    let legal = game.legal_actions();
                    game.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
                }
                let Some(result) = game.result() else { continue };
                assert_eq!(result.seen_from(Seat::South), *result);
                for seat in Seat::ALL {
                    let mut turned = Game::new(rules, deal.seen_from(seat)).unwrap();
                    for &action in game.actions() {
                        turned.apply(action).unwrap();
                    }
                    assert_eq!(turned.result(), Some(&result.seen_from(seat)), "{preset:?} seed {seed} from {seat:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 300, "only {compared} results compared");
    }

    #[test]
    fn more_than_half_or_nat() {
        let r = deal(Team::NS, (82, 80), (0, 0), (4, 4));
        assert!(!r.nat);
        assert_eq!(r.final_score(), PerTeam::new(82, 80));
        // An exact tie is nat: 81 is not more than half of 162.
        let r = deal(Team::NS, (81, 81), (0, 0), (4, 4));
        assert!(r.nat);
        assert_eq!(r.final_score(), PerTeam::new(0, 162));
        // Roem counts in the half: 90 + 20 vs 72 + 50 is 110 vs 122.
        let r = deal(Team::EW, (72, 90), (50, 20), (4, 4));
        assert!(r.nat, "EW played 110 against 122");
        assert_eq!(r.final_score(), PerTeam::new(162 + 70, 0));
        assert_eq!(r.marks(Team::NS), "VI");
        // A tie including roem: 91 + 0 vs 71 + 20.
        assert!(deal(Team::NS, (91, 71), (0, 20), (5, 3)).nat);
    }

    #[test]
    fn pit_for_either_side() {
        let r = deal(Team::NS, (162, 0), (40, 0), (8, 0));
        assert!(!r.nat);
        assert_eq!(r.pit, Some(Team::NS));
        assert_eq!(r.final_score(), PerTeam::new(302, 0));
        assert_eq!(r.marks(Team::NS), "VVII");
        // Defenders take every trick: the players are nat, and the defenders
        // add pit unless the house restricts pit to the playing team.
        let r = deal(Team::NS, (0, 162), (0, 20), (0, 8));
        assert!(r.nat);
        assert_eq!(r.final_score(), PerTeam::new(0, 282));
        let house = Rules { pit_for_defenders: false, ..Rules::classic() };
        let r = score_deal(
            &house,
            contract(Team::NS),
            Stakes::default(),
            PerTeam::new(0, 162),
            PerTeam::new(0, 20),
            PerTeam::new(0, 8),
        );
        assert_eq!(r.final_score(), PerTeam::new(0, 182));
        assert_eq!(r.marks(Team::EW), "I");
    }

    fn stakes(rules: &Rules, trump: Suit, doublers: &[Seat]) -> Stakes {
        let bids: Vec<(Seat, Bid)> = doublers.iter().map(|&s| (s, Bid::Double)).collect();
        Stakes::of(rules, trump, &bids)
    }

    /// Seed 001's Wilde Boom: a kraak doubles everything, and the team
    /// that doubled last must score more than the other or give it all.
    #[test]
    fn kraak_rekraak_and_spades() {
        let wild = Rules { kraken: true, spades_double: true, ..Rules::classic() };
        let ns = contract(Team::NS);
        let score = |st: Stakes, points: (u16, u16), roem: (u16, u16)| {
            score_deal(
                &wild,
                ns,
                st,
                PerTeam::new(points.0, points.1),
                PerTeam::new(roem.0, roem.1),
                PerTeam::new(4, 4),
            )
        };
        // A kraak doubling a nat: NS play 70 + 20 against 92.
        let kraak = stakes(&wild, Suit::Hearts, &[Seat::East]);
        assert_eq!((kraak.doubles, kraak.challenger, kraak.multiplier), (1, Some(Team::EW), 2));
        let r = score(kraak, (70, 92), (20, 0));
        assert!(r.nat);
        assert_eq!(r.final_score(), PerTeam::new(0, 2 * (162 + 20)));
        assert_eq!(r.marks(Team::EW), "II", "the roem as it counts, doubled");
        // The defenders kraaked, so they must score more: a tie is theirs
        // to lose, and the players take everything.
        let r = score(kraak, (81, 81), (0, 0));
        assert!(!r.nat);
        assert_eq!((r.takes_all(), r.final_score()), (Some(Team::NS), PerTeam::new(2 * 162, 0)));
        // A made, doubled deal gives the players the defenders' points too.
        let r = score(kraak, (100, 62), (0, 20));
        assert_eq!(r.final_score(), PerTeam::new(2 * (162 + 20), 0));
        assert_eq!(r.credited_roem(Team::NS), 20);
        // Rekraak: the players doubled last, so a tie is nat again.
        let rekraak = stakes(&wild, Suit::Hearts, &[Seat::East, Seat::North]);
        assert_eq!((rekraak.challenger, rekraak.multiplier), (Some(Team::NS), 4));
        assert_eq!(score(rekraak, (81, 81), (0, 0)).final_score(), PerTeam::new(0, 4 * 162));
        // Superkraak in spades: 8 for the doubles, twice that for spades;
        // the defenders doubled last and score less, so the players win.
        let super_spades = stakes(&wild, Suit::Spades, &[Seat::East, Seat::North, Seat::West]);
        assert_eq!(super_spades.multiplier, 16);
        assert_eq!(score(super_spades, (90, 72), (0, 0)).final_score(), PerTeam::new(16 * 162, 0));
        // Undoubled spades count double, scored as usual.
        let spades = stakes(&wild, Suit::Spades, &[]);
        assert_eq!(score(spades, (90, 72), (0, 0)).final_score(), PerTeam::new(180, 144));
        assert_eq!(stakes(&Rules::classic(), Suit::Spades, &[]), Stakes::default());
        let mut sheet = ScoreSheet::default();
        sheet.rows.push(score(kraak, (70, 92), (20, 0)));
        assert!(sheet.render(PerTeam::new("NS", "EW")).contains("(x2)"));
    }

    /// A team that takes every trick but loses the deal to roem from the
    /// hands scores no pit.
    #[test]
    fn pit_goes_with_the_deal() {
        let r = deal(Team::NS, (162, 0), (0, 200), (8, 0));
        assert!(r.nat);
        assert_eq!((r.pit, r.pit_bonus), (Some(Team::NS), None));
        assert_eq!(r.final_score(), PerTeam::new(0, 362));
    }

    /// Seed 000's example score card, Jack+Jill (NS) against Mel+Kim (EW):
    ///
    /// ```text
    /// I      15 |      147
    /// I     162 |       -  I   (M+K went 'Nat')
    ///        80 |       82 VII
    /// VVI   162 |       -      (J+J got all rounds: a 'Pit')
    ///       419 |      229     (Points in rounds)
    ///       160 |       90     (Roem)
    ///       579 |      319     (Total points)
    /// ```
    ///
    /// The card's sums hold only if the `I` written beside Mel+Kim's dash in
    /// the second row is read as the roem they called and lost to the other
    /// side: counted for both sides the roem totals would be 180 and 110,
    /// and Mel+Kim's roem column (90) does not include it. The engine writes
    /// nat roem once, beside the team that receives it.
    #[test]
    fn seed_000_example_score_card() {
        let mut sheet = ScoreSheet::default();
        // 1: Mel+Kim play and make it; Jack+Jill won a trick with 20 roem.
        sheet.rows.push(deal(Team::EW, (15, 147), (20, 0), (1, 7)));
        // 2: Mel+Kim play, call 20 roem, and go nat.
        sheet.rows.push(deal(Team::EW, (100, 62), (0, 20), (5, 3)));
        // 3: Mel+Kim play with 82 and 90 roem (50 + 20 + 20).
        sheet.rows.push(deal(Team::EW, (80, 82), (0, 90), (4, 4)));
        // 4: Jack+Jill play and take every trick, with 20 roem.
        sheet.rows.push(deal(Team::NS, (162, 0), (20, 0), (8, 0)));
        assert_eq!(sheet.rows[1].marks(Team::NS), "I");
        assert!(sheet.rows[1].nat);
        assert_eq!(sheet.rows[2].marks(Team::EW), "VII");
        assert_eq!(sheet.rows[3].marks(Team::NS), "VVI");
        assert_eq!(sheet.points(), PerTeam::new(419, 229));
        assert_eq!(sheet.roem(), PerTeam::new(160, 90));
        assert_eq!(sheet.totals(), PerTeam::new(579, 319));
        let text = sheet.render(PerTeam::new("Jack+Jill", "Mel+Kim"));
        assert!(text.contains("VVI    162 |     -"), "{text}");
        assert!(text.contains("579 |   319"), "{text}");
    }
}
