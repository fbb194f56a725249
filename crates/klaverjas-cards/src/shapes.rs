//! The suit symbols. Each is drawn in a box from -1 to 1 on both axes
//! (y down) and placed on the card by a transform.

use crate::Deck;
use crate::draw::{Canvas, Colour, rgb};
use klaverjas::Suit;
use tiny_skia::{Path, PathBuilder, Transform};

pub const RED: Colour = rgb(200, 30, 40);
pub const BLACK: Colour = rgb(25, 25, 30);
pub const GREEN: Colour = rgb(20, 130, 45);
pub const BLUE: Colour = rgb(25, 85, 200);
pub const GOLD: Colour = rgb(232, 178, 30);
pub const DARK_GOLD: Colour = rgb(120, 80, 10);
pub const SHIELD_BLUE: Colour = rgb(40, 80, 170);
pub const ACORN_BROWN: Colour = rgb(160, 95, 35);
pub const ACORN_CAP: Colour = rgb(95, 55, 20);
pub const OUTLINE: Colour = rgb(40, 30, 25);

/// The colour a suit is printed in: its index, its pips, its courts' robes.
pub fn ink(deck: Deck, suit: Suit) -> Colour {
    match (deck, suit) {
        (Deck::French, Suit::Diamonds | Suit::Hearts) => RED,
        (Deck::French, _) => BLACK,
        (Deck::FrenchFourColour, Suit::Clubs) => GREEN,
        (Deck::FrenchFourColour, Suit::Diamonds) => BLUE,
        (Deck::FrenchFourColour, Suit::Hearts) => RED,
        (Deck::FrenchFourColour, Suit::Spades) => BLACK,
        // Acorns, bells, roses, shields.
        (Deck::Swiss, Suit::Clubs) => ACORN_BROWN,
        (Deck::Swiss, Suit::Diamonds) => GOLD,
        (Deck::Swiss, Suit::Hearts) => RED,
        (Deck::Swiss, Suit::Spades) => SHIELD_BLUE,
    }
}

/// Draws a suit's symbol into the unit box mapped by `t`.
pub fn draw_suit(c: &mut Canvas, deck: Deck, suit: Suit, t: Transform) {
    match deck {
        Deck::French | Deck::FrenchFourColour => c.fill(&french_pip(suit), ink(deck, suit), t),
        Deck::Swiss => match suit {
            Suit::Clubs => acorn(c, t),
            Suit::Diamonds => bell(c, t),
            Suit::Hearts => rose(c, t),
            Suit::Spades => shield(c, t),
        },
    }
}

fn french_pip(suit: Suit) -> Path {
    let mut p = PathBuilder::new();
    match suit {
        Suit::Hearts => {
            p.move_to(0.0, 0.95);
            p.cubic_to(-0.3, 0.6, -1.0, 0.2, -1.0, -0.35);
            p.cubic_to(-1.0, -0.75, -0.72, -0.95, -0.48, -0.95);
            p.cubic_to(-0.25, -0.95, -0.06, -0.8, 0.0, -0.55);
            p.cubic_to(0.06, -0.8, 0.25, -0.95, 0.48, -0.95);
            p.cubic_to(0.72, -0.95, 1.0, -0.75, 1.0, -0.35);
            p.cubic_to(1.0, 0.2, 0.3, 0.6, 0.0, 0.95);
            p.close();
        }
        Suit::Diamonds => {
            p.move_to(0.0, -1.0);
            p.quad_to(0.32, -0.38, 0.78, 0.0);
            p.quad_to(0.32, 0.38, 0.0, 1.0);
            p.quad_to(-0.32, 0.38, -0.78, 0.0);
            p.quad_to(-0.32, -0.38, 0.0, -1.0);
            p.close();
        }
        Suit::Spades => {
            p.move_to(0.0, -1.0);
            p.cubic_to(0.28, -0.62, 1.0, -0.28, 1.0, 0.22);
            p.cubic_to(1.0, 0.58, 0.72, 0.76, 0.48, 0.76);
            p.cubic_to(0.26, 0.76, 0.1, 0.62, 0.05, 0.5);
            stem(&mut p);
            p.cubic_to(-0.1, 0.62, -0.26, 0.76, -0.48, 0.76);
            p.cubic_to(-0.72, 0.76, -1.0, 0.58, -1.0, 0.22);
            p.cubic_to(-1.0, -0.28, -0.28, -0.62, 0.0, -1.0);
            p.close();
        }
        Suit::Clubs => {
            p.push_circle(0.0, -0.5, 0.43);
            p.push_circle(-0.5, 0.2, 0.43);
            p.push_circle(0.5, 0.2, 0.43);
            p.push_circle(0.0, 0.05, 0.3);
            p.move_to(0.05, 0.3);
            stem(&mut p);
            p.close();
        }
    }
    p.finish().expect("a suit's outline is a valid path")
}

/// The flared foot of spades and clubs, from (0.05, 0.5) to (-0.05, 0.5).
fn stem(p: &mut PathBuilder) {
    p.quad_to(0.1, 0.88, 0.36, 1.0);
    p.line_to(-0.36, 1.0);
    p.quad_to(-0.1, 0.88, -0.05, 0.5);
}

/// Points on a circle's rim between two heights, for bands across a round
/// shape without clipping.
fn circle_band(cx: f32, cy: f32, r: f32, y0: f32, y1: f32) -> Path {
    let mut p = PathBuilder::new();
    let steps = 16;
    let x_at = |y: f32| (r * r - (y - cy) * (y - cy)).max(0.0).sqrt();
    for i in 0..=steps {
        let y = y0 + (y1 - y0) * i as f32 / steps as f32;
        let x = cx + x_at(y);
        if i == 0 { p.move_to(x, y) } else { p.line_to(x, y) }
    }
    for i in (0..=steps).rev() {
        let y = y0 + (y1 - y0) * i as f32 / steps as f32;
        p.line_to(cx - x_at(y), y);
    }
    p.close();
    p.finish().expect("a band is a valid path")
}

pub fn circle(cx: f32, cy: f32, r: f32) -> Path {
    PathBuilder::from_circle(cx, cy, r).expect("a circle with a positive radius")
}

/// Schellen: a round sleigh bell with a band, a slit and a loop.
fn bell(c: &mut Canvas, t: Transform) {
    let w = 0.07;
    c.stroke(&circle(0.0, -0.8, 0.15), DARK_GOLD, w, t);
    let body = circle(0.0, 0.1, 0.82);
    c.fill(&body, GOLD, t);
    c.fill(&circle_band(0.0, 0.1, 0.82, -0.12, 0.12), RED, t);
    c.fill(&circle(-0.28, -0.32, 0.16), rgb(255, 235, 150), t);
    let mut slit = PathBuilder::new();
    slit.move_to(-0.34, 0.58);
    slit.line_to(0.34, 0.58);
    c.stroke(&slit.finish().expect("a line"), OUTLINE, 0.1, t);
    c.fill(&circle(0.0, 0.58, 0.12), OUTLINE, t);
    c.stroke(&body, DARK_GOLD, w, t);
}

/// Schilten: a heraldic shield, blue with a white chief.
fn shield(c: &mut Canvas, t: Transform) {
    let mut p = PathBuilder::new();
    p.move_to(-0.78, -0.88);
    p.line_to(0.78, -0.88);
    p.line_to(0.78, 0.05);
    p.cubic_to(0.78, 0.6, 0.32, 0.85, 0.0, 1.0);
    p.cubic_to(-0.32, 0.85, -0.78, 0.6, -0.78, 0.05);
    p.close();
    let outline = p.finish().expect("a shield");
    c.fill(&outline, SHIELD_BLUE, t);
    let chief = PathBuilder::from_rect(tiny_skia::Rect::from_ltrb(-0.78, -0.88, 0.78, -0.36).expect("a band"));
    c.fill(&chief, rgb(245, 245, 240), t);
    c.fill(&circle(0.0, 0.22, 0.26), GOLD, t);
    c.stroke(&outline, OUTLINE, 0.08, t);
}

/// Rosen: five red petals round a gold heart, green leaves between.
fn rose(c: &mut Canvas, t: Transform) {
    let at = |k: f32, r: f32| {
        let a = (k * 72.0 - 90.0).to_radians();
        (r * a.cos(), r * a.sin())
    };
    for k in 0..5 {
        let (x, y) = at(k as f32 + 0.5, 0.86);
        let (lx, ly) = at(k as f32 + 0.35, 0.5);
        let (rx, ry) = at(k as f32 + 0.65, 0.5);
        let mut leaf = PathBuilder::new();
        leaf.move_to(lx, ly);
        leaf.line_to(x, y);
        leaf.line_to(rx, ry);
        leaf.close();
        c.fill(&leaf.finish().expect("a leaf"), rgb(40, 120, 50), t);
    }
    let mut petals = PathBuilder::new();
    for k in 0..5 {
        let (x, y) = at(k as f32, 0.48);
        petals.push_circle(x, y, 0.4);
    }
    let petals = petals.finish().expect("petals");
    c.fill(&petals, RED, t);
    c.stroke(&petals, rgb(110, 10, 20), 0.06, t);
    c.fill(&circle(0.0, 0.0, 0.3), GOLD, t);
    c.stroke(&circle(0.0, 0.0, 0.3), DARK_GOLD, 0.05, t);
}

/// Eicheln: an acorn with a scaled cap, its stalk and a leaf.
fn acorn(c: &mut Canvas, t: Transform) {
    let mut leaf = PathBuilder::new();
    leaf.move_to(0.05, -0.72);
    leaf.quad_to(0.45, -1.05, 0.85, -0.8);
    leaf.quad_to(0.5, -0.5, 0.05, -0.72);
    leaf.close();
    c.fill(&leaf.finish().expect("a leaf"), rgb(40, 120, 50), t);
    let mut stalk = PathBuilder::new();
    stalk.move_to(0.0, -0.6);
    stalk.line_to(0.05, -0.95);
    c.stroke(&stalk.finish().expect("a stalk"), ACORN_CAP, 0.12, t);
    let mut nut = PathBuilder::new();
    nut.move_to(-0.56, -0.1);
    nut.cubic_to(-0.62, 0.55, -0.3, 0.95, 0.0, 1.0);
    nut.cubic_to(0.3, 0.95, 0.62, 0.55, 0.56, -0.1);
    nut.close();
    let nut = nut.finish().expect("a nut");
    c.fill(&nut, ACORN_BROWN, t);
    c.fill(&circle(-0.22, 0.3, 0.1), rgb(205, 150, 90), t);
    c.stroke(&nut, OUTLINE, 0.06, t);
    let mut cap = PathBuilder::new();
    cap.move_to(-0.72, 0.02);
    cap.cubic_to(-0.72, -0.5, -0.36, -0.68, 0.0, -0.68);
    cap.cubic_to(0.36, -0.68, 0.72, -0.5, 0.72, 0.02);
    cap.quad_to(0.0, 0.16, -0.72, 0.02);
    cap.close();
    let cap = cap.finish().expect("a cap");
    c.fill(&cap, ACORN_CAP, t);
    for (x, y) in [(-0.4, -0.2), (0.0, -0.3), (0.4, -0.2), (-0.2, -0.48), (0.2, -0.48), (-0.2, -0.05), (0.2, -0.05)] {
        c.fill(&circle(x, y, 0.07), rgb(150, 105, 60), t);
    }
    c.stroke(&cap, OUTLINE, 0.06, t);
}
