//! What the server's tests share: the server as a process on 127.0.0.1
//! with a random port and its database on disk, players over real
//! WebSockets, and plain HTTP over a socket.
#![allow(dead_code)]

use klaverjas::{Preset, Seat};
use klaverjas_ai::Level;
use klaverjas_net::{FromTable, PROTOCOL, Setup, TableCode, ToTable};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A data folder of the test's own, removed at the end.
pub struct Dir(pub PathBuf);

impl Dir {
    pub fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("klaverjas-server-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Dir(dir)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        let _ = std::fs::remove_file(self.0.with_extension("log"));
    }
}

/// The real server binary, killed (SIGKILL) when dropped.
pub struct Server {
    pub child: Child,
    pub addr: String,
    /// Its log (stderr), beside its data folder.
    pub log: PathBuf,
}

impl Server {
    pub fn start(data: &Path, seed: u64) -> Server {
        Server::with(data, seed, &[])
    }

    pub fn with(data: &Path, seed: u64, more: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_klaverjas-server"))
            .args(["--port", "0", "--bind", "127.0.0.1", "--seed", &seed.to_string()])
            .args(more)
            .arg("--data")
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(data.with_extension("log")).unwrap())
            .spawn()
            .expect("the server starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        // "klaverjas-server: listening on 127.0.0.1:PORT, tables kept in DIR"
        let addr = first.split("listening on ").nth(1).and_then(|s| s.split(',').next()).expect(&first).to_owned();
        Server { child, addr, log: data.with_extension("log") }
    }

    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A player's connection, with every message it was sent.
pub struct Client {
    pub ws: WebSocket<MaybeTlsStream<TcpStream>>,
    pub got: Vec<FromTable>,
}

impl Client {
    pub fn connect(addr: &str) -> Client {
        let (ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).expect("connects");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        }
        Client { ws, got: Vec::new() }
    }

    pub fn send(&mut self, message: &ToTable) {
        self.ws.send(Message::text(serde_json::to_string(message).unwrap())).unwrap();
    }

    /// The next message within `wait`; `None` when none came.
    #[allow(dead_code)]
    pub fn recv_within(&mut self, wait: Duration) -> Option<FromTable> {
        let timeout = |this: &Self, d| {
            if let MaybeTlsStream::Plain(s) = this.ws.get_ref() {
                s.set_read_timeout(Some(d)).unwrap();
            }
        };
        timeout(self, wait);
        let got = match self.ws.read() {
            Ok(Message::Text(text)) => {
                let message: FromTable = serde_json::from_str(&text).expect("the server speaks the protocol");
                self.got.push(message.clone());
                Some(message)
            }
            _ => None,
        };
        timeout(self, Duration::from_secs(20));
        got
    }

    /// The next message; `None` when the connection closed.
    pub fn recv(&mut self) -> Option<FromTable> {
        loop {
            match self.ws.read() {
                Ok(Message::Text(text)) => {
                    let message: FromTable = serde_json::from_str(&text).expect("the server speaks the protocol");
                    self.got.push(message.clone());
                    return Some(message);
                }
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    /// Messages until one that `pick` takes.
    pub fn until<T>(&mut self, mut pick: impl FnMut(&FromTable) -> Option<T>) -> T {
        loop {
            let message = self.recv().expect("the connection stays open");
            if let FromTable::Refused { why, message } = &message {
                panic!("refused: {why:?} {message}");
            }
            if let Some(t) = pick(&message) {
                return t;
            }
        }
    }

    pub fn host(addr: &str, name: &str, setup: Setup) -> (Client, TableCode, String) {
        let mut c = Client::connect(addr);
        c.send(&ToTable::Host { protocol: PROTOCOL, name: name.into(), setup });
        let (code, token) = c.until(|m| match m {
            FromTable::Seated { code, token: Some(token), .. } => Some((*code, token.clone())),
            _ => None,
        });
        (c, code, token)
    }

    pub fn join(addr: &str, code: TableCode, name: &str) -> (Client, Seat, String) {
        let mut c = Client::connect(addr);
        c.send(&ToTable::Join { protocol: PROTOCOL, code, name: name.into() });
        let (seat, token) = c.until(|m| match m {
            FromTable::Seated { seat, token: Some(token), .. } => Some((*seat, token.clone())),
            _ => None,
        });
        (c, seat, token)
    }
}

pub fn setup(preset: Preset, deals: u16, grace: Option<u32>) -> Setup {
    Setup { preset, set: format!("match=deals:{deals}"), bots: Level::Random, grace, hints: false, late: true }
}

/// What a person at the table does with a message: acts when the view says
/// it is their turn (a random bot's choice for the scripted people), is
/// ready when a deal is opened. Returns false once the match is over.
pub fn respond(c: &mut Client, message: &FromTable, bot: &mut Box<dyn klaverjas_ai::Bot>, last_step: &mut u64) -> bool {
    match message {
        FromTable::Table { view, step, .. } => {
            *last_step = (*last_step).max(*step);
            if !view.legal.is_empty() && view.to_act == Some(view.seat) {
                let action = bot.decide(view).action;
                c.send(&ToTable::Act { action });
            }
        }
        FromTable::Opened { .. } => c.send(&ToTable::Ready),
        FromTable::MatchOver { .. } => return false,
        FromTable::Refused { why, message } => panic!("refused: {why:?} {message}"),
        _ => {}
    }
    true
}

/// A plain HTTP GET over a socket: the status line and the body.
pub fn get(addr: &str, path: &str) -> (String, String) {
    ask(addr, &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"))
}

/// The server's whole answer to a GET of `path`, headers and all.
pub fn ask_whole(addr: &str, path: &str) -> String {
    answer(addr, &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"))
}

/// The server's whole answer to a request written as is.
pub fn answer(addr: &str, request: &str) -> String {
    use std::io::{Read, Write};
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer
}

/// The server's answer (status line, body) to a request written as is.
pub fn ask(addr: &str, request: &str) -> (String, String) {
    let answer = answer(addr, request);
    let status = answer.lines().next().unwrap_or_default().to_owned();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default().to_owned();
    (status, body)
}
