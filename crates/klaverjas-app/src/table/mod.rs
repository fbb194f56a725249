//! The table screen: the cards as entities ([`cards`]), where they lie
//! ([`layout`]), the outlines a lesson or hint draws around them
//! ([`outline`]) and the player's input ([`input`]); egui's words and
//! dialogs over them are [`crate::panels`].

pub mod cards;
pub mod input;
pub mod layout;
pub mod outline;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use layout::Table;

/// The table without egui: cards, layout and input, which the headless
/// tests run.
pub fn plugin(app: &mut App) {
    app.init_resource::<Table>().add_plugins((cards::plugin, input::plugin)).add_systems(PreUpdate, follow_window);
}

/// The window's size decides the layout; the area below the top bar is
/// measured by the top bar (`panels::top_bar`).
fn follow_window(
    windows: Query<&Window, With<PrimaryWindow>>,
    device: Option<Res<crate::platform::Device>>,
    settings: Option<Res<crate::state::PlayerSettings>>,
    mut table: ResMut<Table>,
) {
    let Some(w) = windows.iter().next() else { return };
    let size = Vec2::new(w.width(), w.height());
    let touch = device.is_some_and(|d| d.touch());
    if table.window != size || table.touch != touch {
        let area = table.area;
        let mut fresh = Table { text: table.text, ..Table::new(size, touch) };
        // Keep the measured bar until the top bar measures again.
        fresh.area.min.y = area.min.y;
        *table = fresh;
    }
    let text = settings.map_or(1.0, |s| crate::look::Reading::of(&s.0).scale());
    if table.text != text {
        table.text = text;
    }
}
