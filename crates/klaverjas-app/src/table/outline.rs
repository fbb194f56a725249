//! The gold outline that points at something on the table: a lesson's
//! step, the coach's hint.

use super::cards::{look, places};
use super::layout::Layout;
use crate::shown::Shown;
use bevy::math::Vec2;
use bevy_egui::egui::{self, Color32, CornerRadius, Stroke, StrokeKind};
use klaverjas::{Card, Seat};

const GOLD: Color32 = Color32::from_rgb(255, 196, 0);

/// A rectangle of the table's layout in egui's points.
pub fn on_table(centre: Vec2, size: Vec2) -> egui::Rect {
    egui::Rect::from_center_size(egui::pos2(centre.x, centre.y), egui::vec2(size.x, size.y))
}

/// Where `card` lies as the table shows it, in a hand or in the trick.
pub fn card(layout: &Layout, shown: &Shown, card: Card) -> Vec<egui::Rect> {
    places(shown)
        .into_iter()
        .filter(|(c, _)| *c == card)
        .map(|(_, place)| {
            let l = look(layout, shown, place);
            on_table(l.at, if l.sideways { Vec2::new(l.size.y, l.size.x) } else { l.size })
        })
        .collect()
}

/// Outlines `rects` on the felt: above the cards, under every window and
/// every word said at the table, so no line runs through them.
pub fn paint(ctx: &egui::Context, rects: &[egui::Rect]) {
    let p = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("outline")));
    for r in rects {
        p.rect_stroke(r.expand(4.0), CornerRadius::same(8), Stroke::new(4.0, GOLD), StrokeKind::Outside);
    }
}

/// The box a full hand of `seat` takes on the table; the player's with
/// room for a lifted card.
pub fn hand_box(layout: &Layout, seat: Seat, n: usize) -> egui::Rect {
    let card = layout.hand_card(seat);
    let lying = if matches!(seat, Seat::West | Seat::East) { Vec2::new(card.y, card.x) } else { card };
    let cards = layout.hand_positions(seat, n).into_iter().map(|at| on_table(at, lying));
    let mut hand = cards.reduce(|a, b| a.union(b)).unwrap_or(egui::Rect::NOTHING);
    if seat == crate::seats::HUMAN {
        hand.min.y -= card.y * super::cards::LIFT;
    }
    hand
}

/// Where the cards face up lie, which words said at the table leave in
/// view where they can (the bots' backs they may cover for a moment): the
/// player's hand full with a card lifted, then the trick.
pub fn open_cards(layout: &Layout, players: klaverjas::Players) -> Vec<egui::Rect> {
    let trick = players.seats().iter().map(|&seat| on_table(layout.trick_slot(seat), layout.trick_card()));
    std::iter::once(hand_box(layout, crate::seats::HUMAN, 8)).chain(trick).collect()
}
