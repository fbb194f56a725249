//! Where everything lies on the table, landscape or portrait. Positions are
//! in egui points with y downwards over the area below the top bar, so the
//! card sprites and the egui labels beside them share one layout; [`Table`]
//! turns points into the world's coordinates.

use bevy::math::{Rect, Vec2, Vec3};
use klaverjas::{Players, Seat};

/// How much egui's points are enlarged in a window of `width` x `height`
/// logical pixels: text and buttons grow with the window. A portrait window
/// is laid out as a phone 412 points wide (a real phone's logical width:
/// there the OS's own scale factor already does this and the zoom stays 1).
/// A touched screen is held at arm's length: everything a sixth larger.
pub fn zoom_for(width: f32, height: f32, touch: bool) -> f32 {
    let zoom = if height > width * 1.3 { width / 412.0 } else { width.min(height) / 720.0 };
    zoom.clamp(1.0, 3.0) * if touch { TOUCH_ZOOM } else { 1.0 }
}

/// How much larger a touched screen draws than a desktop window.
pub const TOUCH_ZOOM: f32 = 1.16;

/// Height of a card over its width, as the pictures are drawn.
pub const CARD_RATIO: f32 = 1.45;

/// Sizes and places that depend on the window: landscape or portrait.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The table below the top bar, in points.
    pub area: Rect,
    /// The player's cards.
    pub card: Vec2,
    pub portrait: bool,
    /// The player's text size over the usual: the name plates above
    /// North's hand and the player's get room to match.
    pub text: f32,
}

impl Layout {
    pub fn new(area: Rect) -> Layout {
        let portrait = area.height() > area.width() * 1.1;
        // The player's eight cards must fit the width with some overlap,
        // and stay large enough to read and to touch.
        let h = if portrait {
            (area.width() / 4.6 * CARD_RATIO).min(area.height() * 0.16)
        } else {
            (area.height() * 0.22).min(area.width() / 7.0 * CARD_RATIO)
        };
        Layout { area, card: Vec2::new(h / CARD_RATIO, h), portrait, text: 1.0 }
    }

    /// Backs of the bots' hands, and the pile cards.
    pub fn small(&self) -> Vec2 {
        self.card * if self.portrait { 0.45 } else { 0.62 }
    }

    fn top(&self) -> f32 {
        self.area.min.y
    }

    fn bottom(&self) -> f32 {
        self.area.max.y
    }

    fn left(&self) -> f32 {
        self.area.min.x
    }

    fn right(&self) -> f32 {
        self.area.max.x
    }

    /// Where each seat's hand is centred.
    pub fn hand_centre(&self, seat: Seat) -> Vec2 {
        let c = self.area.center();
        let s = self.small();
        // Side hands face the trick, which sits between North and South.
        match seat {
            Seat::South => Vec2::new(c.x, self.bottom() - self.card.y * 0.56),
            Seat::North => Vec2::new(c.x, self.top() + s.y * 0.5 + 40.0 * self.text),
            Seat::West => Vec2::new(self.left() + s.y * 0.5 + 8.0, self.trick_centre().y),
            Seat::East => Vec2::new(self.right() - s.y * 0.5 - 8.0, self.trick_centre().y),
        }
    }

    /// How far a side hand reaches along the table's edge.
    fn side_span(&self) -> f32 {
        self.area.height() * if self.portrait { 0.3 } else { 0.36 }
    }

    /// The size of a card in `seat`'s hand, upright.
    pub fn hand_card(&self, seat: Seat) -> Vec2 {
        if seat == Seat::South { self.card } else { self.small() }
    }

    /// Card centres of a hand of `n` cards.
    pub fn hand_positions(&self, seat: Seat, n: usize) -> Vec<Vec2> {
        let c = self.hand_centre(seat);
        let size = self.hand_card(seat);
        let max_span = match seat {
            Seat::South => self.area.width() - 16.0,
            // Narrower upright, clear of the trump indicator's text.
            Seat::North => self.area.width() * if self.portrait { 0.42 } else { 0.5 },
            _ => self.side_span(),
        };
        let upright = matches!(seat, Seat::South | Seat::North);
        let along = if upright { size.x } else { size.y };
        let step = if n > 1 { ((max_span - along) / (n - 1) as f32).min(along * 0.78) } else { 0.0 };
        let start = -(step * (n.saturating_sub(1)) as f32) / 2.0;
        (0..n)
            .map(|i| {
                let d = start + step * i as f32;
                if upright { c + Vec2::new(d, 0.0) } else { c + Vec2::new(0.0, d) }
            })
            .collect()
    }

    /// The size of a card in the trick.
    pub fn trick_card(&self) -> Vec2 {
        self.card * if self.portrait { 0.72 } else { 0.85 }
    }

    /// Where a seat's card lies in the trick: a cross, each card's corner
    /// index left clear.
    pub fn trick_slot(&self, seat: Seat) -> Vec2 {
        let c = self.trick_centre();
        let t = self.trick_card();
        let dx = t.x * 1.02;
        let dy = t.y * 0.5;
        match seat {
            Seat::South => c + Vec2::new(0.0, dy),
            Seat::North => c - Vec2::new(0.0, dy),
            Seat::West => c - Vec2::new(dx, 0.0),
            Seat::East => c + Vec2::new(dx, 0.0),
        }
    }

    /// On a wide table, the right edge of a lesson's bubble, which stands
    /// left of the trick; `None` on a tall one, where it hangs above it.
    pub fn lesson_bubble_right(&self) -> Option<f32> {
        (self.area.width() > self.area.height()).then(|| self.trick_centre().x - self.trick_card().x * 1.6 - 12.0)
    }

    /// On a tall table, the lowest a lesson's bubble reaches: clear of the
    /// trick; `None` on a wide one.
    pub fn lesson_bubble_bottom(&self) -> Option<f32> {
        (self.area.width() <= self.area.height()).then(|| self.trick_centre().y - self.trick_card().y * 1.02 - 8.0)
    }

    pub fn trick_centre(&self) -> Vec2 {
        let top = self.hand_centre(Seat::North).y + self.small().y * 0.5;
        let bottom = self.hand_centre(Seat::South).y - self.card.y * 0.5 - 40.0 * self.text;
        Vec2::new(self.area.center().x, (top + bottom) / 2.0)
    }

    /// A pile of won tricks, by the seat it lies before: ours (South's)
    /// beside the player's hand, theirs (East's) in the top right corner.
    /// At three East's and West's flank the talon in North's empty place
    /// (below it on a tall table), clear of the trump's indicator in the
    /// top left; at two West's lies in the same place, left of the stock.
    pub fn pile(&self, players: Players, seat: Seat) -> Vec2 {
        let s = self.small();
        let north = self.hand_centre(Seat::North);
        match seat {
            // On a tall table, below the talon, where the indicator
            // leaves room.
            Seat::West if players != Players::Four && self.portrait => north + Vec2::new(-s.x * 1.5, s.y * 1.15),
            Seat::East if players == Players::Three && self.portrait => north + Vec2::new(s.x * 1.5, s.y * 1.15),
            Seat::West if players != Players::Four => north - Vec2::new(s.x * 2.6, 0.0),
            Seat::East if players == Players::Three => north + Vec2::new(s.x * 2.6, 0.0),
            Seat::South if self.portrait => {
                Vec2::new(self.left() + s.y * 0.6 + 8.0, self.hand_centre(Seat::South).y - self.card.y * 1.0)
            }
            Seat::South => Vec2::new(self.left() + s.y * 0.6 + 8.0, self.hand_centre(Seat::South).y - s.x * 0.2),
            Seat::West => Vec2::new(self.left() + s.x * 0.6 + 8.0, self.top() + s.x * 0.6 + 12.0),
            Seat::East | Seat::North => Vec2::new(self.right() - s.y * 0.6 - 8.0, self.top() + s.x * 0.6 + 12.0),
        }
    }

    /// Where a seat's name plate sits: kept inside the table.
    pub fn name_plate(&self, seat: Seat) -> Vec2 {
        let side = self.hand_centre(seat).y + self.side_span() / 2.0 + self.small().x * 0.5 + 18.0;
        let at = match seat {
            // Clear of a lifted card's corner.
            Seat::South => {
                self.hand_centre(Seat::South) - Vec2::new(0.0, self.card.y * 0.72 + 20.0 * (self.text - 1.0))
            }
            Seat::North => Vec2::new(self.area.center().x, self.top() + 16.0 * self.text),
            Seat::West => Vec2::new(self.hand_centre(seat).x + 30.0, side),
            Seat::East => Vec2::new(self.hand_centre(seat).x - 30.0, side),
        };
        // A window of no size yet (a browser's page before its layout)
        // has no inside to keep to: `max` then `min` never panics.
        Vec2::new(at.x.max(self.left() + 70.0).min(self.right() - 70.0), at.y)
    }

    /// The trump indicator's place, top left.
    pub fn indicator(&self) -> Vec2 {
        Vec2::new(self.left() + self.small().x * 0.9 + 8.0, self.top() + self.small().y * 0.5 + 10.0)
    }

    /// The `i`-th turned card of the 2-6 pile.
    pub fn turned_card(&self, i: usize) -> Vec2 {
        self.indicator() + Vec2::new(i as f32 * self.small().x * 0.45, 0.0)
    }
}

/// The window the table is drawn in: its size in logical pixels, egui's
/// zoom, and the area below the top bar in points (clear of a phone's
/// system bars).
#[derive(bevy::prelude::Resource, Clone, Copy, Debug, PartialEq)]
pub struct Table {
    pub window: Vec2,
    pub touch: bool,
    pub zoom: f32,
    pub area: Rect,
    /// The player's text size over the usual (the settings' `text_size`).
    pub text: f32,
}

/// The height egui's top bar takes before the first frame measures it.
pub const BAR_HEIGHT: f32 = 40.0;

impl Table {
    pub fn new(window: Vec2, touch: bool) -> Table {
        let zoom = zoom_for(window.x, window.y, touch);
        let points = window / zoom;
        Table { window, touch, zoom, area: Rect::new(0.0, BAR_HEIGHT, points.x, points.y), text: 1.0 }
    }

    pub fn layout(&self) -> Layout {
        Layout { text: self.text, ..Layout::new(self.area) }
    }

    /// A point of the layout in the 2D camera's world (origin in the
    /// middle, y upwards, one unit a logical pixel).
    pub fn world(&self, at: Vec2, z: f32) -> Vec3 {
        let px = at * self.zoom;
        Vec3::new(px.x - self.window.x / 2.0, self.window.y / 2.0 - px.y, z)
    }

    /// A window position (logical pixels, y downwards) in layout points.
    pub fn points(&self, window_position: Vec2) -> Vec2 {
        window_position / self.zoom
    }
}

impl Default for Table {
    fn default() -> Table {
        Table::new(Vec2::new(1280.0, 720.0), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A browser's page may report a window of no size before its layout:
    /// the table's places are then computed without a panic.
    #[test]
    fn a_window_of_no_size_lays_out_without_a_panic() {
        for size in [Vec2::ZERO, Vec2::new(100.0, 60.0), Vec2::new(1.0, 2000.0)] {
            let layout = Layout::new(Rect::from_corners(Vec2::ZERO, size));
            for seat in Seat::ALL {
                let at = layout.name_plate(seat);
                assert!(at.x.is_finite() && at.y.is_finite(), "{size}: {seat} at {at}");
            }
        }
    }

    /// The card pictures are at least twice the size of the player's hand
    /// on any phone up to 1440 x 3200 pixels.
    #[test]
    fn card_pictures_are_twice_the_largest_hand_on_a_phone() {
        let mut largest: f32 = 0.0;
        for (w, h) in [(720.0, 1600.0), (1080.0, 2340.0), (1080.0, 2400.0), (1170.0, 2532.0), (1440.0, 3200.0)] {
            let table = Table::new(Vec2::new(w, h), false);
            let layout = table.layout();
            assert!(layout.portrait);
            largest = largest.max(layout.card.y * table.zoom);
        }
        assert!(largest > 400.0, "{largest}");
        assert!(2.0 * largest <= klaverjas_cards::CARD_HEIGHT as f32, "cards drawn {largest} px high");
        assert!(2.0 * largest / CARD_RATIO <= klaverjas_cards::CARD_WIDTH as f32);
    }

    #[test]
    fn world_and_window_positions_agree() {
        let table = Table::new(Vec2::new(1080.0, 2340.0), false);
        let at = Vec2::new(100.0, 300.0);
        let world = table.world(at, 0.0);
        let window = Vec2::new(world.x + 540.0, 1170.0 - world.y);
        assert!((table.points(window) - at).length() < 1e-3);
    }
}
