//! Who comes in: connections counted from the moment they are accepted
//! (per address and in all), the address a connection speaks for (its
//! own, or a trusted proxy's word for it), the origins a page may open a
//! table from, and the backoff for someone guessing codes.

use axum::http::{HeaderMap, header};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The address limits are counted by: an IPv4 address, or an IPv6
/// address's /64, the block one home or phone is given (counted per
/// address, one machine could take a whole /64's worth of limits).
pub fn key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The header a trusted proxy names its client in.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ProxyHeader {
    /// `X-Forwarded-For`, which Caddy, nginx (`proxy_add_x_forwarded_for`)
    /// and most proxies append to.
    #[default]
    XForwardedFor,
    /// RFC 7239's `Forwarded: for=`, for a proxy that writes that one.
    Forwarded,
}

/// The address a request speaks for. A connection from a trusted proxy
/// speaks for the address the proxy says it forwards, in the one header
/// that proxy is known to write (a proxy passes the other on as the
/// client sent it: Caddy leaves a client's own `Forwarded` untouched): the
/// last one that is no trusted proxy itself, since each proxy appends what
/// it saw and only ours can be believed. Anyone else speaks for their own
/// address, whatever headers they send.
pub fn client(peer: IpAddr, headers: &HeaderMap, proxies: &[IpAddr], header: ProxyHeader) -> IpAddr {
    let peer = peer.to_canonical();
    if !proxies.contains(&peer) {
        return peer;
    }
    let values = |name: header::HeaderName| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(',').map(|s| s.trim().to_owned()).collect::<Vec<_>>())
            .collect()
    };
    let hops: Vec<String> = match header {
        ProxyHeader::XForwardedFor => values(header::HeaderName::from_static("x-forwarded-for")),
        ProxyHeader::Forwarded => values(header::FORWARDED)
            .iter()
            .filter_map(|element| {
                element.split(';').find_map(|pair| {
                    let (name, value) = pair.split_once('=')?;
                    name.trim().eq_ignore_ascii_case("for").then(|| value.trim().to_owned())
                })
            })
            .collect(),
    };
    for hop in hops.iter().rev() {
        match parse_hop(hop).map(|ip| ip.to_canonical()) {
            Some(ip) if proxies.contains(&ip) => continue,
            Some(ip) => return ip,
            // An address hidden or garbled by the proxy: the proxy's own
            // stands for it, never an address further left.
            None => return peer,
        }
    }
    peer
}

/// One address of a forwarding header: `192.0.2.1`, `192.0.2.1:4711`,
/// `"[2001:db8::1]:4711"`, `2001:db8::1`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim().trim_matches('"');
    if let Ok(ip) = hop.parse() {
        return Some(ip);
    }
    if let Some(rest) = hop.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    hop.rsplit_once(':').and_then(|(ip, _)| ip.parse().ok())
}

/// Whether a WebSocket may be opened from the page that asks: an app
/// sends no `Origin`; a page must come from this server's own site (its
/// origin's host is the host asked) or from one of `allowed` (written as
/// a browser writes an origin, `https://example.org`). Another site's
/// page, in a browser that a player of ours also uses, would otherwise sit
/// at tables in the player's name and from the player's address.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> Result<(), String> {
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let origin = origin.to_str().map_err(|_| "an Origin that is not text".to_owned())?;
    if allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return Ok(());
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let authority = origin.split_once("://").map_or("", |(_, rest)| rest);
    if !host.is_empty() && authority.eq_ignore_ascii_case(host) {
        return Ok(());
    }
    Err(format!("tables are not opened from pages of {origin} (the server's --allow-origin lists the sites allowed)"))
}

/// A limit that refused someone.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Limit {
    /// Connections open at once, from everyone.
    Connections,
    /// Connections open at once from one address.
    ConnectionsPerAddress,
    /// A request's headers (or the WebSocket's first message) too slow.
    Handshake,
    /// A WebSocket opened from another site's page.
    Origin,
    /// Too many wrong codes or tokens: told to wait.
    Guessing,
    /// Too many questions on the network for tables not here.
    LanGuessing,
    /// Live tables made from one address.
    TablesPerAddress,
    /// A table's stored steps.
    Steps,
    /// The database's size.
    Database,
    /// Messages a second on one connection.
    Messages,
}

impl Limit {
    pub const ALL: [Limit; 10] = [
        Limit::Connections,
        Limit::ConnectionsPerAddress,
        Limit::Handshake,
        Limit::Origin,
        Limit::Guessing,
        Limit::LanGuessing,
        Limit::TablesPerAddress,
        Limit::Steps,
        Limit::Database,
        Limit::Messages,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Limit::Connections => "connections",
            Limit::ConnectionsPerAddress => "connections_per_address",
            Limit::Handshake => "handshake",
            Limit::Origin => "origin",
            Limit::Guessing => "guessing",
            Limit::LanGuessing => "lan_guessing",
            Limit::TablesPerAddress => "tables_per_address",
            Limit::Steps => "steps",
            Limit::Database => "database",
            Limit::Messages => "messages",
        }
    }
}

/// The connections open, counted from their accept until their socket
/// closes (after its WebSocket, if it became one).
pub struct Door {
    open: Mutex<HashMap<IpAddr, usize>>,
    total: AtomicUsize,
    per_address: usize,
    most: usize,
    proxies: Vec<IpAddr>,
    header: ProxyHeader,
}

/// A place inside, given back when dropped.
pub struct Inside {
    door: Arc<Door>,
    /// Counted among all connections (a socket accepted), or only under
    /// its address (a proxied client's WebSocket).
    in_total: bool,
    key: Option<IpAddr>,
}

impl Door {
    pub fn new(per_address: usize, most: usize, proxies: Vec<IpAddr>, header: ProxyHeader) -> Arc<Door> {
        let open = Mutex::default();
        Arc::new(Door { open, total: AtomicUsize::new(0), per_address, most, proxies, header })
    }

    /// The address a request from `peer` speaks for ([`client`]).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        client(peer, headers, &self.proxies, self.header)
    }

    /// Whether `peer` is a trusted proxy.
    pub fn is_proxy(&self, peer: IpAddr) -> bool {
        self.proxies.contains(&peer.to_canonical())
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }

    /// A socket just accepted from `peer`: counted in all, and under its
    /// address unless it is a trusted proxy's (whose clients are counted
    /// each under their own once their request says who they are).
    pub fn accept(self: &Arc<Door>, peer: IpAddr) -> Result<Inside, Limit> {
        let peer = peer.to_canonical();
        if self.total.fetch_add(1, Ordering::AcqRel) >= self.most {
            self.total.fetch_sub(1, Ordering::AcqRel);
            return Err(Limit::Connections);
        }
        let mut inside = Inside { door: self.clone(), in_total: true, key: None };
        if !self.proxies.contains(&peer) {
            inside.key = Some(self.count(peer)?);
        }
        Ok(inside)
    }

    /// A client behind a trusted proxy, counted under its own address for
    /// as long as its WebSocket lasts.
    pub fn behind_proxy(self: &Arc<Door>, client: IpAddr) -> Result<Inside, Limit> {
        let key = self.count(client)?;
        Ok(Inside { door: self.clone(), in_total: false, key: Some(key) })
    }

    fn count(&self, ip: IpAddr) -> Result<IpAddr, Limit> {
        let key = key(ip);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(key).or_default();
        if *n >= self.per_address {
            if *n == 0 {
                open.remove(&key);
            }
            return Err(Limit::ConnectionsPerAddress);
        }
        *n += 1;
        Ok(key)
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        if self.in_total {
            self.door.total.fetch_sub(1, Ordering::AcqRel);
        }
        if let Some(key) = self.key {
            let mut open = self.door.open.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(n) = open.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    open.remove(&key);
                }
            }
        }
    }
}

/// Failed guesses per address (a code no table has, a token no chair
/// holds, a network question for a table not here), and how long each
/// address must wait before it may guess again: the first few are free
/// (a typo), then each doubles the wait, up to a minute. An address quiet
/// for ten minutes starts afresh.
pub struct Backoff {
    tries: Mutex<HashMap<IpAddr, (u32, Instant)>>,
    free: u32,
}

/// How long a quiet address's failures are remembered.
const FORGET: Duration = Duration::from_secs(600);
/// The longest wait.
const LONGEST: Duration = Duration::from_secs(60);
/// Addresses remembered at most.
const REMEMBERED: usize = 10_000;

impl Backoff {
    pub fn new(free: u32) -> Backoff {
        Backoff { tries: Mutex::default(), free }
    }

    fn wait_after(&self, failures: u32) -> Duration {
        match failures.checked_sub(self.free) {
            None | Some(0) => Duration::ZERO,
            Some(over) => (Duration::from_millis(250) * 2u32.saturating_pow(over.min(20))).min(LONGEST),
        }
    }

    /// How long `ip` must still wait before its next guess counts; `None`
    /// when it may guess now.
    pub fn waiting(&self, ip: IpAddr) -> Option<Duration> {
        let tries = self.tries.lock().unwrap_or_else(|e| e.into_inner());
        let &(failures, last) = tries.get(&key(ip))?;
        let left = (last + self.wait_after(failures)).checked_duration_since(Instant::now())?;
        (!left.is_zero()).then_some(left)
    }

    /// Counts a failed guess from `ip`; returns its failures so far.
    pub fn failed(&self, ip: IpAddr) -> u32 {
        let now = Instant::now();
        let mut tries = self.tries.lock().unwrap_or_else(|e| e.into_inner());
        // Pruned when full; should the quiet ones free less than a quarter
        // (many addresses guessing at once), all are forgotten: a pass over
        // the map is then paid once every 2,500 new addresses at most, not
        // at every guess.
        if tries.len() >= REMEMBERED {
            tries.retain(|_, (_, last)| now.duration_since(*last) < FORGET);
            if tries.len() >= REMEMBERED / 4 * 3 {
                tries.clear();
            }
        }
        let entry = tries.entry(key(ip)).or_insert((0, now));
        if now.duration_since(entry.1) >= FORGET {
            entry.0 = 0;
        }
        entry.0 = entry.0.saturating_add(1);
        entry.1 = now;
        entry.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, HeaderValue::from_static(value));
        }
        h
    }

    #[test]
    fn only_a_trusted_proxy_is_believed_about_the_client() {
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let stranger: IpAddr = "198.51.100.7".parse().unwrap();
        let (xff, fwd) = (ProxyHeader::XForwardedFor, ProxyHeader::Forwarded);
        let h = headers(&[("x-forwarded-for", "203.0.113.9, 192.0.2.4")]);
        assert_eq!(client(stranger, &h, &[proxy], xff), stranger);
        // The client wrote 203.0.113.9 itself; our proxy saw 192.0.2.4.
        assert_eq!(client(proxy, &h, &[proxy], xff), "192.0.2.4".parse::<IpAddr>().unwrap());
        // A Forwarded the client sent through a proxy that writes XFF is
        // not read.
        let both = headers(&[("forwarded", "for=198.51.100.1"), ("x-forwarded-for", "192.0.2.4")]);
        assert_eq!(client(proxy, &both, &[proxy], xff), "192.0.2.4".parse::<IpAddr>().unwrap());
        let f = headers(&[("forwarded", "for=192.0.2.60;proto=http, for=\"[2001:db8:cafe::17]:4711\"")]);
        assert_eq!(client(proxy, &f, &[proxy], fwd), "2001:db8:cafe::17".parse::<IpAddr>().unwrap());
        let chain = headers(&[("x-forwarded-for", "192.0.2.4, 10.0.0.2")]);
        let proxies = ["127.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap()];
        assert_eq!(client(proxy, &chain, &proxies, xff), "192.0.2.4".parse::<IpAddr>().unwrap());
        assert_eq!(client(proxy, &headers(&[("forwarded", "for=_hidden")]), &[proxy], fwd), proxy);
        assert_eq!(client(proxy, &HeaderMap::new(), &[proxy], xff), proxy);
        // An IPv4 peer on a socket bound to :: is still the proxy.
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        assert_eq!(client(mapped, &h, &[proxy], xff), "192.0.2.4".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn an_ipv6_block_of_64_is_one_address() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(key(a), key(b));
        assert_ne!(key(a), key(c));
        assert_eq!(key("::ffff:192.0.2.1".parse().unwrap()), "192.0.2.1".parse::<IpAddr>().unwrap());
        let door = Door::new(2, 100, Vec::new(), ProxyHeader::default());
        let (_one, _two) = (door.accept(a).unwrap(), door.accept(b).unwrap());
        assert_eq!(door.accept("2001:db8:1:2::77".parse().unwrap()).err(), Some(Limit::ConnectionsPerAddress));
        assert!(door.accept(c).is_ok());
    }

    #[test]
    fn the_door_counts_until_each_place_is_given_back() {
        let door = Door::new(2, 3, vec!["127.0.0.1".parse().unwrap()], ProxyHeader::default());
        let here: IpAddr = "192.0.2.1".parse().unwrap();
        let one = door.accept(here).unwrap();
        let _two = door.accept(here).unwrap();
        assert_eq!(door.accept(here).err(), Some(Limit::ConnectionsPerAddress));
        drop(one);
        let _three = door.accept(here).unwrap();
        // The proxy is not counted per address, only in all.
        let _proxy = door.accept("127.0.0.1".parse().unwrap()).unwrap();
        assert_eq!(door.accept("192.0.2.2".parse().unwrap()).err(), Some(Limit::Connections));
        assert_eq!(door.open(), 3);
    }

    #[test]
    fn origins_from_the_site_itself_or_the_list() {
        assert!(origin_allowed(&HeaderMap::new(), &[]).is_ok());
        let same = headers(&[("origin", "http://192.168.1.5:7878"), ("host", "192.168.1.5:7878")]);
        assert!(origin_allowed(&same, &[]).is_ok());
        let other = headers(&[("origin", "https://evil.example"), ("host", "192.168.1.5:7878")]);
        assert!(origin_allowed(&other, &[]).is_err());
        assert!(origin_allowed(&other, &["https://evil.example".into()]).is_ok());
    }

    #[test]
    fn guesses_wait_longer_and_longer() {
        let b = Backoff::new(3);
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        // Many addresses at once cost a pass over the map only now and then.
        let many = std::time::Instant::now();
        for i in 0..100_000u32 {
            b.failed(IpAddr::from(i.to_be_bytes()));
        }
        assert!(many.elapsed() < Duration::from_secs(2), "{:?}", many.elapsed());
        for _ in 0..3 {
            b.failed(ip);
            assert_eq!(b.waiting(ip), None);
        }
        b.failed(ip);
        let first = b.waiting(ip).unwrap();
        b.failed(ip);
        let second = b.waiting(ip).unwrap();
        assert!(second > first, "{second:?} after {first:?}");
        assert_eq!(b.waiting("192.0.2.2".parse().unwrap()), None);
    }
}
