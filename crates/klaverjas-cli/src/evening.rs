//! `kj evening ...`: a club evening at a table server, one action a
//! command, for scripts and tests: the organiser's, a player's, or a
//! bot's chair at each round's online table.

use crate::Failure;
use crate::args::Args;
use klaverjas::Preset;
use klaverjas_club::{Cards, EveningAction, EveningSetup, Leftover, SitOutScore, Who};
use klaverjas_net::TableCode;
use klaverjas_net::evening::{EVENING_PROTOCOL, EveningView, FromEvening, ToEvening};
use std::net::TcpStream;
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

pub const USAGE: &str = "\
  kj evening new      --server URL --name NAME [--club CLUB [--club-token T]] [--rules PRESET] [--set OPTIONS]
                      [--rounds N] [--deals 16|12|8 (1 to 16)] [--cards online|real] [--leftover sit-out|bots]
                      [--sit-out average|POINTS] [--best N] [--no-roem]
                      (prints the evening's code, the organiser's token and the projector's page)
  kj evening check-in --server URL --code CODE --name NAME     (prints the player's number and token)
  kj evening show     --server URL --code CODE [--token T] [--json]
  kj evening add      ... --token T --name NAME     the organiser: a player without a phone
  kj evening remove   ... --token T --player N      the organiser: out of the draws to come
  kj evening draw     ... --token T                 the organiser: the next round, or again before it starts
  kj evening cards    ... --token T --table N --as online|real
  kj evening start    ... --token T                 the organiser: the round drawn begins
  kj evening enter    ... --token T --table N --deal 'S H 102 roem 20/0'   (as kj score --deals writes a deal)
  kj evening correct  ... --token T --round R --table N --line L --deal '...'
  kj evening dispute  ... --token T --round R --table N --line L
  kj evening play     ... --token T [--bot LEVEL]   a bot plays this player's online table each round
  (... is --server URL --code CODE; tables, rounds, lines and players count from 1)";

const VALUED: [&str; 23] = [
    "server",
    "name",
    "club",
    "club-token",
    "rules",
    "rounds",
    "deals",
    "cards",
    "leftover",
    "sit-out",
    "best",
    "code",
    "token",
    "player",
    "table",
    "as",
    "deal",
    "round",
    "line",
    "bot",
    "seed",
    "wait",
    "until",
];

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// A line out; a closed pipe (`| head`) is no reason to stop with a panic.
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

pub fn evening(rest: &[String]) -> Result<(), Failure> {
    let Some((sub, rest)) = rest.split_first() else {
        return Err(Failure::Usage(format!("kj evening needs what to do:\n{USAGE}")));
    };
    if sub == "--help" || sub == "help" || rest.iter().any(|a| a == "--help") {
        say!("{USAGE}");
        return Ok(());
    }
    let args = Args::parse(&format!("evening {sub}"), rest, &VALUED, &["json", "no-roem"])?;
    let server = evening_url(args.req("server")?)?;
    let one = |n: &str| -> Result<u16, Failure> {
        let v = args.number(n, 0)?;
        (1..=u64::from(u16::MAX))
            .contains(&v)
            .then(|| v as u16 - 1)
            .ok_or_else(|| Failure::Usage(format!("--{n}: a number from 1")))
    };
    let deal = || -> Result<klaverjas::EnteredDeal, Failure> {
        Ok(args.req("deal")?.parse().map_err(|e| format!("--deal: {e}"))?)
    };
    let action = match sub.as_str() {
        "new" => return new(&server, &args),
        "check-in" => return check_in(&server, &args),
        "show" => return show(&server, &args),
        "play" => return play(&server, &args),
        "add" => EveningAction::Add { name: args.req("name")?.to_owned() },
        "remove" => EveningAction::Remove { player: one("player")? },
        "draw" => EveningAction::Draw,
        "start" => EveningAction::Start,
        "cards" => EveningAction::TableCards { table: one("table")?, cards: cards(args.req("as")?)? },
        "enter" => EveningAction::Enter { table: one("table")?, deal: deal()? },
        "correct" => EveningAction::Correct {
            round: one("round")? as u8,
            table: one("table")?,
            line: one("line")?,
            deal: deal()?,
        },
        "dispute" => EveningAction::Dispute { round: one("round")? as u8, table: one("table")?, line: one("line")? },
        other => return Err(Failure::Usage(format!("unknown 'kj evening {other}':\n{USAGE}"))),
    };
    let (mut ws, _, view) = come_back(&server, &args)?;
    send(&mut ws, &ToEvening::Act { action })?;
    let mut view = view;
    loop {
        match receive(&mut ws)? {
            FromEvening::Accepted { .. } => break,
            FromEvening::Refused { message, .. } => return Err(Failure::Rule(message)),
            FromEvening::Evening { view: v } => view = *v,
            FromEvening::Welcome { .. } => {}
        }
    }
    // The evening as it stands after it.
    if let FromEvening::Evening { view: v } = receive(&mut ws)? {
        view = *v;
    }
    print_view(&view, args.flag("json"));
    Ok(())
}

fn cards(word: &str) -> Result<Cards, Failure> {
    match word {
        "online" => Ok(Cards::Online),
        "real" => Ok(Cards::Real),
        other => Err(Failure::Usage(format!("online or real, not '{other}'"))),
    }
}

/// `--server`: the table server's address; its evenings are at /evening.
pub fn evening_url(url: &str) -> Result<String, Failure> {
    let rest = url.strip_prefix("ws://").or_else(|| url.strip_prefix("wss://"));
    match rest {
        Some(host) if !host.is_empty() && !host.contains('/') => Ok(format!("{url}/evening")),
        Some(host) if !host.is_empty() && host.ends_with("/evening") => Ok(url.to_owned()),
        _ => Err(Failure::Usage(format!("--server: a table server's address is ws://HOST:PORT, not '{url}'"))),
    }
}

fn connect(server: &str) -> Result<Socket, Failure> {
    let (ws, _) = tungstenite::connect(server)
        .map_err(|e| Failure::Rule(format!("cannot reach the table server at {server}: {e}")))?;
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
    }
    Ok(ws)
}

fn send(ws: &mut Socket, message: &ToEvening) -> Result<(), Failure> {
    let text = serde_json::to_string(message).map_err(|e| Failure::Rule(e.to_string()))?;
    ws.send(Message::text(text)).map_err(|e| Failure::Rule(format!("the connection to the evening ended: {e}")))
}

fn receive(ws: &mut Socket) -> Result<FromEvening, Failure> {
    loop {
        match ws.read() {
            Ok(Message::Text(text)) => {
                return serde_json::from_str(&text)
                    .map_err(|e| Failure::Rule(format!("the server sent what kj cannot read: {e}")));
            }
            Ok(Message::Close(frame)) => {
                return Err(Failure::Rule(format!(
                    "the evening closed the connection{}",
                    frame.map(|f| format!(": {}", f.reason)).unwrap_or_default()
                )));
            }
            Ok(_) => {}
            Err(e) => return Err(Failure::Rule(format!("the connection to the evening ended: {e}"))),
        }
    }
}

/// In with `first`: who we are, the token where one is given, and the
/// evening as it stands.
/// Who a connection is let in as: the evening, the place and the token.
type Welcome = (TableCode, Who, Option<String>);

fn enter(server: &str, first: &ToEvening) -> Result<(Socket, Welcome, EveningView), Failure> {
    let mut ws = connect(server)?;
    send(&mut ws, first)?;
    let welcome = match receive(&mut ws)? {
        FromEvening::Welcome { code, you, token, .. } => (code, you, token),
        FromEvening::Refused { message, .. } => return Err(Failure::Rule(message)),
        other => return Err(Failure::Rule(format!("the server answered {other:?}"))),
    };
    match receive(&mut ws)? {
        FromEvening::Evening { view } => Ok((ws, welcome, *view)),
        FromEvening::Refused { message, .. } => Err(Failure::Rule(message)),
        other => Err(Failure::Rule(format!("the server answered {other:?}"))),
    }
}

fn code(args: &Args) -> Result<TableCode, Failure> {
    Ok(args.req("code")?.parse().map_err(|e| format!("--code: {e}"))?)
}

fn come_back(server: &str, args: &Args) -> Result<(Socket, Who, EveningView), Failure> {
    let first =
        ToEvening::Return { protocol: EVENING_PROTOCOL, code: code(args)?, token: args.req("token")?.to_owned() };
    let (ws, (_, who, _), view) = enter(server, &first)?;
    Ok((ws, who, view))
}

fn new(server: &str, args: &Args) -> Result<(), Failure> {
    let preset: Preset = args.parsed("rules")?.unwrap_or(Preset::Classic);
    let cards = cards(args.opt("cards").unwrap_or("real"))?;
    let mut setup = EveningSetup::club_evening(args.req("name")?, preset, cards);
    setup.club = args.opt("club").unwrap_or_default().to_owned();
    setup.set = args.opt("set").unwrap_or_default().to_owned();
    setup.rounds = args.number("rounds", 3)?.try_into().map_err(|_| "--rounds: 1 to 6".to_owned())?;
    setup.deals =
        args.number("deals", 16)?.try_into().map_err(|_| "--deals: 1 to 16 (clubs play 16, 12 or 8)".to_owned())?;
    setup.leftover = match args.opt("leftover").unwrap_or("sit-out") {
        "sit-out" => Leftover::SitOut,
        "bots" => Leftover::Bots,
        other => return Err(Failure::Usage(format!("--leftover: sit-out or bots, not '{other}'"))),
    };
    setup.sit_out = match args.opt("sit-out").unwrap_or("average") {
        "average" => SitOutScore::Average,
        n => SitOutScore::Fixed(n.parse().map_err(|_| format!("--sit-out: average or a number of points, not '{n}'"))?),
    };
    setup.best = args
        .opt("best")
        .map(|n| n.parse().map_err(|_| format!("--best: a number of evenings, not '{n}'")))
        .transpose()?;
    setup.roem_counts = !args.flag("no-roem");
    setup.rules().map_err(|e| Failure::Usage(e.to_string()))?;
    let club_token = args.opt("club-token").map(str::to_owned);
    let (_, (code, _, token), _) =
        enter(server, &ToEvening::Organise { protocol: EVENING_PROTOCOL, setup, club_token })?;
    let http = server.replacen("ws", "http", 1).trim_end_matches("/evening").to_owned();
    say!("code {code}");
    say!("token {}", token.unwrap_or_default());
    say!("projector {http}/e/{code}");
    Ok(())
}

fn check_in(server: &str, args: &Args) -> Result<(), Failure> {
    let first =
        ToEvening::CheckIn { protocol: EVENING_PROTOCOL, code: code(args)?, name: args.req("name")?.to_owned() };
    let (_, (_, who, token), _) = enter(server, &first)?;
    let Who::Player(p) = who else { return Err(Failure::Rule("checked in as no player".into())) };
    say!("player {}", p + 1);
    say!("token {}", token.unwrap_or_default());
    Ok(())
}

fn show(server: &str, args: &Args) -> Result<(), Failure> {
    let view = match args.opt("token") {
        Some(_) => come_back(server, args)?.2,
        None => enter(server, &ToEvening::Watch { protocol: EVENING_PROTOCOL, code: code(args)? })?.2,
    };
    print_view(&view, args.flag("json"));
    Ok(())
}

/// A bot in this player's chair at each round's online table, until the
/// evening is over; a round at real cards is waited out.
fn play(server: &str, args: &Args) -> Result<(), Failure> {
    let token = args.req("token")?.to_owned();
    let level = args.opt("bot").unwrap_or("heuristic").to_owned();
    let table_server = server.trim_end_matches("/evening").to_owned() + "/ws";
    let mut played: Vec<u8> = Vec::new();
    loop {
        // A server restarted: tried again for a while, as a phone would.
        let since = std::time::Instant::now();
        let (mut ws, who, mut view) = loop {
            match come_back(server, args) {
                Ok(back) => break back,
                Err(e) if since.elapsed() > Duration::from_secs(120) => return Err(e),
                Err(_) => std::thread::sleep(Duration::from_millis(500)),
            }
        };
        let Who::Player(me) = who else { return Err(Failure::Rule("the token is not a player's".into())) };
        loop {
            if view.over {
                say!("the evening is over");
                return Ok(());
            }
            let round = view.rounds.saturating_sub(1);
            let mine = view.draw.as_ref().and_then(|d| d.tables.iter().position(|t| t.seat_of(me).is_some()));
            let code = mine.and_then(|t| view.online.get(t).copied().flatten());
            if let (true, Some(code), false) = (view.started, code, played.contains(&round)) {
                say!("round {}: table {} ({code})", round + 1, mine.unwrap_or(0) + 1);
                drop(ws);
                let chair: Vec<String> =
                    ["play", "--server", &table_server, "--code", code.as_str(), "--token", &token, "--as", &level]
                        .map(String::from)
                        .into();
                crate::table::table(&chair)?;
                played.push(round);
                break;
            }
            match receive(&mut ws) {
                Ok(FromEvening::Evening { view: v }) => view = *v,
                Ok(_) => {}
                // A read timeout while nothing changes: connect again.
                Err(_) => break,
            }
        }
    }
}

fn print_view(view: &EveningView, json: bool) {
    if json {
        say!("{}", serde_json::to_string(view).unwrap_or_default());
        return;
    }
    let s = &view.setup;
    let name = |p: Option<u16>| {
        p.and_then(|p| view.players.get(usize::from(p))).map_or("a bot".to_owned(), |p| p.name.clone())
    };
    say!(
        "{} ({}, {} rounds of {} deals): {} players, {}",
        s.name,
        s.preset.name(),
        s.rounds,
        s.deals,
        view.players.iter().filter(|p| p.present).count(),
        match (view.rounds, view.started, view.over) {
            (_, _, true) => "over".to_owned(),
            (0, _, _) => "no round drawn yet".to_owned(),
            (n, false, _) => format!("round {n} drawn"),
            (n, true, _) if view.progress.iter().all(|p| *p >= u16::from(s.deals)) => format!("round {n} played"),
            (n, true, _) => format!("round {n} in play"),
        }
    );
    if let Some(draw) = &view.draw {
        for (t, table) in draw.tables.iter().enumerate() {
            let chairs: Vec<String> = klaverjas::Seat::ALL
                .iter()
                .map(|seat| format!("{} {}", seat.letter(), name(table.chairs[seat.index()])))
                .collect();
            let online = match view.online.get(t).copied().flatten() {
                Some(code) => format!(", online at {code}"),
                None => String::new(),
            };
            say!(
                "table {}: {}; {} deals first; {} of {} deals{online}",
                t + 1,
                chairs.join(", "),
                name(table.chairs[table.dealer.index()]),
                view.progress.get(t).copied().unwrap_or(0),
                s.deals
            );
        }
        if !draw.sitting_out.is_empty() {
            let out: Vec<String> = draw.sitting_out.iter().map(|p| name(Some(*p))).collect();
            say!("sitting out: {}", out.join(", "));
        }
    }
    for row in &view.standings {
        say!(
            "{:>3}. {} {} points ({} card points, {} roem), {} deals, {} marches, {} nats, sat out {}",
            row.place,
            row.name,
            row.points,
            row.card_points,
            row.roem,
            row.deals,
            row.marches,
            row.nats,
            row.sat_out
        );
    }
}
