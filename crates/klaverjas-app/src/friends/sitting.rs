//! A chair at a table with friends, as this app holds it: the connection to
//! the table server, what the table said (the code, the chair, the token,
//! who sits where, each deal's seal and opening) and the stand-in match the
//! table is drawn from (`klaverjas_net::stand_in`). Nothing here draws.
//!
//! A lost connection is opened again by itself, with the chair's token,
//! while the table lasts; the token is kept on disk (`Files`) so that a
//! reload or a restart takes the player back.

use super::socket::{Socket, SocketEvent, Wake};
use crate::save::{Loaded, Store};
use klaverjas::{Seat, Team};
pub use klaverjas_net::SealCheck;
use klaverjas_net::stand_in::StandIn;
use klaverjas_net::{Chair, FromTable, PROTOCOL, Refusal, Setup, TableCode, ToTable};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Seconds between tries to reach a table again.
pub const RETRY_S: f32 = 2.0;

/// Seconds the table has to answer a card or a call before the connection
/// is taken for lost (half open: the phone changed networks without
/// closing it) and opened again.
pub const ANSWER_S: f32 = 10.0;

/// The chair kept on disk while the table lasts (`chair.ron`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptChair {
    pub format: u32,
    pub chair: Chairkeeper,
}

impl KeptChair {
    pub const FORMAT: u32 = 1;

    fn path(store: &Store) -> PathBuf {
        store.dir.join("chair.ron")
    }

    /// The chair kept from an earlier sitting, if any.
    pub fn read(store: &Store) -> Option<Chairkeeper> {
        match store.read::<KeptChair>(&KeptChair::path(store)) {
            Loaded::Found(kept) => Some(kept.chair),
            _ => None,
        }
    }

    pub fn keep(store: &Store, chair: &Chairkeeper) -> Result<(), String> {
        store.write(&KeptChair::path(store), &KeptChair { format: KeptChair::FORMAT, chair: chair.clone() })
    }

    pub fn forget(store: &Store) {
        let _ = crate::disk::remove(&KeptChair::path(store));
    }
}

/// Asked from the title: take the kept chair back at once, as the friends
/// screen's Back to your table does.
#[derive(bevy::prelude::Resource)]
pub struct BackToTable;

/// What is needed to take a chair back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chairkeeper {
    /// The table server's WebSocket address, `ws://HOST:PORT/ws`.
    pub server: String,
    pub code: TableCode,
    pub token: String,
}

/// How the connection stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Connection {
    /// Opening, the first time.
    Opening,
    Open,
    /// Lost at `since` (the app's seconds); tried again every [`RETRY_S`].
    Reconnecting {
        since: f32,
        why: String,
    },
    /// Over: refused, or left. Nothing more will come.
    Closed(String),
}

/// A deal's code, opened at its end, and what its seal says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opened {
    pub deal: usize,
    pub code: String,
    pub check: SealCheck,
}

/// This app's chair at a table.
#[derive(bevy::prelude::Resource)]
pub struct Sitting {
    pub server: String,
    pub code: Option<TableCode>,
    pub seat: Option<Seat>,
    pub token: Option<String>,
    pub setup: Option<Setup>,
    pub chairs: Vec<Chair>,
    pub started: bool,
    pub connection: Connection,
    /// Each deal's seal, as announced before it.
    seals: klaverjas_net::Seals,
    pub opened: Vec<Opened>,
    pub stand_in: Option<StandIn>,
    /// The stand-in has moved on since the table last followed it.
    pub news: bool,
    pub over: Option<Option<Team>>,
    /// The table's last refusal, in its words, and how many came.
    pub refused: Option<(Refusal, String)>,
    pub refusals: u32,
    /// What to send first on every (re)connection.
    first: ToTable,
    socket: Option<Socket>,
    /// When the next try to reach the table is due.
    retry_at: Option<f32>,
    /// When the table's answer to what was sent is overdue.
    answer_due: Option<f32>,
}

impl Sitting {
    /// Opens a new table at `server` and sits at it as its host.
    pub fn host(server: String, name: String, setup: Setup, wake: Wake) -> Sitting {
        Sitting::open(server, ToTable::Host { protocol: PROTOCOL, name, setup }, wake)
    }

    /// Sits at table `code` in an empty chair.
    pub fn join(server: String, code: TableCode, name: String, wake: Wake) -> Sitting {
        Sitting::open(server, ToTable::Join { protocol: PROTOCOL, code, name }, wake)
    }

    /// Takes back the chair `kept` holds.
    pub fn rejoin(kept: &Chairkeeper, wake: Wake) -> Sitting {
        let first = ToTable::Rejoin { protocol: PROTOCOL, code: kept.code, token: kept.token.clone() };
        let mut sitting = Sitting::open(kept.server.clone(), first, wake);
        sitting.code = Some(kept.code);
        sitting.token = Some(kept.token.clone());
        sitting
    }

    fn open(server: String, first: ToTable, wake: Wake) -> Sitting {
        let socket = Socket::open(&server, wake);
        Sitting {
            server,
            code: None,
            seat: None,
            token: None,
            setup: None,
            chairs: Vec::new(),
            started: false,
            connection: Connection::Opening,
            seals: klaverjas_net::Seals::default(),
            opened: Vec::new(),
            stand_in: None,
            news: false,
            over: None,
            refused: None,
            refusals: 0,
            first,
            socket: Some(socket),
            retry_at: None,
            answer_due: None,
        }
    }

    /// What keeps this chair, once the table has given it.
    pub fn keeper(&self) -> Option<Chairkeeper> {
        Some(Chairkeeper { server: self.server.clone(), code: self.code?, token: self.token.clone()? })
    }

    pub fn is_host(&self) -> bool {
        self.seat.is_some_and(|s| self.chairs.iter().any(|c| c.seat == s && c.host))
    }

    pub fn send(&self, message: &ToTable) {
        if let (Some(socket), Connection::Open) = (&self.socket, &self.connection)
            && let Ok(text) = serde_json::to_string(message)
        {
            socket.send(text);
        }
    }

    /// Sends `message`, which the table answers (a card, a call): if no
    /// answer comes within [`ANSWER_S`] of `now`, the connection is opened
    /// again.
    pub fn ask(&mut self, message: &ToTable, now: f32) {
        self.send(message);
        if self.answer_due.is_none() {
            self.answer_due = Some(now + ANSWER_S);
        }
    }

    /// Whether a card or a call waits for the table's answer.
    pub fn awaiting_answer(&self) -> bool {
        self.answer_due.is_some()
    }

    /// Leaves the table: the connection closes and is not opened again.
    pub fn leave(&mut self) {
        self.socket = None;
        self.connection = Connection::Closed("left".into());
    }

    /// Takes in what came over the socket by `now` (the app's seconds), and
    /// opens the connection again when it is due; `wake` is for a new
    /// socket.
    pub fn poll(&mut self, now: f32, wake: Wake) {
        while let Some(event) = self.socket.as_ref().and_then(Socket::poll) {
            match event {
                SocketEvent::Opened => {
                    self.connection = Connection::Open;
                    self.send(&self.first.clone());
                }
                SocketEvent::Text(text) => {
                    self.answer_due = None;
                    match serde_json::from_str::<FromTable>(&text) {
                        Ok(message) => self.take(message),
                        Err(e) => bevy::log::warn!("the table sent what this app cannot read ({e}): {text}"),
                    }
                }
                SocketEvent::Closed(why) => self.lost(now, why),
            }
        }
        if self.answer_due.is_some_and(|at| now >= at) && self.connection == Connection::Open {
            self.lost(now, "the table did not answer".into());
        }
        if self.retry_at.is_some_and(|at| now >= at) {
            self.retry_at = None;
            self.socket = Some(Socket::open(&self.server, wake));
        }
    }

    /// Drops the connection as a network that went away does: the table
    /// is reached again in [`RETRY_S`], with the chair's token.
    pub fn cut(&mut self, now: f32) {
        self.lost(now, "cut".into());
    }

    fn lost(&mut self, now: f32, why: String) {
        self.socket = None;
        self.answer_due = None;
        match (&self.connection, self.keeper()) {
            (Connection::Closed(_), _) => {}
            // A chair to go back to: try again, and again.
            (_, Some(kept)) => {
                self.first = ToTable::Rejoin { protocol: PROTOCOL, code: kept.code, token: kept.token };
                let since = match &self.connection {
                    Connection::Reconnecting { since, .. } => *since,
                    _ => now,
                };
                self.connection = Connection::Reconnecting { since, why };
                self.retry_at = Some(now + RETRY_S);
            }
            // Never seated: the server could not be reached, or said no.
            (_, None) => {
                let why = self.refused.as_ref().map_or(why, |(_, text)| text.clone());
                self.connection = Connection::Closed(why);
            }
        }
    }

    /// Takes in one message of the table.
    pub fn take(&mut self, message: FromTable) {
        match message {
            FromTable::Seated { code, seat, token, setup, .. } => {
                // The browser check reads the table's code from this line.
                bevy::log::info!("at table {code}, chair {seat:?}");
                self.code = Some(code);
                self.seat = Some(seat);
                if token.is_some() {
                    self.token = token;
                }
                self.setup = Some(setup);
                self.refused = None;
                if self.stand_in.as_ref().is_none_or(|s| s.seat() != seat) {
                    self.stand_in = Some(StandIn::new(seat, crate::platform::clock_seed()));
                }
            }
            FromTable::Chairs { chairs, started } => {
                self.chairs = chairs;
                self.started = started;
            }
            FromTable::Sealed { deal, seal } => {
                self.seals.heard(deal, seal);
            }
            FromTable::Table { deal, view, sheet, .. } => {
                self.started = true;
                let Some(stand_in) = &mut self.stand_in else { return };
                match stand_in.table(deal, &view, sheet.as_ref()) {
                    Ok(()) => self.news = true,
                    Err(e) => {
                        // Said on the table; an action sent may be tried again.
                        bevy::log::error!("the table cannot be followed: {e}");
                        self.refused = Some((Refusal::BadMessage, e.to_string()));
                        self.refusals += 1;
                    }
                }
            }
            FromTable::Opened { deal, code, secret } => {
                let check = self.seals.check(deal, &code, &secret);
                // A check from outside reads the deal's end here.
                bevy::log::info!("deal {deal} opened: {check:?}");
                if let Some(stand_in) = &mut self.stand_in {
                    match stand_in.opened(deal, &code) {
                        Ok(()) => self.news = true,
                        Err(e) => bevy::log::error!("{e}"),
                    }
                }
                self.opened.retain(|o| o.deal != deal);
                self.opened.push(Opened { deal, code, check });
            }
            FromTable::MatchOver { winner } => self.over = Some(winner),
            FromTable::Refused { why, message } => {
                bevy::log::warn!("the table refused: {message}");
                // A chair that is no more (a table closed, a token
                // refused, the host took the player away), a server of
                // another protocol, or a first message refused: trying
                // again would be refused again.
                let seated = self.seat.is_some();
                let hopeless =
                    matches!(why, Refusal::NoTable | Refusal::BadToken | Refusal::Protocol | Refusal::Removed)
                        || (!seated && !matches!(why, Refusal::TooMany));
                if hopeless {
                    self.token = None;
                    self.connection = Connection::Closed(message.clone());
                    self.socket = None;
                }
                self.refused = Some((why, message));
                self.refusals += 1;
            }
        }
    }
}
