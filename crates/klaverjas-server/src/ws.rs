//! The WebSocket under each connection: the upgrade from HTTP, and a
//! socket that sends a long message as short frames.
//!
//! Why not axum's own WebSocket: tungstenite keeps the buffer it writes a
//! frame into for the connection's life, as large as the largest frame
//! (and up to twice that as it grows). A deal's last messages are its
//! longest, so every connection came to hold several kilobytes it used
//! once a deal. Sent as frames of at most [`FRAME`] bytes, a message never
//! grows that buffer past one frame; axum's socket cannot send frames.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use std::future::Future;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};

pub use tokio_tungstenite::tungstenite::Message;

/// The longest frame this server writes.
pub const FRAME: usize = 1024;

pub type Socket = WebSocketStream<TokioIo<hyper::upgrade::Upgraded>>;

/// Answers a WebSocket handshake and runs `then` on the socket once the
/// connection is upgraded; anything else is told what it lacks (400).
pub fn upgrade<F, Fut>(mut request: Request, config: WebSocketConfig, then: F) -> Response
where
    F: FnOnce(Socket) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let key = match handshake_key(request.method(), request.headers()) {
        Ok(key) => key,
        Err(Refused::Bad(why)) => return plain(StatusCode::BAD_REQUEST, why),
        Err(Refused::Version) => {
            let mut response = plain(StatusCode::UPGRADE_REQUIRED, "only WebSocket version 13 is spoken here");
            response.headers_mut().insert(header::SEC_WEBSOCKET_VERSION, HeaderValue::from_static("13"));
            return response;
        }
    };
    // hyper can upgrade only an HTTP/1.1 connection.
    if request.extensions().get::<hyper::upgrade::OnUpgrade>().is_none() {
        return plain(StatusCode::UPGRADE_REQUIRED, "a WebSocket needs HTTP/1.1");
    }
    let upgrading = hyper::upgrade::on(&mut request);
    tokio::spawn(async move {
        if let Ok(upgraded) = upgrading.await {
            let socket = WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, Some(config)).await;
            then(socket).await;
        }
    });
    let mut response = plain(StatusCode::SWITCHING_PROTOCOLS, "");
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    if let Ok(accept) = HeaderValue::from_str(&derive_accept_key(key.as_bytes())) {
        headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    }
    response
}

/// Why a handshake is not answered with an upgrade.
enum Refused {
    Bad(&'static str),
    /// Not version 13: RFC 6455 answers 426 with the version spoken.
    Version,
}

/// RFC 6455's opening handshake, as a browser sends it.
fn handshake_key(method: &Method, headers: &HeaderMap) -> Result<String, Refused> {
    let has = |name: header::HeaderName, token: &str| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.split(',').any(|part| part.trim().eq_ignore_ascii_case(token)))
    };
    if method != Method::GET {
        return Err(Refused::Bad("a WebSocket opens with GET"));
    }
    if !has(header::CONNECTION, "upgrade") || !has(header::UPGRADE, "websocket") {
        return Err(Refused::Bad("this address is a WebSocket: connect with ws:// or wss://"));
    }
    if !has(header::SEC_WEBSOCKET_VERSION, "13") {
        return Err(Refused::Version);
    }
    headers
        .get(header::SEC_WEBSOCKET_KEY)
        .and_then(|k| k.to_str().ok())
        .map(str::to_owned)
        .ok_or(Refused::Bad("the WebSocket handshake has no Sec-WebSocket-Key"))
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    let mut response = Response::new(Body::from(text));
    *response.status_mut() = status;
    response
}

/// Sends `text` as one message, in frames of at most [`FRAME`] bytes cut
/// between characters.
pub async fn send_text(socket: &mut Socket, text: &str) -> Result<(), ()> {
    if text.len() <= FRAME {
        return socket.send(Message::text(text)).await.map_err(drop);
    }
    let mut rest = text;
    let mut opcode = OpCode::Data(Data::Text);
    while !rest.is_empty() {
        let cut = if rest.len() <= FRAME { rest.len() } else { rest.floor_char_boundary(FRAME) };
        let (part, after) = rest.split_at(cut);
        let frame = Frame::message(part.as_bytes().to_vec(), opcode, after.is_empty());
        socket.feed(Message::Frame(frame)).await.map_err(drop)?;
        opcode = OpCode::Data(Data::Continue);
        rest = after;
    }
    socket.flush().await.map_err(drop)
}

/// The next text message; `None` when the connection ends. A binary frame
/// is answered with `binary`'s text in one frame, so that a read dropped
/// for a message to send never leaves half a message on the wire; pings
/// are answered by tungstenite. `heard` is when any frame last came (a
/// pong included).
pub async fn next_text_heard(socket: &mut Socket, binary: &str, heard: &mut tokio::time::Instant) -> Option<String> {
    loop {
        let frame = socket.next().await?;
        *heard = tokio::time::Instant::now();
        match frame {
            Ok(Message::Text(text)) => return Some(text.as_str().to_owned()),
            Ok(Message::Binary(_)) => socket.send(Message::text(binary)).await.ok()?,
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// Asks the other side for a pong (browsers and tungstenite answer by
/// themselves).
pub async fn ping(socket: &mut Socket) -> Result<(), ()> {
    socket.send(Message::Ping(Vec::new().into())).await.map_err(drop)
}

/// Sends `text`, then closes the connection cleanly.
pub async fn close_with(socket: &mut Socket, text: &str) {
    let _ = send_text(socket, text).await;
    close(socket).await;
}

/// Closes the connection cleanly (a close frame, as RFC 6455 asks).
pub async fn close(socket: &mut Socket) {
    let _ = socket.close(None).await;
}
