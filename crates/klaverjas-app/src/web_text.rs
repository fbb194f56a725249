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
//! - An iPhone or iPad (every browser there is WebKit) opens the keyboard
//!   only for a field focused within the touch's own event. bevy_egui
//!   focuses its hidden input there when the last frame had the touch on
//!   a text field, but the focus then leaves the canvas before egui has
//!   taken the touch's release, and in WebKit the field was then never
//!   focused: the keyboard opened, and the letters went nowhere (in about
//!   half of the tries, a touch after it never helping). Here the touch's
//!   end, on a field the last frame drew, focuses both: the hidden input
//!   in the event, and the field at the next frame.
//! - While the hidden input has the page's focus, egui is told that its
//!   window has it: the canvas lost it to the input, and egui paints no
//!   caret in a window without the focus.

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    app.add_systems(
        PreUpdate,
        web::forward.after(bevy::input::InputSystems).in_set(bevy_egui::EguiInputSet::ReadBevyMessages),
    )
    .add_systems(
        PreUpdate,
        web::typing_is_focus
            .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
            .before(bevy_egui::EguiPreUpdateSet::BeginPass),
    )
    .add_systems(Last, web::publish_fields);
    let _ = app;
}

/// Whether the browser opens the keyboard only for a field focused within
/// a touch's event: every browser of an iPhone or iPad, also an iPad's
/// Safari that calls itself a Mac's (with more than one touch point, which
/// no Mac has).
pub fn focuses_within_the_touch(user_agent: &str, touch_points: i32) -> bool {
    ["iPhone", "iPad", "iPod"].iter().any(|name| user_agent.contains(name))
        || (user_agent.contains("Macintosh") && touch_points > 1)
}

/// A text field as drawn this pass: its id, where a touch reaches it (in
/// points) and its text's length. An iPhone or iPad opens the keyboard
/// only from within the touch's own event, before egui has seen the
/// touch: the page must know where the fields are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldPlace {
    pub id: bevy_egui::egui::Id,
    pub rect: bevy_egui::egui::Rect,
    /// Its layer: a window or popup drawn over it takes the touch.
    pub layer: bevy_egui::egui::LayerId,
    pub chars: usize,
}

impl FieldPlace {
    /// The field drawn as `response`, holding `text`.
    pub fn of(response: &bevy_egui::egui::Response, text: &str) -> FieldPlace {
        FieldPlace {
            id: response.id,
            rect: response.interact_rect,
            layer: response.layer_id,
            chars: text.chars().count(),
        }
    }
}

/// How far (in points) a finger may move and still tap: further, it
/// dragged (a page scrolled), and the field it ends on was not touched.
const TAP_SLOP: f32 = 8.0;

/// The fields [`note_field`] heard of since [`field_places`] last looked.
const FIELD_PLACES: &str = "text fields drawn this pass";

/// Notes a field drawn this pass (once a field, however often drawn).
pub fn note_field(ctx: &bevy_egui::egui::Context, place: FieldPlace) {
    ctx.data_mut(|d| {
        let places = d.get_temp_mut_or_default::<Vec<FieldPlace>>(bevy_egui::egui::Id::new(FIELD_PLACES));
        places.retain(|f| f.id != place.id);
        places.push(place);
    });
}

/// The text fields drawn since the last call, taken away.
pub fn field_places(ctx: &bevy_egui::egui::Context) -> Vec<FieldPlace> {
    ctx.data_mut(|d| d.remove_temp::<Vec<FieldPlace>>(bevy_egui::egui::Id::new(FIELD_PLACES))).unwrap_or_default()
}

/// Where [`focus_field`] leaves the field's caret.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caret {
    KeptOrAtTheEnd,
    AtTheEnd,
}

/// Gives `field` the keyboard's focus, its caret where `caret` says.
pub fn focus_field(ctx: &bevy_egui::egui::Context, field: FieldPlace, caret: Caret) {
    use bevy_egui::egui::text::{CCursor, CCursorRange};
    ctx.memory_mut(|m| m.request_focus(field.id));
    let mut state = bevy_egui::egui::text_edit::TextEditState::load(ctx, field.id).unwrap_or_default();
    if caret == Caret::AtTheEnd || state.cursor.char_range().is_none() {
        state.cursor.set_char_range(Some(CCursorRange::one(CCursor::new(field.chars))));
        state.store(ctx, field.id);
    }
}

/// The field drawn last under `at` (in points), if any.
fn field_at(fields: &[FieldPlace], at: bevy_egui::egui::Pos2) -> Option<FieldPlace> {
    fields.iter().rev().find(|f| f.rect.contains(at)).copied()
}

/// The field a touch from `down` to `up` (in points) tapped: both on it,
/// the finger still, and no layer over it there (`top`, the topmost
/// window or popup at `up`, if any).
pub fn tapped_field(
    fields: &[FieldPlace],
    down: bevy_egui::egui::Pos2,
    up: bevy_egui::egui::Pos2,
    top: Option<bevy_egui::egui::LayerId>,
) -> Option<FieldPlace> {
    let field = field_at(fields, up)?;
    let still = down.distance(up) <= TAP_SLOP && field_at(fields, down).is_some_and(|f| f.id == field.id);
    (still && top.is_none_or(|top| top == field.layer)).then_some(field)
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

    thread_local! {
        /// The text fields the last frame drew, and the points to a CSS
        /// pixel, for the page's touch listener.
        static SHOWN: std::cell::RefCell<(f32, Vec<super::FieldPlace>, Option<egui::Context>)> =
            const { std::cell::RefCell::new((1.0, Vec::new(), None)) };
    }

    /// While the hidden input has the page's focus, the player types into
    /// the game: egui hears that its window has the focus (the canvas has
    /// lost it to the input), and paints the field's caret.
    pub fn typing_is_focus(mut inputs: Query<&mut bevy_egui::EguiInput>) {
        let typing = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .is_some_and(|e| e.id() == AGENT);
        if typing {
            for mut input in &mut inputs {
                input.0.focused = true;
            }
        }
    }

    /// Keeps the fields the frame drew where the page's listeners see them.
    pub fn publish_fields(mut contexts: bevy_egui::EguiContexts) {
        let Ok(ctx) = contexts.ctx_mut() else { return };
        let places = super::field_places(ctx);
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()) as f32;
        let points_per_css_pixel = ratio / ctx.pixels_per_point();
        SHOWN.with(|shown| *shown.borrow_mut() = (points_per_css_pixel, places, Some(ctx.clone())));
    }

    /// What the page's listeners heard, and whether they are in place.
    #[derive(Default)]
    pub struct Heard {
        events: Option<Mutex<Receiver<egui::Event>>>,
        focus: Option<Mutex<Receiver<super::FieldPlace>>>,
    }

    pub fn forward(
        mut heard: Local<Heard>,
        contexts: Query<Entity, With<bevy_egui::PrimaryEguiContext>>,
        mut egui: bevy_egui::EguiContexts,
        mut input: MessageWriter<EguiInputEvent>,
        mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    ) {
        let Ok(context) = contexts.single() else { return };
        if heard.events.is_none() {
            // The hidden input is made at bevy_egui's start.
            let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
            let Some(agent) = document.get_element_by_id(AGENT) else { return };
            let (tx, rx) = channel();
            let (focus_tx, focus_rx) = channel();
            listen(&document, agent, tx, focus_tx);
            heard.events = Some(Mutex::new(rx));
            heard.focus = Some(Mutex::new(focus_rx));
        }
        let mut any = false;
        if let (Some(focus), Ok(ctx)) = (heard.focus.as_ref().and_then(|f| f.lock().ok()), egui.ctx_mut()) {
            while let Ok(field) = focus.try_recv() {
                // A field touched for the first time types at its end.
                super::focus_field(ctx, field, super::Caret::KeptOrAtTheEnd);
                any = true;
            }
        }
        let Some(events) = heard.events.as_ref().and_then(|e| e.lock().ok()) else { return };
        while let Ok(event) = events.try_recv() {
            input.write(EguiInputEvent { context, event });
            any = true;
        }
        if any {
            redraw.write(bevy::window::RequestRedraw);
        }
    }

    /// A tap on a text field focuses the hidden input within its touch's
    /// end (which opens the keyboard) and asks for the field's focus. Where
    /// the finger went down comes from the pointer's events (winit cancels
    /// the touch's start, so the browser never turns a drag into a scroll
    /// with a cancel); where it lifted from the touch's end, or where the
    /// touch's end carries no touch (as the browser check's own do not),
    /// from the pointer's release.
    fn focus_on_touch_end(
        document: &web_sys::Document,
        input: web_sys::HtmlInputElement,
        focus: Sender<super::FieldPlace>,
    ) {
        type At = std::rc::Rc<std::cell::Cell<Option<(f32, f32)>>>;
        let (down, up): (At, At) = Default::default();
        for (name, pressed) in [("pointerdown", true), ("pointerup", false)] {
            let (down, up) = (down.clone(), up.clone());
            let on_pointer = Closure::<dyn FnMut(web_sys::PointerEvent)>::new(move |e: web_sys::PointerEvent| {
                if e.pointer_type() != "touch" {
                    return;
                }
                let at = Some((e.client_x() as f32, e.client_y() as f32));
                if pressed {
                    down.set(at);
                    up.set(None);
                } else {
                    up.set(at);
                }
            });
            let _ = document.add_event_listener_with_callback_and_bool(name, on_pointer.as_ref().unchecked_ref(), true);
            on_pointer.forget();
        }
        let canvas = document.get_element_by_id("klaverjas");
        let on_end = Closure::<dyn FnMut(web_sys::TouchEvent)>::new(move |e: web_sys::TouchEvent| {
            let lifted = e.changed_touches().get(0).map(|t| (t.client_x() as f32, t.client_y() as f32));
            let (Some(went_down), Some(lifted)) = (down.take(), lifted.or(up.take())) else { return };
            let (left, top) = canvas.as_ref().map_or((0.0, 0.0), |c| {
                let r = c.get_bounding_client_rect();
                (r.left() as f32, r.top() as f32)
            });
            let field = SHOWN.with(|shown| {
                let (scale, fields, ctx) = &*shown.borrow();
                let point = |(x, y): (f32, f32)| egui::pos2((x - left) * scale, (y - top) * scale);
                let over = ctx.as_ref().and_then(|ctx| ctx.layer_id_at(point(lifted)));
                super::tapped_field(fields, point(went_down), point(lifted), over)
            });
            if let Some(field) = field {
                input.set_hidden(false);
                let _ = input.focus();
                let _ = focus.send(field);
            }
        });
        // After bevy_egui's own (made at its start), which would blur the
        // input again when its last frame saw no field under the touch.
        let _ = document.add_event_listener_with_callback("touchend", on_end.as_ref().unchecked_ref());
        on_end.forget();
    }

    /// What a field is given of a paste.
    fn paste(text: &str) -> egui::Event {
        egui::Event::Paste(crate::platform::one_line(text))
    }

    /// Whether `e` was aimed at the hidden input.
    fn at_agent(e: &web_sys::Event) -> bool {
        e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|t| t.id() == AGENT)
    }

    fn listen(
        document: &web_sys::Document,
        agent: web_sys::Element,
        tx: Sender<egui::Event>,
        focus: Sender<super::FieldPlace>,
    ) {
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

        let touch_points = web_sys::window().map_or(0, |w| w.navigator().max_touch_points());
        let touch = touch_points > 0;
        let agent_read = super::agent_read_by_bevy_egui(&ua);
        let Ok(input) = agent.dyn_into::<web_sys::HtmlInputElement>() else { return };
        if super::focuses_within_the_touch(&ua, touch_points) {
            focus_on_touch_end(document, input.clone(), focus);
        }
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

    #[test]
    fn every_iphone_and_ipad_browser_opens_the_keyboard_within_the_touch() {
        use super::focuses_within_the_touch;
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";
        let chrome_on_ipad = "Mozilla/5.0 (iPad; CPU OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1";
        let mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
        let android =
            "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
        assert!(focuses_within_the_touch(iphone, 5));
        assert!(focuses_within_the_touch(chrome_on_ipad, 5));
        // An iPad's Safari says Macintosh; a Mac has no touch points.
        assert!(focuses_within_the_touch(mac, 5));
        assert!(!focuses_within_the_touch(mac, 0));
        assert!(!focuses_within_the_touch(android, 5));
    }

    #[test]
    fn a_touch_finds_the_field_under_it() {
        use super::FieldPlace;
        use bevy_egui::egui::{Id, LayerId, Order, Rect, pos2};
        let layer = LayerId::new(Order::Middle, Id::new("the page"));
        let name = FieldPlace {
            id: Id::new("name"),
            rect: Rect::from_min_max(pos2(10.0, 10.0), pos2(200.0, 40.0)),
            layer,
            chars: 3,
        };
        let code = FieldPlace {
            id: Id::new("code"),
            rect: Rect::from_min_max(pos2(10.0, 60.0), pos2(120.0, 90.0)),
            layer,
            chars: 0,
        };
        let fields = [name, code];
        assert_eq!(super::field_at(&fields, pos2(100.0, 20.0)), Some(name));
        assert_eq!(super::field_at(&fields, pos2(20.0, 89.0)), Some(code));
        assert_eq!(super::field_at(&fields, pos2(150.0, 70.0)), None);
        assert_eq!(super::field_at(&fields, pos2(100.0, 50.0)), None);
        // A tap: down and up on the field, the finger still, nothing over it.
        let tapped = |down, up, top| super::tapped_field(&fields, down, up, top);
        assert_eq!(tapped(pos2(100.0, 20.0), pos2(104.0, 22.0), None), Some(name));
        assert_eq!(tapped(pos2(100.0, 20.0), pos2(104.0, 22.0), Some(layer)), Some(name));
        // A drag that scrolled the page and lifted on the field.
        assert_eq!(tapped(pos2(100.0, 120.0), pos2(100.0, 20.0), None), None);
        assert_eq!(tapped(pos2(100.0, 32.0), pos2(100.0, 20.0), None), None, "moved more than a tap may");
        // A popup or a window lies over the field there.
        let popup = LayerId::new(Order::Foreground, Id::new("popup"));
        assert_eq!(tapped(pos2(100.0, 20.0), pos2(100.0, 20.0), Some(popup)), None);
    }
}
