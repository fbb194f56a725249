//! One table: a task that alone owns its match, its chairs and the
//! connections of the people in them. Everything that changes the table
//! comes through its inbox as a [`Command`], goes through the engine, is
//! written to disk, and only then is anyone told, each seat its own view
//! ([`klaverjas_net::for_seat`]).

use crate::door::Limit;
use crate::store::{Header, Person, Step, Write, Writer};
use crate::watch::Watch;
use klaverjas::{ActionError, Match, Phase, Seat};
use klaverjas_net::{Chair, FromTable, Refusal, SECRET_LEN, TableCode, ToTable, for_seat, seal};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// What reaches a table. Kept small (its larger parts boxed): a table's
/// inbox holds its commands in blocks of 32 and keeps a few blocks to use
/// again, so every byte here is paid many times in each table's memory.
pub enum Command {
    /// A connection asks for a chair.
    Sit(Box<Sit>),
    /// A seated connection's message.
    Message { conn: u64, message: Box<ToTable> },
    /// A seated connection closed.
    Gone { conn: u64 },
}

pub struct Sit {
    pub how: Sitting,
    pub conn: u64,
    pub out: mpsc::Sender<String>,
    pub reply: oneshot::Sender<Result<Seat, Refused>>,
}

pub enum Sitting {
    /// The table's first person, its host, whose token is given.
    Host {
        name: String,
        token: String,
    },
    Join {
        name: String,
        token: String,
    },
    Rejoin {
        token: String,
    },
}

pub type Refused = (Refusal, String);

/// What every table shares: the database's writer, the counters, the
/// bots' thinking, and the bounds on what a table may keep.
pub struct Shared {
    pub writer: Writer,
    pub watch: Watch,
    /// Bots thinking at once, all tables together: a permit each, so that
    /// many tables of bots queue for the cores instead of taking a
    /// thread each.
    pub bots: Arc<tokio::sync::Semaphore>,
    /// Bots thinking at once for the tables one address made: each waits
    /// for its address's permit before the shared one, so that one
    /// address's many tables queue behind each other, not before everyone
    /// else's.
    pub per_owner: usize,
    pub owners: std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, Arc<tokio::sync::Semaphore>>>,
    /// Steps one table may keep.
    pub steps: u64,
    /// The database's size (bytes) past which no step is written.
    pub database: u64,
    /// How long a table nobody has touched is kept.
    pub kept: Duration,
}

/// Where an evening's table tells each finished deal (its line from 0);
/// false where it was not heard.
pub type Report = Box<dyn Fn(u16, klaverjas::DealResult) -> bool + Send + Sync>;

/// Messages a connection may have waiting before it is dropped as too slow.
pub const QUEUE: usize = 256;

/// Commands a table's inbox holds.
pub const INBOX: usize = 1024;

/// A seat's live side: who is connected, since when away, ready for the
/// next deal.
#[derive(Default)]
struct Presence {
    conn: Option<(u64, mpsc::Sender<String>)>,
    away_since: Option<Instant>,
    ready: bool,
}

pub struct Table {
    code: TableCode,
    header: Header,
    game: Match,
    /// Steps accepted since the table was made: the next step's number.
    steps: u64,
    seats: [Presence; 4],
    shared: Arc<Shared>,
    /// The step at which the deal in play began: with the table's key,
    /// the deal's seal secret.
    deal_began: u64,
    /// The key the deals' secrets are drawn from.
    key: [u8; SECRET_LEN],
    /// The bots' permits of the tables its maker made ([`Shared::per_owner`]).
    owner: Arc<tokio::sync::Semaphore>,
    /// How much of its time unused it has left when opened: counted from
    /// the clock on the wall, since the machine may have started since.
    kept_left: Duration,
    /// An evening's table: where its finished deals are told.
    report: Option<Report>,
}

impl Shared {
    /// The bots' permits of the tables `owner` made; a table whose maker is
    /// not known (opened again from disk) has its own.
    fn owner(&self, owner: Option<std::net::IpAddr>) -> Arc<tokio::sync::Semaphore> {
        let fresh = || Arc::new(tokio::sync::Semaphore::new(self.per_owner.max(1)));
        let Some(owner) = owner else { return fresh() };
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        if owners.len() >= 1024 {
            owners.retain(|_, permits| Arc::strong_count(permits) > 1);
        }
        owners.entry(owner).or_insert_with(fresh).clone()
    }
}

impl Table {
    /// A table with `header`'s setup and the `steps` it has taken (none
    /// for a new one), replayed through the engine; `used`, seconds since
    /// 1970 of its last use; `owner`, the address that made it, where known.
    pub fn new(
        code: TableCode,
        header: Header,
        steps: &[Step],
        (used, owner): (u64, Option<std::net::IpAddr>),
        shared: Arc<Shared>,
    ) -> Result<Table, String> {
        let rules = header.setup.rules()?;
        let key = klaverjas_net::secret_from_hex(&header.key).ok_or("the table has no key for its seals")?;
        let mut game = Match::new(rules, header.seed, header.dealer.unwrap_or(Seat::North));
        let mut deal_began = 0;
        for (n, step) in steps.iter().enumerate() {
            apply(&mut game, *step).map_err(|(_, e)| format!("step {n} ({step:?}): {e}"))?;
            if matches!(step, Step::NextDeal | Step::Rematch { .. }) {
                deal_began = n as u64 + 1;
            }
        }
        let now = Instant::now();
        let kept_left = shared.kept.saturating_sub(Duration::from_secs(crate::now().saturating_sub(used)));
        let mut seats: [Presence; 4] = Default::default();
        for person in &header.chairs {
            // Everyone is away until they connect again.
            seats[person.seat.index()].away_since = Some(now);
        }
        let owner = shared.owner(owner);
        let steps = steps.len() as u64;
        Ok(Table { code, header, game, steps, seats, shared, deal_began, key, owner, kept_left, report: None })
    }

    /// The evening this table plays for, if it does.
    pub fn evening(&self) -> Option<crate::store::EveningLink> {
        self.header.evening
    }

    /// Tells `report` each finished deal from now on, and at once those
    /// finished already (the evening keeps each once).
    pub fn report_to(&mut self, report: Report) {
        self.report = Some(report);
        for number in 1..=self.game.deals_finished() {
            if let Some(result) = self.game.finished_deal(number).and_then(|g| g.result().copied()) {
                self.tell_evening(number, result);
            }
        }
    }

    fn tell_evening(&self, number: usize, result: klaverjas::DealResult) {
        let Some(report) = &self.report else { return };
        // Not heard (the evening's inbox full): it hears it again when
        // the table is opened next; the step is on disk.
        if !report((number - 1) as u16, result) {
            tracing::warn!(table = %self.code, "the evening did not hear of deal {number}");
        }
    }

    /// The secret of the deal in play's seal: SHA-256 of the table's key
    /// and the step the deal began at. 256 bits no seat can tell from
    /// random while the key stays here, new for every deal, and the same
    /// after a restart, so that a seal sent before it still opens.
    fn secret(&self) -> [u8; SECRET_LEN] {
        use sha2::Digest;
        let mut hash = sha2::Sha256::new();
        hash.update(b"klaverjas deal secret");
        hash.update(self.key);
        hash.update(self.deal_began.to_le_bytes());
        hash.finalize().into()
    }

    /// Runs the table until its inbox closes or nobody has used it for
    /// [`KEPT`]; then it is removed from disk.
    pub async fn run(mut self, mut inbox: mpsc::Receiver<Command>) {
        let kept = self.shared.kept;
        // When the table goes if nobody uses it.
        let mut until = Instant::now() + self.kept_left;
        loop {
            let wake = self.next_wake().unwrap_or(until);
            tokio::select! {
                command = inbox.recv() => match command {
                    Some(command) => {
                        until = Instant::now() + kept;
                        self.handle(command).await;
                    }
                    None => return,
                },
                _ = tokio::time::sleep_until(wake) => {
                    if self.seats.iter().all(|s| s.conn.is_none()) && Instant::now() >= until {
                        let _ = self.shared.writer.write(Write::Remove(self.code)).await;
                        return;
                    }
                    self.send_chairs();
                }
            }
            self.play_bots().await;
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Sit(sit) => {
                let Sit { how, conn, out, reply } = *sit;
                let token = match &how {
                    Sitting::Host { token, .. } | Sitting::Join { token, .. } => Some(token.clone()),
                    Sitting::Rejoin { .. } => None,
                };
                let sat = self.sit(how).await;
                if let Ok(seat) = sat {
                    let presence = &mut self.seats[seat.index()];
                    // A newer connection for the same chair wins: the old
                    // one's queue closes and its socket with it.
                    presence.conn = Some((conn, out));
                    presence.away_since = None;
                    presence.ready = false;
                }
                let _ = reply.send(sat.clone());
                if let Ok(seat) = sat {
                    self.welcome(seat, token);
                    self.send_chairs();
                }
            }
            Command::Message { conn, message } => {
                // A connection's chair is wherever the host last moved it.
                let Some(seat) = self.chair_of(conn) else { return };
                if let Err((why, message)) = self.message(seat, *message).await {
                    self.shared.watch.refused(why, None, &format!("table {}, {seat}: {message}", self.code));
                    self.send(seat, &FromTable::refused(why, message));
                }
            }
            Command::Gone { conn } => {
                if let Some(seat) = self.chair_of(conn) {
                    let presence = &mut self.seats[seat.index()];
                    presence.conn = None;
                    presence.away_since = Some(Instant::now());
                    self.send_chairs();
                }
            }
        }
    }

    /// The chair connection `conn` sits in, if it still holds one (a newer
    /// connection may have taken it).
    fn chair_of(&self, conn: u64) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| self.connected(*s) == Some(conn))
    }

    fn connected(&self, seat: Seat) -> Option<u64> {
        self.seats[seat.index()].conn.as_ref().map(|(c, _)| *c)
    }

    async fn sit(&mut self, how: Sitting) -> Result<Seat, Refused> {
        let (name, token, host) = match how {
            Sitting::Rejoin { token } => {
                let hash = crate::token_hash(&token);
                let seat = self
                    .header
                    .chairs
                    .iter()
                    .find(|p| p.token_hash == hash)
                    .map(|p| p.seat)
                    .ok_or((Refusal::BadToken, "this token holds no chair at this table".to_owned()))?;
                // A table kept alive by people coming back without a step
                // is used too, on disk as well (at most once an hour).
                if crate::now().saturating_sub(self.header.touched) >= 3600 {
                    self.write_header(self.header.clone()).await?;
                }
                return Ok(seat);
            }
            Sitting::Host { name, token } => (name, token, true),
            Sitting::Join { name, token } => (name, token, false),
        };
        // Once the match has begun, a friend who comes late takes a bot's
        // chair, where the host lets them.
        if self.header.started && !self.header.setup.late {
            return Err((Refusal::NotNow, "the match has begun, and the host keeps its bots in their chairs".into()));
        }
        let seats = self.game.rules().players.seats();
        // The host sits South, as on the player's own screen; the others
        // clockwise from there.
        let south = seats.iter().position(|&s| s == Seat::South).unwrap_or(0);
        let free = (0..seats.len())
            .map(|i| seats[(south + i) % seats.len()])
            .find(|s| !self.header.chairs.iter().any(|p| p.seat == *s))
            .ok_or_else(|| match self.header.started {
                true => {
                    (Refusal::Full, format!("the match at table {} has begun and every chair has a person", self.code))
                }
                false => (Refusal::Full, format!("table {} is full", self.code)),
            })?;
        if let Some(p) = self.header.chairs.iter().find(|p| klaverjas_net::same_name(&p.name, &name)) {
            return Err((Refusal::BadName, format!("{} sits at this table already: choose another name", p.name)));
        }
        let mut header = self.header.clone();
        header.chairs.push(Person {
            seat: free,
            name: name.trim().to_owned(),
            token_hash: crate::token_hash(&token),
            host,
        });
        self.write_header(header).await?;
        Ok(free)
    }

    async fn write_header(&mut self, mut header: Header) -> Result<(), Refused> {
        header.touched = crate::now();
        match self.shared.writer.write(Write::Header(self.code, header.clone())).await {
            Ok(()) => {
                self.header = header;
                Ok(())
            }
            Err(e) => Err((Refusal::TooMany, format!("the table could not be written: {e}"))),
        }
    }

    /// Moves whoever sits in each chair to `to(chair)`, a reordering of the
    /// table's chairs: on disk first, then the connections follow and
    /// everyone is told.
    async fn reseat(&mut self, to: impl Fn(Seat) -> Seat) -> Result<(), Refused> {
        let mut header = self.header.clone();
        for p in &mut header.chairs {
            p.seat = to(p.seat);
        }
        self.write_header(header).await?;
        let seats = self.game.rules().players.seats();
        let mut moved: [Presence; 4] = Default::default();
        for &seat in seats {
            moved[to(seat).index()] = std::mem::take(&mut self.seats[seat.index()]);
        }
        self.seats = moved;
        self.send_chairs();
        // Everyone moved is told their new chair.
        for &seat in seats {
            if to(seat) != seat {
                self.welcome(to(seat), None);
            }
        }
        Ok(())
    }

    async fn message(&mut self, seat: Seat, message: ToTable) -> Result<(), Refused> {
        let host = self.header.chairs.iter().any(|p| p.seat == seat && p.host);
        let only_host = || if host { Ok(()) } else { Err((Refusal::NotHost, "only the host may do this".to_owned())) };
        let before_start = || {
            if self.header.started { Err((Refusal::NotNow, "the match has begun".to_owned())) } else { Ok(()) }
        };
        match message {
            ToTable::Host { .. } | ToTable::Join { .. } | ToTable::Rejoin { .. } => {
                Err((Refusal::NotSeated, "this connection has a chair already".into()))
            }
            ToTable::Swap { from, to } => {
                only_host()?;
                before_start()?;
                let seats = self.game.rules().players.seats();
                if !seats.contains(&from) || !seats.contains(&to) {
                    return Err((Refusal::NotNow, "no chair there at this table".into()));
                }
                self.reseat(|s| {
                    if s == from {
                        to
                    } else if s == to {
                        from
                    } else {
                        s
                    }
                })
                .await
            }
            ToTable::Shuffle => {
                only_host()?;
                before_start()?;
                let seats = self.game.rules().players.seats();
                let mut order: Vec<Seat> = seats.to_vec();
                for i in (1..order.len()).rev() {
                    order.swap(i, (crate::random_u64() % (i as u64 + 1)) as usize);
                }
                self.reseat(|s| order[seats.iter().position(|&c| c == s).unwrap_or(0)]).await
            }
            ToTable::Start => {
                only_host()?;
                before_start()?;
                let mut header = self.header.clone();
                header.started = true;
                self.write_header(header).await?;
                self.send_chairs();
                for &seat in self.game.rules().players.seats() {
                    self.send_deal_start(seat);
                    self.send(seat, &for_seat(&self.game, seat, self.steps, &[]));
                }
                Ok(())
            }
            ToTable::Remove { seat: gone } => {
                only_host()?;
                if gone == seat {
                    return Err((Refusal::NotNow, "the host stays at the table: the others may leave".into()));
                }
                let Some(name) = self.header.chairs.iter().find(|p| p.seat == gone).map(|p| p.name.clone()) else {
                    return Err((Refusal::NotNow, "nobody sits in that chair".into()));
                };
                // Their last message says why.
                let why = FromTable::refused(Refusal::Removed, format!("the host took {name} from the table"));
                self.free(gone, Some(why)).await
            }
            ToTable::Leave => {
                before_start()?;
                if host {
                    return Err((Refusal::NotNow, "the host stays at the table: the others may leave".into()));
                }
                self.free(seat, None).await
            }
            ToTable::Act { action } => {
                self.started()?;
                self.step(Step::Act { seat, action }).await
            }
            ToTable::CallRoem => {
                self.started()?;
                self.step(Step::CallRoem { seat }).await
            }
            ToTable::Ready => {
                if !self.header.started || !deal_over(&self.game) {
                    return Err((Refusal::NotNow, "no deal has ended".into()));
                }
                // After the match's last deal, ready is ready for nothing.
                if self.game.is_over() {
                    return Ok(());
                }
                self.seats[seat.index()].ready = true;
                if self.everyone_ready() { self.step(Step::NextDeal).await } else { Ok(()) }
            }
            ToTable::Rematch => {
                only_host()?;
                if !self.game.is_over() {
                    return Err((Refusal::NotNow, "the match is not over".into()));
                }
                self.step(Step::Rematch { seed: crate::random_u64() }).await
            }
        }
    }

    /// The chair `gone` free again (a bot's once the match has begun): on
    /// disk first, then its person is sent `last`, if any, and dropping the
    /// chair's queue closes their connection; their token holds nothing.
    async fn free(&mut self, gone: Seat, last: Option<FromTable>) -> Result<(), Refused> {
        let mut header = self.header.clone();
        header.chairs.retain(|p| p.seat != gone);
        self.write_header(header).await?;
        if let Some(last) = last {
            self.send(gone, &last);
        }
        self.seats[gone.index()] = Presence::default();
        self.send_chairs();
        Ok(())
    }

    fn started(&self) -> Result<(), Refused> {
        if !self.header.started {
            return Err((Refusal::NotNow, "the match has not begun".into()));
        }
        Ok(())
    }

    fn everyone_ready(&self) -> bool {
        self.game.rules().players.seats().iter().all(|&s| !self.person_plays(s) || self.seats[s.index()].ready)
    }

    /// Whether a person (not a bot) plays `seat` now: someone sits there
    /// and is connected, or away for less than the grace.
    fn person_plays(&self, seat: Seat) -> bool {
        if !self.header.chairs.iter().any(|p| p.seat == seat) {
            return false;
        }
        match (self.seats[seat.index()].away_since, self.header.setup.grace) {
            (None, _) | (_, None) => true,
            (Some(since), Some(grace)) => since.elapsed() < Duration::from_secs(grace as u64),
        }
    }

    /// The next moment someone's grace runs out.
    fn next_wake(&self) -> Option<Instant> {
        let grace = Duration::from_secs(self.header.setup.grace? as u64);
        self.seats.iter().filter_map(|s| s.away_since).map(|t| t + grace).filter(|&t| t > Instant::now()).min()
    }

    /// Applies `step` through the engine, writes it, and only then tells
    /// every seat; a step the engine refuses changes nothing.
    async fn step(&mut self, step: Step) -> Result<(), Refused> {
        let mut next = self.game.clone();
        let events = apply(&mut next, step)?;
        if self.steps >= self.shared.steps {
            self.shared.watch.limit(Limit::Steps, None);
            let most = self.shared.steps;
            return Err((
                Refusal::TooMany,
                format!("this table has kept {most} steps, all one table may: open a new one"),
            ));
        }
        if self.shared.writer.size() >= self.shared.database {
            self.shared.watch.limit(Limit::Database, None);
            return Err((Refusal::TooMany, "the server's storage is full: nothing more can be played here".into()));
        }
        if let Err(e) = self.shared.writer.write(Write::Step(self.code, self.steps, step)).await {
            return Err((Refusal::TooMany, format!("the step could not be written: {e}")));
        }
        self.game = next;
        self.steps += 1;
        for event in &events {
            if let klaverjas::Event::DealOver(result) = event {
                self.tell_evening(self.game.deal_number(), *result);
            }
        }
        let new_deal = matches!(step, Step::NextDeal | Step::Rematch { .. });
        if new_deal {
            self.deal_began = self.steps;
        }
        for &seat in self.game.rules().players.seats() {
            if new_deal {
                self.seats[seat.index()].ready = false;
                self.send_deal_start(seat);
            }
            self.send(seat, &for_seat(&self.game, seat, self.steps, &events));
            self.send_deal_end(seat);
        }
        Ok(())
    }

    /// Bots play the seats nobody plays, while someone is there to see.
    async fn play_bots(&mut self) {
        if !self.header.started {
            return;
        }
        for _ in 0..64 {
            // Bots play while someone is there to see; everyone may leave
            // while a bot thinks (the table hears of it only after this
            // loop, but a connection that ended has closed its queue).
            let watched = |p: &Presence| p.conn.as_ref().is_some_and(|(_, out)| !out.is_closed());
            if !self.seats.iter().any(watched) {
                return;
            }
            if let Some(seat) = self.game.game().to_act().filter(|&s| !self.person_plays(s)) {
                let view = self.game.game().view(seat);
                let (level, seed) = (self.header.setup.bots, self.header.seed ^ self.steps.wrapping_mul(0x9E37_79B9));
                let Ok(mine) = self.owner.clone().acquire_owned().await else { return };
                let Ok(permit) = self.shared.bots.clone().acquire_owned().await else { return };
                let decided = tokio::task::spawn_blocking(move || {
                    let _thinking = (mine, permit);
                    level.bot(seed).decide(&view).action
                })
                .await;
                let Ok(action) = decided else { return };
                if let Err(refused) = self.step(Step::Act { seat, action }).await {
                    return self.stopped(refused);
                }
            } else if deal_over(&self.game) && !self.game.is_over() && self.everyone_ready() {
                if let Err(refused) = self.step(Step::NextDeal).await {
                    return self.stopped(refused);
                }
            } else {
                return;
            }
        }
    }

    /// A step of the bots' or the table's own refused (the table's bound
    /// reached, the disk full): the table waits, and the people at it are
    /// told why instead of waiting in silence.
    fn stopped(&mut self, (why, text): Refused) {
        for &seat in self.game.rules().players.seats() {
            self.send(seat, &FromTable::refused(why, text.clone()));
        }
    }

    /// What a seat is told when it sits down or comes back.
    /// The token, a new person's only, comes once, here.
    fn welcome(&mut self, seat: Seat, token: Option<String>) {
        self.send(
            seat,
            &FromTable::Seated {
                protocol: klaverjas_net::PROTOCOL,
                code: self.code,
                seat,
                token,
                setup: self.header.setup.clone(),
            },
        );
        self.welcome_seat_only(seat);
    }

    fn welcome_seat_only(&mut self, seat: Seat) {
        if self.header.started {
            self.send_deal_start(seat);
            self.send(seat, &for_seat(&self.game, seat, self.steps, &[]));
            self.send_deal_end(seat);
        }
    }

    fn send_deal_start(&mut self, seat: Seat) {
        let sealed = FromTable::Sealed { deal: self.game.deal_number(), seal: seal(&self.secret(), self.game.game()) };
        self.send(seat, &sealed);
    }

    fn send_deal_end(&mut self, seat: Seat) {
        if deal_over(&self.game) {
            let opened = FromTable::Opened {
                deal: self.game.deal_number(),
                code: self.game.game().deal().code(),
                secret: klaverjas_net::hex(&self.secret()),
            };
            self.send(seat, &opened);
            if self.game.is_over() {
                self.send(seat, &FromTable::MatchOver { winner: self.game.winner() });
            }
        }
    }

    fn send_chairs(&mut self) {
        let chairs: Vec<Chair> = self
            .game
            .rules()
            .players
            .seats()
            .iter()
            .map(|&seat| {
                let person = self.header.chairs.iter().find(|p| p.seat == seat);
                Chair {
                    seat,
                    name: person.map(|p| p.name.clone()),
                    away: person.is_some() && !self.person_plays(seat),
                    gone: person.is_some() && self.seats[seat.index()].conn.is_none(),
                    host: person.is_some_and(|p| p.host),
                }
            })
            .collect();
        let message = FromTable::Chairs { chairs, started: self.header.started };
        for &seat in self.game.rules().players.seats() {
            self.send(seat, &message);
        }
    }

    /// Queues `message` for the seat's connection; one that cannot keep up
    /// is dropped (its client comes back with its token and is sent the
    /// table whole).
    fn send(&mut self, seat: Seat, message: &FromTable) {
        let presence = &mut self.seats[seat.index()];
        if let Some((_, out)) = &presence.conn
            && out.try_send(message.to_json()).is_err()
        {
            presence.conn = None;
            presence.away_since = Some(Instant::now());
        }
    }
}

/// Whether the deal in play has ended (played out or thrown in).
fn deal_over(game: &Match) -> bool {
    matches!(game.game().phase(), Phase::Done | Phase::ThrownIn)
}

/// One step through the engine: a seat's action is the seat's own
/// ([`Match::act`]), refused out of turn without a word about any hand.
pub fn apply(game: &mut Match, step: Step) -> Result<Vec<klaverjas::Event>, Refused> {
    let refused = |e: ActionError| match e {
        ActionError::NotYourTurn => (Refusal::NotYourTurn, e.to_string()),
        e => (Refusal::Rules, e.to_string()),
    };
    match step {
        Step::Act { seat, action } => game.act(seat, action).map_err(refused),
        Step::CallRoem { seat } => game.act(seat, klaverjas::Action::ClaimRoem).map_err(refused),
        Step::NextDeal => game.next_deal().map(|()| Vec::new()).map_err(|e| (Refusal::NotNow, e.to_string())),
        Step::Rematch { seed } => {
            *game = Match::new(*game.rules(), seed, Seat::North);
            Ok(Vec::new())
        }
    }
}
