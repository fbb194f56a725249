//! The table, drawn with egui's painter: felt, four seats, the hands, the
//! trick, won tricks, the trump indicator; and the player's input (click
//! or tap a card, or arrows / number keys and Enter).

use crate::i18n::Texts;
use crate::pictures::{self, CardPictures};
use crate::session::{HUMAN, Session, seat_name, suit_name};
use crate::settings::Skin;
use bevy_egui::egui::{self, Align2, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use klaverjas::{Action, Card, CardSet, Phase, PileCard, Rank, Seat, Suit, Team};
use klaverjas_cards::Face;

pub const FELT: Color32 = Color32::from_rgb(22, 96, 58);
pub const TEAM_NS: Color32 = Color32::from_rgb(240, 200, 80);
pub const TEAM_EW: Color32 = Color32::from_rgb(120, 190, 255);

pub fn team_colour(team: Team) -> Color32 {
    if team == Team::NS { TEAM_NS } else { TEAM_EW }
}

/// How much egui's points are enlarged in a window of `width` x `height`
/// logical pixels: text and buttons grow with the window. A portrait window
/// is laid out as a phone 412 points wide (a real phone's logical width:
/// there the OS's own scale factor already does this and the zoom stays 1).
pub fn zoom_for(width: f32, height: f32) -> f32 {
    let zoom = if height > width * 1.3 { width / 412.0 } else { width.min(height) / 720.0 };
    zoom.clamp(1.0, 3.0)
}

/// Sizes and places that depend on the window: landscape or portrait.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub area: Rect,
    pub card: Vec2,
    pub portrait: bool,
}

impl Layout {
    pub fn new(area: Rect) -> Layout {
        let portrait = area.height() > area.width() * 1.1;
        // The player's eight cards must fit the width with some overlap,
        // and stay large enough to read and to touch.
        let h = if portrait {
            (area.width() / 4.6 * 1.45).min(area.height() * 0.16)
        } else {
            (area.height() * 0.22).min(area.width() / 7.0 * 1.45)
        };
        Layout { area, card: Vec2::new(h / 1.45, h), portrait }
    }

    /// Backs of the bots' hands, and the pile cards.
    fn small(&self) -> Vec2 {
        self.card * if self.portrait { 0.45 } else { 0.62 }
    }

    /// Where each seat's hand is centred.
    pub fn hand_centre(&self, seat: Seat) -> Pos2 {
        let a = self.area;
        let s = self.small();
        // Side hands face the trick, which sits between North and South.
        match seat {
            Seat::South => Pos2::new(a.center().x, a.bottom() - self.card.y * 0.56),
            Seat::North => Pos2::new(a.center().x, a.top() + s.y * 0.5 + 40.0),
            Seat::West => Pos2::new(a.left() + s.y * 0.5 + 8.0, self.trick_centre().y),
            Seat::East => Pos2::new(a.right() - s.y * 0.5 - 8.0, self.trick_centre().y),
        }
    }

    /// How far a side hand reaches along the table's edge.
    fn side_span(&self) -> f32 {
        self.area.height() * if self.portrait { 0.3 } else { 0.36 }
    }

    /// Card centres of a hand of `n` cards.
    pub fn hand_positions(&self, seat: Seat, n: usize) -> Vec<Pos2> {
        let c = self.hand_centre(seat);
        let (size, max_span) = match seat {
            Seat::South => (self.card, self.area.width() - 16.0),
            // Narrower upright, clear of the trump indicator's text.
            Seat::North => (self.small(), self.area.width() * if self.portrait { 0.42 } else { 0.5 }),
            _ => (self.small(), self.side_span()),
        };
        let along = if matches!(seat, Seat::South | Seat::North) { size.x } else { size.y };
        let step = if n > 1 { ((max_span - along) / (n - 1) as f32).min(along * 0.78) } else { 0.0 };
        let start = -(step * (n.saturating_sub(1)) as f32) / 2.0;
        (0..n)
            .map(|i| {
                let d = start + step * i as f32;
                if matches!(seat, Seat::South | Seat::North) { c + Vec2::new(d, 0.0) } else { c + Vec2::new(0.0, d) }
            })
            .collect()
    }

    /// The size of a card in the trick.
    pub fn trick_card(&self) -> Vec2 {
        self.card * if self.portrait { 0.72 } else { 0.85 }
    }

    /// Where a seat's card lies in the trick: a cross, each card's corner
    /// index left clear.
    pub fn trick_slot(&self, seat: Seat) -> Pos2 {
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

    pub fn trick_centre(&self) -> Pos2 {
        let top = self.hand_centre(Seat::North).y + self.small().y * 0.5;
        let bottom = self.hand_centre(Seat::South).y - self.card.y * 0.5 - 40.0;
        Pos2::new(self.area.center().x, (top + bottom) / 2.0)
    }

    /// The pile of tricks a team has won: ours beside the player's hand,
    /// theirs in the top right corner.
    pub fn pile(&self, team: Team) -> Pos2 {
        let s = self.small();
        match team {
            Team::NS if self.portrait => {
                Pos2::new(self.area.left() + s.y * 0.6 + 8.0, self.hand_centre(Seat::South).y - self.card.y * 1.0)
            }
            Team::NS => Pos2::new(self.area.left() + s.y * 0.6 + 8.0, self.hand_centre(Seat::South).y - s.x * 0.2),
            Team::EW => Pos2::new(self.area.right() - s.y * 0.6 - 8.0, self.area.top() + s.x * 0.6 + 12.0),
        }
    }

    /// Where a seat's name plate sits: kept inside the table.
    pub fn name_plate(&self, seat: Seat) -> Pos2 {
        let side = self.hand_centre(seat).y + self.side_span() / 2.0 + self.small().x * 0.5 + 18.0;
        let at = match seat {
            Seat::South => self.hand_centre(Seat::South) - Vec2::new(0.0, self.card.y * 0.62),
            Seat::North => Pos2::new(self.area.center().x, self.area.top() + 16.0),
            Seat::West => Pos2::new(self.hand_centre(seat).x + 30.0, side),
            Seat::East => Pos2::new(self.hand_centre(seat).x - 30.0, side),
        };
        Pos2::new(at.x.clamp(self.area.left() + 70.0, self.area.right() - 70.0), at.y)
    }

    /// The trump indicator's place, top left.
    pub fn indicator(&self) -> Pos2 {
        Pos2::new(self.area.left() + self.small().x * 0.9 + 8.0, self.area.top() + self.small().y * 0.5 + 10.0)
    }
}

/// Suit symbol and colour in a skin.
pub fn suit_look(skin: Skin, suit: Suit) -> (&'static str, Color32) {
    let red = Color32::from_rgb(200, 30, 40);
    let black = Color32::from_rgb(20, 20, 20);
    match skin {
        Skin::French => match suit {
            Suit::Clubs => ("♣", black),
            Suit::Diamonds => ("♦", red),
            Suit::Hearts => ("♥", red),
            Suit::Spades => ("♠", black),
        },
        Skin::FrenchFourColour => match suit {
            Suit::Clubs => ("♣", Color32::from_rgb(20, 130, 40)),
            Suit::Diamonds => ("♦", Color32::from_rgb(25, 85, 200)),
            Suit::Hearts => ("♥", red),
            Suit::Spades => ("♠", black),
        },
        // Bells, Shields, Roses, Acorns.
        Skin::Swiss => match suit {
            Suit::Clubs => ("🌰", Color32::from_rgb(120, 70, 20)),
            Suit::Diamonds => ("🔔", Color32::from_rgb(190, 140, 0)),
            Suit::Hearts => ("🌹", red),
            Suit::Spades => ("🛡", Color32::from_rgb(30, 60, 150)),
        },
    }
}

pub fn rank_label(skin: Skin, rank: Rank) -> &'static str {
    match (skin, rank) {
        (Skin::Swiss, Rank::Jack) => "B",
        (Skin::Swiss, Rank::Queen) => "V",
        (Skin::Swiss, Rank::King) => "H",
        (_, Rank::Ten) => "10",
        (_, r) => match r {
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
            Rank::Ten => "10",
        },
    }
}

/// Draws a card face centred at `at`: the skin's picture, or a plain card
/// where the pictures are missing.
pub fn draw_face(
    p: &egui::Painter,
    pics: &mut CardPictures,
    card: Card,
    at: Pos2,
    size: Vec2,
    dim: bool,
    lifted: bool,
) {
    let at = if lifted { at - Vec2::new(0.0, size.y * 0.12) } else { at };
    let rect = Rect::from_center_size(at, size);
    let r = CornerRadius::same((size.x * 0.07) as u8);
    p.rect_filled(rect.translate(Vec2::new(1.5, 2.5)), r, Color32::from_black_alpha(70));
    if let Some(texture) = pics.texture(p.ctx(), Face::Card(card)) {
        // A card that may not be played is darkened, as the plain one is.
        let tint = if dim { Color32::from_gray(145) } else { Color32::WHITE };
        pictures::paint(p, texture, rect, false, tint);
        return;
    }
    p.rect(rect, r, Color32::from_rgb(252, 250, 244), Stroke::new(1.0, Color32::from_gray(120)), StrokeKind::Inside);
    let (symbol, colour) = suit_look(pics.skin(), card.suit());
    let label = rank_label(pics.skin(), card.rank());
    let corner = FontId::proportional(size.y * 0.2);
    let tl = rect.left_top() + Vec2::new(size.x * 0.08, size.y * 0.03);
    p.text(tl, Align2::LEFT_TOP, label, corner.clone(), colour);
    p.text(tl + Vec2::new(0.0, size.y * 0.2), Align2::LEFT_TOP, symbol, FontId::proportional(size.y * 0.16), colour);
    p.text(
        rect.center() + Vec2::new(size.x * 0.12, size.y * 0.14),
        Align2::CENTER_CENTER,
        symbol,
        FontId::proportional(size.y * 0.4),
        colour,
    );
    if matches!(card.rank(), Rank::Jack | Rank::Queen | Rank::King) {
        p.text(
            rect.center() + Vec2::new(size.x * 0.1, -size.y * 0.2),
            Align2::CENTER_CENTER,
            label,
            FontId::proportional(size.y * 0.22),
            colour,
        );
    }
    if dim {
        p.rect_filled(rect, r, Color32::from_black_alpha(110));
    }
}

pub fn draw_back(p: &egui::Painter, pics: &mut CardPictures, at: Pos2, size: Vec2, sideways: bool) {
    let size = if sideways { Vec2::new(size.y, size.x) } else { size };
    if let Some(texture) = pics.texture(p.ctx(), Face::Back) {
        pictures::paint(p, texture, Rect::from_center_size(at, size), sideways, Color32::WHITE);
        return;
    }
    let rect = Rect::from_center_size(at, size);
    let r = CornerRadius::same((size.x.min(size.y) * 0.08) as u8);
    p.rect(rect, r, Color32::from_rgb(150, 30, 40), Stroke::new(2.0, Color32::WHITE), StrokeKind::Inside);
    p.rect_stroke(
        rect.shrink(size.x.min(size.y) * 0.12),
        r,
        Stroke::new(1.5, Color32::from_rgb(240, 200, 120)),
        StrokeKind::Inside,
    );
}

/// The player's hand in table order: trumps first, then the other suits,
/// each by strength.
pub fn sorted_hand(hand: CardSet, trump: Option<Suit>) -> Vec<Card> {
    let mut cards: Vec<Card> = hand.iter().collect();
    let suit_order = |s: Suit| -> usize {
        if Some(s) == trump {
            0
        } else {
            // Alternate colours: clubs, hearts, spades, diamonds.
            1 + [0usize, 3, 1, 2][s.index()]
        }
    };
    cards.sort_by_key(|c| (suit_order(c.suit()), std::cmp::Reverse(c.rank().strength(Some(c.suit()) == trump))));
    cards
}

/// Slides a label sideways so it stays on the table.
fn keep_inside(rect: Rect, area: Rect) -> Rect {
    let dx = (area.left() + 4.0 - rect.left()).max(0.0) - (rect.right() - area.right() + 4.0).max(0.0);
    rect.translate(Vec2::new(dx, 0.0))
}

fn lerp(a: Pos2, b: Pos2, t: f32) -> Pos2 {
    let t = t.clamp(0.0, 1.0);
    let t = t * t * (3.0 - 2.0 * t);
    a + (b - a) * t
}

/// The order of the deal: from the dealer's left, packets of 3, 2 and 3
/// (RULES section 2). Each entry is the seat receiving that card.
fn deal_order(dealer: Seat) -> Vec<Seat> {
    let mut order = Vec::with_capacity(32);
    for packet in [3, 2, 3] {
        for k in 1..=4 {
            order.extend(std::iter::repeat_n(dealer.after(k), packet));
        }
    }
    order
}

/// Of the deal's 32 cards, how long each is in the air (as a share of the
/// whole deal), and when the `k`-th leaves the dealer.
const IN_AIR: f32 = 0.1;
fn leaves_at(k: usize) -> f32 {
    k as f32 / 32.0 * (1.0 - IN_AIR)
}

/// Cards each seat has received at `progress` (0..1) of the deal; all of
/// them when no deal is under way.
fn dealt_counts(dealer: Seat, progress: Option<f32>) -> [usize; 4] {
    let Some(t) = progress else { return [8; 4] };
    let mut counts = [0; 4];
    for (k, seat) in deal_order(dealer).into_iter().enumerate() {
        if leaves_at(k) + IN_AIR <= t {
            counts[seat.index()] += 1;
        }
    }
    counts
}

/// The packets in the air, from the dealer to each seat in turn.
fn draw_dealing(p: &egui::Painter, pics: &mut CardPictures, layout: &Layout, dealer: Seat, t: f32) {
    let from = layout.hand_centre(dealer);
    for (k, seat) in deal_order(dealer).into_iter().enumerate() {
        let start = leaves_at(k);
        if t >= start && t < start + IN_AIR {
            let at = lerp(from, layout.hand_centre(seat), (t - start) / IN_AIR);
            draw_back(p, pics, at, layout.small(), false);
        }
    }
}

/// Keyboard selection in the player's hand.
#[derive(bevy::prelude::Resource, Default)]
pub struct Selection(pub Option<usize>);

/// Draws the table and returns the action the player chose, if any.
pub fn draw(
    ui: &mut egui::Ui,
    s: &mut Session,
    texts: &Texts,
    now: f32,
    selection: &mut Selection,
    pics: &mut CardPictures,
) -> Option<Action> {
    let area = ui.max_rect();
    let layout = Layout::new(area);
    pics.fit(layout.card.y * ui.ctx().pixels_per_point());
    let p = ui.painter().clone();
    p.rect_filled(area, 0.0, FELT);
    let game = s.m.game();
    let trump = game.contract().map(|c| c.trump);
    let waiting = s.waiting_for(now);
    let my_turn = waiting == Some(HUMAN) && s.is_human(HUMAN);

    // Names, team colours, dealer marker, who is to act.
    for seat in Seat::ALL {
        let mut name = seat_name(texts, seat);
        if seat == game.dealer() {
            name = format!("{name}  ({})", texts.get("table.dealer"));
        }
        if game.contract().is_some_and(|c| c.declarer == seat) {
            name = format!("{name}  ★");
        }
        let colour = team_colour(seat.team());
        let at = layout.name_plate(seat);
        let font = FontId::proportional((layout.card.y * 0.13).clamp(14.0, 30.0));
        let galley = p.layout_no_wrap(name, font, Color32::BLACK);
        let rect = keep_inside(Rect::from_center_size(at, galley.size() + Vec2::new(16.0, 6.0)), layout.area);
        let active = waiting == Some(seat);
        p.rect(
            rect,
            CornerRadius::same(6),
            colour,
            Stroke::new(if active { 3.0 } else { 0.0 }, Color32::WHITE),
            StrokeKind::Outside,
        );
        p.galley(rect.min + Vec2::new(8.0, 3.0), galley, Color32::BLACK);
    }

    // Bots' hands as backs.
    let dealing = s.shown.dealing.map(|(start, d)| ((now - start) / d.max(0.01)).clamp(0.0, 1.0));
    let arrived = dealt_counts(game.dealer(), dealing);
    for seat in [Seat::North, Seat::West, Seat::East] {
        let n = s.shown.hands[seat.index()].len() as usize;
        let n = n.min(arrived[seat.index()]);
        for at in layout.hand_positions(seat, n) {
            draw_back(&p, pics, at, layout.small(), matches!(seat, Seat::West | Seat::East));
        }
    }

    // Won tricks beside the winners, with counts.
    for team in Team::BOTH {
        let n = s.shown.tricks_won[team];
        let at = layout.pile(team);
        for i in 0..n.min(8) {
            draw_back(
                &p,
                pics,
                at + Vec2::new(i as f32 * 2.0, -(i as f32) * 2.0),
                layout.small() * 0.8,
                team == Team::NS,
            );
        }
        if n > 0 {
            let label = texts.fill("table.tricks", &[("n", &n.to_string())]);
            p.text(
                at + Vec2::new(0.0, layout.small().x * 0.6),
                Align2::CENTER_TOP,
                label,
                FontId::proportional(15.0),
                team_colour(team),
            );
        }
    }

    // The trick: cards in their slots, the flying one on its way, a swept
    // trick moving to the winner's pile.
    for &(seat, card) in &s.shown.trick {
        let slot = layout.trick_slot(seat);
        let mut at = slot;
        if let Some((fs, fc, start, d)) = s.shown.flying
            && fs == seat
            && fc == card
        {
            at = lerp(layout.hand_centre(seat), slot, (now - start) / d.max(0.001));
        }
        if let Some((winner, start, d)) = s.shown.sweep
            && now >= start
        {
            at = lerp(slot, layout.pile(winner.team()), (now - start) / d.max(0.001));
        }
        draw_face(&p, pics, card, at, layout.trick_card(), false, false);
    }

    // The player's hand: sorted, legal cards bright, the rest dimmed.
    let hand = sorted_hand(s.shown.hands[HUMAN.index()], trump);
    let n_show = hand.len().min(arrived[HUMAN.index()]);
    let legal = if my_turn && game.phase() == Phase::Playing { game.legal_cards() } else { CardSet::ALL };
    let positions = layout.hand_positions(HUMAN, n_show);
    let mut clicked = None;
    let mut hovered = None;
    for (i, (&card, &at)) in hand.iter().zip(&positions).enumerate() {
        let rect = Rect::from_center_size(at, layout.card);
        // Later cards overlap earlier ones: only the visible strip counts.
        let next_left = positions.get(i + 1).map(|p| p.x - layout.card.x / 2.0).unwrap_or(rect.right());
        let hit = Rect::from_min_max(rect.min, Pos2::new(next_left.max(rect.min.x + 8.0), rect.max.y));
        let response = ui.interact(hit, ui.id().with(("card", card.index())), Sense::click());
        if response.hovered() {
            hovered = Some(i);
        }
        if response.clicked() {
            clicked = Some(card);
        }
        let lifted = my_turn && (hovered == Some(i) || selection.0 == Some(i)) && legal.contains(card);
        let dim = my_turn && game.phase() == Phase::Playing && !legal.contains(card);
        draw_face(&p, pics, card, at, layout.card, dim, lifted);
    }

    // Keyboard play: arrows move, Enter plays, 1-8 play directly.
    let mut chosen = clicked;
    if my_turn && game.phase() == Phase::Playing && !hand.is_empty() {
        ui.input(|inp| {
            let n = hand.len();
            if inp.key_pressed(egui::Key::ArrowRight) {
                selection.0 = Some(selection.0.map_or(0, |i| (i + 1) % n));
            }
            if inp.key_pressed(egui::Key::ArrowLeft) {
                selection.0 = Some(selection.0.map_or(n - 1, |i| (i + n - 1) % n));
            }
            if inp.key_pressed(egui::Key::Enter) {
                chosen = selection.0.and_then(|i| hand.get(i).copied());
            }
            let digits = [
                egui::Key::Num1,
                egui::Key::Num2,
                egui::Key::Num3,
                egui::Key::Num4,
                egui::Key::Num5,
                egui::Key::Num6,
                egui::Key::Num7,
                egui::Key::Num8,
            ];
            for (i, k) in digits.iter().enumerate() {
                if inp.key_pressed(*k) {
                    chosen = hand.get(i).copied();
                }
            }
        });
    }

    if let Some(t) = dealing {
        draw_dealing(&p, pics, &layout, game.dealer(), t);
    }
    draw_trump_indicator(&p, pics, s, &layout, texts);
    draw_notices(&p, s, &layout, now);

    if !my_turn {
        return None;
    }
    if let Some(card) = chosen {
        selection.0 = None;
        return Some(Action::Play(card));
    }
    None
}

fn draw_trump_indicator(p: &egui::Painter, pics: &mut CardPictures, s: &Session, layout: &Layout, texts: &Texts) {
    let game = s.m.game();
    let at = layout.indicator();
    let font = FontId::proportional(15.0);
    // The 2-6 pile with its turned card (classic), or the chosen suit.
    let turned = game.turned_cards();
    for (i, &c) in turned.iter().enumerate() {
        let rect = Rect::from_center_size(at + Vec2::new(i as f32 * layout.small().x * 0.45, 0.0), layout.small());
        draw_back(p, pics, rect.center() - Vec2::new(3.0, 3.0), layout.small(), false);
        draw_pile_card(p, pics, c, rect);
    }
    let text = match game.contract() {
        Some(c) => texts
            .fill("table.contract", &[("suit", &suit_name(texts, c.trump)), ("seat", &seat_name(texts, c.declarer))]),
        None => texts.get("table.bidding"),
    };
    let below = Pos2::new(layout.area.left() + 10.0, at.y + layout.small().y * 0.5 + 8.0);
    let galley = p.layout(text, font, Color32::WHITE, layout.small().x * 2.6);
    let text_height = galley.size().y;
    p.galley(below, galley, Color32::WHITE);
    if let Some(c) = game.contract() {
        let centre = below + Vec2::new(18.0, text_height + 22.0);
        p.circle_filled(centre, 17.0, Color32::from_rgb(252, 250, 244));
        draw_suit(p, pics, c.trump, centre, 13.0);
    }
}

/// A card of the 2-6 pile (classic's turned card) filling `rect`.
pub fn draw_pile_card(p: &egui::Painter, pics: &mut CardPictures, c: PileCard, rect: Rect) {
    if let Some(texture) = pics.texture(p.ctx(), Face::Pile { suit: c.suit, rank: c.rank }) {
        pictures::paint(p, texture, rect, false, Color32::WHITE);
        return;
    }
    let (symbol, colour) = suit_look(pics.skin(), c.suit);
    p.rect(
        rect,
        CornerRadius::same(5),
        Color32::from_rgb(252, 250, 244),
        Stroke::new(1.0, Color32::GRAY),
        StrokeKind::Inside,
    );
    p.text(
        rect.left_top() + Vec2::new(5.0, 2.0),
        Align2::LEFT_TOP,
        c.rank.to_string(),
        FontId::proportional(rect.height() * 0.22),
        colour,
    );
    p.text(rect.center(), Align2::CENTER_CENTER, symbol, FontId::proportional(rect.height() * 0.45), colour);
}

/// A suit's symbol as the skin draws it: the middle of its ace.
pub fn draw_suit(p: &egui::Painter, pics: &mut CardPictures, suit: Suit, centre: Pos2, half: f32) {
    if let Some(texture) = pics.texture(p.ctx(), Face::Card(Card::new(suit, Rank::Ace))) {
        // The ace's pip fills the middle half of the card's width.
        let uv = Rect::from_center_size(Pos2::new(0.5, 0.5), Vec2::new(0.52, 0.52 / 1.45));
        pictures::paint_part(
            p,
            texture,
            Rect::from_center_size(centre, Vec2::splat(2.0 * half)),
            uv,
            false,
            Color32::WHITE,
        );
        return;
    }
    let (symbol, colour) = suit_look(pics.skin(), suit);
    p.text(centre, Align2::CENTER_CENTER, symbol, FontId::proportional(half * 1.7), colour);
}

fn draw_notices(p: &egui::Painter, s: &Session, layout: &Layout, now: f32) {
    for n in s.notices.iter().filter(|n| n.until > now) {
        let at = match n.seat {
            Some(seat) if seat == HUMAN => layout.hand_centre(HUMAN) - Vec2::new(0.0, layout.card.y * 1.05),
            Some(seat) => lerp(layout.name_plate(seat), layout.trick_centre(), 0.3),
            None => layout.trick_centre() - Vec2::new(0.0, layout.card.y * 0.95),
        };
        let font = FontId::proportional((layout.card.y * 0.12).clamp(14.0, 28.0));
        let wrap = layout.area.width() * 0.8;
        let galley = p.layout(n.text.clone(), font, Color32::BLACK, wrap);
        let rect = keep_inside(Rect::from_center_size(at, galley.size() + Vec2::new(20.0, 12.0)), layout.area);
        let fill = if n.warning { Color32::from_rgb(255, 225, 160) } else { Color32::from_rgb(250, 250, 250) };
        p.rect(rect, CornerRadius::same(10), fill, Stroke::new(1.0, Color32::DARK_GRAY), StrokeKind::Inside);
        p.galley(rect.min + Vec2::new(10.0, 6.0), galley, Color32::BLACK);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The card pictures are at least twice the size of the player's hand
    /// on any phone up to 1440 x 3200 pixels (issue: "twice the largest size
    /// a card is drawn at on a phone").
    #[test]
    fn card_pictures_are_twice_the_largest_hand_on_a_phone() {
        let mut largest: f32 = 0.0;
        for (w, h) in [(720.0, 1600.0), (1080.0, 2340.0), (1080.0, 2400.0), (1170.0, 2532.0), (1440.0, 3200.0)] {
            let zoom = zoom_for(w, h);
            // The top bar takes about 40 points.
            let layout = Layout::new(Rect::from_min_size(Pos2::ZERO, Vec2::new(w / zoom, h / zoom - 40.0)));
            assert!(layout.portrait);
            largest = largest.max(layout.card.y * zoom);
        }
        assert!(largest > 400.0, "{largest}");
        assert!(2.0 * largest <= klaverjas_cards::CARD_HEIGHT as f32, "cards drawn {largest} px high");
        assert!(2.0 * largest / 1.45 <= klaverjas_cards::CARD_WIDTH as f32);
    }
}
