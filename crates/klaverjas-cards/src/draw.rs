//! Draws whole cards: the face's frame, corner indices, pip layouts, courts
//! and backs, plus contact sheets and the PNG encoding.

use crate::court::draw_court;
use crate::shapes::{self, draw_suit, ink};
use crate::{CARD_HEIGHT, CARD_WIDTH, Deck, Face};
use ab_glyph::{Font, FontRef, OutlineCurve};
use klaverjas::{Rank, Suit};
use tiny_skia::{
    ColorU8, FillRule, FilterQuality, LineCap, LineJoin, Mask, Paint, Path, PathBuilder, Pixmap, PixmapPaint, Rect,
    Stroke, Transform,
};

/// Cards are drawn in a design space 480 units wide, scaled to the files'
/// size on the way to the pixels.
const W: f32 = crate::DESIGN_WIDTH;
const H: f32 = W * CARD_HEIGHT as f32 / CARD_WIDTH as f32;
const CORNER: f32 = crate::CORNER;
const PAPER: Colour = rgb(252, 250, 244);

/// An opaque colour: const, unlike tiny-skia's float `Color`.
pub type Colour = ColorU8;

pub const fn rgb(r: u8, g: u8, b: u8) -> Colour {
    ColorU8::from_rgba(r, g, b, 255)
}

/// A card's pixmap with the few operations the cards need, in design units.
pub struct Canvas {
    pub pixmap: Pixmap,
    clip: Option<Mask>,
    /// Design units to pixels.
    base: Transform,
}

impl Canvas {
    pub fn new() -> Canvas {
        let scale = CARD_WIDTH as f32 / W;
        Canvas {
            pixmap: Pixmap::new(CARD_WIDTH, CARD_HEIGHT).expect("a non-empty card"),
            clip: None,
            base: Transform::from_scale(scale, scale),
        }
    }

    fn paint(colour: Colour) -> Paint<'static> {
        let mut paint = Paint::default();
        paint.set_color_rgba8(colour.red(), colour.green(), colour.blue(), colour.alpha());
        paint.anti_alias = true;
        paint
    }

    pub fn fill(&mut self, path: &Path, colour: Colour, t: Transform) {
        self.pixmap.fill_path(
            path,
            &Self::paint(colour),
            FillRule::Winding,
            self.base.pre_concat(t),
            self.clip.as_ref(),
        );
    }

    /// Strokes with round ends; `width` is in the path's own units.
    pub fn stroke(&mut self, path: &Path, colour: Colour, width: f32, t: Transform) {
        let stroke = Stroke { width, line_cap: LineCap::Round, line_join: LineJoin::Round, ..Stroke::default() };
        self.pixmap.stroke_path(path, &Self::paint(colour), &stroke, self.base.pre_concat(t), self.clip.as_ref());
    }

    /// Limits later drawing to the inside of `path`, or lifts the limit.
    pub fn clip_to(&mut self, path: Option<&Path>) {
        self.clip = path.map(|p| {
            let mut mask = Mask::new(self.pixmap.width(), self.pixmap.height()).expect("a mask the card's size");
            mask.fill_path(p, FillRule::Winding, true, self.base);
            mask
        });
    }
}

pub fn rounded_rect(l: f32, t: f32, r: f32, b: f32, radius: f32) -> Path {
    let k = radius * 0.45;
    let mut p = PathBuilder::new();
    p.move_to(l + radius, t);
    p.line_to(r - radius, t);
    p.cubic_to(r - k, t, r, t + k, r, t + radius);
    p.line_to(r, b - radius);
    p.cubic_to(r, b - k, r - k, b, r - radius, b);
    p.line_to(l + radius, b);
    p.cubic_to(l + k, b, l, b - k, l, b - radius);
    p.line_to(l, t + radius);
    p.cubic_to(l, t + k, l + k, t, l + radius, t);
    p.close();
    p.finish().expect("a rounded rectangle")
}

pub fn line(x0: f32, y0: f32, x1: f32, y1: f32) -> Path {
    let mut p = PathBuilder::new();
    p.move_to(x0, y0);
    p.line_to(x1, y1);
    p.finish().expect("a line")
}

/// The unit box of a symbol centred at (x, y), `half` pixels each way,
/// turned upside down in the card's lower half as on printed cards.
pub fn place(x: f32, y: f32, half: f32, upside_down: bool) -> Transform {
    let t = Transform::from_translate(x, y).pre_scale(half, half);
    if upside_down { t.pre_rotate(180.0) } else { t }
}

/// The half-turn about the card's centre that prints the lower half.
pub fn turned() -> Transform {
    Transform::from_rotate_at(180.0, W / 2.0, H / 2.0)
}

fn font() -> FontRef<'static> {
    FontRef::try_from_slice(epaint_default_fonts::UBUNTU_LIGHT).expect("egui's default font parses")
}

/// The outline of `text` set at `px` pixels, centred on `x` with its
/// baseline at `baseline`, narrowed by `squeeze` (1 keeps the font's width).
pub fn text_path(text: &str, px: f32, x: f32, baseline: f32, squeeze: f32) -> Path {
    let font = font();
    let scale = px / font.units_per_em().unwrap_or(1000.0);
    let width: f32 = text.chars().map(|ch| font.h_advance_unscaled(font.glyph_id(ch))).sum::<f32>() * scale * squeeze;
    let mut pen = x - width / 2.0;
    let mut p = PathBuilder::new();
    for ch in text.chars() {
        let id = font.glyph_id(ch);
        if let Some(outline) = font.outline(id) {
            let at = |q: ab_glyph::Point| (pen + q.x * scale * squeeze, baseline - q.y * scale);
            let mut last: Option<(f32, f32)> = None;
            for curve in &outline.curves {
                let start = match *curve {
                    OutlineCurve::Line(a, _) | OutlineCurve::Quad(a, _, _) | OutlineCurve::Cubic(a, _, _, _) => at(a),
                };
                if last.is_none_or(|l| (l.0 - start.0).abs() > 1e-3 || (l.1 - start.1).abs() > 1e-3) {
                    if last.is_some() {
                        p.close();
                    }
                    p.move_to(start.0, start.1);
                }
                let end = match *curve {
                    OutlineCurve::Line(_, b) => {
                        let b = at(b);
                        p.line_to(b.0, b.1);
                        b
                    }
                    OutlineCurve::Quad(_, c, b) => {
                        let (c, b) = (at(c), at(b));
                        p.quad_to(c.0, c.1, b.0, b.1);
                        b
                    }
                    OutlineCurve::Cubic(_, c1, c2, b) => {
                        let (c1, c2, b) = (at(c1), at(c2), at(b));
                        p.cubic_to(c1.0, c1.1, c2.0, c2.1, b.0, b.1);
                        b
                    }
                };
                last = Some(end);
            }
            if last.is_some() {
                p.close();
            }
        }
        pen += font.h_advance_unscaled(id) * scale * squeeze;
    }
    p.finish().expect("text with at least one glyph")
}

/// Text in a heavier weight than the light font: filled, then outlined.
pub fn draw_text(c: &mut Canvas, text: &str, px: f32, x: f32, baseline: f32, colour: Colour, t: Transform) {
    let squeeze = if text.chars().count() > 1 { 0.74 } else { 1.0 };
    let path = text_path(text, px, x, baseline, squeeze);
    c.fill(&path, colour, t);
    c.stroke(&path, colour, px * 0.07, t);
}

/// Where the pips of a number card sit: columns left, middle, right and
/// a place from the top row (0) to the bottom row (1).
fn pip_layout(count: u8) -> Vec<(i8, f32)> {
    let (l, m, r) = (-1, 0, 1);
    let sides = |rows: &[f32]| rows.iter().flat_map(|&y| [(l, y), (r, y)]).collect::<Vec<_>>();
    let mut pips = match count {
        2 => vec![(m, 0.0), (m, 1.0)],
        3 => vec![(m, 0.0), (m, 0.5), (m, 1.0)],
        4 | 5 => sides(&[0.0, 1.0]),
        6..=8 => sides(&[0.0, 0.5, 1.0]),
        9 | 10 => sides(&[0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]),
        _ => vec![(m, 0.5)],
    };
    match count {
        5 | 9 => pips.push((m, 0.5)),
        7 => pips.push((m, 0.25)),
        8 => pips.extend([(m, 0.25), (m, 0.75)]),
        10 => pips.extend([(m, 1.0 / 6.0), (m, 5.0 / 6.0)]),
        _ => {}
    }
    pips
}

fn pip_count(rank: Rank) -> Option<u8> {
    match rank {
        Rank::Seven => Some(7),
        Rank::Eight => Some(8),
        Rank::Nine => Some(9),
        Rank::Ten => Some(10),
        _ => None,
    }
}

fn draw_pips(c: &mut Canvas, deck: Deck, suit: Suit, count: u8) {
    let (top, bottom) = (146.0, H - 146.0);
    let half = if deck == Deck::Swiss { 46.0 } else { 42.0 };
    for (col, y) in pip_layout(count) {
        let x = W / 2.0 + col as f32 * 86.0;
        let y_px = top + (bottom - top) * y;
        draw_suit(c, deck, suit, place(x, y_px, half, y > 0.5));
    }
}

/// Rank and suit in the top left corner, and turned in the bottom right.
fn draw_index(c: &mut Canvas, deck: Deck, suit: Suit, label: &str) {
    let text_colour = if deck == Deck::Swiss { shapes::BLACK } else { ink(deck, suit) };
    for t in [Transform::identity(), turned()] {
        draw_text(c, label, 96.0, 52.0, 92.0, text_colour, t);
        draw_suit(c, deck, suit, t.pre_concat(place(52.0, 140.0, 35.0, false)));
    }
}

fn blank(c: &mut Canvas) -> Path {
    let edge = rounded_rect(1.5, 1.5, W - 1.5, H - 1.5, CORNER);
    c.fill(&edge, PAPER, Transform::identity());
    edge
}

fn draw_back(c: &mut Canvas, deck: Deck) {
    let edge = blank(c);
    c.stroke(&edge, rgb(150, 150, 150), 3.0, Transform::identity());
    let (field, lattice) = match deck {
        Deck::French => (rgb(150, 28, 40), rgb(190, 70, 80)),
        Deck::FrenchFourColour => (rgb(28, 52, 130), rgb(70, 105, 185)),
        Deck::Swiss => (rgb(22, 90, 55), rgb(60, 135, 90)),
    };
    let inner = rounded_rect(22.0, 22.0, W - 22.0, H - 22.0, CORNER - 12.0);
    c.fill(&inner, field, Transform::identity());
    c.clip_to(Some(&inner));
    let id = Transform::identity();
    if deck == Deck::Swiss {
        // A field of small rosettes.
        for row in 0..16 {
            for col in 0..11 {
                let x = 20.0 + col as f32 * 44.0 + if row % 2 == 1 { 22.0 } else { 0.0 };
                let y = 20.0 + row as f32 * 44.0;
                let mut p = PathBuilder::new();
                for k in 0..4 {
                    let a = (k as f32 * 90.0 + 45.0).to_radians();
                    p.push_circle(x + 9.0 * a.cos(), y + 9.0 * a.sin(), 7.0);
                }
                c.fill(&p.finish().expect("a rosette"), lattice, id);
            }
        }
    } else {
        // A diagonal lattice.
        let step = 34.0;
        for k in -25..25 {
            let x = k as f32 * step;
            c.stroke(&line(x, 0.0, x + H, H), lattice, 4.0, id);
            c.stroke(&line(x + H, 0.0, x, H), lattice, 4.0, id);
        }
    }
    c.clip_to(None);
    c.stroke(&rounded_rect(34.0, 34.0, W - 34.0, H - 34.0, CORNER - 16.0), shapes::GOLD, 4.0, id);
    // A medallion with the four suits.
    let oval =
        PathBuilder::from_oval(Rect::from_xywh(W / 2.0 - 120.0, H / 2.0 - 150.0, 240.0, 300.0).expect("an oval"))
            .expect("an oval");
    c.fill(&oval, PAPER, id);
    c.stroke(&oval, shapes::GOLD, 8.0, id);
    for (suit, (dx, dy)) in Suit::ALL.into_iter().zip([(-48.0, -58.0), (48.0, -58.0), (-48.0, 58.0), (48.0, 58.0)]) {
        draw_suit(c, deck, suit, place(W / 2.0 + dx, H / 2.0 + dy, 38.0, false));
    }
}

/// Draws one face of a deck.
pub fn render(deck: Deck, face: Face) -> Pixmap {
    let mut c = Canvas::new();
    let (suit, label, pips) = match face {
        Face::Back => {
            draw_back(&mut c, deck);
            return c.pixmap;
        }
        Face::Card(card) => (card.suit(), deck.rank_label(card.rank()), pip_count(card.rank())),
        Face::Pile { suit, rank } => (suit, pile_label(rank), Some(rank)),
    };
    let edge = blank(&mut c);
    match face {
        Face::Card(card) if card.rank() == Rank::Ace => {
            draw_suit(&mut c, deck, suit, place(W / 2.0, H / 2.0, 118.0, false));
        }
        Face::Card(card) if pips.is_none() => draw_court(&mut c, deck, suit, card.rank()),
        _ => draw_pips(&mut c, deck, suit, pips.unwrap_or(1)),
    }
    draw_index(&mut c, deck, suit, label);
    c.stroke(&edge, rgb(150, 150, 150), 3.0, Transform::identity());
    c.pixmap
}

fn pile_label(rank: u8) -> &'static str {
    ["2", "3", "4", "5", "6"].get(rank.wrapping_sub(2) as usize).copied().unwrap_or("?")
}

/// Every face of a deck on one sheet, a row per suit from 2 to the ace and
/// the back below, 174 px high: about the size the game shows a hand on a
/// 720p screen.
pub fn contact_sheet(deck: Deck) -> Pixmap {
    let scale = 174.0 / CARD_HEIGHT as f32;
    let (cw, ch) = (CARD_WIDTH as f32 * scale, CARD_HEIGHT as f32 * scale);
    let gap = 14.0;
    let faces = crate::Face::all();
    let per_row = 13;
    let rows = faces.len().div_ceil(per_row);
    let width = (gap + per_row as f32 * (cw + gap)).ceil() as u32;
    let height = (gap + rows as f32 * (ch + gap)).ceil() as u32;
    let mut sheet = Pixmap::new(width, height).expect("a sheet");
    sheet.fill(tiny_skia::Color::from_rgba8(22, 96, 58, 255));
    let paint = PixmapPaint { quality: FilterQuality::Bicubic, ..PixmapPaint::default() };
    for (i, face) in faces.into_iter().enumerate() {
        let (row, col) = (i / per_row, i % per_row);
        let x = gap + col as f32 * (cw + gap);
        let y = gap + row as f32 * (ch + gap);
        let card = render(deck, face);
        sheet.draw_pixmap(0, 0, card.as_ref(), &paint, Transform::from_row(scale, 0.0, 0.0, scale, x, y), None);
    }
    sheet
}

/// The app's icon, `size` pixels square: the two highest trumps, the jack
/// and the nine of clubs, fanned on the felt. Opaque and square, as iOS
/// wants it; Android 8 and later show it inside the launcher's shape.
pub fn app_icon(size: u32) -> Pixmap {
    // Small icons are drawn large and halved: one step from a card's size
    // to 48 pixels would lose whole lines.
    if size < 512 {
        return halve(&app_icon(size * 2));
    }
    let mut icon = Pixmap::new(size, size).expect("an icon");
    icon.fill(tiny_skia::Color::from_rgba8(22, 96, 58, 255));
    let s = size as f32;
    let scale = s * 0.66 / CARD_HEIGHT as f32;
    let paint = PixmapPaint { quality: FilterQuality::Bicubic, ..PixmapPaint::default() };
    let cards = [(Rank::Nine, -12.0_f32, -0.1_f32), (Rank::Jack, 10.0, 0.1)];
    for (rank, degrees, shift) in cards {
        let face = render(Deck::French, Face::Card(klaverjas::Card::new(Suit::Clubs, rank)));
        // About the card's centre, then to its place in the fan.
        let t = Transform::from_translate(-(CARD_WIDTH as f32) / 2.0, -(CARD_HEIGHT as f32) / 2.0)
            .post_scale(scale, scale)
            .post_rotate(degrees)
            .post_translate(s * (0.5 + shift), s * 0.52);
        icon.draw_pixmap(0, 0, face.as_ref(), &paint, t, None);
    }
    icon
}

/// A picture half as wide and high, each pixel the mean of four.
fn halve(big: &Pixmap) -> Pixmap {
    let (w, h) = (big.width() / 2, big.height() / 2);
    let mut small = Pixmap::new(w, h).expect("a picture");
    let from = big.pixels();
    let to = small.pixels_mut();
    for y in 0..h as usize {
        for x in 0..w as usize {
            let at = |dx: usize, dy: usize| from[(2 * y + dy) * big.width() as usize + 2 * x + dx];
            let four = [at(0, 0), at(1, 0), at(0, 1), at(1, 1)];
            let mean = |f: fn(&tiny_skia::PremultipliedColorU8) -> u8| {
                (four.iter().map(|p| f(p) as u32).sum::<u32>() / 4) as u8
            };
            let (r, g, b, a) = (mean(|p| p.red()), mean(|p| p.green()), mean(|p| p.blue()), mean(|p| p.alpha()));
            to[y * w as usize + x] = tiny_skia::PremultipliedColorU8::from_rgba(r, g, b, a).expect("premultiplied");
        }
    }
    small
}

/// The PNG file of a picture: straight (not premultiplied) RGBA, the
/// strongest compression.
pub fn encode_png(pixmap: &Pixmap) -> Vec<u8> {
    let mut rgba = Vec::with_capacity(pixmap.data().len());
    for px in pixmap.pixels() {
        let c = px.demultiply();
        rgba.extend([c.red(), c.green(), c.blue(), c.alpha()]);
    }
    encode_rgba_png(pixmap.width(), pixmap.height(), &rgba)
}

/// [`encode_png`] of straight RGBA pixels, `width` by `height`.
pub fn encode_rgba_png(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::High);
        let mut writer = encoder.write_header().expect("writing to memory");
        writer.write_image_data(rgba).expect("writing to memory");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CARD_HEIGHT, CARD_WIDTH};

    /// The game draws no shadow under a card but within `SEE_THROUGH` of
    /// its edges: every face of every deck is opaque inside that.
    #[test]
    fn a_card_is_opaque_but_near_its_edges() {
        let inset = (crate::SEE_THROUGH * CARD_WIDTH as f32).ceil() as u32;
        for deck in Deck::ALL {
            for face in Face::all() {
                let pixmap = render(deck, face);
                // Every pixel near the inset's corners, where the picture's
                // rounded corners come closest; every third one elsewhere.
                let near_a_corner = |x: u32, y: u32| {
                    let near = |v: u32, size: u32| v < inset + 24 || v >= size - inset - 24;
                    near(x, CARD_WIDTH) && near(y, CARD_HEIGHT)
                };
                for y in inset..CARD_HEIGHT - inset {
                    for x in inset..CARD_WIDTH - inset {
                        if near_a_corner(x, y) || (x % 3 == 0 && y % 3 == 0) {
                            let alpha = pixmap.pixel(x, y).unwrap().alpha();
                            assert_eq!(alpha, 255, "{deck:?} {face:?} at ({x}, {y})");
                        }
                    }
                }
                // Half the inset in from a corner, the picture is see-through.
                assert!(pixmap.pixel(inset / 2, inset / 2).unwrap().alpha() < 255, "{deck:?} {face:?}");
            }
        }
    }
}
