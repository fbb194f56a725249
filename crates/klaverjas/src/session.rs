//! A match (*partij*): deals with the dealer rotating, the score sheet, and
//! the end by deal count or by points (RULES section 7). A practice match
//! also allows hints and taking a card back, and its sheet says where they
//! were used.

use crate::deal::{Deal, DealCodeError, Rng};
use crate::game::{Action, ActionError, Event, Game, GameRecord, ReplayError};
use crate::rules::Rules;
use crate::score::ScoreSheet;
use crate::seat::{PerTeam, Seat, Team};
use std::fmt;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Match {
    rules: Rules,
    seed: u64,
    first_dealer: Seat,
    /// Deals given to be played first, in order (a set of deals to replay
    /// or compare); the seed deals the rest.
    given: Vec<Deal>,
    sheet: ScoreSheet,
    game: Game,
    practice: bool,
    /// The help taken in each deal so far, by deal; empty while none was.
    aids: Vec<Aids>,
    /// Every earlier deal as played, so that any can be reviewed.
    played: Vec<GameRecord>,
    /// Hands thrown in so far, everyone having passed: each new one is
    /// shuffled from its own seed.
    redeals: u32,
}

/// The help a player took in one deal of a practice match.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aids {
    /// Hints asked for.
    pub hints: u16,
    /// Cards taken back.
    pub undos: u16,
}

impl Aids {
    pub fn any(self) -> bool {
        self.hints > 0 || self.undos > 0
    }
}

/// Why help was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AidError {
    /// The match counts: no hints and no taking back.
    CountingMatch,
    /// The deal is over: its score stands.
    DealOver,
    /// The seat has played no card in this deal.
    NothingToUndo,
}

impl fmt::Display for AidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AidError::CountingMatch => "This match counts: hints and taking back a card are for practice games",
            AidError::DealOver => "The deal is over",
            AidError::NothingToUndo => "You have not played a card in this deal yet",
        })
    }
}

impl std::error::Error for AidError {}

/// Why the next deal cannot start.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MatchError {
    DealInProgress,
    MatchOver,
    /// The next given deal cannot be played under the match's rules (a
    /// damaged record).
    BadDeal(crate::NewGameError),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::DealInProgress => f.write_str("The current deal is not finished"),
            MatchError::MatchOver => f.write_str("The match is over"),
            MatchError::BadDeal(e) => write!(f, "The next deal cannot be played: {e}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// Why a match cannot start from the given deals.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MatchDealsError {
    /// No deal was given: the first dealer would be unknown.
    NoDeals,
    /// Deal `number` (1-based) is not a valid deal.
    BadDeal { number: usize, error: DealCodeError },
    /// Deal `number` (1-based) is dealt for another number of players.
    OtherTable { number: usize },
    /// A given deal the rules cannot play.
    Unplayable { number: usize, error: crate::NewGameError },
}

impl fmt::Display for MatchDealsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchDealsError::NoDeals => f.write_str("a match from given deals needs at least one deal"),
            MatchDealsError::BadDeal { number, error } => write!(f, "given deal {number}: {error}"),
            MatchDealsError::Unplayable { number, error } => write!(f, "given deal {number}: {error}"),
            MatchDealsError::OtherTable { number } => {
                write!(f, "given deal {number} is dealt for another number of players than these rules")
            }
        }
    }
}

impl std::error::Error for MatchDealsError {}

impl Match {
    /// A match whose deals all follow from `seed`; the first deal is ready.
    /// An empty chair as `first_dealer` (North at three) passes the deal
    /// to the next seat.
    pub fn new(rules: Rules, seed: u64, first_dealer: Seat) -> Match {
        let first_dealer = rules.players.seated(rules.direction, first_dealer);
        let game = Game::dealt(rules, deal_seed(seed, 0), first_dealer);
        let sheet = ScoreSheet::default();
        Match {
            rules,
            seed,
            first_dealer,
            given: Vec::new(),
            sheet,
            game,
            practice: false,
            aids: Vec::new(),
            played: Vec::new(),
            redeals: 0,
        }
    }

    /// A match that plays `deals` first, each with its own dealer, and then
    /// goes on with the deals of `seed` (deal `n` of the match is deal `n`
    /// of [`Match::new`] with that seed), the dealer moving one seat on from
    /// the last given deal's. Every given deal is checked.
    pub fn from_deals(rules: Rules, deals: Vec<Deal>, seed: u64) -> Result<Match, MatchDealsError> {
        for (i, deal) in deals.iter().enumerate() {
            deal.validate().map_err(|error| MatchDealsError::BadDeal { number: i + 1, error })?;
            if deal.players() != rules.players {
                return Err(MatchDealsError::OtherTable { number: i + 1 });
            }
        }
        let first = *deals.first().ok_or(MatchDealsError::NoDeals)?;
        let game = Game::new(rules, first).map_err(|error| MatchDealsError::Unplayable { number: 1, error })?;
        let sheet = ScoreSheet::default();
        Ok(Match {
            rules,
            seed,
            first_dealer: first.dealer,
            given: deals,
            sheet,
            game,
            practice: false,
            aids: Vec::new(),
            played: Vec::new(),
            redeals: 0,
        })
    }

    /// The same match as a practice match, where hints and taking a card
    /// back are allowed and marked on the sheet, or as one that counts.
    pub fn with_practice(mut self, practice: bool) -> Match {
        self.practice = practice;
        self
    }

    pub fn is_practice(&self) -> bool {
        self.practice
    }

    /// The help taken in deal `number` (1-based).
    pub fn aids(&self, number: usize) -> Aids {
        number.checked_sub(1).and_then(|i| self.aids.get(i)).copied().unwrap_or_default()
    }

    fn aids_mut(&mut self) -> &mut Aids {
        let n = self.deal_number();
        if self.aids.len() < n {
            self.aids.resize(n, Aids::default());
        }
        &mut self.aids[n - 1]
    }

    /// Counts a hint in the deal in play; refused in a match that counts.
    pub fn note_hint(&mut self) -> Result<(), AidError> {
        if !self.practice {
            return Err(AidError::CountingMatch);
        }
        if self.game.result().is_some() {
            return Err(AidError::DealOver);
        }
        self.aids_mut().hints += 1;
        Ok(())
    }

    /// Takes back `seat`'s last card of the deal in play and everything
    /// played after it, so that `seat` is to play that card again; the
    /// bids stay. Returns how many actions were taken back. Refused in a
    /// match that counts and once the deal is over.
    pub fn undo(&mut self, seat: Seat) -> Result<usize, AidError> {
        if !self.practice {
            return Err(AidError::CountingMatch);
        }
        if self.game.result().is_some() {
            return Err(AidError::DealOver);
        }
        let mut record = self.game.record();
        // Who took each action: replayed, since a roem call may come out of
        // turn and is not a card anyway.
        let mut replay = Game::from_record(&GameRecord { actions: Vec::new(), ..record.clone() })
            .map_err(|_| AidError::NothingToUndo)?;
        let mut last = None;
        for (i, &action) in record.actions.iter().enumerate() {
            if matches!(action, Action::Play(_)) && replay.to_act() == Some(seat) {
                last = Some(i);
            }
            replay.apply(action).map_err(|_| AidError::NothingToUndo)?;
        }
        let at = last.ok_or(AidError::NothingToUndo)?;
        let taken = record.actions.len() - at;
        record.actions.truncate(at);
        self.game = Game::from_record(&record).map_err(|_| AidError::NothingToUndo)?;
        self.aids_mut().undos += 1;
        Ok(taken)
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
        Ok(self.write_result(events))
    }

    /// `seat` calls the roem of the last trick, its turn or not
    /// ([`Game::call_roem`]).
    pub fn call_roem(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        let events = self.game.call_roem(seat)?;
        Ok(self.write_result(events))
    }

    /// `seat` takes `action` ([`Game::act`]): a roem call from a seat that
    /// may call, anything else only at the seat's own turn, and out of
    /// turn one refusal that tells nothing of any hand. What a table of
    /// people takes from a seat goes through here.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, ActionError> {
        let events = self.game.act(seat, action)?;
        Ok(self.write_result(events))
    }

    /// Writes the deal on the sheet when `events` end it.
    fn write_result(&mut self, events: Vec<Event>) -> Vec<Event> {
        if let Some(Event::DealOver(result)) = events.last() {
            self.sheet.rows.push(*result);
        }
        events
    }

    pub fn is_over(&self) -> bool {
        self.game.result().is_some() && self.sheet.match_over(&self.rules)
    }

    /// The winning team once the match is over; `None` on a tie.
    pub fn winner(&self) -> Option<Team> {
        self.sheet.leading_team(&self.rules).filter(|_| self.is_over())
    }

    /// The winning player, where everyone plays alone, once the match is
    /// over; `None` on a tie for the top.
    pub fn winning_player(&self) -> Option<Seat> {
        self.sheet.top_player(&self.rules).filter(|_| self.is_over())
    }

    /// Who deals the next hand: the next seat in the direction of play;
    /// in old play of a boem, the player who picked up the last trick
    /// (002: "the side which picked up the last slaggie gets to keep the
    /// deck and deal"); in Klaberjass, the winner of the deal (003: "From
    /// this point on, the winner of the round becomes the dealer").
    fn next_dealer(&self) -> Seat {
        let scores = self.game.result().and_then(|r| r.players).map(|p| p.score);
        if let Some(score) = scores.filter(|_| self.rules.players == crate::Players::Two) {
            let [a, b] = [Seat::South, Seat::West];
            return if score[a.index()] >= score[b.index()] { a } else { b };
        }
        let last_trick = self.game.tricks().last().map(|t| t.winner);
        match last_trick.filter(|_| self.next_carry().is_some()) {
            Some(winner) => winner,
            // Thrown in: "a new hand re-dealt by the same dealer" (001).
            None if self.game.phase() == crate::Phase::ThrownIn => self.game.dealer(),
            None => self.rules.players.next(self.rules.direction, self.game.dealer()),
        }
    }

    /// What the sides bring into the next hand: old play of a boem.
    fn next_carry(&self) -> Option<PerTeam<u16>> {
        if self.rules.races_to_the_boem() { self.sheet.carry() } else { None }
    }

    /// The deals given to be played first ([`Match::from_deals`]).
    pub fn given_deals(&self) -> &[Deal] {
        &self.given
    }

    /// Deals the next hand: the next given deal, else a seeded one with the
    /// dealer one seat further round ([`Match::next_dealer`]).
    pub fn next_deal(&mut self) -> Result<(), MatchError> {
        let thrown_in = self.game.phase() == crate::Phase::ThrownIn;
        if self.game.result().is_none() && !thrown_in {
            return Err(MatchError::DealInProgress);
        }
        if self.is_over() {
            return Err(MatchError::MatchOver);
        }
        let n = self.sheet.rows.len();
        let seed = deal_seed(self.seed, n as u64);
        let next = match self.given.get(n).filter(|_| !thrown_in) {
            Some(&deal) => Game::new(self.rules, deal).map_err(MatchError::BadDeal)?,
            None if thrown_in => {
                self.redeals += 1;
                Game::dealt(self.rules, deal_seed(seed, self.redeals as u64), self.next_dealer())
            }
            None => Game::dealt(self.rules, seed, self.next_dealer()),
        }
        .with_carry(self.next_carry());
        let done = std::mem::replace(&mut self.game, next);
        // A hand thrown in is no deal of the sheet.
        if !thrown_in {
            self.played.push(done.record());
        }
        Ok(())
    }

    /// Deal `number` (1-based) as played, if it is finished and kept: an
    /// earlier one, or the one just ended. A match saved before deals were
    /// kept lacks its first ones.
    pub fn finished_deal(&self, number: usize) -> Option<Game> {
        if self.is_current_and_finished(number) {
            return Some(self.game.clone());
        }
        self.played.get(self.played_index(number)?).and_then(|r| Game::from_record(r).ok())
    }

    /// Whether [`Match::finished_deal`] has deal `number`, without
    /// replaying it.
    pub fn has_finished_deal(&self, number: usize) -> bool {
        self.is_current_and_finished(number) || self.played_index(number).is_some_and(|i| i < self.played.len())
    }

    fn is_current_and_finished(&self, number: usize) -> bool {
        number == self.deal_number() && self.game.result().is_some()
    }

    /// Where deal `number` is in `played`, which holds the last of the
    /// deals before the current one.
    fn played_index(&self, number: usize) -> Option<usize> {
        let before = self.sheet.rows.len() - usize::from(self.game.result().is_some());
        let missing = before.saturating_sub(self.played.len());
        number.checked_sub(1 + missing)
    }

    /// How many deals are finished.
    pub fn deals_finished(&self) -> usize {
        self.sheet.rows.len()
    }

    pub fn record(&self) -> MatchRecord {
        // A record without given deals keeps the old format, so that a
        // version that does not know them still reads it; one with given
        // deals must not be read by such a version, which would drop them.
        let plain = self.given.is_empty() && !self.practice && self.aids.is_empty() && self.played.is_empty();
        let format = match (GameRecord::format_for(&self.rules), plain) {
            (6.., _) => MatchRecord::FORMAT,
            (5, _) => 6,
            (4, _) => 5,
            (3, _) => 4,
            (game, true) => game,
            (_, false) => 3,
        };
        MatchRecord {
            format,
            seed: self.seed,
            first_dealer: self.first_dealer,
            given_deals: self.given.clone(),
            sheet: self.sheet.clone(),
            game: self.game.record(),
            practice: self.practice,
            aids: self.aids.clone(),
            played: self.played.clone(),
            redeals: self.redeals,
        }
    }

    pub fn from_record(r: &MatchRecord) -> Result<Match, ReplayError> {
        if r.format > MatchRecord::FORMAT {
            return Err(ReplayError::NewerFormat(r.format));
        }
        let game = Game::from_record(&r.game)?;
        let rules = *game.rules();
        if !rules.players.seats_at(r.first_dealer) {
            return Err(ReplayError::BadDeal(crate::NewGameError::Deal(crate::DealCodeError::EmptyChair(
                r.first_dealer,
            ))));
        }
        for deal in &r.given_deals {
            Game::new(rules, *deal).map_err(ReplayError::BadDeal)?;
        }
        // The sheet holds every finished deal, the current one too once it
        // is over; `played` the last of those before the current one, each
        // of which must replay to its row.
        let rows = &r.sheet.rows;
        let before =
            rows.len().checked_sub(usize::from(game.result().is_some())).ok_or(ReplayError::Sheet { deal: 1 })?;
        let missing = before.checked_sub(r.played.len()).ok_or(ReplayError::Sheet { deal: before + 1 })?;
        for (i, record) in r.played.iter().enumerate() {
            let deal = missing + i + 1;
            let played = Game::from_record(record).map_err(|_| ReplayError::PlayedDeal { deal })?;
            if *played.rules() != rules || played.result() != Some(&rows[deal - 1]) {
                return Err(ReplayError::Sheet { deal });
            }
        }
        if game.result().is_some_and(|result| rows.last() != Some(result)) {
            return Err(ReplayError::Sheet { deal: rows.len() });
        }
        // Rows from before the deals were kept can only be checked by
        // their own sums.
        for (i, row) in rows.iter().enumerate().take(missing) {
            let tricks = row.tricks.ns as u16 + row.tricks.ew as u16;
            if row.points.ns + row.points.ew > rules.deal_points() || tricks > rules.tricks_per_deal() as u16 {
                return Err(ReplayError::Sheet { deal: i + 1 });
            }
        }
        Ok(Match {
            rules: *game.rules(),
            seed: r.seed,
            first_dealer: r.first_dealer,
            given: r.given_deals.clone(),
            sheet: r.sheet.clone(),
            game,
            practice: r.practice,
            aids: r.aids.clone(),
            played: r.played.clone(),
            redeals: r.redeals,
        })
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
    /// [`Match::from_deals`]'s deals, as codes; absent in older saves.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub given_deals: Vec<Deal>,
    pub sheet: ScoreSheet,
    pub game: GameRecord,
    /// A practice match ([`Match::with_practice`]); absent in older saves.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "std::ops::Not::not"))]
    pub practice: bool,
    /// The help taken, by deal; absent while none was.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub aids: Vec<Aids>,
    /// The earlier deals as played; absent in older saves, whose earlier
    /// deals cannot be reviewed.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub played: Vec<GameRecord>,
    /// Hands thrown in so far; absent while none was.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub redeals: u32,
}

#[cfg(feature = "serde")]
fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl MatchRecord {
    /// The newest match format this version reads: 2 added given deals, 3
    /// practice, the help taken and the earlier deals as played. A match
    /// with none of them (in its first deal, not practice) is written as
    /// [`GameRecord::FORMAT`], which says how its current deal replays, so
    /// that older versions still read it; one with any of them must not be
    /// read by a version that would drop them. 4: rules a version before
    /// it cannot play ([`GameRecord::format_for`] above 2: doubling,
    /// spades double, roem from the hands). 5: rules of format 4 of a
    /// game (the South African game and its boem). 6: the game for three
    /// (format 5 of a game), and hands thrown in. 7: Klaberjass for two
    /// (format 6 of a game).
    pub const FORMAT: u32 = 7;
}
