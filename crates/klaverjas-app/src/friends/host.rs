//! A desktop hosts its table itself: the table server of
//! `klaverjas-server` on a thread of its own, listening on the home
//! network, its tables kept in the game's data folder so that a restart
//! opens them again. A phone or a browser cannot take connections: there
//! the table is hosted on a server whose address is a setting.

use std::net::IpAddr;
use std::path::Path;

/// The port a desktop listens on when it is free, so that a link given
/// out stays good across a restart of the game; another if it is taken.
pub const PORT: u16 = 7878;

/// The table server in this app.
#[derive(Clone, Debug, PartialEq, Eq, bevy::prelude::Resource)]
pub struct Hosting {
    pub port: u16,
    /// This computer's addresses on its networks: the links others use.
    pub addresses: Vec<IpAddr>,
    /// Whether the web build is served, so that a link opens the game in a
    /// phone's browser.
    pub site: bool,
}

impl Hosting {
    /// The table server's address for this app itself.
    pub fn own_server(&self) -> String {
        format!("ws://127.0.0.1:{}/ws", self.port)
    }

    /// The address others on the network reach it at, best first.
    pub fn address(&self) -> String {
        let ip = self.addresses.first().copied().unwrap_or(IpAddr::from([127, 0, 0, 1]));
        match ip {
            IpAddr::V6(v6) => format!("[{v6}]:{}", self.port),
            IpAddr::V4(v4) => format!("{v4}:{}", self.port),
        }
    }
}

/// Starts the table server, its tables in `data/tables`; the web build is
/// served from the first of `$KLAVERJAS_SITE`, `installed` (where the game
/// as installed keeps its `site/`) and the data folder's `site/` that
/// holds one.
#[cfg(not(any(target_arch = "wasm32", target_os = "android", target_os = "ios")))]
pub fn start(data: &Path, installed: Vec<std::path::PathBuf>) -> Result<Hosting, String> {
    use std::net::{Ipv4Addr, SocketAddr};
    let site = std::env::var_os("KLAVERJAS_SITE")
        .map(std::path::PathBuf::from)
        .into_iter()
        .chain(installed)
        .chain([data.join("site")])
        .find(|d| d.join("index.html").is_file());
    let config = |site| klaverjas_server::Config {
        data: data.join("tables"),
        site,
        limits: klaverjas_server::Limits::default(),
        seed: None,
        lan: Some(klaverjas_net::lan::PORT),
        trusted_proxies: Vec::new(),
        proxy_header: Default::default(),
        allow_origins: Vec::new(),
    };
    let any = Ipv4Addr::UNSPECIFIED;
    let bound = klaverjas_server::serve_in_background(SocketAddr::from((any, PORT)), config(site.clone()))
        .or_else(|_| klaverjas_server::serve_in_background(SocketAddr::from((any, 0)), config(site.clone())))
        .map_err(|e| e.to_string())?;
    Ok(Hosting { port: bound.port(), addresses: klaverjas_server::home_addresses(), site: site.is_some() })
}

#[cfg(any(target_arch = "wasm32", target_os = "android", target_os = "ios"))]
pub fn start(_data: &Path, _installed: Vec<std::path::PathBuf>) -> Result<Hosting, String> {
    Err("a phone or a browser cannot host a table itself".into())
}

/// Whether this platform hosts tables itself: a desktop does.
pub const HOSTS_ITSELF: bool = matches!(crate::platform::TARGET, crate::platform::Target::Desktop);

/// A table looked for on the home network by its code alone, on a thread
/// (a desktop: it asks for about three seconds).
#[derive(Clone, bevy::prelude::Resource)]
pub struct Finding {
    pub code: klaverjas_net::TableCode,
    pub name: String,
    found: std::sync::Arc<std::sync::Mutex<Option<Option<String>>>>,
}

impl Finding {
    /// Starts looking; `wake` is called when the search ends.
    pub fn start(code: klaverjas_net::TableCode, name: String, wake: impl Fn() + Send + 'static) -> Finding {
        let finding = Finding { code, name, found: Default::default() };
        let found = finding.found.clone();
        let looked = std::thread::Builder::new().name("table finder".into()).spawn(move || {
            let server = find(code);
            *found.lock().unwrap_or_else(|e| e.into_inner()) = Some(server);
            wake();
        });
        if looked.is_err() {
            *finding.found.lock().unwrap_or_else(|e| e.into_inner()) = Some(None);
        }
        finding
    }

    /// `None` while looking; then the table server's WebSocket address, or
    /// `Some(None)`: no server on the network has the table.
    pub fn found(&self) -> Option<Option<String>> {
        self.found.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

#[cfg(not(any(target_arch = "wasm32", target_os = "android", target_os = "ios")))]
fn find(code: klaverjas_net::TableCode) -> Option<String> {
    let wait = std::time::Duration::from_secs(3);
    let at = klaverjas_server::lan::find(code, klaverjas_net::lan::PORT, wait).ok().flatten()?;
    Some(format!("ws://{at}/ws"))
}

#[cfg(any(target_arch = "wasm32", target_os = "android", target_os = "ios"))]
fn find(_code: klaverjas_net::TableCode) -> Option<String> {
    None
}
