//! The table server: tables of Klaverjas that people join over WebSocket
//! with a code, and that survive the server's death.
//!
//! - [`store`]: the tables on disk (redb), a step a record, written by one
//!   thread in group commits.
//! - [`table`]: one task per table, the only owner of its match.
//! - [`door`]: who comes in (connections counted from their accept, the
//!   address behind a trusted proxy, origins, the backoff for guessing).
//! - [`watch`]: the refusals and limits counted and logged.
//! - [`evening`]: one task per club evening; `evening_pages`, its pages
//!   for a projector, a printer and a spreadsheet.
//! - this file: the lobby (codes to tables, tables per address), the
//!   accept loop, the connections, the routes, and [`run`].
//!
//! The protocol is `klaverjas-net`'s; nothing here makes a message for a
//! seat but its `for_seat` and `seen_by`.

pub mod door;
pub mod evening;
mod evening_pages;
pub mod lan;
pub mod store;
pub mod table;
pub mod watch;
mod ws;

use axum::extract::{ConnectInfo, Request, State};
use axum::response::Response;
use door::{Backoff, Door, Inside, Limit};
use klaverjas_net::{FromTable, MAX_MESSAGE, Refusal, TableCode, ToTable};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::{Header, Store, StoreError, Write};
use table::{Command, Shared, Sit, Sitting, Table};
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use ws::Socket;

/// The limits that keep one address from taking the server. An address
/// is an IPv4 address or an IPv6 /64 ([`door::key`]), behind a trusted
/// proxy the client's.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Messages a connection may send a second, on average.
    pub per_second: u32,
    /// Tables one address may have made, kept while they live.
    pub tables_per_address: usize,
    /// Connections open at once from one address, counted from the
    /// moment each is accepted.
    pub connections_per_address: usize,
    /// Connections open at once from everyone; `None`: as many as the
    /// process may open files, less a reserve ([`connection_cap`]).
    pub connections: Option<usize>,
    /// Seconds a connection has for a request's headers (and a kept-alive
    /// one between requests).
    pub handshake_s: u64,
    /// Seconds a new WebSocket has to say which table it sits at.
    pub first_message_s: u64,
    /// Seconds between pings to a seated connection. One that sent nothing
    /// (not even the pong) for three of them is dropped: a phone that left
    /// the network without closing (half open) is away, and the grace
    /// before a bot stands in begins.
    pub ping_s: u64,
    /// Steps one table may keep (a 16-deal match takes about a thousand).
    pub steps_per_table: u64,
    /// The database's size in bytes past which nothing more is written;
    /// new tables stop at nine tenths of it.
    pub database_bytes: u64,
    /// Bots thinking at once, all tables together.
    pub bots_at_once: usize,
    /// Seconds a table nobody uses is kept.
    pub kept_s: u64,
    /// Wrong codes or tokens an address may try before it must wait.
    pub free_guesses: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            per_second: 20,
            tables_per_address: 64,
            connections_per_address: 64,
            connections: None,
            handshake_s: 5,
            first_message_s: 10,
            ping_s: 15,
            steps_per_table: 20_000,
            database_bytes: 1 << 30,
            bots_at_once: std::thread::available_parallelism().map_or(2, |n| n.get()),
            kept_s: 24 * 3600,
            free_guesses: 10,
        }
    }
}

/// Files the process keeps for itself beyond its connections: the
/// database, the listener, the LAN socket, the site's files being sent.
const FILES_KEPT: u64 = 64;

/// Raises the soft limit on open files to the hard limit, where the
/// system allows, and returns the connections that fit under it with
/// room for the rest: past it, every accept would fail and no new player
/// could come in.
pub fn connection_cap() -> usize {
    let files = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
    files.saturating_sub(FILES_KEPT).clamp(16, 1 << 20) as usize
}

pub struct Config {
    pub data: PathBuf,
    /// The web build to serve at `/`, and at `/t/CODE`.
    pub site: Option<PathBuf>,
    pub limits: Limits,
    /// The tables' deals follow from this seed (the n-th table made gets
    /// a seed of its own from it), so that a run can be repeated.
    pub seed: Option<u64>,
    /// The UDP port to answer on when asked which server has a table
    /// (`klaverjas_net::lan`), on the address the server listens on;
    /// `None`: not asked on the network.
    pub lan: Option<u16>,
    /// Proxies whose word is taken for the client's address (their
    /// `Forwarded` or `X-Forwarded-For`).
    pub trusted_proxies: Vec<IpAddr>,
    /// The header those proxies name the client in.
    pub proxy_header: door::ProxyHeader,
    /// Origins besides the server's own site whose pages may open a table
    /// (`https://example.org`).
    pub allow_origins: Vec<String>,
}

struct Lobby {
    tables: Mutex<HashMap<TableCode, mpsc::Sender<Command>>>,
    evenings: Mutex<HashMap<TableCode, mpsc::Sender<evening::EveningCommand>>>,
    clubs: Arc<Mutex<HashMap<String, store::Club>>>,
    /// Tables made (or being made), per address.
    made: Mutex<HashMap<IpAddr, Vec<TableCode>>>,
    door: Arc<Door>,
    /// Wrong codes and tokens, and network questions for tables not here.
    guesses: Backoff,
    lan_guesses: Backoff,
    shared: Arc<Shared>,
    limits: Limits,
    allow_origins: Vec<String>,
    next_conn: AtomicU64,
    seed: Option<u64>,
    made_count: AtomicU64,
    /// The UDP port answered on (`Config::lan`).
    lan: Option<u16>,
}

impl Lobby {
    fn spawn(&self, mut table: Table, code: TableCode) {
        if let Some(link) = table.evening() {
            match self.evening(link.code) {
                Some(room) => {
                    let _ =
                        room.try_send(evening::EveningCommand::Opened { round: link.round, table: link.table, code });
                    let (round, at) = (link.round, link.table);
                    table.report_to(Box::new(move |line, result| {
                        let played =
                            evening::EveningCommand::Played { round, table: at, line, result: Box::new(result) };
                        room.try_send(played).is_ok()
                    }));
                }
                None => tracing::warn!(table = %code, evening = %link.code, "the table's evening is gone"),
            }
        }
        let (tx, rx) = mpsc::channel(table::INBOX);
        self.tables.lock().unwrap_or_else(|e| e.into_inner()).insert(code, tx);
        tokio::spawn(table.run(rx));
    }

    fn evening(&self, code: TableCode) -> Option<mpsc::Sender<evening::EveningCommand>> {
        self.evenings.lock().unwrap_or_else(|e| e.into_inner()).get(&code).filter(|tx| !tx.is_closed()).cloned()
    }

    /// An evening's online table: its chairs the players' (their evening
    /// tokens open them), bots for the rest, playing from the start.
    async fn open_evening_table(&self, header: Header) -> Result<TableCode, String> {
        let code = {
            let tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                let code = TableCode::from_random(random_u64());
                if tables.get(&code).is_none_or(|t| t.is_closed()) {
                    break code;
                }
            }
        };
        let table = Table::new(code, header.clone(), &[], (now(), None), self.shared.clone())?;
        self.shared.writer.write(Write::Header(code, header)).await?;
        self.spawn(table, code);
        Ok(code)
    }

    /// Whether `code` is a table's or an evening's that is still open.
    fn lives(&self, code: TableCode) -> bool {
        self.table(code).is_some() || self.evening(code).is_some()
    }

    /// A new evening, its organiser `token`'s; counted against `addr` with
    /// its tables. A club's evening needs the club's token where the club
    /// has one here; a new club takes this organiser's.
    async fn organise(
        self: &Arc<Self>,
        setup: klaverjas_club::EveningSetup,
        club_token: Option<String>,
        token: &str,
        addr: IpAddr,
    ) -> Result<(TableCode, mpsc::Sender<evening::EveningCommand>), table::Refused> {
        if self.shared.writer.size() >= self.limits.database_bytes / 10 * 9 {
            self.shared.watch.limit(Limit::Database, Some(addr));
            return Err((Refusal::TooMany, "the server's storage is nearly full: no new evenings for now".into()));
        }
        let club_key = klaverjas_club::name_key(&setup.club);
        let new_club = if club_key.is_empty() {
            None
        } else {
            let clubs = self.clubs.lock().unwrap_or_else(|e| e.into_inner());
            match clubs.get(&club_key) {
                Some(club) if club_token.as_deref().map(token_hash).as_deref() == Some(club.token_hash.as_str()) => {
                    None
                }
                Some(_) => {
                    drop(clubs);
                    self.guesses.failed(addr);
                    return Err((Refusal::BadToken, "this club's evenings are organised with the club's token".into()));
                }
                None => Some(store::Club {
                    name: setup.club.trim().to_owned(),
                    token_hash: token_hash(token),
                    ..Default::default()
                }),
            }
        };
        let n = self.made_count.fetch_add(1, Ordering::Relaxed);
        let (code, tx, rx) = self.claim(&self.evenings, evening::INBOX, addr, n)?;
        let seed = self.seed.map_or_else(random_u64, |s| klaverjas::session::deal_seed(s, n));
        let header = store::EveningHeader { setup, seed, organiser: token_hash(token), made: now() };
        let room = evening::Room::new(
            code,
            header.clone(),
            &[],
            self.shared.clone(),
            self.clubs.clone(),
            Arc::downgrade(self),
        )
        .map_err(|e| (Refusal::BadSetup, e))?;
        if let Some(club) = new_club {
            self.clubs.lock().unwrap_or_else(|e| e.into_inner()).entry(club_key.clone()).or_insert(club.clone());
            self.shared.writer.write(Write::Club(club_key, club)).await.map_err(|e| (Refusal::TooMany, e))?;
        }
        self.shared.writer.write(Write::Evening(code, header)).await.map_err(|e| (Refusal::TooMany, e))?;
        tokio::spawn(room.run(rx));
        Ok((code, tx))
    }

    fn table(&self, code: TableCode) -> Option<mpsc::Sender<Command>> {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        match tables.get(&code) {
            Some(tx) if tx.is_closed() => {
                tables.remove(&code);
                None
            }
            other => other.cloned(),
        }
    }

    /// A new table for `setup`, its host to sit first. The table's code
    /// is taken in the lobby and counted against `addr` before anything is
    /// awaited, so that a burst of requests cannot all pass the count at
    /// once (the code's inbox waits for the table while it is made).
    async fn create(
        &self,
        setup: klaverjas_net::Setup,
        addr: IpAddr,
    ) -> Result<(TableCode, mpsc::Sender<Command>), table::Refused> {
        if self.shared.writer.size() >= self.limits.database_bytes / 10 * 9 {
            self.shared.watch.limit(Limit::Database, Some(addr));
            return Err((Refusal::TooMany, "the server's storage is nearly full: no new tables for now".into()));
        }
        let key = door::key(addr);
        let n = self.made_count.fetch_add(1, Ordering::Relaxed);
        let (code, tx, rx) = self.claim(&self.tables, table::INBOX, addr, n)?;
        match self.make(code, setup, key, n).await {
            Ok(table) => {
                tokio::spawn(table.run(rx));
                Ok((code, tx))
            }
            // The code's inbox closes with `rx`: the lobby forgets it.
            Err(refused) => Err(refused),
        }
    }

    /// A fresh code in `inboxes` (the tables' or the evenings') for
    /// something `addr` makes, the `n`-th made: counted against its
    /// address and taken before anything is awaited, so that a burst of
    /// requests cannot all pass the count at once (the code's inbox waits
    /// while it is made).
    fn claim<C>(
        &self,
        inboxes: &Mutex<HashMap<TableCode, mpsc::Sender<C>>>,
        size: usize,
        addr: IpAddr,
        n: u64,
    ) -> Result<(TableCode, mpsc::Sender<C>, mpsc::Receiver<C>), table::Refused> {
        let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
        // Now and then, every address's tables that are gone, and the
        // addresses with none left, so that the map does not only grow.
        if n.is_multiple_of(256) {
            made.retain(|_, codes| {
                codes.retain(|code| self.lives(*code));
                !codes.is_empty()
            });
        }
        let mine = made.entry(door::key(addr)).or_default();
        mine.retain(|code| self.lives(*code));
        if mine.len() >= self.limits.tables_per_address {
            self.shared.watch.limit(Limit::TablesPerAddress, Some(addr));
            let most = self.limits.tables_per_address;
            return Err((Refusal::TooMany, format!("at most {most} tables and evenings from one address")));
        }
        let (tx, rx) = mpsc::channel(size);
        let mut inboxes = inboxes.lock().unwrap_or_else(|e| e.into_inner());
        let code = loop {
            let code = TableCode::from_random(random_u64());
            if inboxes.get(&code).is_none_or(|t| t.is_closed()) {
                break code;
            }
        };
        inboxes.insert(code, tx.clone());
        mine.push(code);
        Ok((code, tx, rx))
    }

    async fn make(
        &self,
        code: TableCode,
        setup: klaverjas_net::Setup,
        owner: IpAddr,
        n: u64,
    ) -> Result<Table, table::Refused> {
        let seed = self.seed.map_or_else(random_u64, |s| klaverjas::session::deal_seed(s, n));
        let key = new_key().map_err(|_| (Refusal::TooMany, "the server has no source of random keys".to_owned()))?;
        let header = Header {
            setup,
            seed,
            chairs: Vec::new(),
            started: false,
            touched: now(),
            key,
            evening: None,
            dealer: None,
        };
        let table = Table::new(code, header.clone(), &[], (now(), Some(owner)), self.shared.clone())
            .map_err(|e| (Refusal::BadSetup, e))?;
        self.shared.writer.write(Write::Header(code, header)).await.map_err(|e| (Refusal::TooMany, e))?;
        Ok(table)
    }

    fn refuse_noted(&self, why: Refusal, addr: IpAddr, text: &str) {
        self.shared.watch.refused(why, Some(addr), text);
    }
}

/// Serves tables on `listener` until the process ends: the tables on disk
/// are opened again first, each where it was.
pub async fn run(listener: tokio::net::TcpListener, config: Config) -> Result<(), ServerError> {
    serve(listener, open(config)?).await
}

/// Serves tables on a thread of its own, as a desktop game hosting its own
/// table does: binds `addr` and opens the tables on disk before it
/// returns, so that a port taken or a damaged database is the caller's to
/// say; returns the address bound. The thread serves until the process
/// ends.
pub fn serve_in_background(addr: SocketAddr, config: Config) -> Result<SocketAddr, ServerError> {
    let listener = std::net::TcpListener::bind(addr).map_err(ServerError::Io)?;
    listener.set_nonblocking(true).map_err(ServerError::Io)?;
    let bound = listener.local_addr().map_err(ServerError::Io)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(ServerError::Io)?;
    // The tables are opened inside the runtime: each is a task of it.
    let (app, listener) = runtime.block_on(async {
        Ok::<_, ServerError>((open(config)?, tokio::net::TcpListener::from_std(listener).map_err(ServerError::Io)?))
    })?;
    std::thread::Builder::new()
        .name("table server".into())
        .spawn(move || {
            if let Err(e) = runtime.block_on(serve(listener, app)) {
                eprintln!("the table server stopped: {e}");
            }
        })
        .map_err(ServerError::Io)?;
    Ok(bound)
}

/// The addresses of this computer that others on its networks can reach
/// (its home Wi-Fi, a wired network), IPv4 first; no loopback.
pub fn home_addresses() -> Vec<IpAddr> {
    let mut found: Vec<IpAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .into_iter()
        .map(|i| i.ip())
        .filter(|ip| !ip.is_loopback() && !ip.is_unspecified() && !ip.is_multicast())
        // Link-local IPv6 addresses need a zone to be dialled.
        .filter(|ip| !matches!(ip, IpAddr::V6(v6) if v6.segments()[0] & 0xffc0 == 0xfe80))
        .collect();
    found.sort_by_key(|ip| (ip.is_ipv6(), *ip));
    found.dedup();
    found
}

/// The lobby with the tables on disk opened again, and the routes.
fn open(config: Config) -> Result<(axum::Router, Arc<Lobby>), ServerError> {
    let store = Arc::new(Store::open(&config.data)?);
    let limits = config.limits;
    let kept = limits.kept_s;
    let mut stored = store.load()?;
    let (stored_evenings, clubs) = store.load_evenings()?;
    // Tables nobody used for longer than they are kept go before they are
    // opened (their tokens with them); a table from before the seals hid
    // their deals gets its key, on disk before any seal is sent.
    let mut writes = Vec::new();
    stored.retain(|t| {
        let keep = t.used.saturating_add(kept) > now();
        if !keep {
            writes.push(Write::Remove(t.code));
        }
        keep
    });
    for t in &mut stored {
        if t.header.key.is_empty() {
            t.header.key = new_key().map_err(|e| ServerError::Io(std::io::Error::other(e)))?;
            writes.push(Write::Header(t.code, t.header.clone()));
        }
    }
    if !writes.is_empty() {
        store.write_all(&writes)?;
    }
    let shared = Arc::new(Shared {
        writer: store::Writer::start(store),
        watch: watch::Watch::default(),
        bots: Arc::new(tokio::sync::Semaphore::new(limits.bots_at_once.max(1))),
        per_owner: limits.bots_at_once.div_ceil(2),
        owners: Mutex::default(),
        steps: limits.steps_per_table,
        database: limits.database_bytes,
        kept: Duration::from_secs(kept),
    });
    let most = limits.connections.unwrap_or_else(connection_cap);
    let lobby = Arc::new(Lobby {
        tables: Mutex::default(),
        evenings: Mutex::default(),
        clubs: Arc::new(Mutex::new(clubs.into_iter().collect())),
        made: Mutex::default(),
        door: Door::new(limits.connections_per_address, most, config.trusted_proxies, config.proxy_header),
        guesses: Backoff::new(limits.free_guesses),
        lan_guesses: Backoff::new(limits.free_guesses),
        shared: shared.clone(),
        limits,
        allow_origins: config.allow_origins,
        next_conn: AtomicU64::new(1),
        seed: config.seed,
        made_count: AtomicU64::new(0),
        lan: config.lan,
    });
    for stored in stored_evenings {
        match evening::Room::new(
            stored.code,
            stored.header,
            &stored.steps,
            shared.clone(),
            lobby.clubs.clone(),
            Arc::downgrade(&lobby),
        ) {
            Ok(room) => {
                let (tx, rx) = mpsc::channel(evening::INBOX);
                lobby.evenings.lock().unwrap_or_else(|e| e.into_inner()).insert(stored.code, tx);
                tokio::spawn(room.run(rx));
            }
            Err(e) => tracing::error!(evening = %stored.code, "not opened: {e}"),
        }
    }
    // Then the tables, an evening's told which of its tables are open.
    for stored in stored {
        match Table::new(stored.code, stored.header, &stored.steps, (stored.used, None), shared.clone()) {
            Ok(table) => lobby.spawn(table, stored.code),
            // Kept on disk as it is, for a later version to read.
            Err(e) => tracing::error!(table = %stored.code, "not opened: {e}"),
        }
    }
    // Each evening opens the online tables it lacks (the server died
    // between a round's start and its tables).
    for room in lobby.evenings.lock().unwrap_or_else(|e| e.into_inner()).values() {
        let _ = room.try_send(evening::EveningCommand::Check);
    }
    let mut app = axum::Router::new()
        .route("/ws", axum::routing::get(upgrade))
        .route("/evening", axum::routing::get(upgrade_evening))
        .route("/metrics", axum::routing::get(metrics));
    app = evening_pages::routes(app, config.site.is_some());
    if config.site.is_none() {
        app = app.route("/t/{code}", axum::routing::get(no_web_game));
    }
    if let Some(site) = &config.site {
        app = app
            .route("/t/{code}", axum::routing::get(table_link))
            // The web build's own `.br` and `.gz` beside each large file
            // (`crates/klaverjas-web/build`): a phone on the home network
            // fetches the game compressed, at no cost to the host.
            .fallback_service(tower_http::services::ServeDir::new(site).precompressed_br().precompressed_gzip());
    }
    Ok((app.with_state(lobby.clone()), lobby))
}

/// A connection's place at the door, handed to each request it brings and
/// kept by its WebSocket, if it becomes one.
#[derive(Clone)]
struct Place(#[allow(dead_code)] Arc<Inside>);

async fn serve(listener: tokio::net::TcpListener, (app, lobby): (axum::Router, Arc<Lobby>)) -> Result<(), ServerError> {
    let here = listener.local_addr().map_err(ServerError::Io)?;
    if let Some(port) = lobby.lan {
        // Asked where the server listens (--bind): on this computer only
        // for a loopback address; for one network's address, on every
        // address (a broadcast reaches no socket bound to one) but
        // answering that network's computers only. Another program may
        // hold the port (a second game hosting on this computer): its
        // tables are then found by address only.
        let (at, network) = lan::listening(here.ip());
        match tokio::net::UdpSocket::bind((at, port)).await {
            Ok(socket) => {
                tokio::spawn(lan::answer(socket, lobby.clone(), here.port(), network));
            }
            Err(e) => tracing::warn!("tables are not found by their code on the network (UDP port {port}): {e}"),
        }
    }
    let handshake = Duration::from_secs(lobby.limits.handshake_s.max(1));
    loop {
        let (tcp, peer) = match listener.accept().await {
            // An IPv4 peer of a socket bound to :: is its IPv4 address.
            Ok((tcp, peer)) => (tcp, SocketAddr::new(peer.ip().to_canonical(), peer.port())),
            // Out of files, or a connection reset before it was taken: a
            // moment's pause, so that a full table of files is not spun on.
            Err(e) => {
                tracing::warn!("a connection could not be accepted: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Counted from this moment: a socket that never finishes its
        // request holds a place until the header deadline frees it.
        let inside = match lobby.door.accept(peer.ip()) {
            Ok(inside) => Place(Arc::new(inside)),
            Err(limit) => {
                lobby.shared.watch.limit(limit, Some(peer.ip()));
                continue;
            }
        };
        // A table's answer is often two frames (its state, then a deal's
        // opening): with Nagle's algorithm the second waits for the
        // client's delayed ack, up to 40 ms, so small frames go out at once.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("a connection keeps Nagle's algorithm: {e}");
        }
        let (app, lobby) = (app.clone(), lobby.clone());
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request.extensions_mut().insert(inside.clone());
                tower::ServiceExt::oneshot(app.clone(), request)
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(handshake)
                .max_buf_size(64 * 1024)
                .serve_connection(hyper_util::rt::TokioIo::new(tcp), service)
                .with_upgrades();
            if let Err(e) = connection.await
                && e.is_timeout()
            {
                lobby.shared.watch.limit(Limit::Handshake, Some(peer.ip()));
            }
        });
    }
}

#[derive(Debug)]
pub enum ServerError {
    Store(StoreError),
    Io(std::io::Error),
}

impl std::fmt::Display for ServerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServerError::Store(e) => e.fmt(f),
            ServerError::Io(e) => write!(f, "the network: {e}"),
        }
    }
}

impl std::error::Error for ServerError {}

impl From<StoreError> for ServerError {
    fn from(e: StoreError) -> ServerError {
        ServerError::Store(e)
    }
}

async fn upgrade(
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    State(lobby): State<Arc<Lobby>>,
    request: Request,
) -> Response {
    upgrade_to(peer, lobby, request, false)
}

/// `/evening`: a club evening's WebSocket, under the same limits.
async fn upgrade_evening(
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    State(lobby): State<Arc<Lobby>>,
    request: Request,
) -> Response {
    upgrade_to(peer, lobby, request, true)
}

fn upgrade_to(peer: SocketAddr, lobby: Arc<Lobby>, request: Request, evening: bool) -> Response {
    use axum::response::IntoResponse;
    let addr = lobby.door.client(peer.ip(), request.headers());
    if let Err(why) = door::origin_allowed(request.headers(), &lobby.allow_origins) {
        lobby.shared.watch.limit(Limit::Origin, Some(addr));
        return (axum::http::StatusCode::FORBIDDEN, why).into_response();
    }
    // The socket's place at the door, and behind a proxy the client's own
    // under its address, both held for the WebSocket's life.
    let place = request.extensions().get::<Place>().cloned();
    // A proxied client is counted under the address the proxy named, or
    // under the proxy's own where it named none: never under none at all.
    let behind = if !lobby.door.is_proxy(peer.ip()) {
        None
    } else {
        match lobby.door.behind_proxy(addr) {
            Ok(inside) => Some(inside),
            Err(limit) => {
                lobby.shared.watch.limit(limit, Some(addr));
                let text = "too many connections from this address";
                return (axum::http::StatusCode::TOO_MANY_REQUESTS, text).into_response();
            }
        }
    };
    // A table's messages are small and few: small buffers (the defaults
    // of 128 kB each would be most of a table's memory); a longer message
    // grows the read buffer as it comes, and is written in short frames.
    // A frame's header says how long it is, and its buffer is made that
    // long before it comes: a frame no longer than a message may be.
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
        .read_buffer_size(512)
        .write_buffer_size(0);
    ws::upgrade(request, config, move |socket| async move {
        let _held = (place, behind);
        if evening {
            evening_connection(socket, lobby, addr).await;
        } else {
            connection(socket, lobby, addr).await;
        }
    })
}

/// `/metrics`: the refusals and limits counted, and what is open now, in
/// Prometheus' text format. Only for this computer, asked directly: not
/// through a trusted proxy, nor with a header that says a proxy forwarded
/// it (a proxy not named trusted), since a forwarded request comes from
/// anyone.
async fn metrics(
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    State(lobby): State<Arc<Lobby>>,
    request: Request,
) -> Response {
    use axum::response::IntoResponse;
    let headers = request.headers();
    let forwarded = headers.contains_key(axum::http::header::FORWARDED) || headers.contains_key("x-forwarded-for");
    let peer = peer.ip().to_canonical();
    if !peer.is_loopback() || forwarded || lobby.door.is_proxy(peer) {
        return (axum::http::StatusCode::NOT_FOUND, "").into_response();
    }
    let tables = lobby.tables.lock().unwrap_or_else(|e| e.into_inner()).values().filter(|t| !t.is_closed()).count();
    let gauges = [
        ("connections", "Connections open now.", lobby.door.open() as u64),
        ("tables", "Tables open now.", tables as u64),
        ("database_bytes", "The tables' database on disk.", lobby.shared.writer.size()),
    ];
    ([(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], lobby.shared.watch.metrics(&gauges))
        .into_response()
}

/// A table's link, `/t/CODE`: the game's page at the root, told which
/// table to join (`/?join=CODE`), so that the page's own files are found
/// beside it wherever the site is served from.
async fn table_link(
    axum::extract::Path(code): axum::extract::Path<String>,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> Response {
    use axum::response::IntoResponse;
    // What else the link asks of the page (`?targets` in the browser
    // check) goes along.
    let more = query.map(|q| format!("&{q}")).unwrap_or_default();
    match code.parse::<TableCode>() {
        Ok(code) => axum::response::Redirect::to(&format!("/?join={code}{more}")).into_response(),
        Err(e) => (axum::http::StatusCode::NOT_FOUND, e.to_string()).into_response(),
    }
}

/// A table's link where this server carries no web game: a page that
/// says how to join, not an empty 404.
async fn no_web_game(axum::extract::Path(code): axum::extract::Path<String>) -> Response {
    use axum::response::IntoResponse;
    let body = match code.parse::<TableCode>() {
        Ok(code) => format!(
            "<p>This is Klaverjas table <b>{code}</b>.</p><p>This table server does not carry the game for a \
             browser. Open Klaverjas on your phone or computer, choose Play with friends, and join with the \
             code <b>{code}</b>.</p>"
        ),
        Err(_) => "<p>This link is not a Klaverjas table's.</p>".to_string(),
    };
    let page = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\"><title>Klaverjas</title></head>\
         <body style=\"font: 20px sans-serif; margin: 2em; max-width: 34em\">{body}</body></html>"
    );
    (axum::http::StatusCode::NOT_FOUND, axum::response::Html(page)).into_response()
}

/// A connection: its first message seats it, then its messages go to its
/// table and the table's to it. Counted at the door since its accept.
async fn connection(mut socket: Socket, lobby: Arc<Lobby>, addr: IpAddr) {
    let first = tokio::time::timeout(Duration::from_secs(lobby.limits.first_message_s), next_text(&mut socket)).await;
    let Ok(Some(first)) = first else {
        lobby.shared.watch.limit(Limit::Handshake, Some(addr));
        return;
    };
    let message = match klaverjas_net::read(&first) {
        Ok(m) => m,
        Err((why, text)) => return refuse(&mut socket, &lobby, addr, why, &text).await,
    };
    let Ok(token) = new_token() else {
        return refuse(&mut socket, &lobby, addr, Refusal::TooMany, "the server has no source of random tokens").await;
    };
    // Someone who has guessed wrong too often waits before a code or a
    // token is looked at again.
    let guess = matches!(message, ToTable::Join { .. } | ToTable::Rejoin { .. });
    if let Some(left) = lobby.guesses.waiting(addr).filter(|_| guess) {
        lobby.shared.watch.limit(Limit::Guessing, Some(addr));
        let text = format!("too many wrong codes from this address: try again in {} s", left.as_secs() + 1);
        return refuse(&mut socket, &lobby, addr, Refusal::TooMany, &text).await;
    }
    let (code, how) = match message {
        ToTable::Host { setup, name, .. } => match lobby.create(setup, addr).await {
            Ok((code, _)) => (code, Sitting::Host { name, token }),
            Err((why, text)) => return refuse(&mut socket, &lobby, addr, why, &text).await,
        },
        ToTable::Join { code, name, .. } => (code, Sitting::Join { name, token }),
        ToTable::Rejoin { code, token, .. } => (code, Sitting::Rejoin { token }),
        _ => {
            let text = "first Host, Join or Rejoin a table";
            return refuse(&mut socket, &lobby, addr, Refusal::NotSeated, text).await;
        }
    };
    let Some(table) = lobby.table(code) else {
        lobby.guesses.failed(addr);
        let text = format!("no table has the code {code}");
        return refuse(&mut socket, &lobby, addr, Refusal::NoTable, &text).await;
    };
    let conn = lobby.next_conn.fetch_add(1, Ordering::Relaxed);
    let (out, mut queue) = mpsc::channel(table::QUEUE);
    let (reply, seated) = oneshot::channel();
    let _ = table.send(Command::Sit(Box::new(Sit { how, conn, out, reply }))).await;
    if !let_in(&mut socket, &lobby, addr, seated.await, "the table has closed").await {
        return;
    }
    serve_seat(&mut socket, &mut queue, &lobby, addr, Inbox::Table(&table, conn)).await;
    let _ = table.send(Command::Gone { conn }).await;
}

/// An evening's connection: its first message makes the evening, checks a
/// player in, brings one back or watches; then its actions go to the
/// evening and the evening's news to it.
async fn evening_connection(mut socket: Socket, lobby: Arc<Lobby>, addr: IpAddr) {
    use evening::{Coming, EveningCommand};
    use klaverjas_net::evening::{ToEvening, read_evening};
    let first = tokio::time::timeout(Duration::from_secs(lobby.limits.first_message_s), next_text(&mut socket)).await;
    let Ok(Some(first)) = first else {
        lobby.shared.watch.limit(Limit::Handshake, Some(addr));
        return;
    };
    let message = match read_evening(&first) {
        Ok(m) => m,
        Err((why, text)) => return refuse(&mut socket, &lobby, addr, why, &text).await,
    };
    let Ok(token) = new_token() else {
        return refuse(&mut socket, &lobby, addr, Refusal::TooMany, "the server has no source of random tokens").await;
    };
    let guess = !matches!(message, ToEvening::Organise { .. } | ToEvening::Act { .. });
    if let Some(left) = lobby
        .guesses
        .waiting(addr)
        .filter(|_| guess || matches!(message, ToEvening::Organise { club_token: Some(_), .. }))
    {
        lobby.shared.watch.limit(Limit::Guessing, Some(addr));
        let text = format!("too many wrong codes from this address: try again in {} s", left.as_secs() + 1);
        return refuse(&mut socket, &lobby, addr, Refusal::TooMany, &text).await;
    }
    let (room, how) = match message {
        ToEvening::Organise { setup, club_token, .. } => match lobby.organise(setup, club_token, &token, addr).await {
            Ok((_, room)) => (Some(room), Coming::Organiser { token }),
            Err((why, text)) => return refuse(&mut socket, &lobby, addr, why, &text).await,
        },
        ToEvening::CheckIn { code, name, .. } => (lobby.evening(code), Coming::CheckIn { name, token }),
        ToEvening::Return { code, token, .. } => (lobby.evening(code), Coming::Return { token }),
        ToEvening::Watch { code, .. } => (lobby.evening(code), Coming::Watch),
        ToEvening::Act { .. } => {
            let text = "first Organise, CheckIn, Return or Watch an evening";
            return refuse(&mut socket, &lobby, addr, Refusal::NotSeated, text).await;
        }
    };
    let Some(room) = room else {
        lobby.guesses.failed(addr);
        return refuse(&mut socket, &lobby, addr, Refusal::NoTable, "no evening has that code").await;
    };
    let conn = lobby.next_conn.fetch_add(1, Ordering::Relaxed);
    let (out, mut queue) = mpsc::channel(table::QUEUE);
    let (reply, came_in) = oneshot::channel();
    let _ = room.send(EveningCommand::In(Box::new(evening::Entering { how, conn, out, reply }))).await;
    if !let_in(&mut socket, &lobby, addr, came_in.await, "the evening has closed").await {
        return;
    }
    serve_seat(&mut socket, &mut queue, &lobby, addr, Inbox::Evening(&room, conn)).await;
    let _ = room.send(EveningCommand::Gone { conn }).await;
}

/// Whether the table or evening let a connection in (`answer`); where
/// not, it is refused with the reason (a wrong token counted as a guess),
/// or with `gone` where it closed meanwhile.
async fn let_in<T>(
    socket: &mut Socket,
    lobby: &Lobby,
    addr: IpAddr,
    answer: Result<Result<T, table::Refused>, oneshot::error::RecvError>,
    gone: &str,
) -> bool {
    match answer {
        Ok(Ok(_)) => true,
        Ok(Err((why, text))) => {
            if why == Refusal::BadToken {
                lobby.guesses.failed(addr);
            }
            refuse(socket, lobby, addr, why, &text).await;
            false
        }
        Err(_) => {
            refuse(socket, lobby, addr, Refusal::NoTable, gone).await;
            false
        }
    }
}

/// Where a seated connection's messages go, with its number there.
enum Inbox<'a> {
    Table(&'a mpsc::Sender<Command>, u64),
    Evening(&'a mpsc::Sender<evening::EveningCommand>, u64),
}

impl Inbox<'_> {
    /// Reads `text` as this inbox's message and hands it on; `Ok(false)`:
    /// the other side has gone.
    async fn pass(&self, text: &str) -> Result<bool, (Refusal, String)> {
        use klaverjas_net::evening::{ToEvening, read_evening};
        match *self {
            Inbox::Table(table, conn) => {
                let message = Box::new(klaverjas_net::read(text)?);
                Ok(table.send(Command::Message { conn, message }).await.is_ok())
            }
            Inbox::Evening(room, conn) => {
                let ToEvening::Act { action } = read_evening(text)? else {
                    return Err((Refusal::NotNow, "already in: only actions now".to_owned()));
                };
                Ok(room.send(evening::EveningCommand::Act { conn, action: Box::new(action) }).await.is_ok())
            }
        }
    }
}

/// A seated connection's life: what its table (or evening) queues goes
/// out; what it sends is counted against its limit and passed on.
async fn serve_seat(
    socket: &mut Socket,
    queue: &mut mpsc::Receiver<String>,
    lobby: &Lobby,
    addr: IpAddr,
    inbox: Inbox<'_>,
) {
    let limits = lobby.limits;
    let per_second = limits.per_second;
    // A bucket of twice a second's messages, filled at `per_second`.
    let mut bucket = 2.0 * per_second as f64;
    let mut last = tokio::time::Instant::now();
    let every = Duration::from_secs(limits.ping_s.max(1));
    let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            text = queue.recv() => match text {
                Some(text) => if ws::send_text(socket, &text).await.is_err() { return },
                // The table dropped this connection (too slow, a newer one
                // took the chair, or the host removed its player): what it
                // had queued went first, then a clean close.
                None => return ws::close(socket).await,
            },
            _ = beat.tick() => {
                if heard.elapsed() >= 3 * every || ws::ping(socket).await.is_err() {
                    return;
                }
            }
            incoming = ws::next_text_heard(socket, BINARY_REFUSED.as_str(), &mut heard) => {
                let Some(text) = incoming else { return };
                let now = tokio::time::Instant::now();
                bucket = (bucket + now.duration_since(last).as_secs_f64() * per_second as f64).min(2.0 * per_second as f64);
                last = now;
                if bucket < 1.0 {
                    lobby.shared.watch.limit(Limit::Messages, Some(addr));
                    return refuse(socket, lobby, addr, Refusal::TooMany, "too many messages: slow down").await;
                }
                bucket -= 1.0;
                match inbox.pass(&text).await {
                    Ok(true) => {}
                    Ok(false) => return,
                    Err((why, text)) => {
                        lobby.refuse_noted(why, addr, &text);
                        if ws::send_text(socket, &FromTable::refused(why, text).to_json()).await.is_err() {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// The next text message; `None` when the connection ends. Binary frames
/// are answered as bad messages.
async fn next_text(socket: &mut Socket) -> Option<String> {
    let mut heard = tokio::time::Instant::now();
    ws::next_text_heard(socket, BINARY_REFUSED.as_str(), &mut heard).await
}

/// What a binary frame is answered with.
static BINARY_REFUSED: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| FromTable::refused(Refusal::BadMessage, "messages are JSON text").to_json());

/// Says why, and closes the connection cleanly; counted and logged.
async fn refuse(socket: &mut Socket, lobby: &Lobby, addr: IpAddr, why: Refusal, text: &str) {
    lobby.refuse_noted(why, addr, text);
    ws::close_with(socket, &FromTable::refused(why, text).to_json()).await;
}

/// A seat's token: 128 random bits in hex. Shown once, kept hashed.
fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

pub(crate) fn token_hash(token: &str) -> String {
    klaverjas_net::sha256_hex(token)
}

/// A table's key: 256 bits from the system's random source, in hex (no
/// clock stands in: a guessable key would open every seal).
fn new_key() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; klaverjas_net::SECRET_LEN];
    getrandom::fill(&mut bytes)?;
    Ok(klaverjas_net::hex(&bytes))
}

/// 64 random bits for seeds and codes (not secrets: a clock's bits stand
/// in should the system's source fail).
pub(crate) fn random_u64() -> u64 {
    let mut bytes = [0u8; 8];
    match getrandom::fill(&mut bytes) {
        Ok(()) => u64::from_le_bytes(bytes),
        Err(_) => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(7, |d| d.as_nanos() as u64),
    }
}

pub(crate) fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}
