//! Painting shared by the table's panels and the screens: the skin's
//! pictures as egui textures, a suit's symbol, a label kept on the table,
//! a speech bubble's tail, and where the panels drew what a lesson points at.

use crate::pictures::CardImages;
use crate::table::layout::Layout;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, Pos2, Stroke};
use bevy_egui::{EguiContexts, EguiTextureHandle};
use klaverjas::{Card, PileCard, Rank, Suit};
use klaverjas_cards::Face;

pub fn pos(v: Vec2) -> Pos2 {
    Pos2::new(v.x, v.y)
}

/// The egui texture of a picture of the current skin.
pub fn texture(contexts: &mut EguiContexts, images: &CardImages, face: Face) -> egui::TextureId {
    contexts.add_image(EguiTextureHandle::Weak(images.face(face).id()))
}

/// Paints the part `uv` (0..1 on both axes) of a texture into `rect`.
pub fn paint_part(p: &egui::Painter, texture: egui::TextureId, rect: egui::Rect, uv: egui::Rect) {
    let mut mesh = egui::Mesh::with_texture(texture);
    mesh.add_rect_with_uv(rect, uv, Color32::WHITE);
    p.add(mesh);
}

/// A suit's symbol as the skin draws it: the middle of its ace.
pub fn paint_suit(p: &egui::Painter, texture: egui::TextureId, centre: Pos2, half: f32) {
    // The ace's pip fills the middle half of the card's width.
    let uv = egui::Rect::from_center_size(Pos2::new(0.5, 0.5), egui::vec2(0.52, 0.52 / 1.45));
    paint_part(p, texture, egui::Rect::from_center_size(centre, egui::Vec2::splat(2.0 * half)), uv);
}

pub fn suit_texture(contexts: &mut EguiContexts, images: &CardImages, suit: Suit) -> egui::TextureId {
    texture(contexts, images, Face::Card(Card::new(suit, Rank::Ace)))
}

pub fn pile_texture(contexts: &mut EguiContexts, images: &CardImages, c: PileCard) -> egui::TextureId {
    texture(contexts, images, Face::Pile { suit: c.suit, rank: c.rank })
}

/// Slides a label sideways so it stays on the table.
pub fn keep_inside(rect: egui::Rect, area: egui::Rect) -> egui::Rect {
    let dx = (area.left() + 4.0 - rect.left()).max(0.0) - (rect.right() - area.right() + 4.0).max(0.0);
    rect.translate(egui::vec2(dx, 0.0))
}

/// Where this frame's pass drew the things a lesson may point at, so that
/// its outline goes around the thing itself.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct Drawn {
    pub roem_button: Option<egui::Rect>,
    pub sheet: Option<egui::Rect>,
    /// The box of the player's bid, which a lesson's bubble keeps clear of.
    pub bid_box: Option<egui::Rect>,
    /// The trump's mark and the contract's words on the felt, each where
    /// it was drawn.
    pub trump_mark: Option<egui::Rect>,
    pub contract_words: Option<egui::Rect>,
    /// The contract's words are in the top bar: on the felt they would
    /// lie over a hand or the trick.
    pub contract_in_bar: bool,
    /// Where a lesson's bubble stands this pass (drawn after the panels).
    pub bubble: Option<egui::Rect>,
    /// Where it stood last pass: the words said at the table, drawn
    /// before it, step aside from it.
    pub last_bubble: Option<egui::Rect>,
    /// Each seat's name plate, by seat: what is said at the table and the
    /// Roem! button keep clear of them.
    pub plates: [Option<egui::Rect>; 4],
    /// Each pile's count of tricks (and points), by the pile's seat.
    pub counts: [Option<egui::Rect>; 4],
}

impl Drawn {
    /// The trump's mark and words in the corner together, which a
    /// lesson's bubble keeps clear of.
    pub fn indicator(&self) -> Option<egui::Rect> {
        [self.trump_mark, self.contract_words].into_iter().flatten().reduce(egui::Rect::union)
    }

    /// What the words said at the table must leave in view: the names,
    /// the piles' counts, the contract's words and the Roem! button.
    pub fn keep_clear(&self) -> Vec<egui::Rect> {
        let marks = self.plates.iter().chain(&self.counts).copied().chain([self.indicator(), self.roem_button]);
        marks.flatten().collect()
    }
}

/// Which ways [`clear_of`] may move a rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    UpOrDown,
    /// Up only: what stands above the player's hand never moves onto it.
    Up,
}

/// `rect` moved `way`, the least it must, to lie inside `area` clear of
/// every rectangle of `keep`; where no such place is next to one of them,
/// `rect` as it was.
pub fn clear_of(rect: egui::Rect, keep: &[egui::Rect], area: egui::Rect, way: Way) -> egui::Rect {
    let clear = |r: &egui::Rect| area.expand(0.5).contains_rect(*r) && !keep.iter().any(|k| k.intersects(*r));
    if clear(&rect) {
        return rect;
    }
    let moves = keep.iter().flat_map(|k| [k.top() - 4.0 - rect.bottom(), k.bottom() + 4.0 - rect.top()]);
    let moves = moves.filter(|&dy| way == Way::UpOrDown || dy < 0.0);
    let places = moves.map(|dy| rect.translate(egui::vec2(0.0, dy))).filter(clear);
    let off = |r: &egui::Rect| (r.center().y - rect.center().y).abs();
    places.min_by(|a, b| off(a).total_cmp(&off(b))).unwrap_or(rect)
}

pub fn egui_rect(layout: &Layout) -> egui::Rect {
    egui::Rect::from_min_max(pos(layout.area.min), pos(layout.area.max))
}

/// A tail from a speech bubble towards who speaks.
pub fn speech_tail(p: &egui::Painter, bubble: egui::Rect, speaker: Pos2, fill: Color32) {
    let centre = bubble.center();
    let towards = (speaker - centre).normalized();
    // Where the line towards the speaker leaves the bubble.
    let exit =
        (bubble.width() * 0.5 / towards.x.abs().max(1e-3)).min(bubble.height() * 0.5 / towards.y.abs().max(1e-3));
    let base = centre + towards * (exit - 6.0);
    let side = egui::vec2(-towards.y, towards.x) * 8.0;
    let tip = centre + towards * (exit + 16.0);
    p.add(egui::Shape::convex_polygon(vec![base + side, tip, base - side], fill, Stroke::new(1.0, Color32::DARK_GRAY)));
}

/// A button's key, told to a screen reader and shown on hovering.
pub fn shortcut(ui: &egui::Ui, response: egui::Response, key: Option<egui::Key>) -> egui::Response {
    let Some(key) = key else { return response };
    ui.ctx().accesskit_node_builder(response.id, |node| node.set_keyboard_shortcut(key.name()));
    response.on_hover_text(key.name())
}
