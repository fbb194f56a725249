//! The table server as a process on 127.0.0.1 with a random port, its
//! database on disk, and players over real WebSockets.

use klaverjas::{Action, Game, Match, Preset, Seat};
use klaverjas_ai::Level;
use klaverjas_net::check::{cards_named, visible};
use klaverjas_net::{FromTable, PROTOCOL, Refusal, Setup, TableCode, ToTable};
use klaverjas_server::store::{Step, Store};
use klaverjas_server::table::apply;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A data folder of the test's own, removed at the end.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("klaverjas-server-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Dir(dir)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The real server binary, killed (SIGKILL) when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(data: &Path, seed: u64) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_klaverjas-server"))
            .args(["--port", "0", "--bind", "127.0.0.1", "--seed", &seed.to_string(), "--data"])
            .arg(data)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        // "klaverjas-server: listening on 127.0.0.1:PORT, tables kept in DIR"
        let addr = first.split("listening on ").nth(1).and_then(|s| s.split(',').next()).expect(&first).to_owned();
        Server { child, addr }
    }

    fn kill(mut self) {
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
struct Client {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    got: Vec<FromTable>,
}

impl Client {
    fn connect(addr: &str) -> Client {
        let (ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).expect("connects");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        }
        Client { ws, got: Vec::new() }
    }

    fn send(&mut self, message: &ToTable) {
        self.ws.send(Message::text(serde_json::to_string(message).unwrap())).unwrap();
    }

    fn send_text(&mut self, text: &str) -> bool {
        self.ws.send(Message::text(text)).is_ok()
    }

    /// The next message; `None` when the connection closed.
    fn recv(&mut self) -> Option<FromTable> {
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
    fn until<T>(&mut self, mut pick: impl FnMut(&FromTable) -> Option<T>) -> T {
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

    fn host(addr: &str, name: &str, setup: Setup) -> (Client, TableCode, String) {
        let mut c = Client::connect(addr);
        c.send(&ToTable::Host { protocol: PROTOCOL, name: name.into(), setup });
        let (code, token) = c.until(|m| match m {
            FromTable::Seated { code, token: Some(token), .. } => Some((*code, token.clone())),
            _ => None,
        });
        (c, code, token)
    }

    fn join(addr: &str, code: TableCode, name: &str) -> (Client, Seat, String) {
        let mut c = Client::connect(addr);
        c.send(&ToTable::Join { protocol: PROTOCOL, code, name: name.into() });
        let (seat, token) = c.until(|m| match m {
            FromTable::Seated { seat, token: Some(token), .. } => Some((*seat, token.clone())),
            _ => None,
        });
        (c, seat, token)
    }
}

fn setup(preset: Preset, deals: u16, grace: Option<u32>) -> Setup {
    Setup { preset, set: format!("match=deals:{deals}"), bots: Level::Random, grace }
}

/// What a person at the table does with a message: acts when the view says
/// it is their turn (a random bot's choice for the scripted people), is
/// ready when a deal is opened. Returns false once the match is over.
fn respond(c: &mut Client, message: &FromTable, bot: &mut Box<dyn klaverjas_ai::Bot>, last_step: &mut u64) -> bool {
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

/// Every message each seat got, checked against the steps on disk: a
/// message about step k names only cards its seat may see after k steps.
fn no_hidden_card_was_sent(data: &Path, code: TableCode, got: &[(Seat, Vec<FromTable>)]) -> usize {
    let store = Store::open(data).unwrap();
    let stored = store.load().unwrap().into_iter().find(|t| t.code == code).expect("the table is on disk");
    let mut game = Match::new(stored.header.setup.rules().unwrap(), stored.header.seed, Seat::North);
    let mut at: Vec<Game> = vec![game.game().clone()];
    for step in &stored.steps {
        apply(&mut game, *step).unwrap();
        at.push(game.game().clone());
    }
    let mut checked = 0;
    for (seat, messages) in got {
        for message in messages {
            let named = cards_named(&serde_json::to_value(message).unwrap());
            let allowed = match message {
                FromTable::Table { step, .. } => visible(&at[*step as usize], *seat),
                _ => klaverjas::CardSet::EMPTY,
            };
            assert!(named.minus(allowed).is_empty(), "{seat:?} was told {} in {message:?}", named.minus(allowed));
            checked += 1;
        }
    }
    checked
}

/// Plays a match at a table of `people` people (the other chairs bots),
/// every person a client of its own; returns each one's messages.
fn play_a_match(addr: &str, preset: Preset, people: usize, seed: u64) -> (TableCode, Vec<(Seat, Vec<FromTable>)>) {
    let (host, code, _) = Client::host(addr, "Anna", setup(preset, 2, Some(30)));
    let mut everyone = vec![(Seat::South, host)];
    let chairs = preset.rules().players.count();
    for name in ["Bram", "Cato", "Daan"].iter().take(people.min(chairs) - 1) {
        let (c, seat, _) = Client::join(addr, code, name);
        everyone.push((seat, c));
    }
    everyone[0].1.send(&ToTable::Start);
    let threads: Vec<_> = everyone
        .into_iter()
        .map(|(seat, mut c)| {
            std::thread::spawn(move || {
                let mut bot = Level::Random.bot(seed ^ seat.index() as u64);
                let mut step = 0;
                while let Some(m) = c.recv() {
                    if !respond(&mut c, &m, &mut bot, &mut step) {
                        break;
                    }
                }
                (seat, c.got)
            })
        })
        .collect();
    let got = threads.into_iter().map(|t| t.join().unwrap()).collect();
    (code, got)
}

#[test]
fn people_and_bots_play_whole_matches_and_no_seat_is_told_a_hidden_card() {
    let dir = Dir::new("matches");
    let server = Server::start(&dir.0, 11);
    let mut played = Vec::new();
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        for people in [1, 2, 4] {
            let (code, got) = play_a_match(&server.addr, preset, people, (i * 10 + people) as u64);
            for (seat, messages) in &got {
                assert!(
                    messages.iter().any(|m| matches!(m, FromTable::MatchOver { .. })),
                    "{preset:?}: {seat:?} never heard the match end"
                );
            }
            played.push((code, got));
        }
    }
    server.kill();
    let checked: usize = played.iter().map(|(code, got)| no_hidden_card_was_sent(&dir.0, *code, got)).sum();
    assert!(checked > 2000, "only {checked} messages checked");
}
