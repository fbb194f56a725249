//! The table screen: the cards as entities ([`cards`]), where they lie
//! ([`layout`]), the player's input ([`input`]) and egui's words and
//! dialogs over them ([`overlay`]).

pub mod cards;
pub mod input;
pub mod layout;
pub mod outline;
pub mod overlay;

use crate::Screen;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
pub use input::Selection;
use layout::Table;

/// The table without egui: cards, layout and input, which the headless
/// tests run.
pub fn plugin(app: &mut App) {
    app.init_resource::<Table>().add_plugins((cards::plugin, input::plugin)).add_systems(PreUpdate, follow_window);
}

/// The egui side of the table.
pub fn overlay_plugin(app: &mut App) {
    app.init_resource::<overlay::Drawn>()
        .add_systems(bevy_egui::EguiPrimaryContextPass, overlay::overlay.run_if(in_state(Screen::Table)));
}

/// The window's size decides the layout; the area below the top bar is
/// measured by the overlay.
fn follow_window(
    windows: Query<&Window, With<PrimaryWindow>>,
    device: Option<Res<crate::platform::Device>>,
    mut table: ResMut<Table>,
) {
    let Some(w) = windows.iter().next() else { return };
    let size = Vec2::new(w.width(), w.height());
    let touch = device.is_some_and(|d| d.touch());
    if table.window != size || table.touch != touch {
        let area = table.area;
        let mut fresh = Table::new(size, touch);
        // Keep the measured bar until the overlay measures again.
        fresh.area.min.y = area.min.y;
        *table = fresh;
    }
}
