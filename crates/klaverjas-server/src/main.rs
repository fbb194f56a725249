//! `klaverjas-server --port 7878 --data DIR [--site DIR] [--bind ADDR]`:
//! serves tables until stopped, and says where and how to join.

use klaverjas_server::{Config, Limits, home_addresses, run};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
klaverjas-server: a table for Klaverjas that friends join by a code

  --port PORT     where to listen (default 7878; 0: any free port)
  --data DIR      where the tables are kept (default ./klaverjas-tables)
  --site DIR      also serve the web build from DIR (at / and /t/CODE)
  --bind ADDR     the address to listen on (default 0.0.0.0: every
                  network of this computer, the home Wi-Fi included)
  --lan           answer on UDP port 7878 (of the --bind address) which
                  table this server has, so that a desktop on the same
                  network joins by the code alone (as a desktop game
                  hosting does)
  --lan-port PORT that question's port instead of 7878 (for tests)
  --seed S        the tables' deals follow from S (to repeat a run)
  --rate N        messages a connection may send a second (default 20)
  --per-address N connections, and live tables made, from one address
                  (an IPv4 address or an IPv6 /64; default 64; more for
                  a load test from one machine)
  --tables-per-address N
                  live tables one address may have made (default: as
                  --per-address)
  --free-guesses N
                  wrong codes or tokens an address may try before each
                  next one waits twice as long, up to a minute
                  (default 10)
  --max-connections N
                  connections open at once from everyone (default: what
                  the open-files limit allows, raised at start as far
                  as the system lets)
  --trusted-proxy ADDR
                  a reverse proxy (Caddy, nginx) whose Forwarded or
                  X-Forwarded-For header names the player's address;
                  repeat for each. Without it, everyone behind the
                  proxy is one address
  --proxy-header x-forwarded-for|forwarded
                  the one header those proxies write the player's
                  address in (default x-forwarded-for, as Caddy and
                  nginx do); the other is not read
  --allow-origin ORIGIN
                  a site besides this server's own whose pages may open
                  tables (https://example.org); repeatable
  --handshake S   seconds a connection has for its request's headers
                  (default 5)
  --max-steps N   steps one table may keep (default 20000)
  --max-db-mb N   the tables' database size past which nothing more is
                  written (default 1024; new tables stop at 90%)
  --keep S        seconds a table nobody uses is kept (default 86400)
  --ping S        seconds between pings to each player; one silent for
                  three of them is away (default 15)
  --help          this text

Refusals and limits reached are logged (one line a class every 10 s) and
counted at http://127.0.0.1:PORT/metrics (from this computer only).";

struct Args {
    port: u16,
    data: PathBuf,
    site: Option<PathBuf>,
    bind: IpAddr,
    seed: Option<u64>,
    rate: u32,
    per_address: usize,
    lan: Option<u16>,
    ping: u64,
    limits: Limits,
    tables: Option<usize>,
    proxies: Vec<IpAddr>,
    proxy_header: klaverjas_server::door::ProxyHeader,
    origins: Vec<String>,
}

/// A positive whole number, or the option's words.
fn count<T: std::str::FromStr + PartialOrd + Default>(option: &str, v: &str) -> Result<T, String> {
    v.parse().ok().filter(|n| *n > T::default()).ok_or_else(|| format!("{option}: not a count: '{v}'"))
}

fn parse(args: &[String]) -> Result<Option<Args>, String> {
    let mut a = Args {
        port: 7878,
        data: PathBuf::from("klaverjas-tables"),
        site: None,
        bind: Ipv4Addr::UNSPECIFIED.into(),
        seed: None,
        rate: Limits::default().per_second,
        per_address: Limits::default().connections_per_address,
        lan: None,
        ping: Limits::default().ping_s,
        limits: Limits::default(),
        tables: None,
        proxies: Vec::new(),
        proxy_header: Default::default(),
        origins: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--help" | "-h" => return Ok(None),
            "--port" => {
                let v = value()?;
                a.port = v.parse().map_err(|_| format!("--port: not a port: '{v}'"))?;
            }
            "--data" => a.data = PathBuf::from(value()?),
            "--lan" => a.lan = Some(a.lan.unwrap_or(klaverjas_net::lan::PORT)),
            "--lan-port" => {
                let v = value()?;
                a.lan =
                    Some(v.parse().ok().filter(|&p| p > 0).ok_or_else(|| format!("--lan-port: not a port: '{v}'"))?);
            }
            "--site" => {
                let site = PathBuf::from(value()?);
                if !site.join("index.html").is_file() {
                    return Err(format!("--site: no index.html in '{}'", site.display()));
                }
                a.site = Some(site);
            }
            "--bind" => {
                let v = value()?;
                a.bind = v.parse().map_err(|_| format!("--bind: not an address: '{v}'"))?;
            }
            "--seed" => {
                let v = value()?;
                a.seed = Some(v.parse().map_err(|_| format!("--seed: not a whole number: '{v}'"))?);
            }
            "--per-address" => {
                let v = value()?;
                a.per_address =
                    v.parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("--per-address: not a count: '{v}'"))?;
            }
            "--ping" => {
                let v = value()?;
                a.ping = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--ping: not a count of seconds: '{v}'"))?;
            }
            "--tables-per-address" => a.tables = Some(count(arg, &value()?)?),
            "--free-guesses" => a.limits.free_guesses = count(arg, &value()?)?,
            "--max-connections" => a.limits.connections = Some(count(arg, &value()?)?),
            "--handshake" => a.limits.handshake_s = count(arg, &value()?)?,
            "--max-steps" => a.limits.steps_per_table = count(arg, &value()?)?,
            "--max-db-mb" => a.limits.database_bytes = count::<u64>(arg, &value()?)?.saturating_mul(1 << 20),
            "--keep" => a.limits.kept_s = count(arg, &value()?)?,
            "--trusted-proxy" => {
                let v = value()?;
                a.proxies.push(v.parse().map_err(|_| format!("--trusted-proxy: not an address: '{v}'"))?);
            }
            "--proxy-header" => {
                use klaverjas_server::door::ProxyHeader;
                let v = value()?;
                a.proxy_header = match v.to_ascii_lowercase().as_str() {
                    "x-forwarded-for" => ProxyHeader::XForwardedFor,
                    "forwarded" => ProxyHeader::Forwarded,
                    _ => return Err(format!("--proxy-header: x-forwarded-for or forwarded, not '{v}'")),
                };
            }
            "--allow-origin" => {
                let v = value()?;
                if !v.contains("://") {
                    return Err(format!("--allow-origin: an origin is written https://host[:port], not '{v}'"));
                }
                a.origins.push(v.trim_end_matches('/').to_owned());
            }
            "--rate" => {
                let v = value()?;
                a.rate = v.parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("--rate: not a count: '{v}'"))?;
            }
            other => return Err(format!("unknown argument '{other}' (try --help)")),
        }
    }
    Ok(Some(a))
}

/// This computer's address on the network the default route leaves by
/// (no packet is sent: a UDP socket only picks its way out).
/// A line on stdout; a closed stdout (a pipe nobody reads) is no error.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

fn main() -> ExitCode {
    // Log lines on stderr, one a refusal class or limit at most every 10 s
    // (RUST_LOG chooses more or less).
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse(&args) {
        Ok(Some(a)) => a,
        Ok(None) => {
            say!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("klaverjas-server: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("klaverjas-server: {e}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port)).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("klaverjas-server: cannot listen on {}:{}: {e}", args.bind, args.port);
                return ExitCode::from(1);
            }
        };
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(args.port);
        let host = match args.bind {
            ip if ip.is_unspecified() => home_addresses().first().copied().unwrap_or(Ipv4Addr::LOCALHOST.into()),
            ip => ip,
        };
        say!("klaverjas-server: listening on {}:{port}, tables kept in {}", args.bind, args.data.display());
        say!("  players connect to ws://{host}:{port}/ws");
        say!("  host a table:  kj table new --server ws://{host}:{port}/ws");
        say!("  join one:      kj table join --server ws://{host}:{port}/ws --code CODE");
        if args.site.is_some() {
            say!("  or open http://{host}:{port}/ in a browser (a table: http://{host}:{port}/t/CODE)");
        }
        let config = Config {
            data: args.data,
            site: args.site,
            limits: Limits {
                per_second: args.rate,
                tables_per_address: args.tables.unwrap_or(args.per_address),
                connections_per_address: args.per_address,
                ping_s: args.ping,
                ..args.limits
            },
            seed: args.seed,
            lan: args.lan,
            trusted_proxies: args.proxies,
            proxy_header: args.proxy_header,
            allow_origins: args.origins,
        };
        match run(listener, config).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("klaverjas-server: {e}");
                ExitCode::from(1)
            }
        }
    })
}
