//! `kj table new|join|play`: a chair at a table server, played by a bot of
//! any level or by a person typing actions, the table printed as it goes.

use crate::Failure;
use crate::args::Args;
use klaverjas::{Action, Event, Preset};
use klaverjas_ai::{Bot, Level};
use klaverjas_net::{FromTable, PROTOCOL, SealCheck, Seals, Seen, Setup, TableCode, ToTable};
use std::io::BufRead;
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

pub const USAGE: &str = "\
  kj table new  --server URL [--rules PRESET] [--set OPTIONS] [--bots LEVEL] [--grace S|never]
                [--name NAME] [--as person|LEVEL] [--start]
  kj table join --server URL --code CODE [--name NAME] [--as person|LEVEL]
  kj table play --server URL --code CODE --token TOKEN [--as person|LEVEL]
                (a chair taken back with the token `new` or `join` printed)";

/// What a person types at the table.
const AT_THE_TABLE: &str = "\
At the table, type (then Enter):
  an action at your turn, as kj deal takes it: pass, play, hearts, double, JH, discard 7C, ...
  roem           call roem on the trick your team just won
  start          the host: empty chairs get bots and the match begins
  swap N S       the host, before the start: swap the people of two chairs
  shuffle        the host, before the start: partners at random
  remove S       the host: the person in chair S leaves (a bot plays it once the match began)
  help           this text";

const VALUED: [&str; 9] = ["server", "rules", "bots", "grace", "name", "as", "code", "token", "seed"];

pub fn table(rest: &[String]) -> Result<(), Failure> {
    let Some((sub, rest)) = rest.split_first() else {
        return Err(Failure::Usage(format!("kj table needs new, join or play:\n{USAGE}")));
    };
    if sub == "--help" || sub == "help" || rest.iter().any(|a| a == "--help") {
        say(&format!("{USAGE}\n\n{AT_THE_TABLE}"));
        return Ok(());
    }
    let args = Args::parse(&format!("table {sub}"), rest, &VALUED, &["start", "json"])?;
    let server = server_url(&args)?;
    let player = Player::from(&args)?;
    let first = match sub.as_str() {
        "new" => {
            let preset: Preset = args.parsed("rules")?.unwrap_or(Preset::Classic);
            let grace = match args.opt("grace") {
                None => Setup::default_grace(),
                Some("never") => None,
                Some(s) => Some(s.parse().map_err(|_| format!("--grace: seconds or 'never', not '{s}'"))?),
            };
            let bots = args.parsed("bots")?.unwrap_or(Level::Expert);
            let setup = Setup {
                preset,
                set: args.opt("set").unwrap_or_default().to_owned(),
                bots,
                grace,
                hints: false,
                late: true,
            };
            setup.rules().map_err(|e| format!("--set: {e}"))?;
            ToTable::Host { protocol: PROTOCOL, name: name(&args), setup }
        }
        "join" => ToTable::Join { protocol: PROTOCOL, code: code(&args)?, name: name(&args) },
        "play" => ToTable::Rejoin { protocol: PROTOCOL, code: code(&args)?, token: args.req("token")?.to_owned() },
        other => return Err(Failure::Usage(format!("unknown 'kj table {other}' (new, join or play)"))),
    };
    let chair = match &first {
        ToTable::Rejoin { code, token, .. } => Some((*code, token.clone())),
        _ => None,
    };
    let mut ws =
        connect(&server).map_err(|e| Failure::Rule(format!("cannot reach the table server at {server}: {e}")))?;
    send(&mut ws, &first)?;
    let mut sitting = Sitting {
        server,
        player,
        start: args.flag("start"),
        json: args.flag("json"),
        seals: Seals::default(),
        chair,
        seated_once: false,
    };
    loop {
        let why = match sitting.run(&mut ws)? {
            Ended::Over => return Ok(()),
            Ended::Dropped(why) => why,
        };
        // A chair taken comes back with its token, as the app does: a
        // server restarted or a network gone for a while is no reason to
        // leave the table.
        let Some((code, token)) = sitting.chair.clone() else {
            return Err(Failure::Rule(format!("the connection to the table server ended: {why}")));
        };
        sitting.print(format!("the connection to the table ended ({why}): coming back to table {code}"));
        ws = sitting.come_back()?;
        send(&mut ws, &ToTable::Rejoin { protocol: PROTOCOL, code, token })?;
    }
}

/// How long a dropped connection is tried again before kj gives up.
const COME_BACK_FOR: Duration = Duration::from_secs(120);

fn connect(server: &str) -> Result<WebSocket<MaybeTlsStream<TcpStream>>, tungstenite::Error> {
    let (ws, _) = tungstenite::connect(server)?;
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        // Short reads, so that a person's typing is read between messages.
        let _ = s.set_read_timeout(Some(Duration::from_millis(100)));
    }
    Ok(ws)
}

/// How a sitting ended.
enum Ended {
    /// The match is over.
    Over,
    /// The connection dropped: why.
    Dropped(String),
}

/// `--server`: a WebSocket address, `ws://HOST:PORT/ws` (or `wss://`).
pub fn server_url(args: &Args) -> Result<String, Failure> {
    let url = args.req("server")?;
    let rest = url.strip_prefix("ws://").or_else(|| url.strip_prefix("wss://"));
    match rest {
        // The table server's path is /ws: an address without one means it.
        Some(host) if !host.is_empty() && !host.starts_with('/') && !host.contains('/') => Ok(format!("{url}/ws")),
        Some(host) if !host.is_empty() && !host.starts_with('/') => Ok(url.to_owned()),
        _ => Err(Failure::Usage(format!("--server: a table server's address is ws://HOST:PORT/ws, not '{url}'"))),
    }
}

fn name(args: &Args) -> String {
    args.opt("name").unwrap_or("kj").to_owned()
}

fn code(args: &Args) -> Result<TableCode, Failure> {
    Ok(args.req("code")?.parse().map_err(|e| format!("--code: {e}"))?)
}

/// Who plays the chair.
enum Player {
    Bot(Box<dyn Bot>),
    /// A person: lines typed, read on a thread of their own.
    Person(mpsc::Receiver<String>),
}

impl Player {
    fn from(args: &Args) -> Result<Player, Failure> {
        Ok(match args.opt("as").unwrap_or("person") {
            "person" => {
                let (tx, rx) = mpsc::channel();
                std::thread::spawn(move || {
                    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                });
                Player::Person(rx)
            }
            level => {
                Player::Bot(level.parse::<Level>().map_err(|e| format!("--as: {e}"))?.bot(args.number("seed", 1)?))
            }
        })
    }
}

struct Sitting {
    server: String,
    player: Player,
    start: bool,
    json: bool,
    /// Each deal's seal, to check its code against when it is opened.
    seals: Seals,
    /// The chair taken, and the token that takes it back.
    chair: Option<(TableCode, String)>,
    /// Seated in an earlier connection: a seating now is a coming back.
    seated_once: bool,
}

impl Sitting {
    /// Connects again, waiting longer each time, for [`COME_BACK_FOR`].
    fn come_back(&self) -> Result<WebSocket<MaybeTlsStream<TcpStream>>, Failure> {
        let since = std::time::Instant::now();
        let mut wait = Duration::from_millis(250);
        loop {
            std::thread::sleep(wait);
            match connect(&self.server) {
                Ok(ws) => return Ok(ws),
                Err(e) if since.elapsed() > COME_BACK_FOR => {
                    return Err(Failure::Rule(format!(
                        "the table server at {} is out of reach ({e}); tried for {} s",
                        self.server,
                        COME_BACK_FOR.as_secs()
                    )));
                }
                Err(_) => wait = (wait * 2).min(Duration::from_secs(5)),
            }
        }
    }

    fn run(&mut self, ws: &mut WebSocket<MaybeTlsStream<TcpStream>>) -> Result<Ended, Failure> {
        let mut turn: Option<Vec<Action>> = None;
        // A deal begins (or the table is seen anew): show the hand.
        let mut new_deal = false;
        let mut seated = false;
        loop {
            if let Player::Person(lines) = &self.player {
                while let Ok(line) = lines.try_recv() {
                    self.typed(ws, line.trim(), turn.as_deref())?;
                }
            }
            let message = match ws.read() {
                Ok(Message::Text(text)) => {
                    if self.json {
                        say(&text);
                    }
                    serde_json::from_str::<FromTable>(&text)
                        .map_err(|e| Failure::Rule(format!("the server sent what kj cannot read: {e}")))?
                }
                Ok(Message::Close(_)) => return Ok(Ended::Dropped("the table server closed it".into())),
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
                {
                    continue;
                }
                Err(e) => return Ok(Ended::Dropped(e.to_string())),
            };
            match message {
                FromTable::Seated { code, seat, .. } if self.seated_once => {
                    seated = true;
                    self.print(format!("back at table {code}, in your chair: {}", seat.name()));
                }
                FromTable::Seated { code, seat, token, setup, .. } => {
                    seated = true;
                    self.seated_once = true;
                    self.print(format!("table {code} ({}), your chair: {}", setup.preset.name(), seat.name()));
                    if let Some(token) = token {
                        self.chair = Some((code, token.clone()));
                        self.print(format!(
                            "  to come back: kj table play --server {} --code {code} --token {token}",
                            self.server
                        ));
                        self.print(format!("  others join:  kj table join --server {} --code {code}", self.server));
                    }
                    if matches!(self.player, Player::Person(_)) {
                        self.print("  type help for what you can type".into());
                    }
                    if std::mem::take(&mut self.start) {
                        send(ws, &ToTable::Start)?;
                    }
                }
                FromTable::Chairs { chairs, started } => {
                    let line: Vec<String> = chairs
                        .iter()
                        .map(|c| {
                            let who = c.name.clone().unwrap_or_else(|| if started { "bot".into() } else { "-".into() });
                            format!(
                                "{}: {who}{}{}",
                                c.seat.name(),
                                if c.host { " (host)" } else { "" },
                                if c.away { " (away)" } else { "" }
                            )
                        })
                        .collect();
                    self.print(format!("chairs: {}", line.join(", ")));
                    // A bot host starts once every chair has a person.
                    if !started
                        && !self.start
                        && matches!(self.player, Player::Bot(_))
                        && chairs.iter().all(|c| c.name.is_some())
                    {
                        send(ws, &ToTable::Start)?;
                    }
                }
                FromTable::Sealed { deal, seal } => {
                    new_deal = true;
                    self.print(format!("deal {deal}, sealed {}", &seal[..16.min(seal.len())]));
                    self.seals.heard(deal, seal);
                }
                FromTable::Table { view, happened, .. } => {
                    for seen in &happened {
                        self.print(describe(seen));
                    }
                    if std::mem::take(&mut new_deal) {
                        self.print(format!("your hand: {}", view.hand));
                        if let Some(card) = view.turned.last() {
                            self.print(format!("the turned card: the {} of {}", card.rank, card.suit.name()));
                        }
                        if let Some(stock) = view.stock {
                            self.print(format!("the stock's turned card: {}", stock.turned));
                        }
                        if let Some(c) = view.contract {
                            let (ns, ew) = (view.points.ns, view.points.ew);
                            self.print(format!(
                                "trump {}, playing: {}; points so far NS {ns}, EW {ew}",
                                c.trump.name(),
                                c.declarer.name()
                            ));
                        }
                        if let Some(card) = view.face_up {
                            self.print(format!("the dealer's last card, face up: {card}"));
                        }
                    }
                    turn = None;
                    if view.to_act == Some(view.seat) && !view.legal.is_empty() {
                        match &mut self.player {
                            Player::Bot(bot) => send(ws, &ToTable::Act { action: bot.decide(&view).action })?,
                            Player::Person(_) => {
                                let trick: Vec<String> =
                                    view.trick.iter().map(|(s, c)| format!("{} {c}", s.name())).collect();
                                self.print(format!("your hand: {}", view.hand));
                                if !trick.is_empty() {
                                    self.print(format!("the trick: {}", trick.join(", ")));
                                }
                                let legal: Vec<String> = view.legal.iter().map(Action::to_string).collect();
                                self.print(format!("your turn: {}", legal.join(" | ")));
                                turn = Some(view.legal.clone());
                            }
                        }
                    }
                }
                FromTable::Opened { deal, code, secret } => {
                    let check = match self.seals.check(deal, &code, &secret) {
                        SealCheck::Holds => "the seal holds",
                        SealCheck::Broken => "THE SEAL DOES NOT HOLD: the cards were changed",
                        SealCheck::Unheard => "dealt before you sat down",
                    };
                    self.print(format!("deal {deal} opened: {code} ({check}; kj code --code {code})"));
                    send(ws, &ToTable::Ready)?;
                }
                FromTable::MatchOver { winner } => {
                    self.print(format!(
                        "the match is over: {}",
                        winner.map_or("a draw".into(), |t| format!("{} won", t.name()))
                    ));
                    return Ok(Ended::Over);
                }
                FromTable::Refused { message, .. } if !seated => return Err(Failure::Rule(message)),
                FromTable::Refused { message, .. } => self.print(format!("refused: {message}")),
            }
        }
    }

    /// A person's line: an action when it is their turn, or start.
    fn typed(
        &self,
        ws: &mut WebSocket<MaybeTlsStream<TcpStream>>,
        line: &str,
        turn: Option<&[Action]>,
    ) -> Result<(), Failure> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match line {
            "" => {}
            "help" | "?" => self.print(AT_THE_TABLE.into()),
            "start" => send(ws, &ToTable::Start)?,
            "shuffle" => send(ws, &ToTable::Shuffle)?,
            "roem" if turn.is_none() => send(ws, &ToTable::CallRoem)?,
            _ if words.first() == Some(&"remove") => match words.get(1).map(|w| w.parse()) {
                Some(Ok(seat)) if words.len() == 2 => send(ws, &ToTable::Remove { seat })?,
                _ => self.print("remove a person: remove S (seats N E S W)".into()),
            },
            _ if words.first() == Some(&"swap") => {
                match (words.get(1).map(|w| w.parse()), words.get(2).map(|w| w.parse())) {
                    (Some(Ok(from)), Some(Ok(to))) => send(ws, &ToTable::Swap { from, to })?,
                    _ => self.print("swap two chairs: swap N S (seats N E S W)".into()),
                }
            }
            _ => match (line.parse::<Action>(), turn) {
                (Ok(action), Some(_)) => send(ws, &ToTable::Act { action })?,
                (Ok(_), None) => self.print("not your turn yet".into()),
                (Err(e), _) => self
                    .print(format!("{e} (an action as kj deal takes it: pass, play, hearts, JH, ...; help for more)")),
            },
        }
        Ok(())
    }

    fn print(&self, line: String) {
        if !self.json {
            say(&line);
        }
    }
}

fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

fn send(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>, message: &ToTable) -> Result<(), Failure> {
    let text = serde_json::to_string(message).map_err(|e| Failure::Rule(e.to_string()))?;
    ws.send(Message::text(text)).map_err(|e| Failure::Rule(format!("the connection to the table server ended: {e}")))
}

/// One line for what happened at the table, in words.
fn describe(seen: &Seen) -> String {
    let event = match seen {
        Seen::LaidAway { seat } => return format!("{} lays a card away", seat.name()),
        Seen::Event { event } => event,
    };
    match *event {
        Event::Bid { seat, bid } => format!("{}: {bid}", seat.name()),
        Event::SecondCardTurned { card } => {
            format!("everyone passed: the next card is turned, the {} of {}", card.rank, card.suit.name())
        }
        Event::ThrownIn => "everyone passed: the cards are thrown in and dealt again".into(),
        Event::SecondDeal { bottom, .. } => format!("three more cards each; the stock's bottom card: {bottom}"),
        Event::Swapped { seat, turned, seven } => format!("{} takes {turned} for {seven}", seat.name()),
        Event::Discarded { seat, card } => format!("{} lays {card} away", seat.name()),
        Event::Contract(c) => format!("trump {}, playing: {}", c.trump.name(), c.declarer.name()),
        Event::CardPlayed { seat, card } => format!("{} plays {card}", seat.name()),
        Event::TrickWon { number, winner, points, roem } => {
            let roem = if roem.points > 0 { format!(", {} roem in it", roem.points) } else { String::new() };
            format!("trick {number} to {} ({points} points{roem})", winner.name())
        }
        Event::RoemClaimed { seat, points } => format!("{}: roem! {points} counted", seat.name()),
        Event::RoemPassed { seat } => format!("{}: no roem called", seat.name()),
        Event::Announced(a) => format!("{} announces {} roem", a.seat.name(), a.points),
        Event::HandRoem { team, points } => format!("{} score {points} announced roem", team.name()),
        Event::Stuk { seat } => format!("{}: stuk (king and queen of trumps)", seat.name()),
        Event::WentOn(on) => {
            let strokes = if on.strokes == 1 { "one stroke".to_string() } else { format!("{} strokes", on.strokes) };
            format!("{} go on the boem: {strokes}{}", on.team.name(), if on.outright { ", outright" } else { "" })
        }
        Event::DealOver(result) => {
            let score = result.final_score();
            let word = if result.nat {
                " (nat)"
            } else if result.pit.is_some() {
                " (pit)"
            } else {
                ""
            };
            format!("deal over{word}: NS {}, EW {}", score.ns, score.ew)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every event of a deal of each preset is told in words, never in
    /// Rust's debug form (`SecondCardTurned { card: PileCard { .. } }`).
    #[test]
    fn every_event_is_told_in_words() {
        use klaverjas::{Match, Seat};
        let mut told = std::collections::HashSet::new();
        for preset in Preset::ALL {
            for seed in 0..40 {
                let mut m = Match::new(preset.rules(), seed, Seat::West);
                while m.game().result().is_none() && m.game().phase() != klaverjas::Phase::ThrownIn {
                    // Passing where it may, so that second cards turn and
                    // deals are thrown in too.
                    let legal = m.game().legal_actions();
                    let pass = Action::Bid(klaverjas::Bid::Pass);
                    let action =
                        if seed % 2 == 0 && legal.contains(&pass) { pass } else { legal[seed as usize % legal.len()] };
                    for event in m.apply(action).unwrap() {
                        let line = describe(&Seen::Event { event });
                        // Debug's form: braces, or a name in CamelCase.
                        let camel = |w: &str| {
                            w.as_bytes().windows(2).any(|p| p[0].is_ascii_lowercase() && p[1].is_ascii_uppercase())
                        };
                        assert!(!line.contains('{') && !line.split_whitespace().any(camel), "{event:?}: {line}");
                        told.insert(std::mem::discriminant(&event));
                    }
                }
            }
        }
        // Most kinds of event came up (hand roem, stuk and the boem need
        // rarer deals).
        assert!(told.len() >= 10, "{} kinds of event", told.len());
    }
}
