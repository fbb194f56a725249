//! A practice game's hint on the table: its words above the player's
//! hand, and the card outlined.

use super::view::{Seen, TableView};
use crate::coach::{Hint, helps};
use crate::look::Pt;
use crate::seats::HUMAN;
use crate::table::outline;
use crate::words::{hint_figures, hint_words};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, RichText};
use klaverjas::Action;

pub fn hint_panel(
    mut contexts: EguiContexts,
    mut hint: ResMut<Hint>,
    view: TableView,
    drawn: Res<super::paint::Drawn>,
) -> Result {
    let Some(Seen { seats, show, t, layout, .. }) = view.seen().filter(|v| helps(v.seats)) else { return Ok(()) };
    let Some(advice) = hint.shown(seats.moment()) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?.clone();
    let game = seats.game();
    if let Action::Play(card) = advice.decision.action {
        outline::paint(&ctx, &outline::card(&layout, &show.shown, card));
    }
    // The plain reason first; the figures when the player asks why.
    let words = hint_words(advice, t, game);
    let figures = hint_figures(advice, t);
    let (mut asked, mut closed) = (false, false);
    // Just above the player's cards, as wide as the hand may be; in the
    // bidding above the box of the player's bid, which it must not hide.
    let hand_top = layout.hand_centre(HUMAN).y - layout.hand_card(HUMAN).y * 0.5 - 10.0;
    let bottom = drawn.bid_box.map_or(hand_top, |b| hand_top.min(b.top() - 8.0));
    let width = (layout.area.width() - 24.0).min(560.0);
    // Above the words said at the table: the player asked for this.
    egui::Area::new("hint".into())
        .order(egui::Order::Tooltip)
        .pivot(egui::Align2::CENTER_BOTTOM)
        .fixed_pos(egui::pos2(layout.area.center().x, bottom))
        .show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(10.0).show(ui, |ui| {
                ui.set_max_width(width);
                ui.label(RichText::new(words).pt(17.0));
                let height = crate::look::at_least_a_finger(ui, 0.0);
                let link = |words: String| {
                    egui::Button::new(RichText::new(words).pt(15.0).underline())
                        .frame(false)
                        .min_size(egui::vec2(0.0, height))
                };
                if let (Some(figures), true) = (&figures, hint.why) {
                    ui.label(RichText::new(figures).pt(15.0).italics());
                }
                ui.horizontal(|ui| {
                    if figures.is_some() && !hint.why {
                        let response = ui.add(link(t.get("hint.why")));
                        crate::forms::mark_target(ui, "hint.why", &response);
                        asked = response.clicked();
                    }
                    let response = ui.add(link(t.get("hint.close")));
                    crate::forms::mark_target(ui, "hint.close", &response);
                    closed = response.clicked();
                });
            });
        });
    hint.why |= asked;
    if closed {
        // Asked again, the coach gives it again.
        *hint = Hint::default();
    }
    Ok(())
}
