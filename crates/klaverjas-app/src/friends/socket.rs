//! One WebSocket to a table server, the same type on every platform:
//! tungstenite on a thread of its own natively, the browser's WebSocket in
//! a page. Text goes out with [`Socket::send`]; what comes in waits in a
//! channel for [`Socket::poll`], and `wake` is called for each, so that an
//! app that sleeps while nothing moves draws the news at once.

use std::sync::{Mutex, mpsc};

/// What happened on the socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SocketEvent {
    Opened,
    Text(String),
    /// The connection ended (or never began), and why, in words.
    Closed(String),
}

/// Called from the socket's side when something came in.
pub type Wake = std::sync::Arc<dyn Fn() + Send + Sync>;

pub struct Socket {
    /// Locked only by its one reader, for the app's resources are shared.
    incoming: Mutex<mpsc::Receiver<SocketEvent>>,
    outgoing: Outgoing,
}

impl Socket {
    /// Opens a socket to `url` (`ws://HOST:PORT/ws`); its first event says
    /// whether that worked.
    pub fn open(url: &str, wake: Wake) -> Socket {
        let (tell, incoming) = mpsc::channel();
        let tell = move |event: SocketEvent| {
            let _ = tell.send(event);
            wake();
        };
        Socket { incoming: Mutex::new(incoming), outgoing: connect(url, Box::new(tell)) }
    }

    pub fn send(&self, text: String) {
        self.outgoing.send(text);
    }

    /// The next thing that came in, if any.
    pub fn poll(&self) -> Option<SocketEvent> {
        self.incoming.lock().ok()?.try_recv().ok()
    }
}

type Tell = Box<dyn Fn(SocketEvent) + Send>;

#[cfg(not(target_arch = "wasm32"))]
use native::{Outgoing, connect};
#[cfg(target_arch = "wasm32")]
use web::{Outgoing, connect};

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::{SocketEvent, Tell};
    use std::net::TcpStream;
    use std::sync::mpsc;
    use std::time::Duration;
    use tungstenite::stream::MaybeTlsStream;
    use tungstenite::{Message, WebSocket};

    /// The socket's thread reads for this long before it looks for text
    /// to send: the most a message waits to go out.
    const TURN: Duration = Duration::from_millis(15);

    /// A table server pings every 15 s: nothing at all for this long, and
    /// the connection is taken for lost (half open), to be opened again.
    const SILENCE: Duration = Duration::from_secs(40);

    pub struct Outgoing(mpsc::Sender<String>);

    impl Outgoing {
        pub fn send(&self, text: String) {
            let _ = self.0.send(text);
        }
    }

    pub fn connect(url: &str, tell: Tell) -> Outgoing {
        let (send, outgoing) = mpsc::channel::<String>();
        let url = url.to_owned();
        let spawned = std::thread::Builder::new().name("table socket".into()).spawn(move || {
            let ws = tungstenite::connect(&url).map(|(ws, _)| ws);
            match ws {
                Ok(mut ws) => {
                    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
                        let _ = s.set_read_timeout(Some(TURN));
                        let _ = s.set_nodelay(true);
                    }
                    tell(SocketEvent::Opened);
                    let why = run(&mut ws, &outgoing, &tell);
                    tell(SocketEvent::Closed(why));
                }
                Err(e) => tell(SocketEvent::Closed(format!("{url}: {e}"))),
            }
        });
        if let Err(e) = spawned {
            bevy::log::error!("no thread for the table's socket: {e}");
        }
        Outgoing(send)
    }

    /// Reads and writes until the connection ends or the app drops the
    /// socket; returns why it ended.
    fn run(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>, outgoing: &mpsc::Receiver<String>, tell: &Tell) -> String {
        let mut heard = std::time::Instant::now();
        loop {
            if heard.elapsed() > SILENCE {
                return format!("nothing from the table for {} s", SILENCE.as_secs());
            }
            loop {
                match outgoing.try_recv() {
                    Ok(text) => {
                        if let Err(e) = ws.send(Message::text(text)) {
                            return e.to_string();
                        }
                    }
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => {
                        let _ = ws.close(None);
                        let _ = ws.flush();
                        return "closed by the app".into();
                    }
                }
            }
            let read = ws.read();
            if read.is_ok() {
                heard = std::time::Instant::now();
            }
            match read {
                Ok(Message::Text(text)) => tell(SocketEvent::Text(text.to_string())),
                Ok(Message::Close(frame)) => {
                    return frame.map_or_else(|| "the table closed the connection".into(), |f| f.reason.to_string());
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
                Err(e) => return e.to_string(),
            }
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod web {
    use super::{SocketEvent, Tell};
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::rc::Rc;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;

    thread_local! {
        /// The page's sockets by number: a browser's WebSocket stays on the
        /// page's thread, and the app's resources must be Send.
        static SOCKETS: RefCell<HashMap<u64, web_sys::WebSocket>> = RefCell::new(HashMap::new());
        static NEXT: RefCell<u64> = const { RefCell::new(1) };
    }

    pub struct Outgoing(u64);

    impl Outgoing {
        pub fn send(&self, text: String) {
            SOCKETS.with_borrow(|sockets| {
                if let Some(ws) = sockets.get(&self.0) {
                    let _ = ws.send_with_str(&text);
                }
            });
        }
    }

    impl Drop for Outgoing {
        fn drop(&mut self) {
            if let Some(ws) = SOCKETS.with_borrow_mut(|sockets| sockets.remove(&self.0)) {
                ws.set_onclose(None);
                ws.set_onmessage(None);
                let _ = ws.close();
            }
        }
    }

    pub fn connect(url: &str, tell: Tell) -> Outgoing {
        let id = NEXT.with_borrow_mut(|n| {
            *n += 1;
            *n
        });
        let ws = match web_sys::WebSocket::new(url) {
            Ok(ws) => ws,
            Err(e) => {
                tell(SocketEvent::Closed(format!("{url}: {e:?}")));
                return Outgoing(id);
            }
        };
        let tell = Rc::new(tell);
        let on = |tell: &Rc<Tell>| Rc::clone(tell);
        let t = on(&tell);
        let opened = Closure::<dyn FnMut(JsValue)>::new(move |_| t(SocketEvent::Opened));
        let t = on(&tell);
        let message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            if let Some(text) = e.data().as_string() {
                t(SocketEvent::Text(text));
            }
        });
        let t = on(&tell);
        let closed = Closure::<dyn FnMut(web_sys::CloseEvent)>::new(move |e: web_sys::CloseEvent| {
            let why = if e.reason().is_empty() { format!("closed ({})", e.code()) } else { e.reason() };
            t(SocketEvent::Closed(why));
        });
        ws.set_onopen(Some(opened.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(closed.as_ref().unchecked_ref()));
        // The socket lives as long as the page may call these.
        opened.forget();
        message.forget();
        closed.forget();
        SOCKETS.with_borrow_mut(|sockets| sockets.insert(id, ws));
        Outgoing(id)
    }
}
