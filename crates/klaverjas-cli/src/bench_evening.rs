//! `kj bench evening`: a club evening's load. Hundreds of players check in
//! over WebSocket and stay connected as their phones would; one round
//! is drawn and started; every table's phone enters its deals, all tables
//! at once, deal after deal. Measured: the round trip of an entry (sent
//! to accepted, on disk) and how long the standings take to reach a
//! phone that watches them after a wave of entries.

use crate::Failure;
use crate::args::Args;
use klaverjas::{Preset, Rng};
use klaverjas_club::{Cards, EveningAction, EveningSetup, Who};
use klaverjas_net::TableCode;
use klaverjas_net::evening::{EVENING_PROTOCOL, EveningView, FromEvening, ToEvening};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::bench_table::{Socket, next, send};

pub fn bench_evening(args: &Args) -> Result<(), Failure> {
    let server = crate::evening::evening_url(args.req("server")?)?;
    let players = args.at_least_one("players", 200)? as usize;
    let deals = args.number("deals", 16)?.clamp(1, 16) as u8;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Rule(format!("no runtime: {e}")))?;
    let (trips, updates, tables, views) = runtime.block_on(run(&server, players, deals)).map_err(Failure::Rule)?;
    let at = |v: &[u64], q: f64| v[((v.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0;
    let summary = json!({
        "players": players, "tables": tables, "entries": trips.len(),
        "entry_round_trip_ms": { "median": at(&trips, 0.5), "p99": at(&trips, 0.99), "max": at(&trips, 1.0) },
        "standings_update_ms": { "median": at(&updates, 0.5), "p99": at(&updates, 0.99), "max": at(&updates, 1.0) },
        "views_sent": views,
    });
    if args.flag("json") {
        println!("{summary}");
    } else {
        println!(
            "{players} players at {tables} tables, {} entries: an entry's round trip median {:.1} ms, p99 {:.1} ms; \
             the standings at a watching phone after a wave of {tables} entries median {:.1} ms, p99 {:.1} ms; {views} views sent to the players' phones",
            trips.len(),
            at(&trips, 0.5),
            at(&trips, 0.99),
            at(&updates, 0.5),
            at(&updates, 0.99)
        );
    }
    Ok(())
}

async fn connect(server: &str) -> Result<Socket, String> {
    tokio_tungstenite::connect_async_with_config(server, None, true).await.map(|(ws, _)| ws).map_err(|e| e.to_string())
}

/// Who came in: the evening's code, the place, the token given.
type Welcome = (TableCode, Who, Option<String>);

/// In with `first`: the socket, who came in, the evening.
async fn enter(server: &str, first: ToEvening) -> Result<(Socket, Welcome, EveningView), String> {
    let mut ws = connect(server).await?;
    send(&mut ws, &first).await?;
    let welcome = match next(&mut ws).await? {
        FromEvening::Welcome { code, you, token, .. } => (code, you, token),
        FromEvening::Refused { message, .. } => return Err(message),
        other => return Err(format!("{other:?}")),
    };
    match next(&mut ws).await? {
        FromEvening::Evening { view } => Ok((ws, welcome, *view)),
        other => Err(format!("{other:?}")),
    }
}

/// Acts and waits for the acceptance; the evening after it.
async fn act(ws: &mut Socket, action: EveningAction) -> Result<EveningView, String> {
    send(ws, &ToEvening::Act { action }).await?;
    loop {
        match next(ws).await? {
            FromEvening::Accepted { .. } => break,
            FromEvening::Refused { message, .. } => return Err(message),
            _ => {}
        }
    }
    loop {
        if let FromEvening::Evening { view } = next(ws).await? {
            return Ok(*view);
        }
    }
}

async fn run(server: &str, players: usize, deals: u8) -> Result<(Vec<u64>, Vec<u64>, usize, u64), String> {
    let setup = EveningSetup { rounds: 1, deals, ..EveningSetup::club_evening("Bench", Preset::Classic, Cards::Real) };
    let organise = ToEvening::Organise { protocol: EVENING_PROTOCOL, setup, club_token: None };
    let (mut organiser, (code, ..), _) = enter(server, organise).await?;
    // Everyone checks in, fifty at a time, and stays: each phone counts
    // the views it is sent.
    let views = Arc::new(AtomicU64::new(0));
    let mut tokens = vec![String::new(); players];
    for chunk in (0..players).collect::<Vec<_>>().chunks(50) {
        let joined = futures_util::future::join_all(chunk.iter().map(|i| {
            enter(server, ToEvening::CheckIn { protocol: EVENING_PROTOCOL, code, name: format!("Player {}", i + 1) })
        }))
        .await;
        for j in joined {
            let (mut ws, (_, who, token), _) = j?;
            if let (Who::Player(p), Some(token)) = (who, token) {
                tokens[usize::from(p)] = token;
            }
            let views = views.clone();
            tokio::spawn(async move {
                while let Ok(m) = next(&mut ws).await {
                    if matches!(m, FromEvening::Evening { .. }) {
                        views.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    }
    act(&mut organiser, EveningAction::Draw).await?;
    let view = act(&mut organiser, EveningAction::Start).await?;
    let draw = view.draw.ok_or("no draw")?;
    // The projector: it sees the entries' count grow.
    let (mut watcher, ..) = enter(server, ToEvening::Watch { protocol: EVENING_PROTOCOL, code }).await?;
    let seen = Arc::new(tokio::sync::watch::channel((0u64, Instant::now())).0);
    let seen_tx = seen.clone();
    tokio::spawn(async move {
        while let Ok(m) = next(&mut watcher).await {
            if let FromEvening::Evening { view } = m {
                let total = view.progress.iter().map(|p| u64::from(*p)).sum();
                seen_tx.send_replace((total, Instant::now()));
            }
        }
    });
    let mut keepers = Vec::new();
    for table in &draw.tables {
        let keeper = table.chairs[0].ok_or("a bot at a table of real cards")?;
        let token = tokens[usize::from(keeper)].clone();
        let (ws, ..) = enter(server, ToEvening::Return { protocol: EVENING_PROTOCOL, code, token }).await?;
        keepers.push(ws);
    }
    let tables = keepers.len();
    let mut rng = Rng::new(7);
    let mut trips = Vec::new();
    let mut updates = Vec::new();
    for wave in 0..u64::from(deals) {
        let lines: Vec<klaverjas::EnteredDeal> = (0..tables)
            .map(|_| format!("N H {} roem {}/0", rng.below(163), 20 * rng.below(3)).parse().expect("a deal"))
            .collect();
        let sent = Instant::now();
        let entered = futures_util::future::join_all(keepers.iter_mut().enumerate().map(|(t, ws)| {
            let deal = lines[t];
            async move {
                let start = Instant::now();
                send(ws, &ToEvening::Act { action: EveningAction::Enter { table: t as u16, deal } }).await?;
                loop {
                    match next(ws).await? {
                        FromEvening::Accepted { .. } => return Ok::<u64, String>(start.elapsed().as_micros() as u64),
                        FromEvening::Refused { message, .. } => return Err(message),
                        _ => {}
                    }
                }
            }
        }))
        .await;
        for e in entered {
            trips.push(e?);
        }
        let target = (wave + 1) * tables as u64;
        let mut rx = seen.subscribe();
        let at = tokio::time::timeout(Duration::from_secs(30), rx.wait_for(|(n, _)| *n >= target))
            .await
            .map_err(|_| "the standings never caught up")?
            .map_err(|e| e.to_string())?
            .1;
        updates.push(at.duration_since(sent).as_micros() as u64);
    }
    trips.sort_unstable();
    updates.sort_unstable();
    Ok((trips, updates, tables, views.load(Ordering::Relaxed)))
}
