//! The table server as a process on 127.0.0.1 with a random port, its
//! database on disk, and players over real WebSockets.

use klaverjas::{Game, Match, Preset, Seat};
use klaverjas_ai::Level;
use klaverjas_net::check::{cards_named, visible};
use klaverjas_net::{FromTable, PROTOCOL, Refusal, TableCode, ToTable};
use klaverjas_server::store::{Step, Store};
use klaverjas_server::table::apply;
use std::path::Path;
use std::time::{Duration, Instant};
use tungstenite::Message;
use tungstenite::stream::MaybeTlsStream;

mod common;
use common::*;

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

/// A person whose client comes back by itself: on a lost connection it
/// rejoins with its token wherever the server now listens. Its choices
/// follow from its seat and the step, so a step it must send again is the
/// same step.
fn stubborn_player(
    addr: std::sync::Arc<std::sync::Mutex<String>>,
    code: TableCode,
    token: String,
    seat: Seat,
    mut c: Client,
) -> (Seat, u64, Vec<String>) {
    let mut told = 0u64;
    let mut regressions = Vec::new();
    let mut back = false;
    loop {
        match c.recv() {
            Some(FromTable::Table { view, step, .. }) => {
                if back && step < told {
                    regressions.push(format!("{seat:?} saw step {told}, then {step} after coming back"));
                }
                back = false;
                told = told.max(step);
                if !view.legal.is_empty() && view.to_act == Some(seat) {
                    std::thread::sleep(Duration::from_millis(20));
                    let action = Level::Random.bot(step ^ (seat.index() as u64) << 32).decide(&view).action;
                    let _ = c.ws.send(Message::text(serde_json::to_string(&ToTable::Act { action }).unwrap()));
                }
            }
            Some(FromTable::Opened { .. }) => {
                let _ = c.ws.send(Message::text(serde_json::to_string(&ToTable::Ready).unwrap()));
            }
            Some(FromTable::MatchOver { .. }) => return (seat, told, regressions),
            Some(FromTable::Refused { why, message }) => {
                // An action sent again after a restart that took it the first
                // time is refused as out of turn: nothing changed.
                assert_eq!(why, Refusal::Rules, "{message}");
            }
            Some(_) => {}
            None => {
                // Come back: wherever the server listens now.
                let deadline = Instant::now() + Duration::from_secs(30);
                loop {
                    assert!(Instant::now() < deadline, "{seat:?} could not come back");
                    std::thread::sleep(Duration::from_millis(30));
                    let at = addr.lock().unwrap().clone();
                    let Ok((ws, _)) = tungstenite::connect(format!("ws://{at}/ws")) else { continue };
                    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
                        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
                    }
                    c.ws = ws;
                    c.send(&ToTable::Rejoin { protocol: PROTOCOL, code, token: token.clone() });
                    back = true;
                    break;
                }
            }
        }
    }
}

/// Four people play a classic match of `deals` deals at a server seeded
/// `seed`; `kills` times at random moments the server is killed with
/// SIGKILL and started again on the same data. Returns the steps on disk.
fn match_through_kills(name: &str, seed: u64, deals: u16, kills: usize) -> Vec<Step> {
    let dir = Dir::new(name);
    let mut server = Server::start(&dir.0, seed);
    let addr = std::sync::Arc::new(std::sync::Mutex::new(server.addr.clone()));
    let (host, code, host_token) = Client::host(&server.addr, "Anna", setup(Preset::Classic, deals, None));
    let mut people = vec![(Seat::South, host_token, host)];
    for name in ["Bram", "Cato", "Daan"] {
        let (c, seat, token) = Client::join(&server.addr, code, name);
        people.push((seat, token, c));
    }
    people[0].2.send(&ToTable::Start);
    let threads: Vec<_> = people
        .into_iter()
        .map(|(seat, token, c)| {
            let addr = addr.clone();
            std::thread::spawn(move || stubborn_player(addr, code, token, seat, c))
        })
        .collect();
    let mut random = klaverjas::Rng::new(seed);
    for _ in 0..kills {
        std::thread::sleep(Duration::from_millis(40 + random.below(300) as u64));
        assert!(threads.iter().any(|t| !t.is_finished()), "the match ended before every kill");
        server.kill();
        server = Server::start(&dir.0, seed);
        *addr.lock().unwrap() = server.addr.clone();
    }
    let mut told = 0;
    for t in threads {
        let (seat, last, regressions) = t.join().unwrap();
        assert!(regressions.is_empty(), "{seat:?}: {regressions:?}");
        told = told.max(last);
    }
    server.kill();
    let stored = Store::open(&dir.0).unwrap().load().unwrap().into_iter().find(|t| t.code == code).unwrap();
    assert!(stored.steps.len() as u64 >= told, "a step the players were told of is lost");
    let mut game = Match::new(stored.header.setup.rules().unwrap(), stored.header.seed, Seat::North);
    for step in &stored.steps {
        apply(&mut game, *step).unwrap();
    }
    assert!(game.is_over(), "the match on disk is over");
    stored.steps
}

#[test]
fn a_server_killed_twenty_times_loses_nothing_and_plays_the_same_match() {
    let without = match_through_kills("unkilled", 21, 6, 0);
    let through = match_through_kills("killed", 21, 6, 20);
    assert_eq!(through, without, "the match played through kills is the match without them");
}

/// A friend who comes once the match has begun takes a bot's chair, where
/// the host lets them: seated there, the table waits for them at their
/// turn (the bot plays it no more), and everyone is told the chair's new
/// name. Where the host keeps the bots, the refusal says so once.
#[test]
fn a_late_friend_takes_a_bots_chair_when_the_host_lets_them() {
    let dir = Dir::new("late");
    let server = Server::start(&dir.0, 4);
    for late in [false, true] {
        let setup = klaverjas_net::Setup { late, ..setup(Preset::Classic, 2, None) };
        let (mut host, code, _) = Client::host(&server.addr, "Anna", setup);
        host.send(&ToTable::Start);
        host.until(|m| matches!(m, FromTable::Table { .. }).then_some(()));
        let mut late_friend = Client::connect(&server.addr);
        late_friend.send(&ToTable::Join { protocol: PROTOCOL, code, name: "Cas".into() });
        let first = loop {
            match late_friend.recv().expect("an answer") {
                FromTable::Seated { seat, .. } => break Ok(seat),
                FromTable::Refused { why, message } => break Err((why, message)),
                _ => {}
            }
        };
        if !late {
            let (why, message) = first.expect_err("seated against the host's choice");
            assert_eq!(why, Refusal::NotNow);
            assert!(message.contains("keeps its bots"), "{message}");
            continue;
        }
        let seat = first.expect("a bot's chair");
        assert_ne!(seat, Seat::South, "the host's chair");
        // The chairs name Cas, and the host hears it; the host plays on.
        host.until(|m| match m {
            FromTable::Chairs { chairs, .. } => {
                chairs.iter().any(|c| c.seat == seat && c.name.as_deref() == Some("Cas")).then_some(())
            }
            _ => None,
        });
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let over = done.clone();
        let host_plays = std::thread::spawn(move || {
            let (mut bot, mut step) = (Level::Random.bot(5), 0);
            // The view the waits above read past may be the host's turn.
            if let Some(m) = host.got.iter().rev().find(|m| matches!(m, FromTable::Table { .. })).cloned() {
                respond(&mut host, &m, &mut bot, &mut step);
            }
            while !over.load(std::sync::atomic::Ordering::Relaxed) {
                if let Some(m) = host.recv_within(Duration::from_millis(100)) {
                    respond(&mut host, &m, &mut bot, &mut step);
                }
            }
        });
        // At Cas's turn the table waits: no step comes while Cas thinks.
        let at = late_friend.until(|m| match m {
            FromTable::Table { view, step, .. } if view.to_act == Some(seat) => Some(*step),
            _ => None,
        });
        let waited = Instant::now();
        while waited.elapsed() < Duration::from_millis(600) {
            if let Some(FromTable::Table { step, .. }) = late_friend.recv_within(Duration::from_millis(100)) {
                assert!(step <= at, "a bot played Cas's chair");
            }
        }
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        host_plays.join().unwrap();
    }
}

/// A guest who leaves the waiting room frees the chair (it showed their
/// name until the match began, a ghost in the host's waiting room); once
/// the match has begun, leaving is refused and the chair stays theirs.
#[test]
fn a_guest_who_leaves_the_waiting_room_frees_the_chair() {
    let dir = Dir::new("leave");
    let server = Server::start(&dir.0, 6);
    let (mut host, code, _) = Client::host(&server.addr, "Anna", setup(Preset::Classic, 2, None));
    let named = |chairs: &[klaverjas_net::Chair], name: &str| chairs.iter().any(|c| c.name.as_deref() == Some(name));
    let (mut bea, _, _) = Client::join(&server.addr, code, "Bea");
    host.until(|m| matches!(m, FromTable::Chairs { chairs, .. } if named(chairs, "Bea")).then_some(()));
    bea.send(&ToTable::Leave);
    host.until(|m| matches!(m, FromTable::Chairs { chairs, .. } if !named(chairs, "Bea")).then_some(()));
    let refusal = |c: &mut Client| loop {
        match c.recv().expect("the connection stays open") {
            FromTable::Refused { why, message } => break (why, message),
            _ => continue,
        }
    };
    // The host cannot leave so: the table is theirs.
    host.send(&ToTable::Leave);
    assert_eq!(refusal(&mut host).0, Refusal::NotNow);
    // Once the match has begun, a guest's chair stays theirs.
    let (mut cas, seat, _) = Client::join(&server.addr, code, "Cas");
    host.send(&ToTable::Start);
    cas.until(|m| matches!(m, FromTable::Table { .. }).then_some(()));
    cas.send(&ToTable::Leave);
    let (why, message) = refusal(&mut cas);
    assert_eq!(why, Refusal::NotNow, "{message}");
    let mut again = Client::connect(&server.addr);
    again.send(&ToTable::Join { protocol: PROTOCOL, code, name: "Dee".into() });
    let seated = again.until(|m| match m {
        FromTable::Seated { seat, .. } => Some(Some(*seat)),
        FromTable::Refused { .. } => Some(None),
        _ => None,
    });
    assert_ne!(seated, Some(seat), "Cas's chair was given away");
}

#[test]
fn a_dropped_player_gets_the_chair_back_and_a_bot_plays_meanwhile() {
    let dir = Dir::new("dropped");
    let server = Server::start(&dir.0, 3);
    let (mut host, code, _) = Client::host(&server.addr, "Anna", setup(Preset::Classic, 4, Some(1)));
    let (mut bram, seat, token) = Client::join(&server.addr, code, "Bram");
    host.send(&ToTable::Start);
    // Bram plays until the trick holds a card, then his phone sleeps.
    let mut bot = Level::Random.bot(1);
    let mut host_bot = Level::Random.bot(2);
    let host_thread = std::thread::spawn(move || {
        let mut step = 0;
        while let Some(m) = host.recv() {
            // The host thinks a moment, so that the match outlasts the test.
            std::thread::sleep(Duration::from_millis(100));
            if !respond(&mut host, &m, &mut host_bot, &mut step) {
                break;
            }
        }
        host.got
    });
    let mut step = 0;
    let dropped_at = loop {
        let m = bram.recv().unwrap();
        if let FromTable::Table { view, step: at, .. } = &m
            && !view.trick.is_empty()
            && view.to_act != Some(seat)
        {
            break *at;
        }
        respond(&mut bram, &m, &mut bot, &mut step);
    };
    drop(bram);
    // The bot plays his chair after the grace: wait until it has.
    std::thread::sleep(Duration::from_millis(2500));
    let mut bram = Client::connect(&server.addr);
    bram.send(&ToTable::Rejoin { protocol: PROTOCOL, code, token: token.clone() });
    let back = bram.until(|m| match m {
        FromTable::Seated { seat, token: None, .. } => Some(*seat),
        _ => None,
    });
    assert_eq!(back, seat, "the token gives the same chair");
    let (view, at) = bram.until(|m| match m {
        FromTable::Table { view, step, .. } => Some((view.clone(), *step)),
        _ => None,
    });
    assert!(at > dropped_at, "the table went on while he was away");
    assert_eq!(view.seat, seat);
    let hand_and_played = view.hand.len() as usize + view.plays().filter(|(s, _)| *s == seat).count();
    assert_eq!(hand_and_played, 8, "his hand is back, with what he and his bot played");
    // He plays on; at his turn he thinks longer than the grace, and the
    // table waits for him, not for a bot: his card is the step.
    let mut pending =
        Some(FromTable::Table { step: at, deal: 0, view: view.clone(), happened: Vec::new(), sheet: None });
    let (turn, chosen) = loop {
        let m = pending.take().or_else(|| bram.recv()).expect("the table stays open");
        if let FromTable::Table { view, step, .. } = &m
            && view.to_act == Some(seat)
            && !view.legal.is_empty()
        {
            std::thread::sleep(Duration::from_millis(1500));
            let action = bot.decide(view).action;
            bram.send(&ToTable::Act { action });
            break (*step, action);
        }
        if let FromTable::Opened { .. } = m {
            bram.send(&ToTable::Ready);
        }
    };
    bram.until(|m| match m {
        FromTable::Table { step, .. } if *step > turn => Some(()),
        _ => None,
    });
    drop(bram);
    server.kill();
    let _ = host_thread.join();
    let steps = Store::open(&dir.0).unwrap().load().unwrap().into_iter().find(|t| t.code == code).unwrap().steps;
    let is_his = |s: &Step| matches!(s, Step::Act { seat: by, .. } if *by == seat);
    assert!(steps[dropped_at as usize..at as usize].iter().any(is_his), "a bot played his chair while he was away");
    assert_eq!(steps[turn as usize], Step::Act { seat, action: chosen }, "back, he plays his own chair");
}

/// A random JSON value a few levels deep.
fn random_json(r: &mut klaverjas::Rng, depth: u32) -> serde_json::Value {
    use serde_json::Value;
    let words = [
        "type", "act", "action", "Play", "JH", "join", "code", "protocol", "name", "start", "swap", "North", "",
        "ready",
    ];
    match r.below(if depth == 0 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => Value::Bool(r.below(2) == 0),
        2 => Value::from(r.next_u64() as i64 >> r.below(60)),
        3 => Value::from(words[r.below(words.len() as u32) as usize]),
        4 => Value::from(f64::from(r.below(1000)) / 7.0),
        5 => Value::Array((0..r.below(4)).map(|_| random_json(r, depth - 1)).collect()),
        _ => Value::Object(
            (0..r.below(4))
                .map(|_| (words[r.below(words.len() as u32) as usize].to_owned(), random_json(r, depth - 1)))
                .collect(),
        ),
    }
}

/// A message that looks like the protocol's but is wrong for this seat,
/// this moment or this protocol.
fn almost_a_message(r: &mut klaverjas::Rng, code: TableCode) -> String {
    let card = format!(
        "{}{}",
        ["7", "8", "9", "10", "J", "Q", "K", "A", "X"][r.below(9) as usize],
        ["H", "S", "D", "C", "Z"][r.below(5) as usize]
    );
    let seat = ["North", "East", "South", "West", "Middle"][r.below(5) as usize];
    match r.below(10) {
        0 => format!(r#"{{"type":"act","action":{{"Play":"{card}"}}}}"#),
        1 => r#"{"type":"act","action":{"Bid":"Pass"}}"#.to_owned(),
        2 => format!(r#"{{"type":"swap","from":"{seat}","to":"North"}}"#),
        3 => r#"{"type":"start"}"#.to_owned(),
        4 => r#"{"type":"ready"}"#.to_owned(),
        5 => r#"{"type":"rematch"}"#.to_owned(),
        6 => format!(r#"{{"type":"join","protocol":{},"code":"{code}","name":"Eve"}}"#, PROTOCOL + 1 + r.below(3)),
        7 => r#"{"type":"call_roem"}"#.to_owned(),
        8 => format!(r#"{{"type":"shuffle","by":"{seat}"}}"#),
        _ => format!(r#"{{"type":"rejoin","protocol":{PROTOCOL},"code":"{code}","token":"{}"}}"#, r.next_u64()),
    }
}

#[test]
fn random_bytes_and_wrong_messages_get_errors_and_change_nothing() {
    let dir = Dir::new("fuzz");
    let mut server = Server::with(&dir.0, 9, &["--rate", "100000"]);
    let (mut host, code, _) = Client::host(&server.addr, "Anna", setup(Preset::Classic, 2, Some(30)));
    let (mut eve, _, _) = Client::join(&server.addr, code, "Eve");
    eve.until(|m| matches!(m, FromTable::Chairs { .. }).then_some(()));
    let before = Store::open(&dir.0).err().map(|e| e.to_string());
    assert!(before.is_some(), "the running server holds its database");
    let mut r = klaverjas::Rng::new(42);
    let mut refused = std::collections::HashMap::<String, usize>::new();
    for i in 0..3000 {
        let text = match i % 3 {
            0 => String::from_utf8_lossy(&(0..r.below(200)).map(|_| r.below(256) as u8).collect::<Vec<u8>>())
                .into_owned(),
            1 => random_json(&mut r, 3).to_string(),
            _ => almost_a_message(&mut r, code),
        };
        if i % 50 == 0 {
            eve.ws.send(Message::binary(text.clone().into_bytes())).unwrap();
        } else {
            eve.ws.send(Message::text(text.clone())).unwrap();
        }
        match eve.recv() {
            Some(FromTable::Refused { why, .. }) => *refused.entry(format!("{why:?}")).or_default() += 1,
            other => panic!("{text:?} was answered {other:?}"),
        }
    }
    assert!(refused.len() >= 4, "refused for too few reasons: {refused:?}");
    // The same for connections whose first message is wrong: each gets
    // its reason and is closed.
    for i in 0..300 {
        let mut c = Client::connect(&server.addr);
        let text = if i % 2 == 0 { random_json(&mut r, 3).to_string() } else { almost_a_message(&mut r, code) };
        c.ws.send(Message::text(text.clone())).unwrap();
        match c.recv() {
            Some(FromTable::Refused { .. }) => assert!(c.recv().is_none(), "{text:?}: the connection is closed"),
            other => panic!("{text:?} was answered {other:?}"),
        }
    }
    // The server lives, and the table is as it was: not started, two
    // people, no step.
    assert!(server.child.try_wait().unwrap().is_none(), "the server is alive");
    host.send(&ToTable::Swap { from: Seat::South, to: Seat::North });
    let chairs = host.until(|m| match m {
        FromTable::Chairs { chairs, started: false } if chairs[0].name.is_some() => Some(chairs.clone()),
        _ => None,
    });
    let names: Vec<_> = chairs.iter().map(|c| c.name.as_deref()).collect();
    assert_eq!(names, [Some("Anna"), None, None, Some("Eve")], "the host's swap, and nobody else's change");
    host.send(&ToTable::Shuffle);
    let shuffled = host.until(|m| match m {
        FromTable::Chairs { chairs, started: false } => Some(chairs.clone()),
        _ => None,
    });
    let mut seated: Vec<_> = shuffled.iter().filter_map(|c| Some((c.name.clone()?, c.seat))).collect();
    seated.sort();
    assert_eq!(seated.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["Anna", "Eve"], "the same two, reseated");
    assert_ne!(seated[0].1, seated[1].1, "in two chairs");
    server.kill();
    server = Server::start(&dir.0, 9);
    drop(server);
    let stored = Store::open(&dir.0).unwrap().load().unwrap().into_iter().find(|t| t.code == code).unwrap();
    assert!(stored.steps.is_empty() && !stored.header.started);
    let mut on_disk: Vec<_> = stored.header.chairs.iter().map(|p| (p.name.clone(), p.seat)).collect();
    on_disk.sort();
    assert_eq!(on_disk, seated, "the chairs as shuffled are the chairs on disk");
}

/// Without the web game, a table's link still answers a person: how to
/// join that table from the app, not an empty 404.
#[test]
fn a_tables_link_without_the_web_game_says_how_to_join() {
    let dir = Dir::new("no-site");
    let server = Server::start(&dir.0, 1);
    let whole = ask_whole(&server.addr, "/t/k7m2qz");
    assert!(whole.starts_with("HTTP/1.1 404"), "{whole}");
    assert!(whole.to_ascii_lowercase().contains("content-type: text/html"), "{whole}");
    assert!(whole.contains("table <b>K7M2QZ</b>") && whole.contains("join with the code"), "{whole}");
}

#[test]
fn the_site_is_served_at_the_root_and_at_a_tables_link() {
    let dir = Dir::new("site");
    let site = dir.0.join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<title>Klaverjas</title>").unwrap();
    std::fs::write(site.join("klaverjas.js"), "// the game").unwrap();
    let server = Server::with(&dir.0.join("data"), 1, &["--site", site.to_str().unwrap()]);
    let (status, body) = get(&server.addr, "/");
    assert!(status.contains("200") && body.contains("Klaverjas"), "{status}");
    // A table's link opens the game's page at the root, at that table.
    let (status, _) = get(&server.addr, "/t/k7m2qz");
    assert!(status.contains("303"), "{status}");
    let whole = ask_whole(&server.addr, "/t/K7M2QZ");
    assert!(whole.to_ascii_lowercase().contains("\r\nlocation: /?join=k7m2qz\r\n"), "{whole}");
    let whole = ask_whole(&server.addr, "/t/K7M2QZ?targets");
    assert!(whole.to_ascii_lowercase().contains("\r\nlocation: /?join=k7m2qz&targets\r\n"), "{whole}");
    let (status, body) = get(&server.addr, "/t/K7M0QZ");
    assert!(status.contains("404") && body.contains("'0'"), "a code with a 0 is no table's: {status} {body}");
    let (_, body) = get(&server.addr, "/klaverjas.js");
    assert_eq!(body, "// the game");
    // The build's compressed copy goes to a browser that takes it, with
    // the type of the file it stands for; the plain file to one that does not.
    std::fs::write(site.join("klaverjas.js.br"), "brotli's bytes").unwrap();
    let asked = |encodings: &str| {
        let addr = &server.addr;
        answer(
            addr,
            &format!(
                "GET /klaverjas.js HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: {encodings}\r\nConnection: close\r\n\r\n"
            ),
        )
    };
    let whole = asked("gzip, deflate, br").to_ascii_lowercase();
    assert!(whole.contains("\r\ncontent-encoding: br\r\n") && whole.contains("text/javascript"), "{whole}");
    assert!(whole.ends_with("brotli's bytes"), "{whole}");
    assert!(asked("gzip").ends_with("// the game"), "no gzip copy: the plain file");
    assert!(get(&server.addr, "/nothing-here").0.contains("404"));
    // The table's address opened as a page says what it is.
    let (status, body) = get(&server.addr, "/ws");
    assert!(status.contains("400") && body.contains("ws://"), "{status}: {body}");
    // A WebSocket of another version is told which one is spoken (426).
    let old = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 8\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nConnection: close\r\n\r\n",
        server.addr
    );
    let (status, body) = ask(&server.addr, &old);
    assert!(status.contains("426") && body.contains("13"), "{status}: {body}");
}

#[test]
fn a_match_over_is_played_again_when_the_host_asks() {
    let dir = Dir::new("rematch");
    let server = Server::start(&dir.0, 4);
    let (mut host, _, _) = Client::host(&server.addr, "Anna", setup(Preset::Rotterdam, 1, Some(30)));
    host.send(&ToTable::Start);
    let mut bot = Level::Random.bot(5);
    let mut step = 0;
    while let Some(m) = host.recv() {
        if !respond(&mut host, &m, &mut bot, &mut step) {
            break;
        }
    }
    let first = host.got.iter().find_map(|m| match m {
        FromTable::Sealed { deal: 1, seal } => Some(seal.clone()),
        _ => None,
    });
    let mut joiner = Client::connect(&server.addr);
    joiner.send(&ToTable::Rematch);
    assert!(matches!(joiner.recv(), Some(FromTable::Refused { why: Refusal::NotSeated, .. })), "only from a chair");
    host.send(&ToTable::Rematch);
    let (deal, seal) = host.until(|m| match m {
        FromTable::Sealed { deal, seal } => Some((*deal, seal.clone())),
        _ => None,
    });
    assert_eq!(deal, 1, "a new match begins at its first deal");
    let (view, at) = host.until(|m| match m {
        FromTable::Table { view, step, .. } => Some((view.clone(), *step)),
        _ => None,
    });
    assert!(at > step, "the rematch is a step of the table's record");
    assert_eq!(view.tricks.len(), 0);
    assert_ne!(Some(seal), first, "new cards: the rematch has a seed of its own");
}

/// A table found by its code alone on the network: the server answers the
/// UDP question for its own tables only, and a stray datagram changes
/// nothing.
#[test]
fn a_table_is_found_on_the_network_by_its_code_alone() {
    let dir = Dir::new("lan");
    let port = std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let server = Server::with(&dir.0, 5, &["--lan-port", &port.to_string()]);
    let (_host, code, _) = Client::host(&server.addr, "Ann", setup(Preset::Classic, 1, None));
    let stray = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    stray.send_to(b"klaverjas where is \xff", ("127.0.0.1", port)).unwrap();
    let found = klaverjas_server::lan::find(code, port, Duration::from_secs(5)).unwrap();
    assert_eq!(found.map(|a| a.to_string()), Some(server.addr.clone()));
    let other: TableCode = if code.to_string() == "HNXQ3T" { "K2ERA6" } else { "HNXQ3T" }.parse().unwrap();
    let asked = Instant::now();
    assert_eq!(klaverjas_server::lan::find(other, port, Duration::from_millis(800)).unwrap(), None);
    assert!(asked.elapsed() < Duration::from_secs(2), "{:?}", asked.elapsed());
    server.kill();
}

/// A phone that left the network without closing (its connection half
/// open: nothing answers the pings) is away after three silent pings, and
/// the others are told; one that answers stays.
#[test]
fn a_silent_connection_is_away_after_three_pings_and_an_answering_one_stays() {
    let dir = Dir::new("silent");
    let server = Server::with(&dir.0, 9, &["--ping", "1"]);
    let (mut host, code, _) = Client::host(&server.addr, "Anna", setup(Preset::Classic, 1, None));
    // Bram is seated, then reads nothing more: no pong goes back.
    let (bram, seat, _) = Client::join(&server.addr, code, "Bram");
    let since = Instant::now();
    let chairs = host.until(|m| match m {
        FromTable::Chairs { chairs, .. } if chairs.iter().any(|c| c.seat == seat && c.gone) => Some(chairs.clone()),
        _ => None,
    });
    let after = since.elapsed();
    assert!(after >= Duration::from_secs(2) && after < Duration::from_secs(8), "away after {after:?}");
    // Anna read all along, so her pongs went back: she is still here.
    assert!(chairs.iter().any(|c| c.name.as_deref() == Some("Anna") && !c.gone), "{chairs:?}");
    drop(bram);
    server.kill();
}
