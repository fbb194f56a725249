//! The table server: tables of Klaverjas that people join over WebSocket
//! with a code, and that survive the server's death.
//!
//! - [`store`]: the tables on disk (redb), a step a record, written by one
//!   thread in group commits.
//! - [`table`]: one task per table, the only owner of its match.
//! - this file: the lobby (codes to tables, the limits per address), the
//!   connections, the routes, and [`run`].
//!
//! The protocol is `klaverjas-net`'s; nothing here makes a message for a
//! seat but its `for_seat` and `seen_by`.

pub mod lan;
pub mod store;
pub mod table;
mod ws;

use axum::extract::{ConnectInfo, Request, State};
use axum::response::Response;
use klaverjas_net::{FromTable, MAX_MESSAGE, Refusal, TableCode, ToTable};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::{Header, Store, StoreError, Write, Writer};
use table::{Command, Sit, Sitting, Table};
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use ws::Socket;

/// The limits that keep one address from taking the server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Messages a connection may send a second, on average.
    pub per_second: u32,
    /// Tables one address may have made, kept while they live.
    pub tables_per_address: usize,
    /// Connections open at once from one address.
    pub connections_per_address: usize,
    /// Seconds a new connection has to say which table it sits at.
    pub first_message_s: u64,
    /// Seconds between pings to a seated connection. One that sent nothing
    /// (not even the pong) for three of them is dropped: a phone that left
    /// the network without closing (half open) is away, and the grace
    /// before a bot stands in begins.
    pub ping_s: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { per_second: 20, tables_per_address: 64, connections_per_address: 64, first_message_s: 30, ping_s: 15 }
    }
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
    /// (`klaverjas_net::lan`); `None`: not asked on the network.
    pub lan: Option<u16>,
}

struct Lobby {
    tables: Mutex<HashMap<TableCode, mpsc::Sender<Command>>>,
    /// Tables made and connections open, per address.
    made: Mutex<HashMap<IpAddr, Vec<TableCode>>>,
    open: Mutex<HashMap<IpAddr, usize>>,
    writer: Writer,
    limits: Limits,
    next_conn: AtomicU64,
    seed: Option<u64>,
    made_count: AtomicU64,
    /// The UDP port answered on (`Config::lan`).
    lan: Option<u16>,
}

/// The address's count of open connections, held while the connection is.
struct Held<'a>(&'a Lobby, IpAddr);

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let mut open = self.0.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.1) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.1);
            }
        }
    }
}

impl Lobby {
    fn spawn(&self, table: Table, code: TableCode) -> mpsc::Sender<Command> {
        let (tx, rx) = mpsc::channel(1024);
        self.tables.lock().unwrap_or_else(|e| e.into_inner()).insert(code, tx.clone());
        tokio::spawn(table.run(rx));
        tx
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

    fn hold(&self, addr: IpAddr) -> Option<Held<'_>> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(addr).or_default();
        if *n >= self.limits.connections_per_address {
            return None;
        }
        *n += 1;
        Some(Held(self, addr))
    }

    /// A new table for `setup`, its host to sit first.
    async fn create(
        &self,
        setup: klaverjas_net::Setup,
        addr: IpAddr,
    ) -> Result<(TableCode, mpsc::Sender<Command>), table::Refused> {
        {
            let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
            let mine = made.entry(addr).or_default();
            mine.retain(|code| self.table(*code).is_some());
            if mine.len() >= self.limits.tables_per_address {
                return Err((
                    Refusal::TooMany,
                    format!("at most {} tables from one address", self.limits.tables_per_address),
                ));
            }
        }
        let n = self.made_count.fetch_add(1, Ordering::Relaxed);
        let seed = self.seed.map_or_else(random_u64, |s| klaverjas::session::deal_seed(s, n));
        let header = Header { setup, seed, chairs: Vec::new(), started: false, touched: now() };
        let code = loop {
            let code = TableCode::from_random(random_u64());
            if self.table(code).is_none() {
                break code;
            }
        };
        let table = Table::new(code, header.clone(), &[], self.writer.clone()).map_err(|e| (Refusal::BadSetup, e))?;
        self.writer.write(Write::Header(code, header)).await.map_err(|e| (Refusal::TooMany, e))?;
        self.made.lock().unwrap_or_else(|e| e.into_inner()).entry(addr).or_default().push(code);
        Ok((code, self.spawn(table, code)))
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
    let stored = store.load()?;
    let writer = Writer::start(store);
    let lobby = Arc::new(Lobby {
        tables: Mutex::default(),
        made: Mutex::default(),
        open: Mutex::default(),
        writer: writer.clone(),
        limits: config.limits,
        next_conn: AtomicU64::new(1),
        seed: config.seed,
        made_count: AtomicU64::new(0),
        lan: config.lan,
    });
    for stored in stored {
        match Table::new(stored.code, stored.header, &stored.steps, writer.clone()) {
            Ok(table) => {
                lobby.spawn(table, stored.code);
            }
            // Kept on disk as it is, for a later version to read.
            Err(e) => eprintln!("table {} not opened: {e}", stored.code),
        }
    }
    let mut app = axum::Router::new().route("/ws", axum::routing::get(upgrade));
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

async fn serve(listener: tokio::net::TcpListener, (app, lobby): (axum::Router, Arc<Lobby>)) -> Result<(), ServerError> {
    if let Some(port) = lobby.lan {
        // Another program may hold the port (a second game hosting on this
        // computer): its tables are then found by address only.
        match tokio::net::UdpSocket::bind((std::net::Ipv4Addr::UNSPECIFIED, port)).await {
            Ok(socket) => {
                let ws_port = listener.local_addr().map_err(ServerError::Io)?.port();
                tokio::spawn(lan::answer(socket, lobby, ws_port));
            }
            Err(e) => eprintln!("tables are not found by their code on the network (UDP port {port}): {e}"),
        }
    }
    // A table's answer is often two frames (its state, then a deal's
    // opening): with Nagle's algorithm the second waits for the client's
    // delayed ack, up to 40 ms, so small frames go out at once.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            eprintln!("a connection keeps Nagle's algorithm: {e}");
        }
    });
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await.map_err(ServerError::Io)
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
    ws::upgrade(request, config, move |socket| connection(socket, lobby, peer.ip()))
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

/// A connection: its first message seats it, then its messages go to its
/// table and the table's to it.
async fn connection(mut socket: Socket, lobby: Arc<Lobby>, addr: IpAddr) {
    let Some(_held) = lobby.hold(addr) else {
        refuse(&mut socket, Refusal::TooMany, "too many connections from this address").await;
        return;
    };
    let first = tokio::time::timeout(Duration::from_secs(lobby.limits.first_message_s), next_text(&mut socket)).await;
    let Ok(Some(first)) = first else { return };
    let message = match klaverjas_net::read(&first) {
        Ok(m) => m,
        Err((why, text)) => return refuse(&mut socket, why, &text).await,
    };
    let Ok(token) = new_token() else {
        return refuse(&mut socket, Refusal::TooMany, "the server has no source of random tokens").await;
    };
    let (code, how) = match message {
        ToTable::Host { setup, name, .. } => match lobby.create(setup, addr).await {
            Ok((code, _)) => (code, Sitting::Host { name, token }),
            Err((why, text)) => return refuse(&mut socket, why, &text).await,
        },
        ToTable::Join { code, name, .. } => (code, Sitting::Join { name, token }),
        ToTable::Rejoin { code, token, .. } => (code, Sitting::Rejoin { token }),
        _ => return refuse(&mut socket, Refusal::NotSeated, "first Host, Join or Rejoin a table").await,
    };
    let Some(table) = lobby.table(code) else {
        return refuse(&mut socket, Refusal::NoTable, &format!("no table has the code {code}")).await;
    };
    let conn = lobby.next_conn.fetch_add(1, Ordering::Relaxed);
    let (out, mut queue) = mpsc::channel(table::QUEUE);
    let (reply, seated) = oneshot::channel();
    let _ = table.send(Command::Sit(Box::new(Sit { how, conn, out, reply }))).await;
    match seated.await {
        Ok(Ok(_)) => {}
        Ok(Err((why, text))) => return refuse(&mut socket, why, &text).await,
        Err(_) => return refuse(&mut socket, Refusal::NoTable, "the table has closed").await,
    };
    serve_seat(&mut socket, &table, &mut queue, conn, lobby.limits).await;
    let _ = table.send(Command::Gone { conn }).await;
}

async fn serve_seat(
    socket: &mut Socket,
    table: &mpsc::Sender<Command>,
    queue: &mut mpsc::Receiver<String>,
    conn: u64,
    limits: Limits,
) {
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
                // The table dropped this connection (too slow, or a newer
                // one took the chair).
                None => return,
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
                    return refuse(socket, Refusal::TooMany, "too many messages: slow down").await;
                }
                bucket -= 1.0;
                match klaverjas_net::read(&text) {
                    Ok(message) => {
                        if table.send(Command::Message { conn, message: Box::new(message) }).await.is_err() {
                            return;
                        }
                    }
                    Err((why, text)) => {
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

/// Says why, and closes the connection cleanly.
async fn refuse(socket: &mut Socket, why: Refusal, text: &str) {
    ws::close_with(socket, &FromTable::refused(why, text).to_json()).await;
}

/// A seat's token: 128 random bits in hex. Shown once, kept hashed.
fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

pub(crate) fn token_hash(token: &str) -> String {
    klaverjas_net::seal_of(token)
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
