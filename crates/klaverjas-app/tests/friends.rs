//! Play with friends, headless: a desktop app hosts a table in its own
//! process (the table server on its thread, on a real socket), a second app
//! finds it on the network by its code alone and joins, and the two play a deal with two of the server's
//! bots, one of them losing its connection mid-trick and coming back.

mod common;

use bevy::prelude::*;
use common::{headless_app, temp_dir};
use klaverjas::{Action, Bid, Phase, Preset, Seat};
use klaverjas_ai::Level;
use klaverjas_app::cli::Options;
use klaverjas_app::friends::host;
use klaverjas_app::friends::sitting::{Connection, SealCheck, Sitting};
use klaverjas_app::seats::{HUMAN, PlayerAction, Seats, TableCommand};
use klaverjas_app::settings::Speed;
use klaverjas_app::show::Show;
use klaverjas_app::state::Screen;
use klaverjas_net::{Setup, ToTable};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn app(dir: &Path) -> App {
    headless_app(Options { data_dir: Some(dir.to_path_buf()), ..Options::default() }, Speed::Fast)
}

fn sitting(app: &App) -> &Sitting {
    app.world().resource::<Sitting>()
}

/// Runs both apps' frames, real time passing for the sockets, until
/// `stop` holds.
fn run_until(apps: &mut [&mut App], what: &str, mut stop: impl FnMut(&mut [&mut App]) -> bool) {
    for _ in 0..30_000 {
        if stop(apps) {
            return;
        }
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("never reached: {what}");
}

/// Plays this app's turn with its first legal action, passing where it may;
/// goes on to the next deal when asked.
fn play_a_turn(app: &mut App) {
    let Some(seats) = app.world().get_resource::<Seats>() else { return };
    let show = app.world().resource::<Show>();
    let now = app.world().resource::<Time>().elapsed_secs();
    if seats.remote().is_none_or(|r| r.waiting) || seats.waiting_for(show.stage(now)) != Some(HUMAN) {
        return;
    }
    let legal = seats.game().legal_actions();
    let pass = Action::Bid(Bid::Pass);
    let action = if legal.contains(&pass) { pass } else { legal[0] };
    app.world_mut().write_message(PlayerAction { seat: HUMAN, action });
}

#[test]
fn a_desktop_hosts_a_second_app_joins_and_a_cut_connection_comes_back_mid_trick() {
    let (host_dir, guest_dir) = (temp_dir("friends-host"), temp_dir("friends-guest"));
    let mut host_app = app(&host_dir);
    let mut guest_app = app(&guest_dir);
    let hosting = host::start(&host_dir, Vec::new()).expect("this computer hosts a table");
    let setup = Setup {
        preset: Preset::Classic,
        set: "match=deals:2".into(),
        bots: Level::Heuristic,
        grace: Some(30),
        hints: false,
        late: true,
    };
    let wake = || -> klaverjas_app::friends::socket::Wake { Arc::new(|| {}) };
    host_app.insert_resource(Sitting::host(hosting.own_server(), "Ann".into(), setup, wake()));
    run_until(&mut [&mut host_app], "the table's code", |apps| sitting(apps[0]).code.is_some());
    let code = sitting(&host_app).code.unwrap();
    // The guest has the code alone: the network says where the table is.
    let finding = host::Finding::start(code, "Bea".into(), || {});
    let mut found = None;
    for _ in 0..400 {
        found = finding.found();
        if found.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let server = found.flatten().expect("the host's table server answers for its table on the network");
    assert!(server.ends_with(&format!(":{}/ws", hosting.port)), "{server}");
    guest_app.insert_resource(Sitting::join(server, code, "Bea".into(), wake()));
    run_until(&mut [&mut host_app, &mut guest_app], "both seated", |apps| {
        sitting(apps[0]).chairs.iter().filter(|c| c.name.is_some()).count() == 2 && sitting(apps[1]).seat.is_some()
    });
    assert!(sitting(&host_app).is_host() && !sitting(&guest_app).is_host());
    // The host moves into the guest's chair: both are told where they sit
    // now, and the host still hosts.
    let (ann, bea) = (sitting(&host_app).seat.unwrap(), sitting(&guest_app).seat.unwrap());
    sitting(&host_app).send(&ToTable::Swap { from: ann, to: bea });
    run_until(&mut [&mut host_app, &mut guest_app], "the chairs swapped", |apps| {
        sitting(apps[0]).seat == Some(bea) && sitting(apps[1]).seat == Some(ann)
    });
    run_until(&mut [&mut host_app, &mut guest_app], "the host still hosting", |apps| sitting(apps[0]).is_host());
    // Both wait in the waiting room, where the start takes them to the table.
    for app in [&mut host_app, &mut guest_app] {
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Friends);
        app.update();
    }
    sitting(&host_app).send(&ToTable::Start);
    run_until(&mut [&mut host_app, &mut guest_app], "both at the table", |apps| {
        apps.iter().all(|a| {
            a.world().get_resource::<Seats>().is_some_and(|s| s.remote().is_some())
                && *a.world().resource::<State<Screen>>().get() == Screen::Table
        })
    });
    // Each chair has one name on every device: a person's, or its bot's
    // by the table's own compass, whichever way each device turns the
    // table. The two bots are told apart.
    let names = |app: &App| {
        let people = app.world().resource::<Seats>().remote().unwrap().told.people.clone();
        let t = &app.world().resource::<klaverjas_app::state::Texts>().0;
        let mut by_chair = std::collections::BTreeMap::new();
        for seat in Seat::ALL.into_iter().filter(|&s| s != HUMAN) {
            let chair = people[seat.index()].chair.expect("the chair's place at the table");
            by_chair.insert(chair.index(), klaverjas_app::words::seat_called(t, seat, Some(&people)));
        }
        by_chair
    };
    run_until(&mut [&mut host_app, &mut guest_app], "the people told", |apps| {
        apps.iter().all(|a| a.world().resource::<Seats>().remote().unwrap().told.people[1].chair.is_some())
    });
    let (host_names, guest_names) = (names(&host_app), names(&guest_app));
    for (chair, name) in &host_names {
        if let Some(other) = guest_names.get(chair) {
            assert_eq!(name, other, "chair {chair} has two names");
        }
    }
    let bots: std::collections::BTreeSet<&String> = host_names.values().filter(|n| n.starts_with("Bot ")).collect();
    assert_eq!(bots.len(), 2, "the bots are told apart: {host_names:?}");
    // Each app's hand is its chair's, turned to South.
    for app in [&host_app, &guest_app] {
        let s = sitting(app);
        let view = s.stand_in.as_ref().unwrap().game().unwrap().view(s.seat.unwrap());
        assert_eq!(app.world().resource::<Seats>().game().hand(Seat::South), view.hand);
    }
    let mut cut = false;
    run_until(&mut [&mut host_app, &mut guest_app], "the first deal played out", |apps| {
        for app in apps.iter_mut() {
            play_a_turn(app);
        }
        // Mid-trick, the guest's network goes away, and comes back.
        let game = apps[1].world().resource::<Seats>().game().clone();
        // Several of the table's actions may come in one frame: any moment
        // from the third trick on with a card or more down is mid-trick.
        let mid_trick = game.current_trick().is_some_and(|t| (1..4).contains(&t.len()));
        if !cut && game.phase() == Phase::Playing && game.tricks().len() >= 2 && mid_trick {
            let now = apps[1].world().resource::<Time<Real>>().elapsed_secs();
            apps[1].world_mut().resource_mut::<Sitting>().cut(now);
            assert!(matches!(sitting(apps[1]).connection, Connection::Reconnecting { .. }));
            cut = true;
        }
        apps.iter().all(|a| a.world().resource::<Seats>().game().result().is_some() && sitting(a).opened.len() == 1)
    });
    assert!(cut, "the connection was cut mid-trick");
    for app in [&host_app, &guest_app] {
        let s = sitting(app);
        assert_eq!(s.connection, Connection::Open);
        assert_eq!(s.opened[0].check, SealCheck::Holds, "the deal's code matches its seal");
        // The review's deal is the real one: the code the table opened,
        // turned so that this seat is South.
        let m = &app.world().resource::<Seats>().m;
        let real = klaverjas::Deal::from_code(&s.opened[0].code).unwrap().seen_from(s.seat.unwrap());
        assert_eq!(*m.finished_deal(1).unwrap().deal(), real);
    }
    // Both ask for the next deal; the table deals it.
    for app in [&mut host_app, &mut guest_app] {
        app.world_mut().write_message(TableCommand::NextDeal);
    }
    run_until(&mut [&mut host_app, &mut guest_app], "the second deal", |apps| {
        apps.iter().all(|a| a.world().resource::<Seats>().m.deal_number() == 2)
    });
}

/// A table that stops answering (a connection half open: the phone moved
/// to another network and nothing said so) is reached again once a card
/// goes unanswered for `ANSWER_S`, with the chair's token. The table here
/// is a WebSocket server that takes connections and never says a word.
#[test]
fn a_card_the_table_never_answers_opens_the_connection_again() {
    use klaverjas_app::friends::sitting::{ANSWER_S, Chairkeeper};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let server = format!("ws://{}/ws", listener.local_addr().unwrap());
    let (accepted, connections) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().take(2) {
            held.push(tungstenite::accept(stream.unwrap()).unwrap());
            let _ = accepted.send(());
        }
        std::thread::sleep(Duration::from_secs(30));
    });
    let kept = Chairkeeper { server, code: "K2ERA6".parse().unwrap(), token: "00".repeat(16) };
    let wake: klaverjas_app::friends::socket::Wake = Arc::new(|| {});
    let mut sitting = Sitting::rejoin(&kept, wake.clone());
    let opened = std::time::Instant::now();
    while sitting.connection != Connection::Open {
        assert!(opened.elapsed() < Duration::from_secs(10), "{:?}", sitting.connection);
        sitting.poll(0.0, wake.clone());
        std::thread::sleep(Duration::from_millis(5));
    }
    connections.recv_timeout(Duration::from_secs(5)).unwrap();
    let card = ToTable::Act { action: Action::Bid(Bid::Pass) };
    sitting.ask(&card, 1.0);
    sitting.poll(1.0 + ANSWER_S - 0.5, wake.clone());
    assert_eq!(sitting.connection, Connection::Open, "still within the time to answer");
    sitting.poll(1.0 + ANSWER_S + 0.1, wake.clone());
    assert!(matches!(sitting.connection, Connection::Reconnecting { .. }), "{:?}", sitting.connection);
    // The retry opens a new connection to the same table.
    sitting.poll(1.0 + ANSWER_S + 3.0, wake.clone());
    connections.recv_timeout(Duration::from_secs(5)).expect("a second connection");
}
