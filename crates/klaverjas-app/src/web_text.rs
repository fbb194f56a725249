//! What a browser types and pastes that bevy_egui does not hand to egui.
//!
//! - A paste (Ctrl+V, ⌘V, Shift+Insert, the browser's menu) outside
//!   egui's hidden `<input>`: bevy_egui reads the page's clipboard events
//!   only with its `manage_clipboard` feature, which would bring arboard
//!   and a Wayland client to the phones' builds, and winit's canvas
//!   prevents the browser's paste and types the V. Here the keys that
//!   paste pass the canvas by, and the page's `paste` event gives its text
//!   to the focused field.
//! - A touch screen whose browser does not call itself a phone's (an
//!   iPad's Safari says "Macintosh", a laptop with a touch screen says
//!   Windows or Linux): a touch on a field focuses the hidden `<input>`
//!   and opens the screen's keyboard, but bevy_egui reads that input only
//!   where the user agent names a phone, so what was typed went nowhere.
//!   Here it is read for those browsers too: its text, and Backspace.

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    app.add_systems(
        PreUpdate,
        web::forward.after(bevy::input::InputSystems).in_set(bevy_egui::EguiInputSet::ReadBevyMessages),
    );
    let _ = app;
}

/// Whether bevy_egui reads its hidden input itself: its own test, on the
/// user agent, for a phone's browser.
pub fn agent_read_by_bevy_egui(user_agent: &str) -> bool {
    ["Android", "iPhone", "iPad", "iPod", "webOS", "BlackBerry"].iter().any(|name| user_agent.contains(name))
}

/// Whether the browser is WebKit's (Safari, WebKitGTK; not Chrome's, whose
/// user agent names WebKit too), which pastes only into an editable
/// element.
pub fn pastes_only_into_fields(user_agent: &str) -> bool {
    user_agent.contains("AppleWebKit") && !["Chrome", "Chromium", "CriOS", "Edg"].iter().any(|b| user_agent.contains(b))
}

#[cfg(target_arch = "wasm32")]
mod web {
    use bevy::prelude::*;
    use bevy_egui::egui;
    use bevy_egui::input::EguiInputEvent;
    use std::sync::Mutex;
    use std::sync::mpsc::{Receiver, Sender, channel};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    /// bevy_egui's hidden input's id.
    const AGENT: &str = "egui_text_agent";

    /// What the page's listeners heard, and whether they are in place.
    #[derive(Default)]
    pub struct Heard {
        events: Option<Mutex<Receiver<egui::Event>>>,
    }

    pub fn forward(
        mut heard: Local<Heard>,
        contexts: Query<Entity, With<bevy_egui::PrimaryEguiContext>>,
        mut input: MessageWriter<EguiInputEvent>,
        mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    ) {
        let Ok(context) = contexts.single() else { return };
        if heard.events.is_none() {
            // The hidden input is made at bevy_egui's start.
            let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
            let Some(agent) = document.get_element_by_id(AGENT) else { return };
            let (tx, rx) = channel();
            listen(&document, agent, tx);
            heard.events = Some(Mutex::new(rx));
        }
        let Some(events) = heard.events.as_ref().and_then(|e| e.lock().ok()) else { return };
        let mut any = false;
        while let Ok(event) = events.try_recv() {
            input.write(EguiInputEvent { context, event });
            any = true;
        }
        if any {
            redraw.write(bevy::window::RequestRedraw);
        }
    }

    /// What a field is given of a paste: a line break would end a one-line
    /// field's text there.
    fn paste(text: &str) -> egui::Event {
        egui::Event::Paste(text.trim().replace(['\n', '\r'], " "))
    }

    /// Whether `e` was aimed at the hidden input.
    fn at_agent(e: &web_sys::Event) -> bool {
        e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|t| t.id() == AGENT)
    }

    fn listen(document: &web_sys::Document, agent: web_sys::Element, tx: Sender<egui::Event>) {
        let ua = web_sys::window().and_then(|w| w.navigator().user_agent().ok()).unwrap_or_default();
        // How many pastes came as the page's paste event.
        let pasted = std::rc::Rc::new(std::cell::Cell::new(0u32));
        let (pastes, counted) = (tx.clone(), pasted.clone());
        // Pasted into the hidden input, the text comes as its input (below,
        // or bevy_egui's own): not twice.
        let on_paste = Closure::<dyn FnMut(web_sys::ClipboardEvent)>::new(move |e: web_sys::ClipboardEvent| {
            let into_agent = at_agent(&e);
            let text = e.clipboard_data().and_then(|d| d.get_data("text/plain").ok()).unwrap_or_default();
            counted.set(counted.get() + 1);
            if !into_agent && !text.is_empty() {
                e.prevent_default();
                let _ = pastes.send(paste(&text));
            }
        });
        let _ = document.add_event_listener_with_callback("paste", on_paste.as_ref().unchecked_ref());
        on_paste.forget();
        // WebKit (Safari, WebKitGTK) pastes only into something editable,
        // and the canvas is not: there the keys read the clipboard
        // themselves (Safari asks the player first), unless a paste event
        // came after all.
        let webkit = super::pastes_only_into_fields(&ua);
        let reads = tx.clone();
        // The game's canvas takes its keys with their default prevented,
        // the browser's paste too, and would type the V: the keys that
        // paste go past it, to the browser, whose paste event comes above.
        let on_key = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
            let command = e.ctrl_key() || e.meta_key();
            if !((command && e.key().eq_ignore_ascii_case("v")) || (e.shift_key() && e.key() == "Insert")) {
                return;
            }
            e.stop_propagation();
            let into_agent = at_agent(&e);
            let Some(clipboard) =
                web_sys::window().map(|w| w.navigator().clipboard()).filter(|_| webkit && !into_agent)
            else {
                return;
            };
            let (before, pasted, reads) = (pasted.get(), pasted.clone(), reads.clone());
            let read = wasm_bindgen_futures::JsFuture::from(clipboard.read_text());
            wasm_bindgen_futures::spawn_local(async move {
                match read.await.map(|text| text.as_string()) {
                    Ok(Some(text)) if !text.is_empty() && pasted.get() == before => {
                        let _ = reads.send(paste(&text));
                    }
                    Ok(_) => {}
                    Err(e) => warn!("the clipboard could not be read: {e:?}"),
                }
            });
        });
        let _ = document.add_event_listener_with_callback_and_bool("keydown", on_key.as_ref().unchecked_ref(), true);
        on_key.forget();

        let touch = web_sys::window().is_some_and(|w| w.navigator().max_touch_points() > 0);
        let agent_read = super::agent_read_by_bevy_egui(&ua);
        let Ok(input) = agent.dyn_into::<web_sys::HtmlInputElement>() else { return };
        if !touch || agent_read {
            return;
        }
        info!("the hidden input is read here: a touch screen whose browser does not call itself a phone's");
        let typed = tx.clone();
        let field = input.clone();
        let on_input = Closure::<dyn FnMut(web_sys::InputEvent)>::new(move |e: web_sys::InputEvent| {
            let text = field.value();
            if !text.is_empty() && !e.is_composing() {
                field.set_value("");
                let _ = typed.send(egui::Event::Text(text));
            }
        });
        let _ = input.add_event_listener_with_callback("input", on_input.as_ref().unchecked_ref());
        on_input.forget();
        for (name, pressed) in [("keydown", true), ("keyup", false)] {
            let keys = tx.clone();
            let on_key = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                if e.key() == "Backspace" && !e.is_composing() {
                    let event = egui::Event::Key {
                        key: egui::Key::Backspace,
                        physical_key: None,
                        pressed,
                        modifiers: egui::Modifiers::NONE,
                        repeat: false,
                    };
                    let _ = keys.send(event);
                }
            });
            let _ = input.add_event_listener_with_callback(name, on_key.as_ref().unchecked_ref());
            on_key.forget();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::agent_read_by_bevy_egui;

    #[test]
    fn an_ipads_safari_and_a_touch_laptop_are_not_phones_to_bevy_egui() {
        let ipad = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
        let windows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
        let android = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0";
        assert!(!agent_read_by_bevy_egui(ipad));
        assert!(!agent_read_by_bevy_egui(windows));
        assert!(agent_read_by_bevy_egui(android));
        let chrome =
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
        assert!(super::pastes_only_into_fields(ipad));
        assert!(!super::pastes_only_into_fields(chrome));
        assert!(!super::pastes_only_into_fields(windows));
    }
}
