//! The messages between a table server and the people at its table, as
//! JSON over WebSocket. No I/O: the server, `kj` and the app share these
//! types, and [`seen_by`] and [`for_seat`] are the one place where what a
//! seat is sent is made, so that no other code can hand a seat a card it
//! may not see.
//!
//! A connection's first message is [`ToTable::Host`], [`ToTable::Join`] or
//! [`ToTable::Rejoin`], each carrying [`PROTOCOL`]. Fields may be added
//! with `#[serde(default)]` without a new version; anything else bumps it.

pub mod check;
pub mod evening;
pub mod lan;
pub mod stand_in;

use klaverjas::{Action, CardSet, Event, Game, Match, PlayerView, Preset, Rules, ScoreSheet, Seat, Team};
use klaverjas_ai::Level;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The protocol's version, the first thing both sides check. 2: a
/// table's state carries the score sheet only when it may have changed.
/// 3: a table's setup says whether the coach's hints are allowed. 4: a
/// deal's seal hides its cards (a secret opened with the code), an action
/// out of turn is refused as such, and the host may remove a player.
/// 5: a setup says whether a late friend may take a bot's chair. 6: a
/// guest may leave the waiting room, freeing their chair.
pub const PROTOCOL: u32 = 6;

/// The longest message a table accepts, in bytes.
pub const MAX_MESSAGE: usize = 4096;

/// The longest name at a table, in characters.
pub const MAX_NAME: usize = 24;

/// A table's code: six characters of an alphabet without look-alikes (no
/// 0/O, no 1/I/L), so that it survives being read aloud or typed on a
/// phone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct TableCode([u8; TableCode::LEN]);

impl TableCode {
    pub const LEN: usize = 6;
    pub const ALPHABET: &'static [u8; 31] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";

    /// The code that `random` (any 64 random bits) picks.
    pub fn from_random(mut random: u64) -> TableCode {
        let mut code = [0; TableCode::LEN];
        for c in &mut code {
            *c = TableCode::ALPHABET[(random % 31) as usize];
            random /= 31;
        }
        TableCode(code)
    }

    pub fn as_str(&self) -> &str {
        // Only bytes of the ASCII alphabet are ever stored.
        std::str::from_utf8(&self.0).unwrap_or("")
    }
}

impl std::str::FromStr for TableCode {
    type Err = CodeError;
    /// Case and spaces do not matter, as a person types it.
    fn from_str(s: &str) -> Result<TableCode, CodeError> {
        let typed: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).map(|b| b.to_ascii_uppercase()).collect();
        if typed.len() != TableCode::LEN {
            return Err(CodeError::Length(s.to_owned()));
        }
        if let Some(&bad) = typed.iter().find(|b| !TableCode::ALPHABET.contains(b)) {
            return Err(CodeError::Character(bad as char));
        }
        let mut code = [0; TableCode::LEN];
        code.copy_from_slice(&typed);
        Ok(TableCode(code))
    }
}

impl fmt::Display for TableCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for TableCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TableCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TableCode, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a table's code is not one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CodeError {
    Length(String),
    Character(char),
}

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodeError::Length(s) => write!(f, "a table's code has {} characters, not '{s}'", TableCode::LEN),
            CodeError::Character(c) => {
                write!(f, "'{c}' is in no table's code (codes are letters and digits without 0, O, 1, I or L)")
            }
        }
    }
}

impl std::error::Error for CodeError {}

/// What a host chooses for a new table.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub preset: Preset,
    /// House rules on top of the preset, as `kj --set` takes them
    /// (`name=value,...`, the match's length among them: `match=deals:16`).
    #[serde(default)]
    pub set: String,
    /// The bots in empty chairs and in the chairs of people away.
    pub bots: Level,
    /// Seconds a person may be away before a bot plays for them; `None`:
    /// the table waits for them.
    #[serde(default = "Setup::default_grace")]
    pub grace: Option<u32>,
    /// Whether the players' apps offer the coach's hints at this table.
    #[serde(default)]
    pub hints: bool,
    /// Whether a friend who comes once the match has begun may take a
    /// bot's chair (one nobody sits in). Tables from before the choice
    /// let them.
    #[serde(default = "Setup::late_default")]
    pub late: bool,
}

impl Setup {
    pub fn default_grace() -> Option<u32> {
        Some(30)
    }

    pub fn late_default() -> bool {
        true
    }

    /// The table's rules, or why its house rules are not rules.
    pub fn rules(&self) -> Result<Rules, String> {
        let mut rules = self.preset.rules();
        rules.set_all(&self.set).map_err(|e| e.to_string())?;
        Ok(rules)
    }
}

/// What a player sends.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToTable {
    /// Open a new table and sit at it as its host.
    Host { protocol: u32, name: String, setup: Setup },
    /// Sit at the table `code` in an empty chair.
    Join { protocol: u32, code: TableCode, name: String },
    /// Take back the chair that `token` holds (after a dropped connection,
    /// a reload or a phone that slept).
    Rejoin { protocol: u32, code: TableCode, token: String },
    /// The host: seat the person in `from` at `to` (the one there, if any,
    /// goes to `from`). Before the match only.
    Swap { from: Seat, to: Seat },
    /// The host: partners at random. Before the match only.
    Shuffle,
    /// The host: empty chairs get bots and the match begins.
    Start,
    /// The host: the person in `seat` leaves the table, their token with
    /// them; before the match the chair is free again, during it a bot
    /// plays it.
    Remove { seat: Seat },
    /// Before the match: this person leaves the waiting room, and their
    /// chair is free again (a dropped connection keeps it for them).
    Leave,
    /// This seat's action in the deal.
    Act { action: Action },
    /// This seat calls roem on the trick just taken.
    CallRoem,
    /// The deal is over and this seat is ready for the next one.
    Ready,
    /// The match is over and this seat would play another at the table.
    Rematch,
}

/// Who sits in a chair.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Chair {
    pub seat: Seat,
    /// The person's name; `None`: a bot (once the match began) or nobody.
    pub name: Option<String>,
    /// A person sits here but has been away longer than the grace: a bot
    /// plays for them until they are back.
    #[serde(default)]
    pub away: bool,
    /// A person sits here and is not connected now (within the grace, or
    /// away).
    #[serde(default)]
    pub gone: bool,
    pub host: bool,
}

/// What the table sends.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromTable {
    /// The answer to a first message: the chair now held. `token` comes
    /// once, to the person it belongs to, on Host and Join.
    Seated {
        protocol: u32,
        code: TableCode,
        seat: Seat,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        token: Option<String>,
        setup: Setup,
    },
    /// Who sits where, whenever it changes.
    Chairs { chairs: Vec<Chair>, started: bool },
    /// Before a deal is played: the seal of the fair shuffle ([`seal`]),
    /// which binds the table to the deal's cards and tells nothing of them.
    Sealed { deal: usize, seal: String },
    /// The table as this seat sees it after the table's `step`-th accepted
    /// step, with what happened in it; the match's score sheet only when it
    /// may have changed (see [`for_seat`]).
    Table {
        step: u64,
        deal: usize,
        view: Box<PlayerView>,
        happened: Vec<Seen>,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        sheet: Option<ScoreSheet>,
    },
    /// A deal has ended: its code, which the seal announced, with all four
    /// hands (the review needs them), and the seal's secret, in hex
    /// ([`opens`] checks the two against the seal).
    Opened { deal: usize, code: String, secret: String },
    /// The match is over.
    MatchOver { winner: Option<Team> },
    /// What was asked was not done, and why; nothing changed.
    Refused { why: Refusal, message: String },
}

/// Why the table did not do what was asked.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// Not JSON, or not a message of this protocol.
    BadMessage,
    /// The message is longer than [`MAX_MESSAGE`].
    TooLong,
    /// Another protocol version.
    Protocol,
    /// No table has this code.
    NoTable,
    /// The table has no empty chair.
    Full,
    /// The token holds no chair at this table.
    BadToken,
    /// The first message must be Host, Join or Rejoin, and only the first.
    NotSeated,
    /// Only the host may do this.
    NotHost,
    /// Not now: before the match, during it or after it.
    NotNow,
    /// The engine refused the action: against the rules.
    Rules,
    /// Another seat is to act. Said the same whatever was asked, so that
    /// it tells nothing of any hand.
    NotYourTurn,
    /// The host removed this person from the table.
    Removed,
    /// Too many messages, tables or connections.
    TooMany,
    /// The name is empty, too long, holds characters that hide or turn
    /// text, or is someone else's at the table.
    BadName,
    /// The house rules are not rules.
    BadSetup,
}

/// A public event of the deal, as one seat is told it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Seen {
    Event {
        event: Event,
    },
    /// Another seat laid a card away: which one is its own.
    LaidAway {
        seat: Seat,
    },
}

/// What `seat` is told of `event`: everything public, and of what is
/// private, only its own part.
pub fn seen_by(event: &Event, seat: Seat) -> Seen {
    match *event {
        Event::Discarded { seat: by, .. } if by != seat => Seen::LaidAway { seat: by },
        Event::SecondDeal { mut dealt, bottom } => {
            for (i, cards) in dealt.iter_mut().enumerate() {
                if i != seat.index() {
                    *cards = CardSet::EMPTY;
                }
            }
            Seen::Event { event: Event::SecondDeal { dealt, bottom } }
        }
        other => Seen::Event { event: other },
    }
}

/// The table as `seat` may see it, after `step` accepted steps, with the
/// events of the last. The score sheet comes when it may have changed: with
/// no events (a seat welcomed, a deal begun) and at a deal's end. Sent with
/// every card, it made a late deal's messages several kilobytes, each
/// connection's buffer as large, and the phone's download with it.
pub fn for_seat(table: &Match, seat: Seat, step: u64, events: &[Event]) -> FromTable {
    let sheet_changed = events.is_empty() || events.iter().any(|e| matches!(e, Event::DealOver(_)));
    FromTable::Table {
        step,
        deal: table.deal_number(),
        view: Box::new(table.game().view(seat)),
        happened: events.iter().map(|e| seen_by(e, seat)).collect(),
        sheet: sheet_changed.then(|| table.sheet().clone()),
    }
}

/// The bytes of a seal's secret: 256 bits.
pub const SECRET_LEN: usize = 32;

/// The seal of a deal: SHA-256 of `secret` (256 bits the table drew and
/// keeps to itself) followed by the deal's code, in hex. Sent before the
/// deal, the secret and the code after it: `kj code CODE` then shows the
/// cards. SHA-256 of the code alone would be no seal: a deal's code is a
/// plain encoding of the hands, and the deals that fit what a seat has
/// seen are few enough to hash them all. With the secret in front, each
/// guess of the cards must also guess 256 bits (hiding); finding another
/// secret and code with the same seal is a SHA-256 collision (binding).
/// docs/DESIGN.md says more.
pub fn seal(secret: &[u8; SECRET_LEN], game: &Game) -> String {
    seal_of(secret, &game.deal().code())
}

/// The seal of a deal's code under `secret`.
pub fn seal_of(secret: &[u8; SECRET_LEN], code: &str) -> String {
    use sha2::Digest;
    let mut hash = sha2::Sha256::new();
    hash.update(secret);
    hash.update(code.as_bytes());
    hex(&hash.finalize())
}

/// Whether a deal opened with `code` and `secret` (hex, as sent) is the one
/// `seal` sealed: the secret must be 256 bits, and the seal theirs.
pub fn opens(seal: &str, secret: &str, code: &str) -> bool {
    secret_from_hex(secret).is_some_and(|secret| seal_of(&secret, code) == seal)
}

/// A deal's seal checked against its opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SealCheck {
    /// SHA-256 of the secret (256 bits) and the code is the seal
    /// announced before the deal.
    Holds,
    /// It is not: the cards were not those sealed.
    Broken,
    /// The deal began before this chair was taken: no seal was heard.
    Unheard,
}

/// The seals a chair has heard, the latest for each deal number: a hand
/// thrown in is dealt again under the same number, with a seal of its own,
/// as is the first deal of a rematch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seals(Vec<(usize, String)>);

impl Seals {
    /// A seal heard before deal `deal`.
    pub fn heard(&mut self, deal: usize, seal: String) {
        self.0.retain(|(d, _)| *d != deal);
        self.0.push((deal, seal));
    }

    /// Deal `deal` opened with `code` and `secret`, against its seal.
    pub fn check(&self, deal: usize, code: &str, secret: &str) -> SealCheck {
        match self.0.iter().find(|(d, _)| *d == deal) {
            Some((_, seal)) if opens(seal, secret, code) => SealCheck::Holds,
            Some(_) => SealCheck::Broken,
            None => SealCheck::Unheard,
        }
    }
}

/// A secret as sent (64 hex digits), read back.
pub fn secret_from_hex(text: &str) -> Option<[u8; SECRET_LEN]> {
    let digits = text.as_bytes();
    if digits.len() != 2 * SECRET_LEN {
        return None;
    }
    let mut secret = [0u8; SECRET_LEN];
    for (byte, pair) in secret.iter_mut().zip(digits.chunks(2)) {
        *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(secret)
}

/// Bytes in lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of `text`, in hex: how a seat's token is kept.
pub fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    hex(&sha2::Sha256::digest(text.as_bytes()))
}

/// A message from a player, read: bad JSON, unknown fields and another
/// protocol are refusals that name what was wrong.
pub fn read(text: &str) -> Result<ToTable, (Refusal, String)> {
    if text.len() > MAX_MESSAGE {
        return Err((Refusal::TooLong, format!("a message is at most {MAX_MESSAGE} bytes, not {}", text.len())));
    }
    let bad = |e: String| (Refusal::BadMessage, format!("not a message: {e}"));
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let message: ToTable = serde_json::from_value(json.clone()).map_err(|e| bad(e.to_string()))?;
    // serde lets a field too many through a variant without fields: what
    // does not come back when the message is written again was not read.
    if let Some(field) = serde_json::to_value(&message).ok().and_then(|again| unknown_field(&json, &again)) {
        return Err(bad(format!("unknown field `{field}`")));
    }
    match &message {
        ToTable::Host { protocol, .. } | ToTable::Join { protocol, .. } | ToTable::Rejoin { protocol, .. }
            if *protocol != PROTOCOL =>
        {
            Err((Refusal::Protocol, format!("this table speaks protocol {PROTOCOL}, not {protocol}")))
        }
        ToTable::Host { name, .. } | ToTable::Join { name, .. } => match name_error(name) {
            Some(why) => Err((Refusal::BadName, why)),
            None if matches!(message, ToTable::Host { .. }) => check_setup(message),
            None => Ok(message),
        },
        _ => Ok(message),
    }
}

fn check_setup(message: ToTable) -> Result<ToTable, (Refusal, String)> {
    match &message {
        ToTable::Host { setup, .. } => match setup.rules() {
            Ok(_) => Ok(message),
            Err(e) => Err((Refusal::BadSetup, format!("house rules: {e}"))),
        },
        _ => Ok(message),
    }
}

/// The first key of `read` that `written` lacks, at any depth.
fn unknown_field(read: &serde_json::Value, written: &serde_json::Value) -> Option<String> {
    let (serde_json::Value::Object(read), serde_json::Value::Object(written)) = (read, written) else {
        return None;
    };
    read.iter().find_map(|(key, value)| match written.get(key) {
        None => Some(key.clone()),
        Some(again) => unknown_field(value, again),
    })
}

/// Why `name` is no name at a table, in words; `None` for a good one.
/// The name is taken trimmed ([`str::trim`]). Characters that hide or
/// turn text are refused: with a right-to-left override or a zero-width
/// space, "Anna" and a name that shows as "Anna" are not the same, and
/// a chair's name could be made to read as another's.
pub fn name_error(name: &str) -> Option<String> {
    let name = name.trim();
    let n = name.chars().count();
    if !(1..=MAX_NAME).contains(&n) {
        return Some(format!("a name has 1 to {MAX_NAME} characters, not {n}"));
    }
    name.chars()
        .find(|&c| hides_or_turns(c))
        .map(|c| format!("a name may not hold the invisible or text-turning character U+{:04X}", c as u32))
}

/// Control characters, the bidirectional overrides, embeddings, isolates
/// and marks, and the zero-width characters.
fn hides_or_turns(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}' | '\u{E0000}'..='\u{E007F}')
}

/// Two names a table would show alike: the same when trimmed, whatever
/// their case.
pub fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

impl FromTable {
    pub fn refused(why: Refusal, message: impl Into<String>) -> FromTable {
        FromTable::Refused { why, message: message.into() }
    }

    pub fn to_json(&self) -> String {
        // Every field is a plain value or a map with string keys.
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
