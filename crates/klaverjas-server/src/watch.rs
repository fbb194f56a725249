//! What a host can see of the refusals and limits: a counter for each
//! class, read at `/metrics` (Prometheus' text format), and one log line
//! (tracing) for a class at most every ten seconds, saying how many came
//! since the last, so that a flood of refusals is seen without filling
//! the disk.

use crate::door::Limit;
use klaverjas_net::Refusal;
use std::net::IpAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const REFUSALS: [Refusal; 15] = [
    Refusal::BadMessage,
    Refusal::TooLong,
    Refusal::Protocol,
    Refusal::NoTable,
    Refusal::Full,
    Refusal::BadToken,
    Refusal::NotSeated,
    Refusal::NotHost,
    Refusal::NotNow,
    Refusal::Rules,
    Refusal::NotYourTurn,
    Refusal::Removed,
    Refusal::TooMany,
    Refusal::BadName,
    Refusal::BadSetup,
];

/// The name a refusal has on the wire.
fn refusal_name(why: Refusal) -> String {
    serde_json::to_value(why).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// How often one class may write a line.
const EVERY: Duration = Duration::from_secs(10);

struct Class {
    count: AtomicU64,
    /// When the class last wrote a line, and its count then.
    logged: Mutex<Option<(Instant, u64)>>,
}

impl Class {
    fn new() -> Class {
        Class { count: AtomicU64::new(0), logged: Mutex::new(None) }
    }

    /// Counts one; returns how many came since the last line if a line is
    /// due now.
    fn note(&self) -> Option<u64> {
        let count = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        let mut logged = self.logged.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let since = match *logged {
            Some((at, _)) if now.duration_since(at) < EVERY => return None,
            Some((_, then)) => count - then,
            None => count,
        };
        *logged = Some((now, count));
        Some(since)
    }
}

pub struct Watch {
    refusals: Vec<Class>,
    limits: Vec<Class>,
}

impl Default for Watch {
    fn default() -> Watch {
        Watch {
            refusals: REFUSALS.iter().map(|_| Class::new()).collect(),
            limits: Limit::ALL.iter().map(|_| Class::new()).collect(),
        }
    }
}

impl Watch {
    /// A refusal sent to `addr`.
    pub fn refused(&self, why: Refusal, addr: Option<IpAddr>, text: &str) {
        let Some(i) = REFUSALS.iter().position(|&r| r == why) else { return };
        if let Some(since) = self.refusals[i].note() {
            let addr = addr.map(|a| a.to_string()).unwrap_or_default();
            tracing::info!(refusal = %refusal_name(why), %addr, since, "refused: {text}");
        }
    }

    /// A limit that held someone back.
    pub fn limit(&self, limit: Limit, addr: Option<IpAddr>) {
        let Some(i) = Limit::ALL.iter().position(|&l| l == limit) else { return };
        if let Some(since) = self.limits[i].note() {
            let addr = addr.map(|a| a.to_string()).unwrap_or_default();
            tracing::warn!(limit = %limit.name(), %addr, since, "a limit was reached");
        }
    }

    pub fn refusals(&self, why: Refusal) -> u64 {
        REFUSALS.iter().position(|&r| r == why).map_or(0, |i| self.refusals[i].count.load(Ordering::Relaxed))
    }

    pub fn limits(&self, limit: Limit) -> u64 {
        Limit::ALL.iter().position(|&l| l == limit).map_or(0, |i| self.limits[i].count.load(Ordering::Relaxed))
    }

    /// The counters in Prometheus' text format, with the gauges given.
    pub fn metrics(&self, gauges: &[(&str, &str, u64)]) -> String {
        let mut out = String::new();
        out.push_str("# HELP klaverjas_refusals_total Refusals sent to players, by why.\n");
        out.push_str("# TYPE klaverjas_refusals_total counter\n");
        for &why in &REFUSALS {
            out.push_str(&format!(
                "klaverjas_refusals_total{{why=\"{}\"}} {}\n",
                refusal_name(why),
                self.refusals(why)
            ));
        }
        out.push_str("# HELP klaverjas_limit_hits_total Connections, messages or guesses a limit held back.\n");
        out.push_str("# TYPE klaverjas_limit_hits_total counter\n");
        for limit in Limit::ALL {
            out.push_str(&format!("klaverjas_limit_hits_total{{limit=\"{}\"}} {}\n", limit.name(), self.limits(limit)));
        }
        for (name, help, value) in gauges {
            out.push_str(&format!(
                "# HELP klaverjas_{name} {help}\n# TYPE klaverjas_{name} gauge\nklaverjas_{name} {value}\n"
            ));
        }
        out
    }
}
