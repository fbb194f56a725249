//! The messages of a club evening, beside a table's: a phone checks in,
//! the organiser draws and starts the rounds, a table's phone enters its
//! deals, and everyone is sent the evening as it stands. An evening holds
//! no hidden card: what each connection is sent differs only in how much
//! of it ([`view_for`]), so that two hundred phones are not each sent
//! every table's sheet.

use crate::{MAX_MESSAGE, Refusal, TableCode, hides_or_turns, name_error, unknown_field};
use klaverjas_club::{Change, Draw, Evening, EveningAction, EveningSetup, Player, Standing, TableScore, Who};
use serde::{Deserialize, Serialize};

/// The evenings' protocol version, checked by both sides.
pub const EVENING_PROTOCOL: u32 = 1;

/// What a phone, the organiser or a projector sends.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToEvening {
    /// A new evening, its organiser the sender. An evening of a club that
    /// has had evenings here brings the token its first organiser was
    /// given (their evening's), which is the club's.
    Organise {
        protocol: u32,
        setup: EveningSetup,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        club_token: Option<String>,
    },
    /// A newcomer with the evening's code gives their name.
    CheckIn { protocol: u32, code: TableCode, name: String },
    /// Back with the token given at check-in (or the organiser's).
    Return { protocol: u32, code: TableCode, token: String },
    /// Follow the standings only (a projector, a TV): changes nothing.
    Watch { protocol: u32, code: TableCode },
    /// Once in: an action on the evening.
    Act { action: EveningAction },
}

/// What an evening sends.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromEvening {
    /// In: who the connection is, and (once, at organising or check-in)
    /// the token to come back with.
    Welcome {
        protocol: u32,
        code: TableCode,
        you: Who,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        token: Option<String>,
    },
    /// This connection's action was accepted (and is on disk); the
    /// evening as it stands follows.
    Accepted {
        change: Change,
    },
    /// The evening as it stands, as this connection sees it.
    Evening {
        view: Box<EveningView>,
    },
    Refused {
        why: Refusal,
        message: String,
    },
}

/// The evening for one connection: everyone sees the players, the round's
/// draw, each table's progress and the standings; a player also their own
/// table's sheet, the organiser every table's.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct EveningView {
    pub setup: EveningSetup,
    pub players: Vec<Player>,
    /// Rounds drawn so far (the last may not have started).
    pub rounds: u8,
    /// The last round's draw and whether it started.
    pub draw: Option<Draw>,
    pub started: bool,
    /// Deals entered or played at each table of the last round.
    pub progress: Vec<u16>,
    /// Sheets, each with its round and table.
    pub sheets: Vec<(u8, u16, TableScore)>,
    pub standings: Vec<Standing>,
    pub over: bool,
    /// The last round's online tables' codes, where they are open; a
    /// player joins theirs with their evening token (`ToTable::Rejoin`).
    #[serde(default)]
    pub online: Vec<Option<TableCode>>,
    /// How each table of the last round plays.
    #[serde(default)]
    pub cards: Vec<klaverjas_club::Cards>,
    /// The club's members from earlier evenings not checked in yet, to
    /// pick a name from.
    #[serde(default)]
    pub members: Vec<String>,
}

/// The evening as `who` is sent it (a newcomer or a watcher the
/// standings' part); `standings` worked out once for all.
pub fn view_for(evening: &Evening, standings: &[Standing], who: Who) -> EveningView {
    let last = evening.round();
    let sheets = match (who, last) {
        (Who::Newcomer | Who::Server, _) | (_, None) => Vec::new(),
        (Who::Organiser, Some((n, round))) => {
            round.tables.iter().enumerate().map(|(t, score)| (n, t as u16, score.clone())).collect()
        }
        (Who::Player(p), Some((n, round))) => evening
            .table_of(p)
            .and_then(|(t, _)| round.tables.get(usize::from(t)).map(|score| (n, t, score.clone())))
            .into_iter()
            .collect(),
    };
    EveningView {
        setup: evening.setup.clone(),
        players: evening.players.clone(),
        rounds: evening.rounds.len() as u8,
        draw: last.map(|(_, r)| r.draw.clone()),
        started: last.is_some_and(|(_, r)| r.started),
        progress: last.map(|(_, r)| r.tables.iter().map(|t| t.results.len() as u16).collect()).unwrap_or_default(),
        sheets,
        standings: standings.to_vec(),
        over: evening.is_over(),
        online: Vec::new(),
        cards: last.map(|(_, r)| r.cards.clone()).unwrap_or_default(),
        members: Vec::new(),
    }
}

impl FromEvening {
    pub fn refused(why: Refusal, message: impl Into<String>) -> FromEvening {
        FromEvening::Refused { why, message: message.into() }
    }

    pub fn to_json(&self) -> String {
        // Our own types: they always serialise.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A message from the network, checked as far as it can be without the
/// evening: its length, its fields, its protocol, a name's characters, a
/// setup's rules.
pub fn read_evening(text: &str) -> Result<ToEvening, (Refusal, String)> {
    if text.len() > MAX_MESSAGE {
        return Err((Refusal::TooLong, format!("a message is at most {MAX_MESSAGE} bytes, not {}", text.len())));
    }
    let bad = |e: String| (Refusal::BadMessage, format!("not a message: {e}"));
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let message: ToEvening = serde_json::from_value(json.clone()).map_err(|e| bad(e.to_string()))?;
    if let Some(field) = serde_json::to_value(&message).ok().and_then(|again| unknown_field(&json, &again)) {
        return Err(bad(format!("unknown field `{field}`")));
    }
    match &message {
        ToEvening::Organise { protocol, .. }
        | ToEvening::CheckIn { protocol, .. }
        | ToEvening::Return { protocol, .. }
        | ToEvening::Watch { protocol, .. }
            if *protocol != EVENING_PROTOCOL =>
        {
            return Err((
                Refusal::Protocol,
                format!("this evening speaks protocol {EVENING_PROTOCOL}, not {protocol}"),
            ));
        }
        ToEvening::CheckIn { name, .. }
        | ToEvening::Act { action: EveningAction::CheckIn { name } | EveningAction::Add { name } } => {
            if let Some(why) = name_error(name) {
                return Err((Refusal::BadName, why));
            }
        }
        ToEvening::Organise { setup, .. } => {
            setup.rules().map_err(|e| (Refusal::BadSetup, e.to_string()))?;
            if let Some(c) = setup.name.chars().chain(setup.club.chars()).find(|c| hides_or_turns(*c)) {
                let text = format!(
                    "an evening's name may not hold the invisible or text-turning character U+{:04X}",
                    c as u32
                );
                return Err((Refusal::BadName, text));
            }
        }
        _ => {}
    }
    Ok(message)
}
