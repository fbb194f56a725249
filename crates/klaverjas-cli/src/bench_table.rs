//! `kj bench table`: a table server's load. Many tables at once, four
//! random bots at each as clients of their own over WebSocket, each
//! acting after a pause (a person's pace): how many tables the server
//! holds, the actions a second it takes, the round trip of an action (from
//! sending it to hearing the table's next state), and the server's memory
//! a table (from /proc when its process id is given).

use crate::Failure;
use crate::args::Args;
use futures_util::{SinkExt, StreamExt};
use klaverjas::Preset;
use klaverjas_ai::Level;
use klaverjas_net::{FromTable, PROTOCOL, Setup, TableCode, ToTable};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

/// What the clients measured.
#[derive(Default)]
struct Tally {
    round_trips_us: Vec<u64>,
    refused: u64,
    failed: Vec<String>,
}

pub fn bench_table(args: &Args) -> Result<(), Failure> {
    let server = crate::table::server_url(args)?;
    let tables = args.at_least_one("tables", 100)? as usize;
    let seconds = args.at_least_one("seconds", 20)?;
    let think = Duration::from_millis(args.number("think", 1000)?);
    let pid =
        args.opt("pid").map(|p| p.parse::<u32>().map_err(|_| format!("--pid: not a process id: '{p}'"))).transpose()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Rule(format!("no runtime: {e}")))?;
    let before = pid.and_then(resident_kb);
    let tally = Arc::new(Mutex::new(Tally::default()));
    let acted = Arc::new(AtomicU64::new(0));
    let measuring = Arc::new(AtomicBool::new(false));
    let (seated, held, elapsed) = runtime
        .block_on(async {
            let start = Instant::now();
            let mut sat = Vec::new();
            // Tables are set a few at a time, as people would arrive.
            for chunk in (0..tables).collect::<Vec<_>>().chunks(50) {
                let set = chunk.iter().map(|&i| seat_table(server.clone(), i as u64));
                for table in futures_util::future::join_all(set).await {
                    match table {
                        Ok(clients) => sat.push(clients),
                        Err(e) => tally.lock().await.failed.push(e),
                    }
                }
            }
            let seated = start.elapsed();
            let held = sat.len();
            if held == 0 {
                return Err(tally.lock().await.failed.first().cloned().unwrap_or_default());
            }
            for (i, clients) in sat.into_iter().enumerate() {
                for (n, client) in clients.into_iter().enumerate() {
                    let (tally, acted, measuring) = (tally.clone(), acted.clone(), measuring.clone());
                    tokio::spawn(play(client, n == 0, (i * 4 + n) as u64, think, tally, acted, measuring));
                }
            }
            // A moment for every table to reach its pace, then the measure.
            tokio::time::sleep(think * 3).await;
            measuring.store(true, Ordering::Relaxed);
            let from = acted.load(Ordering::Relaxed);
            let begun = Instant::now();
            tokio::time::sleep(Duration::from_secs(seconds)).await;
            let count = acted.load(Ordering::Relaxed) - from;
            measuring.store(false, Ordering::Relaxed);
            Ok((seated, held, (begun.elapsed(), count)))
        })
        .map_err(|e| Failure::Rule(format!("no table could be seated at {server}: {e}")))?;
    let after = pid.and_then(resident_kb);
    let tally = runtime.block_on(async { std::mem::take(&mut *tally.lock().await) });
    let mut rtt = tally.round_trips_us;
    rtt.sort_unstable();
    let at = |q: f64| rtt.get(((rtt.len().max(1) - 1) as f64 * q) as usize).copied().unwrap_or(0) as f64 / 1000.0;
    let rate = elapsed.1 as f64 / elapsed.0.as_secs_f64();
    let per_table = match (before, after) {
        (Some(b), Some(a)) if held > 0 => Some((a.saturating_sub(b)) as f64 / held as f64),
        _ => None,
    };
    let memory = per_table.map_or(String::new(), |kb| format!(", server memory {kb:.1} kB a table"));
    let failed = tally
        .failed
        .first()
        .map_or(String::new(), |e| format!("; {} tables not seated (first: {e})", tally.failed.len()));
    crate::output(
        args,
        json!({
            "tables": tables, "held": held, "seated_seconds": seated.as_secs_f64(),
            "actions_per_sec": rate.round(), "round_trip_ms": { "median": at(0.5), "p99": at(0.99), "max": at(1.0) },
            "samples": rtt.len(), "refused": tally.refused, "server_kb_per_table": per_table,
            "not_seated": tally.failed.len(),
        }),
        format!(
            "{held} of {tables} tables held (seated in {:.1} s), {rate:.0} actions/s, round trip median {:.1} ms, p99 {:.1} ms ({} actions){memory}{failed}",
            seated.as_secs_f64(),
            at(0.5),
            at(0.99),
            rtt.len()
        ),
    );
    Ok(())
}

pub(crate) type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A message as JSON text (a table's or an evening's).
pub(crate) async fn send(ws: &mut Socket, message: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string(message).map_err(|e| e.to_string())?;
    ws.send(Message::text(text)).await.map_err(|e| e.to_string())
}

/// The next text message, read as `T`.
pub(crate) async fn next<T: serde::de::DeserializeOwned>(ws: &mut Socket) -> Result<T, String> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(text))) => return serde_json::from_str(&text).map_err(|e| e.to_string()),
            Some(Ok(Message::Close(f))) => return Err(format!("the server closed the connection: {f:?}")),
            None => return Err("the server closed the connection".into()),
            Some(Err(e)) => return Err(e.to_string()),
            Some(Ok(_)) => {}
        }
    }
}

/// A table of four clients: the host makes it, three join.
async fn seat_table(server: String, n: u64) -> Result<Vec<Socket>, String> {
    let connect = || async {
        tokio_tungstenite::connect_async_with_config(server.as_str(), None, true)
            .await
            .map(|(ws, _)| ws)
            .map_err(|e| e.to_string())
    };
    let setup = Setup {
        preset: Preset::Classic,
        set: "match=deals:1000".into(),
        bots: Level::Random,
        grace: None,
        hints: false,
        late: false,
    };
    let mut host = connect().await?;
    send(&mut host, &ToTable::Host { protocol: PROTOCOL, name: format!("host{n}"), setup }).await?;
    let code: TableCode = loop {
        match next(&mut host).await? {
            FromTable::Seated { code, .. } => break code,
            FromTable::Refused { message, .. } => return Err(message),
            _ => {}
        }
    };
    let mut clients = vec![host];
    for i in 0..3 {
        let mut c = connect().await?;
        send(&mut c, &ToTable::Join { protocol: PROTOCOL, code, name: format!("p{n}-{i}") }).await?;
        loop {
            match next(&mut c).await? {
                FromTable::Seated { .. } => break,
                FromTable::Refused { message, .. } => return Err(message),
                _ => {}
            }
        }
        clients.push(c);
    }
    Ok(clients)
}

/// A client's life: the host starts the table; each acts at its turn
/// after a pause of about `think`, ready after each deal.
async fn play(
    mut ws: Socket,
    host: bool,
    seed: u64,
    think: Duration,
    tally: Arc<Mutex<Tally>>,
    acted: Arc<AtomicU64>,
    measuring: Arc<AtomicBool>,
) {
    let mut bot = Level::Random.bot(seed);
    // People do not act in step: each pause is drawn from half to one and
    // a half `think` (the mean stays `think`), and the host starts the
    // table after up to a whole `think`. With the same pause for everyone
    // and every table started at once, all tables acted in the same half
    // second of each second.
    let mut pace = klaverjas::Rng::new(seed ^ 0x7ab1e);
    if host {
        tokio::time::sleep(think.mul_f64(pace.below(1000) as f64 / 1000.0)).await;
        if send(&mut ws, &ToTable::Start).await.is_err() {
            return;
        }
    }
    let mut sent: Option<(u64, Instant)> = None;
    loop {
        let message = match next(&mut ws).await {
            Ok(m) => m,
            Err(_) => return,
        };
        match message {
            FromTable::Table { step, view, .. } => {
                if let Some((at, when)) = sent
                    && step > at
                {
                    sent = None;
                    acted.fetch_add(1, Ordering::Relaxed);
                    if measuring.load(Ordering::Relaxed) {
                        tally.lock().await.round_trips_us.push(when.elapsed().as_micros() as u64);
                    }
                }
                if view.to_act == Some(view.seat) && !view.legal.is_empty() {
                    let wait = think.mul_f64(0.5 + pace.below(1000) as f64 / 1000.0);
                    tokio::time::sleep(wait).await;
                    let action = bot.decide(&view).action;
                    sent = Some((step, Instant::now()));
                    if send(&mut ws, &ToTable::Act { action }).await.is_err() {
                        return;
                    }
                }
            }
            FromTable::Opened { .. } if send(&mut ws, &ToTable::Ready).await.is_err() => return,
            FromTable::Refused { .. } => tally.lock().await.refused += 1,
            FromTable::MatchOver { .. } => return,
            _ => {}
        }
    }
}

/// A process's resident memory in kB, from /proc.
fn resident_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}
