//! `kj table` at a real table server (in this process, its database on
//! disk), through a relay that drops every connection mid-match, as a
//! phone's network or a restarted proxy does: kj comes back to its chair
//! with its token and plays the match to its end, every seal holding.

use std::io::{BufRead, BufReader};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Passes connections on to `to`; [`Relay::cut`] ends every one so far.
struct Relay {
    addr: SocketAddr,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Relay {
    fn to(to: SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let open = Arc::new(Mutex::new(Vec::new()));
        let kept = open.clone();
        std::thread::spawn(move || {
            for client in listener.incoming().map_while(Result::ok) {
                let Ok(server) = TcpStream::connect(to) else { continue };
                kept.lock().unwrap().extend([client.try_clone().unwrap(), server.try_clone().unwrap()]);
                for (mut from, mut into) in
                    [(client.try_clone().unwrap(), server.try_clone().unwrap()), (server, client)]
                {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut into);
                        let _ = into.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Relay { addr, open }
    }

    fn cut(&self) {
        for s in self.open.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

#[test]
fn kj_comes_back_to_its_chair_when_the_connection_drops() {
    let data = std::env::temp_dir().join(format!("kj-table-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let config = klaverjas_server::Config {
        data: data.clone(),
        site: None,
        limits: klaverjas_server::Limits::default(),
        seed: Some(5),
        lan: None,
        trusted_proxies: Vec::new(),
        proxy_header: Default::default(),
        allow_origins: Vec::new(),
    };
    let server = klaverjas_server::serve_in_background("127.0.0.1:0".parse().unwrap(), config).unwrap();
    let relay = Relay::to(server);
    let url = format!("ws://{}/ws", relay.addr);
    let mut kj = Command::new(env!("CARGO_BIN_EXE_kj"))
        .args(["table", "new", "--server", &url, "--set", "match=deals:2", "--bots", "heuristic"])
        .args(["--as", "heuristic", "--start"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = BufReader::new(kj.stdout.take().unwrap()).lines().map_while(Result::ok);
    let started = Instant::now();
    let (mut cuts, mut heard) = (0, Vec::new());
    for line in lines {
        assert!(started.elapsed() < Duration::from_secs(120), "kj never finished: {heard:#?}");
        // Twice: in the first deal's play and again once back.
        if line.contains(" plays ") && (cuts == 0 || (cuts == 1 && line_count(&heard, "back at table") == 1)) {
            relay.cut();
            cuts += 1;
        }
        heard.push(line);
    }
    let status = kj.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut kj.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "kj: {err}\n{heard:#?}");
    assert_eq!(cuts, 2);
    assert_eq!(line_count(&heard, "coming back to table"), 2, "{heard:#?}");
    assert_eq!(line_count(&heard, "back at table"), 2, "{heard:#?}");
    assert!(line_count(&heard, "the seal holds") >= 2, "{heard:#?}");
    assert!(heard.last().is_some_and(|l| l.starts_with("the match is over")), "{heard:#?}");
    let _ = std::fs::remove_dir_all(&data);
}

fn line_count(lines: &[String], part: &str) -> usize {
    lines.iter().filter(|l| l.contains(part)).count()
}
