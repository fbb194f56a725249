//! The court cards: a double-headed figure in a frame, as on printed decks.
//! What they wear tells the rank at a glance (a crown and beard for the
//! king, a tiara and long hair for the queen, a feathered cap for the
//! jack), and the robe and the pips beside the head tell the suit.

use crate::Deck;
use crate::draw::{Canvas, Colour, line, place, rgb, rounded_rect, turned};
use crate::shapes::{self, circle, draw_suit, ink};
use klaverjas::{Rank, Suit};
use tiny_skia::{Path, PathBuilder, Transform};

const FRAME: (f32, f32, f32, f32) = (104.0, 40.0, 376.0, 656.0);
const MID: f32 = 348.0;
const SKIN: Colour = rgb(246, 214, 180);

/// `c` mixed with white; `paper` is white's share.
fn tint(c: Colour, paper: f32) -> Colour {
    let mix = |v: u8| (v as f32 * (1.0 - paper) + 255.0 * paper).round() as u8;
    rgb(mix(c.red()), mix(c.green()), mix(c.blue()))
}

fn poly(points: &[(f32, f32)]) -> Path {
    let mut p = PathBuilder::new();
    for (i, &(x, y)) in points.iter().enumerate() {
        if i == 0 { p.move_to(x, y) } else { p.line_to(x, y) }
    }
    p.close();
    p.finish().expect("a polygon")
}

pub fn draw_court(c: &mut Canvas, deck: Deck, suit: Suit, rank: Rank) {
    let robe = ink(deck, suit);
    let (l, t, r, b) = FRAME;
    let frame = rounded_rect(l, t, r, b, 14.0);
    let id = Transform::identity();
    c.fill(&frame, tint(robe, 0.88), id);
    c.clip_to(Some(&frame));
    for half in [id, turned()] {
        draw_half(c, deck, suit, rank, robe, half);
    }
    c.clip_to(None);
    c.stroke(&line(l, MID, r, MID), shapes::DARK_GOLD, 3.0, id);
    c.stroke(&frame, robe, 4.0, id);
}

/// The upper half; the lower is the same turned about the centre.
fn draw_half(c: &mut Canvas, deck: Deck, suit: Suit, rank: Rank, robe: Colour, t: Transform) {
    let gold = shapes::GOLD;
    let dark = shapes::OUTLINE;
    let hair = match rank {
        Rank::King => rgb(200, 200, 205),
        Rank::Queen => rgb(190, 120, 40),
        _ => rgb(110, 70, 35),
    };
    // What the figure holds, behind the body: a sceptre, a rose, a halberd.
    match rank {
        Rank::King => {
            c.stroke(&line(150.0, 350.0, 162.0, 170.0), gold, 10.0, t);
            c.fill(&circle(162.0, 160.0, 18.0), gold, t);
            c.stroke(&circle(162.0, 160.0, 18.0), dark, 3.0, t);
            c.stroke(&line(162.0, 136.0, 162.0, 150.0), dark, 5.0, t);
            c.stroke(&line(154.0, 140.0, 170.0, 140.0), dark, 5.0, t);
        }
        Rank::Queen => {
            c.stroke(&line(330.0, 350.0, 318.0, 205.0), rgb(40, 120, 50), 6.0, t);
            let mut petals = PathBuilder::new();
            for k in 0..5 {
                let a = (k as f32 * 72.0 - 90.0).to_radians();
                petals.push_circle(318.0 + 13.0 * a.cos(), 190.0 + 13.0 * a.sin(), 11.0);
            }
            c.fill(&petals.finish().expect("petals"), shapes::RED, t);
            c.fill(&circle(318.0, 190.0, 7.0), gold, t);
        }
        _ => {
            c.stroke(&line(332.0, 350.0, 332.0, 170.0), rgb(120, 80, 40), 8.0, t);
            let blade = poly(&[(332.0, 128.0), (346.0, 168.0), (332.0, 180.0), (318.0, 168.0)]);
            c.fill(&blade, rgb(200, 205, 215), t);
            c.stroke(&blade, dark, 3.0, t);
        }
    }
    if rank == Rank::Queen {
        // Long hair falls behind the shoulders.
        let mut p = PathBuilder::new();
        p.move_to(186.0, 200.0);
        p.cubic_to(182.0, 140.0, 298.0, 140.0, 294.0, 200.0);
        p.line_to(300.0, 290.0);
        p.line_to(180.0, 290.0);
        p.close();
        c.fill(&p.finish().expect("hair"), hair, t);
    }
    // Square shoulders in the suit's colour, sleeves a shade lighter.
    let mut body = PathBuilder::new();
    body.move_to(116.0, 352.0);
    body.line_to(116.0, 304.0);
    body.cubic_to(116.0, 272.0, 150.0, 258.0, 204.0, 254.0);
    body.line_to(276.0, 254.0);
    body.cubic_to(330.0, 258.0, 364.0, 272.0, 364.0, 304.0);
    body.line_to(364.0, 352.0);
    body.close();
    let body = body.finish().expect("a robe");
    c.fill(&body, robe, t);
    for x in [150.0, 330.0] {
        let sleeve = rounded_rect(x - 26.0, 286.0, x + 26.0, 370.0, 20.0);
        c.fill(&sleeve, tint(robe, 0.35), t);
        c.stroke(&sleeve, dark, 3.0, t);
        c.stroke(&line(x - 26.0, 330.0, x + 26.0, 330.0), gold, 6.0, t);
    }
    c.stroke(&body, dark, 3.0, t);
    c.stroke(&line(240.0, 300.0, 240.0, 352.0), gold, 8.0, t);
    for y in [316.0, 336.0] {
        c.fill(&circle(240.0, y, 5.0), tint(robe, 0.7), t);
    }
    let collar = poly(&[(206.0, 256.0), (274.0, 256.0), (240.0, 302.0)]);
    c.fill(&collar, gold, t);
    c.stroke(&collar, dark, 3.0, t);
    // The head.
    c.fill(&circle(240.0, 206.0, 44.0), SKIN, t);
    c.stroke(&circle(240.0, 206.0, 44.0), dark, 3.0, t);
    for x in [224.0, 256.0] {
        c.fill(&circle(x, 200.0, 5.0), dark, t);
    }
    c.stroke(&line(240.0, 204.0, 236.0, 218.0), dark, 3.0, t);
    let mut mouth = PathBuilder::new();
    mouth.move_to(228.0, 228.0);
    mouth.quad_to(240.0, 236.0, 252.0, 228.0);
    c.stroke(&mouth.finish().expect("a mouth"), rgb(170, 60, 60), 3.0, t);
    match rank {
        Rank::King => {
            // Beard and crown.
            let mut beard = PathBuilder::new();
            beard.move_to(198.0, 214.0);
            beard.cubic_to(204.0, 280.0, 276.0, 280.0, 282.0, 214.0);
            beard.cubic_to(268.0, 236.0, 254.0, 226.0, 240.0, 240.0);
            beard.cubic_to(226.0, 226.0, 212.0, 236.0, 198.0, 214.0);
            beard.close();
            c.fill(&beard.finish().expect("a beard"), hair, t);
            let crown = poly(&[
                (194.0, 172.0),
                (190.0, 116.0),
                (214.0, 142.0),
                (240.0, 104.0),
                (266.0, 142.0),
                (290.0, 116.0),
                (286.0, 172.0),
            ]);
            c.fill(&crown, gold, t);
            c.stroke(&crown, dark, 3.0, t);
            for (x, y) in [(190.0, 116.0), (240.0, 104.0), (290.0, 116.0)] {
                c.fill(&circle(x, y, 7.0), shapes::RED, t);
            }
            c.fill(&circle(240.0, 158.0, 8.0), shapes::BLUE, t);
        }
        Rank::Queen => {
            let mut tiara = PathBuilder::new();
            tiara.move_to(204.0, 176.0);
            for (i, x) in [214.0, 227.0, 240.0, 253.0, 266.0].into_iter().enumerate() {
                let y = if i == 2 {
                    136.0
                } else if i % 2 == 0 {
                    150.0
                } else {
                    160.0
                };
                tiara.line_to(x - 6.0, 170.0);
                tiara.line_to(x, y);
                tiara.line_to(x + 6.0, 170.0);
            }
            tiara.line_to(276.0, 176.0);
            tiara.close();
            let tiara = tiara.finish().expect("a tiara");
            c.fill(&tiara, gold, t);
            c.stroke(&tiara, dark, 2.5, t);
            for (x, y) in [(214.0, 150.0), (240.0, 136.0), (266.0, 150.0)] {
                c.fill(&circle(x, y, 5.5), rgb(250, 250, 250), t);
            }
            for k in 0..7 {
                let x = 214.0 + k as f32 * 52.0 / 6.0;
                let y = 262.0 + (k as f32 - 3.0).powi(2) * -0.9 + 10.0;
                c.fill(&circle(x, y, 4.0), rgb(250, 250, 250), t);
            }
        }
        _ => {
            // A cap with a feather, and short hair below it.
            let fringe =
                poly(&[(198.0, 196.0), (202.0, 170.0), (278.0, 170.0), (282.0, 196.0), (262.0, 180.0), (218.0, 180.0)]);
            c.fill(&fringe, hair, t);
            let mut feather = PathBuilder::new();
            feather.move_to(262.0, 160.0);
            feather.quad_to(300.0, 150.0, 318.0, 92.0);
            feather.quad_to(290.0, 120.0, 262.0, 160.0);
            feather.close();
            let feather = feather.finish().expect("a feather");
            c.fill(&feather, rgb(250, 250, 250), t);
            c.stroke(&feather, dark, 2.5, t);
            let mut cap = PathBuilder::new();
            cap.move_to(186.0, 176.0);
            cap.cubic_to(186.0, 120.0, 294.0, 120.0, 294.0, 176.0);
            cap.close();
            let cap = cap.finish().expect("a cap");
            c.fill(&cap, robe, t);
            c.stroke(&cap, dark, 3.0, t);
            c.stroke(&line(184.0, 174.0, 296.0, 174.0), gold, 8.0, t);
        }
    }
    // The suit beside the head, both sides.
    for x in [140.0, 340.0] {
        draw_suit(c, deck, suit, t.pre_concat(place(x, 84.0, 26.0, false)));
    }
}
