//! An evening as a state machine: who may do what is decided here, once,
//! for the server and for anything else that keeps an evening. Its record
//! is its setup, its seed and the actions it accepted, in order; replayed,
//! they give the same evening.

use crate::PlayerId;
use crate::draw::{self, Draw, DrawError, DrawnTable, Leftover};
use klaverjas::{DealResult, EnteredDeal, KeptSheet, MatchLength, Preset, Rules, SheetError};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The longest name at an evening, in characters (a table's too).
pub const MAX_NAME: usize = 24;
/// The most players one evening seats.
pub const MAX_PLAYERS: usize = 256;
/// Rounds an evening may have.
pub const ROUNDS: std::ops::RangeInclusive<u8> = 1..=6;
/// Deals a round may have (clubs play 16, 12 or 8).
pub const DEALS: std::ops::RangeInclusive<u8> = 1..=16;

/// Where the tables play.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cards {
    /// Each table a table of the server, bots standing in.
    Online,
    /// Real cards; one phone a table keeps the score sheet.
    Real,
}

/// What a player who sits a round out scores for it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SitOutScore {
    /// The average of those who played the round.
    Average,
    /// A number the club fixed.
    Fixed(u32),
}

/// What the organiser chooses for an evening.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EveningSetup {
    pub name: String,
    /// The club whose season it counts for; empty: none.
    #[serde(default)]
    pub club: String,
    pub preset: Preset,
    /// House rules on top of the preset (`name=value,...`); the match's
    /// length is the round's deals.
    #[serde(default)]
    pub set: String,
    pub rounds: u8,
    pub deals: u8,
    /// How each table plays unless the organiser says otherwise for it.
    pub cards: Cards,
    /// A count that is not a multiple of four: sit-outs, or (online) bots.
    pub leftover: Leftover,
    pub sit_out: SitOutScore,
    /// Whether roem counts in the evening's points beside card points.
    #[serde(default = "yes")]
    pub roem_counts: bool,
    /// The club's season counts each member's best so many evenings;
    /// `None`: all of them.
    #[serde(default)]
    pub best: Option<u8>,
}

fn yes() -> bool {
    true
}

impl EveningSetup {
    /// A club evening as most clubs play it: three rounds of sixteen deals.
    pub fn club_evening(name: &str, preset: Preset, cards: Cards) -> EveningSetup {
        EveningSetup {
            name: name.to_owned(),
            club: String::new(),
            preset,
            set: String::new(),
            rounds: 3,
            deals: 16,
            cards,
            leftover: Leftover::SitOut,
            sit_out: SitOutScore::Average,
            roem_counts: true,
            best: None,
        }
    }

    /// The rules each table plays, or why the setup is not one.
    pub fn rules(&self) -> Result<Rules, EveningError> {
        if !ROUNDS.contains(&self.rounds) {
            return Err(EveningError::Rounds(self.rounds));
        }
        if !DEALS.contains(&self.deals) {
            return Err(EveningError::Deals(self.deals));
        }
        if self.leftover == Leftover::Bots && self.cards == Cards::Real {
            return Err(EveningError::BotsAtRealCards);
        }
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > 60 || self.club.chars().count() > 60 {
            return Err(EveningError::Name(self.name.clone()));
        }
        let mut rules = self.preset.rules();
        rules.set_all(&self.set).map_err(|e| EveningError::HouseRules(e.to_string()))?;
        // Points add up across tables only where four play in pairs to a
        // points total; a boem's strokes do not.
        if !rules.players.partnerships() || rules.races_to_the_boem() {
            return Err(EveningError::Preset(self.preset));
        }
        rules.match_length = MatchLength::Deals(u16::from(self.deals));
        Ok(rules)
    }
}

/// Who asks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    Organiser,
    Player(PlayerId),
    /// Someone with the link and no place yet: may only check in.
    Newcomer,
    /// The server, telling what an online table played.
    Server,
}

/// What changes an evening.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum EveningAction {
    /// A newcomer gives their name (a member's, or a new one).
    CheckIn { name: String },
    /// The organiser adds a player who has no phone.
    Add { name: String },
    /// The organiser takes a player out of the draws to come.
    Remove { player: PlayerId },
    /// The organiser draws the next round, or draws it again before it starts.
    Draw,
    /// The organiser sets how one table of the round drawn plays.
    TableCards { table: u16, cards: Cards },
    /// The organiser starts the round drawn.
    Start,
    /// A deal of a real-cards table, entered by one of its players or the
    /// organiser.
    Enter { table: u16, deal: EnteredDeal },
    /// A line of a table's sheet corrected (its players or the organiser).
    Correct { round: u8, table: u16, line: u16, deal: EnteredDeal },
    /// A player of the table says a line is wrong.
    Dispute { round: u8, table: u16, line: u16 },
    /// An online table finished a deal (the server only).
    Played { round: u8, table: u16, line: u16, result: DealResult },
}

/// What an accepted action did, for whoever follows the evening.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Change {
    CheckedIn {
        player: PlayerId,
    },
    Removed {
        player: PlayerId,
    },
    Drawn {
        round: u8,
    },
    Started {
        round: u8,
    },
    Line {
        round: u8,
        table: u16,
        line: u16,
    },
    Disputed {
        round: u8,
        table: u16,
        line: u16,
    },
    /// An online table's deal that the evening had already.
    Nothing,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EveningError {
    Rounds(u8),
    Deals(u8),
    BotsAtRealCards,
    Name(String),
    HouseRules(String),
    Preset(Preset),
    /// Only the organiser may do this.
    NotOrganiser,
    /// Only the players of that table (or the organiser) may.
    NotAtTable,
    /// Checking in is for someone without a place.
    Seated,
    PlayerName(String),
    NameTaken(String),
    Full,
    NoPlayer(PlayerId),
    /// Everyone's rounds are played.
    Over,
    /// The round in play is not finished yet.
    RoundNotOver {
        round: u8,
        left: u32,
    },
    /// A round drawn but not started is needed.
    NotDrawn,
    Started,
    NotStarted,
    Draw(DrawError),
    NoTable(u16),
    NoLine {
        table: u16,
        line: u16,
    },
    /// The table plays online: its deals come from its play.
    Online,
    /// The table plays with real cards.
    RealCards,
    /// The table has played its round's deals.
    TableDone(u16),
    /// Bots sit at that table: it plays online.
    BotsOnline(u16),
    Sheet(SheetError),
}

impl fmt::Display for EveningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EveningError::Rounds(n) => write!(f, "an evening has 1 to 6 rounds, not {n}"),
            EveningError::Deals(n) => write!(f, "a round has 1 to 16 deals (clubs play 16, 12 or 8), not {n}"),
            EveningError::BotsAtRealCards => f.write_str("bots cannot sit at a table of real cards: choose sit-outs"),
            EveningError::Name(n) => write!(f, "an evening's name has 1 to 60 characters, not '{n}'"),
            EveningError::HouseRules(e) => write!(f, "the house rules: {e}"),
            EveningError::Preset(p) => {
                write!(f, "an evening adds up points of four playing in pairs; {} does not", p.name())
            }
            EveningError::NotOrganiser => f.write_str("only the organiser may do that"),
            EveningError::NotAtTable => {
                f.write_str("only that table's players and the organiser may change its scores")
            }
            EveningError::Seated => f.write_str("you have checked in already"),
            EveningError::PlayerName(n) => write!(f, "a name has 1 to {MAX_NAME} characters, not '{n}'"),
            EveningError::NameTaken(n) => {
                write!(f, "'{n}' has checked in already: give your name as the others know it, with an initial")
            }
            EveningError::Full => write!(f, "an evening has at most {MAX_PLAYERS} players"),
            EveningError::NoPlayer(p) => write!(f, "no player {p} at this evening"),
            EveningError::Over => f.write_str("the evening's rounds are all played"),
            EveningError::RoundNotOver { round, left } => {
                write!(f, "round {round} has {left} deals still to play")
            }
            EveningError::NotDrawn => f.write_str("no round is drawn and waiting to start"),
            EveningError::Started => f.write_str("the round has started: its draw stands"),
            EveningError::NotStarted => f.write_str("the round has not started"),
            EveningError::Draw(e) => e.fmt(f),
            EveningError::NoTable(t) => write!(f, "no table {} this round", t + 1),
            EveningError::NoLine { table, line } => write!(f, "table {} has no deal {}", table + 1, line + 1),
            EveningError::Online => f.write_str("the table plays online: its deals are entered by its play"),
            EveningError::RealCards => f.write_str("the table plays with real cards"),
            EveningError::TableDone(t) => write!(f, "table {} has played all its deals", t + 1),
            EveningError::BotsOnline(t) => write!(f, "bots sit at table {}: it plays online", t + 1),
            EveningError::Sheet(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EveningError {}

impl From<SheetError> for EveningError {
    fn from(e: SheetError) -> EveningError {
        EveningError::Sheet(e)
    }
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    /// In the draws to come.
    pub present: bool,
    /// Checked in from a phone (else added by the organiser).
    pub phone: bool,
}

/// Something said of a sheet's line, and by whom.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LineNote {
    Entered { by: Who },
    Corrected { by: Who },
    Disputed { by: PlayerId },
}

/// A table's deals this round.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct TableScore {
    /// Each deal's result, in the order played.
    pub results: Vec<DealResult>,
    /// The deals as entered (real cards).
    pub entered: Vec<EnteredDeal>,
    /// Per line, what was said of it.
    pub notes: Vec<Vec<LineNote>>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Round {
    pub draw: Draw,
    /// How each table plays.
    pub cards: Vec<Cards>,
    pub started: bool,
    pub tables: Vec<TableScore>,
    /// Draws made of this round so far (a redo draws with the next seed).
    pub draws: u32,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Evening {
    pub setup: EveningSetup,
    pub seed: u64,
    pub players: Vec<Player>,
    pub rounds: Vec<Round>,
    #[serde(skip)]
    rules: Option<Rules>,
}

impl Evening {
    pub fn new(setup: EveningSetup, seed: u64) -> Result<Evening, EveningError> {
        let rules = setup.rules()?;
        Ok(Evening { setup, seed, players: Vec::new(), rounds: Vec::new(), rules: Some(rules) })
    }

    /// The evening that `actions` made of `setup`, or the first that does
    /// not apply (with its place).
    pub fn replay(
        setup: EveningSetup,
        seed: u64,
        actions: &[(Who, EveningAction)],
    ) -> Result<Evening, (usize, EveningError)> {
        let mut evening = Evening::new(setup, seed).map_err(|e| (0, e))?;
        for (n, (who, action)) in actions.iter().enumerate() {
            evening.apply(*who, action.clone()).map_err(|e| (n, e))?;
        }
        Ok(evening)
    }

    pub fn rules(&self) -> Rules {
        // Checked when made; a deserialised evening's are made again.
        self.rules.or_else(|| self.setup.rules().ok()).unwrap_or_else(|| self.setup.preset.rules())
    }

    /// The round in play or drawn, its number from 0.
    pub fn round(&self) -> Option<(u8, &Round)> {
        self.rounds.last().map(|r| (self.rounds.len() as u8 - 1, r))
    }

    /// Deals still to play in the last round.
    pub fn left(&self) -> u32 {
        let Some((_, round)) = self.round() else { return 0 };
        let deals = u32::from(self.setup.deals);
        round
            .draw
            .tables
            .iter()
            .zip(&round.tables)
            .map(|(_, t)| deals.saturating_sub(t.results.len() as u32))
            .sum::<u32>()
            + if round.started { 0 } else { deals * round.draw.tables.len() as u32 }
    }

    pub fn is_over(&self) -> bool {
        self.rounds.len() == usize::from(self.setup.rounds)
            && self.round().is_some_and(|(_, r)| r.started)
            && self.left() == 0
    }

    /// Where `player` sits in the round in play: its table and seat.
    pub fn table_of(&self, player: PlayerId) -> Option<(u16, &DrawnTable)> {
        let (_, round) = self.round()?;
        round.draw.tables.iter().enumerate().find(|(_, t)| t.seat_of(player).is_some()).map(|(i, t)| (i as u16, t))
    }

    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.get(usize::from(id))
    }

    /// The player of that name (case and spaces aside), checked in.
    pub fn named(&self, name: &str) -> Option<PlayerId> {
        let key = name_key(name);
        self.players.iter().position(|p| name_key(&p.name) == key).map(|i| i as PlayerId)
    }

    pub fn apply(&mut self, who: Who, action: EveningAction) -> Result<Change, EveningError> {
        use EveningAction as A;
        let organiser = || if who == Who::Organiser { Ok(()) } else { Err(EveningError::NotOrganiser) };
        match action {
            A::CheckIn { name } => {
                if who != Who::Newcomer {
                    return Err(EveningError::Seated);
                }
                self.seat(name, true)
            }
            A::Add { name } => {
                organiser()?;
                self.seat(name, false)
            }
            A::Remove { player } => {
                organiser()?;
                let p = self.players.get_mut(usize::from(player)).ok_or(EveningError::NoPlayer(player))?;
                p.present = false;
                // A draw not yet started is made again without them.
                let drawn_in = |r: &Round| {
                    r.draw.tables.iter().any(|t| t.seat_of(player).is_some()) || r.draw.sitting_out.contains(&player)
                };
                if self.round().is_some_and(|(_, r)| !r.started && drawn_in(r)) {
                    self.redraw()?;
                }
                Ok(Change::Removed { player })
            }
            A::Draw => {
                organiser()?;
                match self.round() {
                    Some((_, r)) if !r.started => self.redraw(),
                    _ => {
                        let left = self.left();
                        if left > 0 {
                            return Err(EveningError::RoundNotOver { round: self.rounds.len() as u8, left });
                        }
                        if self.rounds.len() >= usize::from(self.setup.rounds) {
                            return Err(EveningError::Over);
                        }
                        self.rounds.push(Round {
                            draw: Draw { tables: Vec::new(), sitting_out: Vec::new() },
                            cards: Vec::new(),
                            started: false,
                            tables: Vec::new(),
                            draws: 0,
                        });
                        self.redraw()
                    }
                }
            }
            A::TableCards { table, cards } => {
                organiser()?;
                let round = self.rounds.last_mut().filter(|r| !r.started).ok_or(EveningError::NotDrawn)?;
                let drawn = round.draw.tables.get(usize::from(table)).ok_or(EveningError::NoTable(table))?;
                if cards == Cards::Real && drawn.chairs.contains(&None) {
                    return Err(EveningError::BotsOnline(table));
                }
                round.cards[usize::from(table)] = cards;
                Ok(Change::Drawn { round: self.rounds.len() as u8 - 1 })
            }
            A::Start => {
                organiser()?;
                let round = self.rounds.last_mut().ok_or(EveningError::NotDrawn)?;
                if round.started {
                    return Err(EveningError::NotDrawn);
                }
                round.started = true;
                round.tables = vec![
                    TableScore { results: Vec::new(), entered: Vec::new(), notes: Vec::new() };
                    round.draw.tables.len()
                ];
                Ok(Change::Started { round: self.rounds.len() as u8 - 1 })
            }
            A::Enter { table, deal } => {
                let round = self.rounds.len().checked_sub(1).ok_or(EveningError::NotStarted)? as u8;
                self.may_score(who, round, table)?;
                self.plays(round, table, Cards::Real)?;
                let deals = usize::from(self.setup.deals);
                let t = self.table_mut(round, table)?;
                if t.entered.len() >= deals {
                    return Err(EveningError::TableDone(table));
                }
                let mut entered = t.entered.clone();
                entered.push(deal);
                self.rescore(round, table, entered)?;
                let t = self.table_mut(round, table)?;
                t.notes.push(vec![LineNote::Entered { by: who }]);
                Ok(Change::Line { round, table, line: t.entered.len() as u16 - 1 })
            }
            A::Correct { round, table, line, deal } => {
                self.may_score(who, round, table)?;
                self.plays(round, table, Cards::Real)?;
                let t = self.table_mut(round, table)?;
                let mut entered = t.entered.clone();
                *entered.get_mut(usize::from(line)).ok_or(EveningError::NoLine { table, line })? = deal;
                self.rescore(round, table, entered)?;
                self.table_mut(round, table)?.notes[usize::from(line)].push(LineNote::Corrected { by: who });
                Ok(Change::Line { round, table, line })
            }
            A::Dispute { round, table, line } => {
                let Who::Player(by) = who else { return Err(EveningError::NotAtTable) };
                self.may_score(who, round, table)?;
                let t = self.table_mut(round, table)?;
                let notes = t.notes.get_mut(usize::from(line)).ok_or(EveningError::NoLine { table, line })?;
                notes.push(LineNote::Disputed { by });
                Ok(Change::Disputed { round, table, line })
            }
            A::Played { round, table, line, result } => {
                if who != Who::Server {
                    return Err(EveningError::NotAtTable);
                }
                self.plays(round, table, Cards::Online)?;
                let deals = usize::from(self.setup.deals);
                let t = self.table_mut(round, table)?;
                // Told again after a restart: kept once.
                if usize::from(line) < t.results.len() {
                    return Ok(Change::Nothing);
                }
                if usize::from(line) != t.results.len() || t.results.len() >= deals {
                    return Err(EveningError::NoLine { table, line });
                }
                t.results.push(result);
                t.notes.push(vec![LineNote::Entered { by: Who::Server }]);
                Ok(Change::Line { round, table, line })
            }
        }
    }

    fn seat(&mut self, name: String, phone: bool) -> Result<Change, EveningError> {
        let trimmed = name.trim();
        if trimmed.is_empty() || trimmed.chars().count() > MAX_NAME || trimmed.chars().any(char::is_control) {
            return Err(EveningError::PlayerName(name));
        }
        if let Some(known) = self.named(trimmed) {
            // A name removed earlier comes back as the same player.
            let p = &mut self.players[usize::from(known)];
            if p.present {
                return Err(EveningError::NameTaken(trimmed.to_owned()));
            }
            p.present = true;
            p.phone |= phone;
            return Ok(Change::CheckedIn { player: known });
        }
        if self.players.len() >= MAX_PLAYERS {
            return Err(EveningError::Full);
        }
        self.players.push(Player { name: trimmed.to_owned(), present: true, phone });
        Ok(Change::CheckedIn { player: self.players.len() as PlayerId - 1 })
    }

    /// The last round drawn (again), from the next of its seeds.
    fn redraw(&mut self) -> Result<Change, EveningError> {
        let present: Vec<PlayerId> =
            (0..self.players.len() as PlayerId).filter(|p| self.players[usize::from(*p)].present).collect();
        let n = self.rounds.len() - 1;
        let before: Vec<Draw> = self.rounds[..n].iter().map(|r| r.draw.clone()).collect();
        let more = usize::from(self.setup.rounds).saturating_sub(n + 1);
        let attempt = self.rounds[n].draws;
        let seed = klaverjas::deal_seed(self.seed, (n as u64) << 32 | u64::from(attempt));
        let drawn = draw::draw(seed, &present, &before, more, self.setup.leftover).map_err(EveningError::Draw)?;
        let round = &mut self.rounds[n];
        round.cards = drawn
            .tables
            .iter()
            .map(|t| if t.chairs.contains(&None) { Cards::Online } else { self.setup.cards })
            .collect();
        round.draw = drawn;
        round.draws += 1;
        Ok(Change::Drawn { round: n as u8 })
    }

    /// How table `table` of round `round` plays.
    pub fn cards(&self, round: u8, table: u16) -> Option<Cards> {
        self.rounds.get(usize::from(round))?.cards.get(usize::from(table)).copied()
    }

    fn plays(&self, round: u8, table: u16, cards: Cards) -> Result<(), EveningError> {
        match self.cards(round, table) {
            Some(c) if c == cards => Ok(()),
            Some(Cards::Online) => Err(EveningError::Online),
            Some(Cards::Real) => Err(EveningError::RealCards),
            None => Err(EveningError::NoTable(table)),
        }
    }

    fn may_score(&self, who: Who, round: u8, table: u16) -> Result<(), EveningError> {
        let r = self.rounds.get(usize::from(round)).ok_or(EveningError::NotStarted)?;
        if !r.started {
            return Err(EveningError::NotStarted);
        }
        let t = r.draw.tables.get(usize::from(table)).ok_or(EveningError::NoTable(table))?;
        match who {
            Who::Organiser => Ok(()),
            Who::Player(p) if t.seat_of(p).is_some() => Ok(()),
            _ => Err(EveningError::NotAtTable),
        }
    }

    fn table_mut(&mut self, round: u8, table: u16) -> Result<&mut TableScore, EveningError> {
        self.rounds
            .get_mut(usize::from(round))
            .ok_or(EveningError::NotStarted)?
            .tables
            .get_mut(usize::from(table))
            .ok_or(EveningError::NoTable(table))
    }

    /// A real-cards table's sheet kept from `entered`, its results with it;
    /// nothing changes where a line does not score.
    fn rescore(&mut self, round: u8, table: u16, entered: Vec<EnteredDeal>) -> Result<(), EveningError> {
        let dealer = self.rounds[usize::from(round)]
            .draw
            .tables
            .get(usize::from(table))
            .ok_or(EveningError::NoTable(table))?
            .dealer;
        let mut sheet = KeptSheet::new(self.rules(), dealer).map_err(SheetError::from)?;
        let mut results = Vec::with_capacity(entered.len());
        for deal in &entered {
            results.push(sheet.enter(*deal)?);
        }
        let t = self.table_mut(round, table)?;
        t.results = results;
        t.entered = entered;
        Ok(())
    }
}

/// A name as it is compared: trimmed, spaces single, case folded.
pub fn name_key(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}
