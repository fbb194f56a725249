//! Club evenings at the server as a process: an evening of nine players
//! checked in over WebSockets, its rounds drawn, started and entered by
//! the tables' phones, refused where a seat has no say, a SIGKILL right
//! after an entry was accepted, and the standings worked out again from
//! what was entered; an online round's tables played by their chairs.

mod common;

use common::{Dir, Server, get};
use klaverjas::{EnteredDeal, Preset, Rng, Seat, score_entered};
use klaverjas_club::{Cards, EveningAction, EveningSetup, Leftover, Who};
use klaverjas_net::evening::{EVENING_PROTOCOL, EveningView, FromEvening, ToEvening};
use klaverjas_net::{Refusal, TableCode};
use std::collections::HashMap;
use std::net::TcpStream;
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

struct Phone {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    view: Option<EveningView>,
}

impl Phone {
    fn open(addr: &str, first: &ToEvening) -> Phone {
        let (ws, _) = tungstenite::connect(format!("ws://{addr}/evening")).expect("connects");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        }
        let mut phone = Phone { ws, view: None };
        phone.send(first);
        phone
    }

    fn send(&mut self, m: &ToEvening) {
        self.ws.send(Message::text(serde_json::to_string(m).unwrap())).unwrap();
    }

    fn recv(&mut self) -> Option<FromEvening> {
        loop {
            match self.ws.read() {
                Ok(Message::Text(text)) => {
                    let m: FromEvening = serde_json::from_str(&text).expect("the server speaks the protocol");
                    if let FromEvening::Evening { view } = &m {
                        self.view = Some((**view).clone());
                    }
                    return Some(m);
                }
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    /// In: who, and the token given.
    fn welcome(&mut self) -> Result<(TableCode, Who, Option<String>), (Refusal, String)> {
        match self.recv().expect("an answer") {
            FromEvening::Welcome { code, you, token, .. } => {
                self.recv();
                Ok((code, you, token))
            }
            FromEvening::Refused { why, message } => Err((why, message)),
            other => panic!("{other:?}"),
        }
    }

    /// Acts; the refusal, if it was refused.
    fn act(&mut self, action: EveningAction) -> Result<(), (Refusal, String)> {
        self.send(&ToEvening::Act { action });
        loop {
            match self.recv().expect("an answer") {
                FromEvening::Accepted { .. } => {
                    // The evening as it stands after it comes next.
                    while !matches!(self.recv(), Some(FromEvening::Evening { .. }) | None) {}
                    return Ok(());
                }
                FromEvening::Refused { why, message } => return Err((why, message)),
                _ => {}
            }
        }
    }

    /// The evening as it stands once it has caught up.
    fn fresh_view(addr: &str, code: TableCode) -> EveningView {
        let mut p = Phone::open(addr, &ToEvening::Watch { protocol: EVENING_PROTOCOL, code });
        p.welcome().unwrap();
        p.view.unwrap()
    }
}

fn deal(rng: &mut Rng) -> EnteredDeal {
    let seat = ["N", "E", "S", "W"][rng.below(4) as usize];
    let suit = ["C", "D", "H", "S"][rng.below(4) as usize];
    format!("{seat} {suit} {} roem {}/{}", rng.below(163), 20 * rng.below(3), 20 * rng.below(2)).parse().unwrap()
}

#[test]
fn an_evening_of_nine_at_real_cards_survives_a_sigkill_and_adds_up() {
    let dir = Dir::new("evening");
    let mut server = Server::start(&dir.0, 5);
    let setup =
        EveningSetup { rounds: 2, deals: 2, ..EveningSetup::club_evening("Dinsdag", Preset::Classic, Cards::Real) };
    let mut organiser =
        Phone::open(&server.addr, &ToEvening::Organise { protocol: EVENING_PROTOCOL, setup, club_token: None });
    let (code, who, organiser_token) = organiser.welcome().unwrap();
    assert_eq!(who, Who::Organiser);
    let organiser_token = organiser_token.unwrap();
    let mut tokens = Vec::new();
    for name in ["Anne", "Bas", "Cor", "Dirk", "Els", "Fem", "Gert", "Hans", "Ina"] {
        let mut p =
            Phone::open(&server.addr, &ToEvening::CheckIn { protocol: EVENING_PROTOCOL, code, name: name.into() });
        let (_, who, token) = p.welcome().unwrap();
        assert_eq!(who, Who::Player(tokens.len() as u16));
        tokens.push(token.unwrap());
    }
    // The same name twice, a name that turns text, a wrong token, an
    // action before coming in: each refused in words.
    let mut again =
        Phone::open(&server.addr, &ToEvening::CheckIn { protocol: EVENING_PROTOCOL, code, name: "anne".into() });
    assert_eq!(again.welcome().unwrap_err().0, Refusal::BadName);
    let mut turned = Phone::open(
        &server.addr,
        &ToEvening::CheckIn { protocol: EVENING_PROTOCOL, code, name: "A\u{202E}nne".into() },
    );
    assert_eq!(turned.welcome().unwrap_err().0, Refusal::BadName);
    let mut wrong =
        Phone::open(&server.addr, &ToEvening::Return { protocol: EVENING_PROTOCOL, code, token: "00".repeat(16) });
    assert_eq!(wrong.welcome().unwrap_err().0, Refusal::BadToken);
    let mut early = Phone::open(&server.addr, &ToEvening::Act { action: EveningAction::Draw });
    assert_eq!(early.welcome().unwrap_err().0, Refusal::NotSeated);

    let back = |server: &Server, token: &str| {
        let mut p =
            Phone::open(&server.addr, &ToEvening::Return { protocol: EVENING_PROTOCOL, code, token: token.into() });
        p.welcome().unwrap();
        p
    };
    let mut rng = Rng::new(11);
    let mut entered: Vec<(u8, u16, EnteredDeal)> = Vec::new();
    let mut draws = Vec::new();
    for round in 0..2u8 {
        // A player may not draw; a watcher may not either.
        let mut anne = back(&server, &tokens[0]);
        assert_eq!(anne.act(EveningAction::Draw).unwrap_err().0, Refusal::NotHost);
        let mut watcher = Phone::open(&server.addr, &ToEvening::Watch { protocol: EVENING_PROTOCOL, code });
        watcher.welcome().unwrap();
        assert_eq!(watcher.act(EveningAction::Draw).unwrap_err().0, Refusal::NotHost);
        organiser.act(EveningAction::Draw).unwrap();
        organiser.act(EveningAction::Start).unwrap();
        let draw = organiser.view.clone().unwrap().draw.unwrap();
        assert_eq!(draw.sitting_out.len(), 1);
        draws.push(draw.clone());
        for (t, table) in draw.tables.iter().enumerate() {
            let t = t as u16;
            let keeper = table.chairs[Seat::North.index()].unwrap();
            let outsider = draw.tables[1 - usize::from(t)].chairs[0].unwrap();
            let mut phone = back(&server, &tokens[usize::from(keeper)]);
            let mut other = back(&server, &tokens[usize::from(outsider)]);
            let d = deal(&mut rng);
            assert_eq!(other.act(EveningAction::Enter { table: t, deal: d }).unwrap_err().0, Refusal::NotSeated);
            let mut out = back(&server, &tokens[usize::from(draw.sitting_out[0])]);
            assert_eq!(out.act(EveningAction::Enter { table: t, deal: d }).unwrap_err().0, Refusal::NotSeated);
            for _ in 0..2 {
                let d = deal(&mut rng);
                phone.act(EveningAction::Enter { table: t, deal: d }).unwrap();
                entered.push((round, t, d));
            }
            // The other pair's phone sees the sheet and disputes a line.
            let mut east = back(&server, &tokens[usize::from(table.chairs[Seat::East.index()].unwrap())]);
            let sheet = &east.view.as_ref().unwrap().sheets;
            assert_eq!((sheet.len(), sheet[0].1, sheet[0].2.entered.len()), (1, t, 2));
            east.act(EveningAction::Dispute { round, table: t, line: 1 }).unwrap();
        }
        // Right after an entry is accepted, the server is killed: the
        // entry was on disk before the phone heard of it.
        let fixed = deal(&mut rng);
        organiser.act(EveningAction::Correct { round, table: 0, line: 1, deal: fixed }).unwrap();
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        let i = entered.iter().rposition(|(r, t, _)| *r == round && *t == 0).unwrap();
        entered[i].2 = fixed;
        server = Server::with(&dir.0, 5, &["--port", server.addr.rsplit(':').next().unwrap()]);
        organiser = back(&server, &organiser_token);
        let view = organiser.view.clone().unwrap();
        let notes = &view.sheets[0].2.notes[1];
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert_eq!(view.sheets[0].2.entered[1], fixed);
    }
    let view = Phone::fresh_view(&server.addr, code);
    assert!(view.over);

    // The standings again, from what was entered: each deal scored by the
    // engine on its own, its points to the four who sat at the table, a
    // round's sitter the round's average.
    let rules = EveningSetup { rounds: 2, deals: 2, ..EveningSetup::club_evening("x", Preset::Classic, Cards::Real) }
        .rules()
        .unwrap();
    let mut points: HashMap<u16, u32> = HashMap::new();
    for (round, draw) in draws.iter().enumerate() {
        let mut of_round: HashMap<u16, u32> = HashMap::new();
        for (_, t, d) in entered.iter().filter(|(r, ..)| usize::from(*r) == round) {
            let result = score_entered(&rules, d).unwrap();
            for seat in Seat::ALL {
                let p = draw.tables[usize::from(*t)].chairs[seat.index()].unwrap();
                *of_round.entry(p).or_default() +=
                    u32::from(result.sheet_points[seat.team()] + result.sheet_roem[seat.team()]);
            }
        }
        let average = (of_round.values().sum::<u32>() + 4) / 8;
        for p in &draw.sitting_out {
            of_round.insert(*p, average);
        }
        for (p, v) in of_round {
            *points.entry(p).or_default() += v;
        }
    }
    for row in &view.standings {
        assert_eq!(row.points, points[&row.player], "{}", row.name);
    }
    // The pages say the same.
    let (status, csv) = get(&server.addr, &format!("/e/{code}/standings.csv"));
    assert!(status.contains("200"), "{status}");
    let first = &view.standings[0];
    assert!(csv.contains(&format!("1,{},{},", first.name, first.points)), "{csv}");
    let (status, page) = get(&server.addr, &format!("/e/{code}"));
    assert!(status.contains("200") && page.contains("Dinsdag") && page.contains("standings.json"), "{status}");
    let (status, _) = get(&server.addr, "/e/AAAAAA/standings.csv");
    assert!(status.contains("404"), "{status}");
}

#[test]
fn an_online_round_is_played_at_the_servers_tables() {
    let dir = Dir::new("evening-online");
    let server = Server::start(&dir.0, 9);
    let setup = EveningSetup {
        rounds: 1,
        deals: 8,
        leftover: Leftover::Bots,
        ..EveningSetup::club_evening("Online", Preset::Classic, Cards::Online)
    };
    let mut organiser =
        Phone::open(&server.addr, &ToEvening::Organise { protocol: EVENING_PROTOCOL, setup, club_token: None });
    let (code, _, _) = organiser.welcome().unwrap();
    let mut tokens = Vec::new();
    for name in ["A", "B"] {
        let mut p =
            Phone::open(&server.addr, &ToEvening::CheckIn { protocol: EVENING_PROTOCOL, code, name: name.into() });
        tokens.push(p.welcome().unwrap().2.unwrap());
    }
    organiser.act(EveningAction::Draw).unwrap();
    // Nobody may say an online table played: only the server's table does.
    organiser.act(EveningAction::Start).unwrap();
    let view = organiser.view.clone().unwrap();
    assert_eq!(view.online.len(), 1);
    assert!(view.online[0].is_some(), "the table is open: {view:?}");
    let result = score_entered(&klaverjas::Preset::Classic.rules(), &"N H 100".parse().unwrap()).unwrap();
    let refused = organiser.act(EveningAction::Played { round: 0, table: 0, line: 0, result }).unwrap_err();
    assert_eq!(refused.0, Refusal::NotSeated);
    // Each player takes their chair with their evening token and plays
    // the table's eight deals beside two bots; the evening hears each.
    let table = view.online[0].unwrap();
    let players: Vec<_> = tokens
        .into_iter()
        .map(|token| {
            let addr = server.addr.clone();
            std::thread::spawn(move || {
                let mut c = common::Client::connect(&addr);
                c.send(&klaverjas_net::ToTable::Rejoin { protocol: klaverjas_net::PROTOCOL, code: table, token });
                let mut bot = klaverjas_ai::Level::Random.bot(1);
                let mut step = 0;
                while let Some(m) = c.recv() {
                    if !common::respond(&mut c, &m, &mut bot, &mut step) {
                        return;
                    }
                }
                panic!("the table closed before the match was over");
            })
        })
        .collect();
    for p in players {
        p.join().unwrap();
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let view = Phone::fresh_view(&server.addr, code);
        if view.over {
            assert_eq!(view.progress, [8]);
            assert!(view.standings.iter().all(|r| r.deals == 8), "{:?}", view.standings);
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the evening did not hear the table's deals: {:?}",
            view.progress
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A desktop without the link finds an evening on the home network by its
/// code alone, as it finds a table.
#[test]
fn an_evening_is_found_on_the_network_by_its_code() {
    let dir = Dir::new("evening-lan");
    let port = std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let server = Server::with(&dir.0, 5, &["--lan-port", &port.to_string()]);
    let setup = EveningSetup::club_evening("Lan", Preset::Classic, Cards::Real);
    let mut organiser =
        Phone::open(&server.addr, &ToEvening::Organise { protocol: EVENING_PROTOCOL, setup, club_token: None });
    let (code, ..) = organiser.welcome().unwrap();
    let found = klaverjas_server::lan::find(code, port, Duration::from_secs(5)).unwrap();
    assert_eq!(found.map(|a| a.to_string()), Some(server.addr.clone()));
}
