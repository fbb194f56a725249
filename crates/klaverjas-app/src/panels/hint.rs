//! A practice game's hint on the table: its words above the player's
//! hand, and the card outlined.

use super::view::{Seen, TableView};
use crate::coach::{Hint, helps};
use crate::seats::HUMAN;
use crate::table::outline;
use crate::words::hint_words;
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, RichText};
use klaverjas::Action;

pub fn hint_panel(mut contexts: EguiContexts, hint: Res<Hint>, view: TableView) -> Result {
    let Some(Seen { seats, show, t, layout, .. }) = view.seen().filter(|v| helps(v.seats)) else { return Ok(()) };
    let Some(decision) = hint.shown(seats.moment()) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?.clone();
    let game = seats.game();
    if let Action::Play(card) = decision.action {
        outline::paint(&ctx, &outline::card(&layout, &show.shown, card));
    }
    let words = hint_words(decision, t, game);
    // Just above the player's cards, as wide as the hand may be.
    let hand_top = layout.hand_centre(HUMAN).y - layout.hand_card(HUMAN).y * 0.5 - 10.0;
    let width = (layout.area.width() - 24.0).min(560.0);
    egui::Area::new("hint".into())
        .pivot(egui::Align2::CENTER_BOTTOM)
        .fixed_pos(egui::pos2(layout.area.center().x, hand_top))
        .show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(10.0).show(ui, |ui| {
                ui.set_max_width(width);
                ui.label(RichText::new(words).size(17.0));
            });
        });
    Ok(())
}
