//! Finding a table on the home network by its code alone
//! (`klaverjas_net::lan`): the server answers the UDP question for the
//! tables it has, and [`find`] asks it, for a desktop or `kj` that was
//! given a code and no address.

use crate::Lobby;
use crate::door::Limit;
use klaverjas_net::{TableCode, lan};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Answers questions on `socket` about the lobby's tables, with the
/// WebSocket's port, until the process ends. Questions about other codes
/// get no answer: another server on the network may have the table. Each
/// such question counts as a wrong guess of its address, which waits
/// longer and longer ([`crate::door::Backoff`]); while it waits, even a
/// right code is not answered, so that guessing fast finds nothing.
pub(crate) async fn answer(
    socket: tokio::net::UdpSocket,
    lobby: Arc<Lobby>,
    ws_port: u16,
    network: Option<(Ipv4Addr, Ipv4Addr)>,
) {
    let mut buffer = [0u8; 64];
    loop {
        let Ok((n, from)) = socket.recv_from(&mut buffer).await else { continue };
        if !network.is_none_or(|net| on(net, from.ip())) {
            continue;
        }
        let Some(code) = lan::read_question(&buffer[..n]) else { continue };
        if lobby.lan_guesses.waiting(from.ip()).is_some() {
            lobby.shared.watch.limit(Limit::LanGuessing, Some(from.ip()));
            continue;
        }
        if lobby.lives(code) {
            // A lost answer is asked again by the one looking.
            let _ = socket.send_to(lan::answer(code, ws_port).as_bytes(), from).await;
        } else {
            lobby.lan_guesses.failed(from.ip());
        }
    }
}

/// Where to listen for the question, for a server listening on `bind`,
/// and the network (address, mask) whose computers alone are answered.
pub(crate) fn listening(bind: IpAddr) -> (IpAddr, Option<(Ipv4Addr, Ipv4Addr)>) {
    if bind.is_loopback() || bind.is_unspecified() {
        return (bind, None);
    }
    let network = if_addrs::get_if_addrs().unwrap_or_default().into_iter().find_map(|i| match i.addr {
        if_addrs::IfAddr::V4(v4) if IpAddr::V4(v4.ip) == bind => Some((v4.ip, v4.netmask)),
        _ => None,
    });
    // The network of an address no interface has is none: only that
    // address itself is answered.
    let own = match bind {
        IpAddr::V4(v4) => (v4, Ipv4Addr::BROADCAST),
        IpAddr::V6(_) => (Ipv4Addr::UNSPECIFIED, Ipv4Addr::BROADCAST),
    };
    (Ipv4Addr::UNSPECIFIED.into(), Some(network.unwrap_or(own)))
}

/// Whether `ip` is on the network (address, mask).
fn on((net, mask): (Ipv4Addr, Ipv4Addr), ip: IpAddr) -> bool {
    match ip.to_canonical() {
        IpAddr::V4(v4) => u32::from(v4) & u32::from(mask) == u32::from(net) & u32::from(mask),
        IpAddr::V6(_) => false,
    }
}

/// Asks this computer and its networks (every IPv4 network's broadcast
/// address) on UDP `port` which table server has `code`, again every
/// 250 ms, for at most `wait`. Returns the first server's WebSocket
/// address, or `None` if none answered.
pub fn find(code: TableCode, port: u16, wait: Duration) -> std::io::Result<Option<SocketAddr>> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))?;
    socket.set_broadcast(true)?;
    let mut to: Vec<Ipv4Addr> = vec![Ipv4Addr::LOCALHOST, Ipv4Addr::BROADCAST];
    for interface in if_addrs::get_if_addrs().unwrap_or_default() {
        if let if_addrs::IfAddr::V4(v4) = interface.addr
            && let Some(broadcast) = v4.broadcast
        {
            to.push(broadcast);
        }
    }
    to.dedup();
    let question = lan::question(code);
    let end = Instant::now() + wait;
    let mut buffer = [0u8; 64];
    while Instant::now() < end {
        for ip in &to {
            // A network that takes no broadcast (or is down) is skipped.
            let _ = socket.send_to(question.as_bytes(), (*ip, port));
        }
        let round = (Instant::now() + Duration::from_millis(250)).min(end);
        while let Some(left) = round.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) {
            socket.set_read_timeout(Some(left))?;
            match socket.recv_from(&mut buffer) {
                Ok((n, from)) => {
                    if let Some(ws_port) = lan::read_answer(&buffer[..n], code) {
                        return Ok(Some(SocketAddr::new(from.ip(), ws_port)));
                    }
                }
                Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => break,
                // An unreachable port answered by the kernel: try again.
                Err(_) => {}
            }
        }
    }
    Ok(None)
}
