//! The menu screens, one module and plugin each, drawn with egui under
//! `run_if(in_state(..))`; the table is [`crate::table`]. Egui draws a
//! screen anew each frame, so a menu has nothing to spawn on `OnEnter` or
//! to despawn on `OnExit`: those hooks are used where something happens,
//! the table spawning its cards (which despawn on leaving it) and dealing
//! a fresh deal, the new-game form starting from the rules in play.

pub mod new_game;
pub mod rules;
pub mod settings;
pub mod title;

use crate::table::layout::zoom_for;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub const FELT: egui::Color32 = egui::Color32::from_rgb(22, 96, 58);

/// Ordered so the zoom is set before any screen draws.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Zoom;

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, set_zoom.in_set(Zoom)).add_plugins((
        title::plugin,
        new_game::plugin,
        settings::plugin,
        rules::plugin,
    ));
}

/// Text and buttons grow with the window (see [`zoom_for`]).
fn set_zoom(mut contexts: EguiContexts, windows: Query<&Window>) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(w) = windows.iter().next() {
        let scale = zoom_for(w.width(), w.height());
        if (ctx.zoom_factor() - scale).abs() > 0.01 {
            ctx.set_zoom_factor(scale);
        }
    }
    Ok(())
}

/// A UI over the whole window, below egui's windows and areas.
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

pub fn big_button(ui: &mut egui::Ui, text: String) -> egui::Response {
    ui.add_sized([280.0, 44.0], egui::Button::new(RichText::new(text).size(20.0)))
}

/// Whether a form must put each control under its label (a phone held
/// upright), and how wide its drop-down lists are.
pub fn narrow_layout(ui: &egui::Ui) -> (bool, f32) {
    let width = ui.available_width();
    if width < 560.0 { (true, width - 24.0) } else { (false, 300.0) }
}

/// A form's label: beside its control, or above it on a narrow screen.
pub fn option_label(ui: &mut egui::Ui, text: String, narrow: bool) {
    ui.label(text);
    if narrow {
        ui.end_row();
    }
}
