//! The last trick again, on the bar's Last trick button or a touch on a
//! pile: each card where its seat sits, the winner marked.

use super::paint::{paint_part, texture};
use super::view::{Seen, TableView};
use crate::look::Pt;
use crate::look::at_least_a_finger;
use crate::pictures::CardImages;
use crate::shown::LastTrick;
use crate::table::input::Review;
use crate::words::seat_name;
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Align2, Color32, CornerRadius, Pos2, RichText, Stroke, StrokeKind};
use klaverjas_cards::Face;

pub fn last_trick(
    mut contexts: EguiContexts,
    view: TableView,
    images: Res<CardImages>,
    mut reviews: MessageWriter<Review>,
) -> Result {
    let Some(Seen { show, t, .. }) = view.seen() else { return Ok(()) };
    if show.reviewing
        && let Some(last) = &show.shown.last_trick
    {
        let ctx = contexts.ctx_mut()?.clone();
        let faces: Vec<_> = last.plays.iter().map(|&(_, c)| texture(&mut contexts, &images, Face::Card(c))).collect();
        if last_trick_window(&ctx, t, last, &faces) {
            reviews.write(Review(false));
        }
    }
    Ok(())
}

/// The last trick again, each card where its seat sits, the winner
/// marked. Returns whether the player closed it.
fn last_trick_window(ctx: &egui::Context, t: &crate::i18n::Texts, last: &LastTrick, faces: &[egui::TextureId]) -> bool {
    let mut close = false;
    egui::Window::new(t.fill("review.title", &[("n", &last.number.to_string())]))
        .collapsible(false)
        .resizable(false)
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            let card = egui::vec2(70.0, 70.0 * 1.45);
            let (rect, response) = ui.allocate_exact_size(egui::vec2(card.x * 3.4, card.y * 2.3), egui::Sense::click());
            let c = rect.center();
            for (i, &(seat, _)) in last.plays.iter().enumerate() {
                let offset = match seat {
                    klaverjas::Seat::North => egui::vec2(0.0, -card.y * 0.6),
                    klaverjas::Seat::South => egui::vec2(0.0, card.y * 0.6),
                    klaverjas::Seat::West => egui::vec2(-card.x * 1.15, 0.0),
                    klaverjas::Seat::East => egui::vec2(card.x * 1.15, 0.0),
                };
                let r = egui::Rect::from_center_size(c + offset, card);
                paint_part(ui.painter(), faces[i], r, egui::Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)));
                if seat == last.winner {
                    ui.painter().rect_stroke(
                        r,
                        CornerRadius::same(4),
                        Stroke::new(3.0, Color32::from_rgb(255, 200, 40)),
                        StrokeKind::Outside,
                    );
                }
            }
            let leader = last.plays[0].0;
            let words =
                t.fill("review.who", &[("leader", &seat_name(t, leader)), ("winner", &seat_name(t, last.winner))]);
            ui.label(RichText::new(words).pt(15.0));
            close = ui
                .add_sized(
                    [120.0, at_least_a_finger(ui, 40.0)],
                    egui::Button::new(RichText::new(t.get("review.close")).pt(16.0)),
                )
                .clicked()
                || response.clicked();
        });
    close
}
