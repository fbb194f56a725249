//! The notices on the felt: a refused card with its rule, a bid spoken,
//! roem called and answered, a save that failed. What another seat says
//! comes as speech pointing at them; the player's own stand above their
//! hand, aside from the Roem! button.

use super::paint::{Drawn, Way, clear_of, egui_rect, keep_inside, pos, speech_tail};
use super::view::{Seen, TableView};
use crate::seats::HUMAN;
use crate::words::notice;
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, CornerRadius, FontId, Stroke, StrokeKind};

pub fn notices(mut contexts: EguiContexts, view: TableView, drawn: Res<Drawn>) -> Result {
    let Some(Seen { seats, show, t, layout, now }) = view.seen() else { return Ok(()) };
    let people = seats.remote().map(|r| &r.told.people);
    let ctx = contexts.ctx_mut()?.clone();
    // Above the windows: what a seat says is never hidden behind a box.
    let p = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("notices")));
    let trump = show.shown.contract.map(|c| c.trump);
    let mut placed: Vec<egui::Rect> = Vec::new();
    let open = crate::table::outline::open_cards(&layout, show.shown.players);
    for n in show.notices.iter().filter(|n| n.until > now) {
        let font = FontId::proportional(crate::look::scaled(&ctx, (layout.card.y * 0.12).clamp(14.0, 28.0)));
        let galley = p.layout(notice(n, t, trump, people), font, Color32::BLACK, layout.area.width() * 0.8);
        let size = galley.size() + egui::vec2(20.0, 12.0);
        let at = match n.seat {
            Some(seat) if seat == HUMAN => layout.hand_centre(HUMAN) - Vec2::new(0.0, layout.card.y * 1.05),
            Some(seat) => layout.name_plate(seat).lerp(layout.trick_centre(), 0.3),
            // Above the trick, clear of North's card and of a lesson's
            // outline around the trick.
            None => layout.trick_centre() - Vec2::new(0.0, layout.trick_card().y + 10.0 + size.y * 0.5),
        };
        let rect = egui::Rect::from_center_size(pos(at), size);
        let rect = match drawn.roem_button.filter(|b| n.seat == Some(HUMAN) && b.intersects(rect)) {
            Some(button) => rect.translate(egui::vec2(button.left() - 8.0 - rect.right(), 0.0)),
            None => rect,
        };
        // Clear of a lesson's bubble: below it, else above it.
        let rect = match drawn.last_bubble.filter(|b| b.intersects(rect)) {
            Some(b) if b.bottom() + 6.0 + rect.height() < layout.area.max.y => {
                rect.translate(egui::vec2(0.0, b.bottom() + 6.0 - rect.top()))
            }
            Some(b) => rect.translate(egui::vec2(0.0, b.top() - 6.0 - rect.bottom())),
            None => rect,
        };
        let rect = keep_inside(rect, egui_rect(&layout));
        // Never over a name, a pile's count, the contract or the Roem!
        // button, nor over words said before; where there is a place, not
        // over the trick or the player's hand either (large text on a
        // small phone has none).
        let mut keep = drawn.keep_clear();
        keep.extend(&placed);
        let mut rect = clear_of(rect, &[keep.as_slice(), &open].concat(), egui_rect(&layout), Way::UpOrDown);
        rect = clear_of(rect, &keep, egui_rect(&layout), Way::UpOrDown);
        // Where no place is clear, two words moved to one place stand one
        // under the other.
        while let Some(other) = placed.iter().find(|p| p.intersects(rect)) {
            rect = rect.translate(egui::vec2(0.0, other.bottom() + 4.0 - rect.top()));
        }
        placed.push(rect);
        let fill = if n.warning { Color32::from_rgb(255, 225, 160) } else { Color32::from_rgb(250, 250, 250) };
        if let Some(seat) = n.seat.filter(|&s| s != HUMAN) {
            // What another seat says comes as speech, pointing at them.
            speech_tail(&p, rect, pos(layout.name_plate(seat)), fill);
        }
        p.rect(rect, CornerRadius::same(10), fill, Stroke::new(1.0, Color32::DARK_GRAY), StrokeKind::Inside);
        p.galley(rect.min + egui::vec2(10.0, 6.0), galley, Color32::BLACK);
    }
    // For the tests, which check what the words cover.
    ctx.data_mut(|d| d.insert_temp(egui::Id::new("notice-rects"), placed));
    Ok(())
}
