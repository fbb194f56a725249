//! One club evening: a task that alone owns its [`Evening`], the tokens of
//! its organiser and players and the connections that follow it. Every
//! action goes through the evening's state machine (which decides who may
//! do it), is written to disk, and only then is anyone told; what each
//! connection is sent is `klaverjas_net::evening::view_for`'s.

use crate::store::{Club, EveningHeader, EveningStep, Write};
use crate::table::{Refused, Shared};
use klaverjas_club::{Evening, EveningAction, EveningError, Standing, Who};
use klaverjas_net::evening::{EVENING_PROTOCOL, FromEvening, view_for};
use klaverjas_net::{Refusal, TableCode};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

pub enum EveningCommand {
    /// A connection comes in.
    In(Box<Entering>),
    /// A connection's action.
    Act {
        conn: u64,
        action: Box<EveningAction>,
    },
    Gone {
        conn: u64,
    },
    /// A page asks for the evening as it stands.
    Ask(oneshot::Sender<Arc<Snapshot>>),
    /// An online table finished a deal (its step on disk).
    Played {
        round: u8,
        table: u16,
        line: u16,
        result: Box<klaverjas::DealResult>,
    },
    /// An online table of the evening is open under `code`.
    Opened {
        round: u8,
        table: u16,
        code: TableCode,
    },
    /// Open the online tables of the round in play that are not open.
    Check,
}

pub struct Entering {
    pub how: Coming,
    pub conn: u64,
    pub out: mpsc::Sender<String>,
    pub reply: oneshot::Sender<Result<Who, Refused>>,
}

pub enum Coming {
    /// The organiser who made it, with the token just drawn.
    Organiser {
        token: String,
    },
    CheckIn {
        name: String,
        token: String,
    },
    Return {
        token: String,
    },
    Watch,
}

/// What the pages (`/e/CODE`) show: the evening and its standings.
pub struct Snapshot {
    pub evening: Evening,
    pub standings: Vec<Standing>,
    /// The club's season with this evening's points in it, where it has a club.
    pub season: Option<Vec<klaverjas_club::SeasonRow>>,
}

/// Commands an evening's inbox holds.
pub const INBOX: usize = 4096;

pub struct Room {
    code: TableCode,
    header: EveningHeader,
    evening: Evening,
    steps: u64,
    /// Token hashes to who holds them.
    tokens: HashMap<String, Who>,
    conns: HashMap<u64, (Who, mpsc::Sender<String>)>,
    shared: Arc<Shared>,
    clubs: Arc<std::sync::Mutex<HashMap<String, Club>>>,
    snapshot: Option<Arc<Snapshot>>,
    lobby: std::sync::Weak<crate::Lobby>,
    /// The online tables open, by round and table.
    online: HashMap<(u8, u16), TableCode>,
}

impl Room {
    /// The evening of `header` with the `steps` it accepted, replayed.
    pub(crate) fn new(
        code: TableCode,
        header: EveningHeader,
        steps: &[EveningStep],
        shared: Arc<Shared>,
        clubs: Arc<std::sync::Mutex<HashMap<String, Club>>>,
        lobby: std::sync::Weak<crate::Lobby>,
    ) -> Result<Room, String> {
        let mut evening = Evening::new(header.setup.clone(), header.seed).map_err(|e| e.to_string())?;
        let mut tokens = HashMap::from([(header.organiser.clone(), Who::Organiser)]);
        for (n, step) in steps.iter().enumerate() {
            let change = evening.apply(step.who, step.action.clone()).map_err(|e| format!("step {n}: {e}"))?;
            if let (Some(hash), klaverjas_club::Change::CheckedIn { player }) = (&step.token_hash, change) {
                tokens.insert(hash.clone(), Who::Player(player));
            }
        }
        let steps = steps.len() as u64;
        let conns = HashMap::new();
        Ok(Room {
            code,
            header,
            evening,
            steps,
            tokens,
            conns,
            shared,
            clubs,
            snapshot: None,
            lobby,
            online: HashMap::new(),
        })
    }

    pub async fn run(mut self, mut inbox: mpsc::Receiver<EveningCommand>) {
        while let Some(command) = inbox.recv().await {
            let mut changed = self.handle(command).await;
            // What came meanwhile is taken too, and everyone told once: a
            // burst of entries from many tables is one message each.
            while let Ok(command) = inbox.try_recv() {
                changed |= self.handle(command).await;
            }
            if changed {
                self.snapshot = None;
                self.tell_everyone();
            }
        }
    }

    /// Handles one command; whether the evening changed.
    async fn handle(&mut self, command: EveningCommand) -> bool {
        match command {
            EveningCommand::In(entering) => {
                let Entering { how, conn, out, reply } = *entering;
                let (who, token, changed) = match how {
                    Coming::Organiser { token } => (Ok(Who::Organiser), Some(token), false),
                    Coming::Watch => (Ok(Who::Newcomer), None, false),
                    Coming::Return { token } => match self.tokens.get(&crate::token_hash(&token)) {
                        Some(who) => (Ok(*who), None, false),
                        None => (
                            Err((Refusal::BadToken, "that token holds no place at this evening".to_owned())),
                            None,
                            false,
                        ),
                    },
                    Coming::CheckIn { name, token } => {
                        let hash = crate::token_hash(&token);
                        match self.accept(Who::Newcomer, EveningAction::CheckIn { name }, Some(hash.clone())).await {
                            Ok(klaverjas_club::Change::CheckedIn { player }) => {
                                self.tokens.insert(hash, Who::Player(player));
                                (Ok(Who::Player(player)), Some(token), true)
                            }
                            Ok(_) => (Err((Refusal::NotNow, "not checked in".to_owned())), None, false),
                            Err(refused) => (Err(refused), None, false),
                        }
                    }
                };
                match who {
                    Ok(who) => {
                        let welcome =
                            FromEvening::Welcome { protocol: EVENING_PROTOCOL, code: self.code, you: who, token };
                        if reply.send(Ok(who)).is_ok() && out.try_send(welcome.to_json()).is_ok() {
                            let _ = out.try_send(self.message_for(who, &self.evening.standings()));
                            self.conns.insert(conn, (who, out));
                        }
                    }
                    Err(refused) => {
                        let _ = reply.send(Err(refused));
                    }
                }
                changed
            }
            EveningCommand::Act { conn, action } => {
                let Some((who, out)) = self.conns.get(&conn).map(|(w, o)| (*w, o.clone())) else { return false };
                let starts = matches!(*action, EveningAction::Start);
                match self.accept(who, *action, None).await {
                    Ok(change) => {
                        if out.try_send(FromEvening::Accepted { change }.to_json()).is_err() {
                            self.conns.remove(&conn);
                        }
                        if starts {
                            self.open_tables().await;
                        }
                        true
                    }
                    Err((why, text)) => {
                        self.shared.watch.refused(why, None, &text);
                        if out.try_send(FromEvening::refused(why, text).to_json()).is_err() {
                            self.conns.remove(&conn);
                        }
                        false
                    }
                }
            }
            EveningCommand::Played { round, table, line, result } => {
                let action = EveningAction::Played { round, table, line, result: *result };
                match self.accept(Who::Server, action, None).await {
                    Ok(klaverjas_club::Change::Nothing) => false,
                    Ok(_) => true,
                    Err((_, text)) => {
                        tracing::error!(evening = %self.code, "table {} of round {}: {text}", table + 1, round + 1);
                        false
                    }
                }
            }
            EveningCommand::Opened { round, table, code } => {
                self.online.insert((round, table), code);
                true
            }
            EveningCommand::Check => {
                self.open_tables().await;
                true
            }
            EveningCommand::Gone { conn } => {
                self.conns.remove(&conn);
                false
            }
            EveningCommand::Ask(reply) => {
                let _ = reply.send(self.snapshot());
                false
            }
        }
    }

    /// Applies `action` as `who`; on disk before this returns; an action
    /// refused, or not written, leaves the evening as it was.
    async fn accept(
        &mut self,
        who: Who,
        action: EveningAction,
        token_hash: Option<String>,
    ) -> Result<klaverjas_club::Change, Refused> {
        if self.steps >= self.shared.steps || self.shared.writer.size() >= self.shared.database {
            return Err((Refusal::TooMany, "this evening has taken all the steps it may".to_owned()));
        }
        let before = self.evening.clone();
        let change = self.evening.apply(who, action.clone()).map_err(refusal)?;
        let step = EveningStep { who, action, token_hash };
        if let Err(e) = self.shared.writer.write(Write::EveningStep(self.code, self.steps, step)).await {
            self.evening = before;
            return Err((Refusal::TooMany, format!("not kept: {e}")));
        }
        self.steps += 1;
        if self.evening.is_over() && !before.is_over() {
            self.keep_in_club().await;
        }
        Ok(change)
    }

    /// The round in play's online tables, each opened once: its chairs
    /// held by its players' evening tokens, bots in the others.
    async fn open_tables(&mut self) {
        let Some((n, round)) = self.evening.round().filter(|(_, r)| r.started) else { return };
        let Some(lobby) = self.lobby.upgrade() else { return };
        let mut setup = self.table_setup();
        let mut opening = Vec::new();
        for (t, drawn) in round.draw.tables.iter().enumerate() {
            let t = t as u16;
            if round.cards[usize::from(t)] != klaverjas_club::Cards::Online || self.online.contains_key(&(n, t)) {
                continue;
            }
            let chairs = klaverjas::Seat::ALL
                .into_iter()
                .filter_map(|seat| {
                    let player = drawn.chairs[seat.index()]?;
                    let hash = self.tokens.iter().find(|(_, w)| **w == Who::Player(player)).map(|(h, _)| h.clone())?;
                    let name = self.evening.player(player)?.name.clone();
                    Some(crate::store::Person { seat, name, token_hash: hash, host: false })
                })
                .collect();
            setup.set = format!("{},match=deals:{}", self.evening.setup.set, self.evening.setup.deals);
            let seed = klaverjas::deal_seed(self.header.seed, (1 << 40) | u64::from(n) << 16 | u64::from(t));
            let Ok(key) = crate::new_key() else { return };
            let header = crate::store::Header {
                setup: setup.clone(),
                seed,
                chairs,
                started: true,
                touched: crate::now(),
                key,
                evening: Some(crate::store::EveningLink { code: self.code, round: n, table: t }),
                dealer: Some(drawn.dealer),
            };
            opening.push((t, header));
        }
        for (t, header) in opening {
            match lobby.open_evening_table(header).await {
                Ok(code) => {
                    self.online.insert((n, t), code);
                }
                Err(e) => tracing::error!(evening = %self.code, "table {} not opened: {e}", t + 1),
            }
        }
    }

    /// What an evening's online table is set up with.
    fn table_setup(&self) -> klaverjas_net::Setup {
        let setup = &self.evening.setup;
        klaverjas_net::Setup {
            preset: setup.preset,
            set: setup.set.clone(),
            bots: klaverjas_ai::Level::Expert,
            grace: Some(30),
            hints: false,
            late: false,
        }
    }

    /// The finished evening's points and players go into its club.
    async fn keep_in_club(&mut self) {
        let club = self.evening.setup.club.trim().to_owned();
        if club.is_empty() {
            return;
        }
        let key = klaverjas_club::name_key(&club);
        let updated = {
            let mut clubs = self.clubs.lock().unwrap_or_else(|e| e.into_inner());
            let Some(entry) = clubs.get_mut(&key) else { return };
            for p in &self.evening.players {
                if !entry.members.iter().any(|m| klaverjas_club::name_key(m) == klaverjas_club::name_key(&p.name)) {
                    entry.members.push(p.name.clone());
                }
            }
            let points = self
                .evening
                .standings()
                .into_iter()
                .map(|s| klaverjas_club::Attended { name: s.name, points: s.points })
                .collect();
            entry.evenings.push((self.evening.setup.name.clone(), points));
            entry.clone()
        };
        if let Err(e) = self.shared.writer.write(Write::Club(key, updated)).await {
            tracing::error!(evening = %self.code, "the club's season was not kept: {e}");
        }
    }

    fn snapshot(&mut self) -> Arc<Snapshot> {
        if let Some(s) = &self.snapshot {
            return s.clone();
        }
        let standings = self.evening.standings();
        let season = {
            let clubs = self.clubs.lock().unwrap_or_else(|e| e.into_inner());
            clubs.get(&klaverjas_club::name_key(&self.evening.setup.club)).map(|club| {
                let mut evenings: Vec<Vec<klaverjas_club::Attended>> =
                    club.evenings.iter().map(|(_, a)| a.clone()).collect();
                if !self.evening.is_over() {
                    evenings.push(
                        standings
                            .iter()
                            .map(|s| klaverjas_club::Attended { name: s.name.clone(), points: s.points })
                            .collect(),
                    );
                }
                klaverjas_club::season(&evenings, self.evening.setup.best.map(usize::from))
            })
        };
        let snapshot = Arc::new(Snapshot { evening: self.evening.clone(), standings, season });
        self.snapshot = Some(snapshot.clone());
        snapshot
    }

    fn message_for(&self, who: Who, standings: &[Standing]) -> String {
        let mut view = view_for(&self.evening, standings, who);
        if self.evening.rounds.is_empty() {
            let clubs = self.clubs.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(club) = clubs.get(&klaverjas_club::name_key(&self.evening.setup.club)) {
                view.members =
                    club.members.iter().filter(|m| self.evening.named(m).is_none()).take(200).cloned().collect();
            }
        }
        if let Some((n, round)) = self.evening.round() {
            view.online = (0..round.draw.tables.len() as u16).map(|t| self.online.get(&(n, t)).copied()).collect();
        }
        FromEvening::Evening { view: Box::new(view) }.to_json()
    }

    fn tell_everyone(&mut self) {
        let standings = self.evening.standings();
        // The standings-only view is the same for every watcher: made once.
        let watching = self.message_for(Who::Newcomer, &standings);
        let mut slow = Vec::new();
        for (conn, (who, out)) in &self.conns {
            let text = if matches!(who, Who::Newcomer) { watching.clone() } else { self.message_for(*who, &standings) };
            if out.try_send(text).is_err() {
                slow.push(*conn);
            }
        }
        // A connection that cannot keep up is dropped; it comes back with
        // its token and is sent the evening as it is then.
        for conn in slow {
            self.conns.remove(&conn);
        }
    }
}

/// The refusal an evening's error is sent as: nothing in an evening is
/// hidden, so its words go as they are.
fn refusal(e: EveningError) -> Refused {
    let why = match e {
        EveningError::NotOrganiser => Refusal::NotHost,
        EveningError::NotAtTable | EveningError::Seated => Refusal::NotSeated,
        EveningError::PlayerName(_) | EveningError::NameTaken(_) => Refusal::BadName,
        EveningError::Full => Refusal::Full,
        EveningError::Sheet(_) => Refusal::Rules,
        EveningError::Rounds(_)
        | EveningError::Deals(_)
        | EveningError::BotsAtRealCards
        | EveningError::Name(_)
        | EveningError::HouseRules(_)
        | EveningError::Preset(_) => Refusal::BadSetup,
        _ => Refusal::NotNow,
    };
    (why, e.to_string())
}
