//! Paste into every text field of a desktop: Ctrl+V (⌘V on a Mac, and
//! Shift+Insert) reads the system's clipboard and gives egui its text,
//! which the focused field takes at its caret. bevy_egui's own clipboard
//! (its `manage_clipboard` feature) would bring arboard and a Wayland
//! client to the phones' builds too; this is the arboard that Copy
//! already uses, on the desktops only. A browser pastes through the page
//! (`web_text`), a phone's app with a Paste button beside each field
//! (`forms::paste_button`).

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    #[cfg(not(any(target_os = "android", target_os = "ios", target_arch = "wasm32")))]
    app.add_systems(
        PreUpdate,
        paste.after(bevy::input::InputSystems).in_set(bevy_egui::EguiInputSet::ReadBevyMessages),
    );
    let _ = app;
}

/// Whether a key pressed with `held` down asks for a paste.
#[cfg(not(any(target_os = "android", target_os = "ios", target_arch = "wasm32")))]
fn asks_for_paste(key: KeyCode, held: &ButtonInput<KeyCode>) -> bool {
    let command = if cfg!(target_os = "macos") {
        held.any_pressed([KeyCode::SuperLeft, KeyCode::SuperRight])
    } else {
        held.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight])
    };
    let shift = held.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    (command && key == KeyCode::KeyV) || (shift && key == KeyCode::Insert)
}

#[cfg(not(any(target_os = "android", target_os = "ios", target_arch = "wasm32")))]
fn paste(
    mut keys: MessageReader<bevy::input::keyboard::KeyboardInput>,
    held: Res<ButtonInput<KeyCode>>,
    contexts: Query<Entity, With<bevy_egui::PrimaryEguiContext>>,
    mut input: MessageWriter<bevy_egui::input::EguiInputEvent>,
) {
    let asked = keys.read().filter(|k| k.state.is_pressed() && !k.repeat && asks_for_paste(k.key_code, &held)).count();
    let Ok(context) = contexts.single() else { return };
    for _ in 0..asked {
        match crate::platform::paste_from_clipboard() {
            Ok(text) => {
                let text = crate::platform::one_line(&text);
                input.write(bevy_egui::input::EguiInputEvent { context, event: bevy_egui::egui::Event::Paste(text) });
            }
            Err(e) => warn!("nothing to paste: {e}"),
        }
    }
}
