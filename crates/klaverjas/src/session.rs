//! A match (*partij*): deals with the dealer rotating, the score sheet, and
//! the end by deal count or by points (RULES section 7).

use crate::deal::{Deal, Rng};
use crate::game::{Action, ActionError, Event, Game, GameRecord, ReplayError};
use crate::rules::{MatchLength, Rules};
use crate::score::ScoreSheet;
use crate::seat::{Seat, Team};
use std::fmt;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Match {
    rules: Rules,
    seed: u64,
    first_dealer: Seat,
    sheet: ScoreSheet,
    game: Game,
}

/// Why the next deal cannot start.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MatchError {
    DealInProgress,
    MatchOver,
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MatchError::DealInProgress => "The current deal is not finished",
            MatchError::MatchOver => "The match is over",
        })
    }
}

impl std::error::Error for MatchError {}

impl Match {
    /// A match whose deals all follow from `seed`; the first deal is ready.
    pub fn new(rules: Rules, seed: u64, first_dealer: Seat) -> Match {
        let game = Game::new(rules, Deal::shuffled(deal_seed(seed, 0), first_dealer));
        Match { rules, seed, first_dealer, sheet: ScoreSheet::default(), game }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn sheet(&self) -> &ScoreSheet {
        &self.sheet
    }

    /// 1-based number of the deal in play (or just finished).
    pub fn deal_number(&self) -> usize {
        self.sheet.rows.len() + usize::from(self.game.result().is_none())
    }

    /// Applies an action to the current deal and writes a finished deal on
    /// the sheet.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        let events = self.game.apply(action)?;
        if let Some(result) = self.game.result() {
            self.sheet.rows.push(*result);
        }
        Ok(events)
    }

    pub fn is_over(&self) -> bool {
        if self.game.result().is_none() {
            return false;
        }
        let deals = self.sheet.rows.len();
        let totals = self.sheet.totals();
        match self.rules.match_length {
            MatchLength::Deals(n) => deals >= n as usize,
            MatchLength::Points(target) => totals.ns.max(totals.ew) >= target && totals.ns != totals.ew,
        }
    }

    /// The winning team once the match is over; `None` on a tie.
    pub fn winner(&self) -> Option<Team> {
        let t = self.sheet.totals();
        (self.is_over() && t.ns != t.ew).then_some(if t.ns > t.ew { Team::NS } else { Team::EW })
    }

    /// Deals the next hand, the dealer one seat further clockwise.
    pub fn next_deal(&mut self) -> Result<(), MatchError> {
        if self.game.result().is_none() {
            return Err(MatchError::DealInProgress);
        }
        if self.is_over() {
            return Err(MatchError::MatchOver);
        }
        let n = self.sheet.rows.len();
        let dealer = self.first_dealer.after(n);
        self.game = Game::new(self.rules, Deal::shuffled(deal_seed(self.seed, n as u64), dealer));
        Ok(())
    }

    pub fn record(&self) -> MatchRecord {
        MatchRecord {
            format: GameRecord::FORMAT,
            seed: self.seed,
            first_dealer: self.first_dealer,
            sheet: self.sheet.clone(),
            game: self.game.record(),
        }
    }

    pub fn from_record(r: &MatchRecord) -> Result<Match, ReplayError> {
        if r.format > GameRecord::FORMAT {
            return Err(ReplayError::NewerFormat(r.format));
        }
        let game = Game::from_record(&r.game)?;
        Ok(Match { rules: *game.rules(), seed: r.seed, first_dealer: r.first_dealer, sheet: r.sheet.clone(), game })
    }
}

/// The seed of deal `n` of a match, mixed so neighbouring deals differ.
pub fn deal_seed(match_seed: u64, n: u64) -> u64 {
    Rng::new(match_seed ^ n.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// A match as stored.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MatchRecord {
    pub format: u32,
    pub seed: u64,
    pub first_dealer: Seat,
    pub sheet: ScoreSheet,
    pub game: GameRecord,
}
