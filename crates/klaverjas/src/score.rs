//! Scoring a deal (RULES section 6) and the match score sheet as players
//! write it (seed 000's example score card).

use crate::bidding::Contract;
use crate::roem::marks;
use crate::rules::Rules;
use crate::seat::{PerTeam, Team};
use std::fmt::Write;

/// Pit (*mars*): all eight tricks to one team.
pub const PIT_BONUS: u16 = 100;

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
    /// The sheet's points column: trick points, or 162 to the defenders
    /// when the playing team is nat.
    pub sheet_points: PerTeam<u16>,
    /// The sheet's roem column: credited roem plus any pit bonus.
    pub sheet_roem: PerTeam<u16>,
}

impl DealResult {
    /// What each team scores for the deal.
    pub fn final_score(&self) -> PerTeam<u16> {
        PerTeam::new(self.total(Team::NS), self.total(Team::EW))
    }

    pub fn total(&self, team: Team) -> u16 {
        self.sheet_points[team] + self.sheet_roem[team]
    }

    /// The roem written beside `team`'s score: its own, or all of it when
    /// the other team is nat.
    pub fn credited_roem(&self, team: Team) -> u16 {
        let playing = self.contract.playing_team();
        match (self.nat, team == playing) {
            (false, _) => self.roem[team],
            (true, true) => 0,
            (true, false) => self.roem.ns + self.roem.ew,
        }
    }

    /// The marks players write beside a score: VV for pit, then the roem as
    /// strokes (20 = I, 50 = V, 100 = O).
    pub fn marks(&self, team: Team) -> String {
        let pit = if self.pit_bonus == Some(team) { "VV" } else { "" };
        format!("{pit}{}", marks(self.credited_roem(team)))
    }
}

/// Scores a deal from what each team won (RULES section 6): the playing
/// team must score more than half of 162 plus all counted roem; a tie is
/// nat, and then the defenders receive 162 plus all roem. Pit adds 100.
pub fn score_deal(
    rules: &Rules,
    contract: Contract,
    points: PerTeam<u16>,
    roem: PerTeam<u16>,
    tricks: PerTeam<u8>,
) -> DealResult {
    let playing = contract.playing_team();
    let defending = playing.other();
    let pit = Team::BOTH.into_iter().find(|&t| tricks[t] == 8);
    let nat = points[playing] + roem[playing] <= points[defending] + roem[defending];
    let mut sheet_points = PerTeam::default();
    let mut sheet_roem = PerTeam::default();
    let pit_bonus = if nat {
        sheet_points[defending] = rules.deal_points();
        sheet_roem[defending] = roem.ns + roem.ew;
        pit.filter(|_| rules.pit_for_defenders)
    } else {
        sheet_points = points;
        sheet_roem = roem;
        pit
    };
    if let Some(team) = pit_bonus {
        sheet_roem[team] += PIT_BONUS;
    }
    DealResult { contract, points, roem, tricks, nat, pit, pit_bonus, sheet_points, sheet_roem }
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
                if row.nat { "  (nat)" } else { "" },
            );
        }
        let _ = writeln!(s, "{line}");
        for (label, sum) in [("points", self.points()), ("roem", self.roem())] {
            let _ = writeln!(s, "{:>10} | {:>5}       ({label})", sum.ns, sum.ew);
        }
        let _ = writeln!(s, "{line}");
        let t = self.totals();
        let _ = writeln!(s, "{:>10} | {:>5}       (total)", t.ns, t.ew);
        s
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
            PerTeam::new(points.0, points.1),
            PerTeam::new(roem.0, roem.1),
            PerTeam::new(tricks.0, tricks.1),
        )
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
        let r = score_deal(&house, contract(Team::NS), PerTeam::new(0, 162), PerTeam::new(0, 20), PerTeam::new(0, 8));
        assert_eq!(r.final_score(), PerTeam::new(0, 182));
        assert_eq!(r.marks(Team::EW), "I");
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
