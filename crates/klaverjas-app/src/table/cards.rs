//! The cards as entities: each of the 32 cards, and the turned cards of the
//! 2-6 pile, is a sprite with a [`Place`] on the table. The show says where
//! every card is; these systems give each card its place, move it there by
//! a [`Tween`] (dealt in the engine's packets from the dealer, played to the
//! trick, swept to the winner's pile), show its face or its back in the
//! current skin, dim the cards the player may not play and lift the one
//! selected.

use super::layout::{Layout, Table};
use crate::pictures::CardImages;
use crate::seats::{HUMAN, Moment, Seats};
use crate::show::Show;
use crate::shown::{Dealing, Shown};
use crate::state::PlayerSettings;
use crate::state::Screen;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use klaverjas::{Action, Card, CardSet, CardValues, Phase, Players, Seat, Suit};

/// One of the 32 cards.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableCard(pub Card);

/// The `i`-th turned card of the 2-6 pile (classic), and the pile's back
/// beneath it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnedCard {
    pub index: usize,
    pub back: bool,
}

/// The shadow a card casts on the felt: the back's shape, darkened. It is
/// drawn in four bands around the card's edges, never under its opaque
/// middle: where the GPU fills pixels in turn (software, a cheap phone's)
/// a whole shadow under each card cost a sixth of a frame.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shadow {
    Top,
    Bottom,
    Left,
    Right,
}

impl Shadow {
    const BANDS: [Shadow; 4] = [Shadow::Top, Shadow::Bottom, Shadow::Left, Shadow::Right];
}

/// The part `band` of a shadow of a card of `size`, `offset` from it, in
/// the card's own frame (y up): the shadow less what the card hides, the
/// card less its see-through edges. None where that band is empty.
fn shadow_band(band: Shadow, size: Vec2, offset: Vec2) -> Option<Rect> {
    let shadow = Rect::from_center_size(offset, size);
    let hidden =
        Rect::from_center_size(Vec2::ZERO, size - 2.0 * size.x * klaverjas_cards::SEE_THROUGH).intersect(shadow);
    if hidden.is_empty() {
        return (band == Shadow::Top).then_some(shadow);
    }
    let part = match band {
        Shadow::Top => Rect::new(shadow.min.x, hidden.max.y, shadow.max.x, shadow.max.y),
        Shadow::Bottom => Rect::new(shadow.min.x, shadow.min.y, shadow.max.x, hidden.min.y),
        Shadow::Left => Rect::new(shadow.min.x, hidden.min.y, hidden.min.x, hidden.max.y),
        Shadow::Right => Rect::new(hidden.max.x, hidden.min.y, shadow.max.x, hidden.max.y),
    };
    (!part.is_empty()).then_some(part)
}

/// Where `part` of `whole` (y up) lies in a picture of `pixels` (y down).
fn picture_part(part: Rect, whole: Rect, pixels: Vec2) -> Rect {
    let at = |x: f32, y: f32| Vec2::new((x - whole.min.x) / whole.width(), (whole.max.y - y) / whole.height()) * pixels;
    Rect::from_corners(at(part.min.x, part.max.y), at(part.max.x, part.min.y))
}

/// Where a card is.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the dealer's hands, before the deal.
    Stock,
    /// In a seat's hand, `slot` from the left (or the top).
    Hand { seat: Seat, slot: usize },
    /// On the table in the trick, the `order`-th card played.
    Trick { seat: Seat, order: usize },
    /// In a pile of won tricks (named by the seat it lies before), in its
    /// `trick`-th trick.
    Won { pile: Seat, trick: usize },
    /// At three, face down in North's empty place: the talon, then the
    /// cards laid away; at two, the stock.
    Talon { slot: usize },
    /// At two, face up beside the stock: the turned card (or the seven
    /// of trumps taken for it), then the bottom card.
    StockOpen { slot: usize },
}

/// How a card is drawn: position and size in layout points.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Look {
    pub at: Vec2,
    pub z: f32,
    /// The card upright; a sideways card is turned a quarter.
    pub size: Vec2,
    pub sideways: bool,
    pub face_up: bool,
    pub dim: bool,
}

impl Default for Look {
    fn default() -> Look {
        Look { at: Vec2::ZERO, z: 0.0, size: Vec2::ONE, sideways: false, face_up: false, dim: false }
    }
}

/// A card on its way from one look to another.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Tween {
    pub from: Look,
    pub to: Look,
    pub start: f32,
    pub seconds: f32,
}

impl Tween {
    /// The look at `now`, eased in and out; `None` once it has arrived.
    pub fn at(&self, now: f32) -> Option<Look> {
        let t = if self.seconds <= 0.0 { 1.0 } else { (now - self.start) / self.seconds };
        if t >= 1.0 {
            return None;
        }
        if t <= 0.0 {
            return Some(self.from);
        }
        let e = t * t * (3.0 - 2.0 * t);
        Some(Look {
            at: self.from.at.lerp(self.to.at, e),
            size: self.from.size.lerp(self.to.size, e),
            // Above everything lying still while it flies.
            z: 40.0 + self.to.z,
            ..self.to
        })
    }
}

/// The target a card is heading for, so a new target starts a new tween
/// and an unchanged one leaves the card alone.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Target(pub Look);

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Table), spawn_cards).add_systems(
        Update,
        (relabel_cards, place_cards, run_tweens, draw_cards)
            .chain()
            .after(crate::seats::Flow::React)
            .run_if(in_state(Screen::Table)),
    );
}

fn spawn_cards(mut commands: Commands) {
    for c in CardSet::ALL.iter() {
        commands
            .spawn((
                TableCard(c),
                Place::Stock,
                Look::default(),
                Target(Look::default()),
                Sprite::default(),
                Transform::default(),
                Visibility::Hidden,
                DespawnOnExit(Screen::Table),
            ))
            .with_children(|card| {
                for band in Shadow::BANDS {
                    card.spawn((band, Sprite::default(), Transform::default()));
                }
            });
    }
    for index in 0..2 {
        for back in [true, false] {
            commands.spawn((
                TurnedCard { index, back },
                Look::default(),
                Sprite::default(),
                Transform::default(),
                Visibility::Hidden,
                DespawnOnExit(Screen::Table),
            ));
        }
    }
}

/// The player's hand in table order: trumps first, then the other suits in
/// alternating colours, each by strength.
pub fn sorted_hand(hand: CardSet, trump: Option<Suit>, values: CardValues) -> Vec<Card> {
    let mut cards: Vec<Card> = hand.iter().collect();
    let suit_order = |s: Suit| -> usize {
        if Some(s) == trump {
            0
        } else {
            // Clubs, hearts, spades, diamonds.
            1 + [0usize, 3, 1, 2][s.index()]
        }
    };
    cards
        .sort_by_key(|c| (suit_order(c.suit()), std::cmp::Reverse(values.strength(c.rank(), Some(c.suit()) == trump))));
    cards
}

/// Where every card of the show is.
pub fn places(shown: &Shown) -> Vec<(Card, Place)> {
    let trump = shown.contract.map(|c| c.trump);
    let mut out = Vec::with_capacity(32);
    for seat in Seat::ALL {
        let hand = shown.hands[seat.index()];
        let cards = if seat == HUMAN { sorted_hand(hand, trump, shown.values) } else { hand.iter().collect() };
        out.extend(cards.into_iter().enumerate().map(|(slot, c)| (c, Place::Hand { seat, slot })));
    }
    out.extend(shown.trick.iter().enumerate().map(|(order, &(seat, c))| (c, Place::Trick { seat, order })));
    let per_trick = shown.players.count();
    for pile in shown.piles() {
        let won = shown.won[pile.index()].iter().enumerate();
        out.extend(won.map(|(i, &c)| (c, Place::Won { pile, trick: i / per_trick })));
    }
    out.extend(shown.talon.iter().enumerate().map(|(slot, c)| (c, Place::Talon { slot })));
    out.extend(shown.stock_open.iter().enumerate().map(|(slot, &c)| (c, Place::StockOpen { slot })));
    out
}

/// What the player's turn allows: the cards to dim and whether to lift.
#[derive(Clone, Copy, Debug, Default)]
pub struct Turn {
    /// A card of the hand is chosen now: to play, or to lay away.
    pub playing: bool,
    /// The chosen card is laid away from hand and talon (three players).
    pub laying_away: bool,
    pub legal: CardSet,
}

impl Turn {
    pub fn of(seats: Option<&Seats>, show: &Show, now: f32) -> Turn {
        let Some(seats) = seats else { return Turn::default() };
        let g = seats.game();
        let mine = seats.waiting_for(show.stage(now)) == Some(HUMAN) && seats.is_human(HUMAN);
        let laying_away = mine && g.phase() == Phase::Discarding;
        let playing = mine && g.phase() == Phase::Playing || laying_away;
        let legal = match (playing, laying_away) {
            (true, true) => g.hand(HUMAN),
            (true, false) => g.legal_cards(),
            _ => CardSet::EMPTY,
        };
        Turn { playing, laying_away, legal }
    }

    /// The action a chosen card makes.
    pub fn action(&self, card: Card) -> Action {
        if self.laying_away { Action::Discard(card) } else { Action::Play(card) }
    }
}

/// How far a lifted card of the player's hand rises, as a part of its
/// height.
pub const LIFT: f32 = 0.12;

/// How a card in `place` looks on this table.
pub fn look(layout: &Layout, shown: &Shown, place: Place) -> Look {
    let small = layout.small();
    match place {
        Place::Stock => Look { at: layout.hand_centre(shown.dealer), z: 1.0, size: small, ..Look::default() },
        Place::Hand { seat, slot } => {
            let n = shown.hands[seat.index()].len() as usize;
            let at = layout.hand_positions(seat, n).get(slot).copied().unwrap_or(layout.hand_centre(seat));
            Look {
                at,
                z: 10.0 + slot as f32 * 0.1,
                size: layout.hand_card(seat),
                sideways: matches!(seat, Seat::West | Seat::East),
                face_up: seat == HUMAN,
                dim: false,
            }
        }
        Place::Trick { seat, order } => Look {
            at: match shown.gathered {
                // Pushed together before the winner, as a hand gathers it.
                Some(winner) => {
                    layout.trick_slot(winner).lerp(layout.hand_centre(winner), 0.15)
                        + Vec2::new(order as f32, -(order as f32)) * small.x * 0.06
                }
                None => layout.trick_slot(seat),
            },
            z: 20.0 + order as f32,
            size: layout.trick_card(),
            face_up: true,
            ..Look::default()
        },
        Place::Won { pile, trick } => Look {
            at: layout.pile(shown.players, pile) + Vec2::new(trick as f32 * 2.0, -(trick as f32) * 2.0),
            z: 2.0 + trick as f32 * 0.1,
            size: small * 0.8,
            sideways: pile == Seat::South,
            ..Look::default()
        },
        // The stock of Klaberjass is one squared pile.
        Place::Talon { slot } if shown.players == Players::Two => Look {
            at: layout.hand_centre(Seat::North) + Vec2::new(slot as f32 * 0.6, slot as f32 * 0.6),
            z: 2.0 + slot as f32 * 0.1,
            size: small,
            ..Look::default()
        },
        Place::Talon { slot } => Look {
            at: layout.hand_centre(Seat::North) + Vec2::new((slot as f32 - 0.5) * small.x * 0.6, 0.0),
            z: 2.0 + slot as f32 * 0.1,
            size: small,
            ..Look::default()
        },
        // The turned card half under the stock, turned a quarter as
        // players lay it; the bottom card beside.
        Place::StockOpen { slot: 0 } => Look {
            at: layout.hand_centre(Seat::North) + Vec2::new(small.x * 0.75, 0.0),
            z: 1.5,
            size: small,
            sideways: true,
            face_up: true,
            ..Look::default()
        },
        Place::StockOpen { slot } => Look {
            at: layout.hand_centre(Seat::North) + Vec2::new(small.x * (0.8 + slot as f32 * 0.9), 0.0),
            z: 2.5,
            size: small,
            face_up: true,
            ..Look::default()
        },
    }
}

/// A card with where it is, how it looks, where it is heading.
type CardParts = (
    &'static TableCard,
    &'static mut Place,
    &'static mut Look,
    &'static mut Target,
    Option<&'static mut Tween>,
    Entity,
);

/// The show's places become targets; a changed target starts a tween.
/// A new deal first gathers every card at the dealer, then sends each to
/// its hand when the engine's dealing order says it leaves.
/// Swaps the names of face-down cards as the show did
/// ([`Show::relabel`]): each entity stays where it lies.
fn relabel_cards(mut show: ResMut<Show>, mut cards: Query<&mut TableCard>) {
    // Every frame runs this: the show is touched only when there is work.
    if show.relabel.is_empty() {
        return;
    }
    for (a, b) in std::mem::take(&mut show.relabel) {
        for mut card in &mut cards {
            if card.0 == a {
                card.0 = b;
            } else if card.0 == b {
                card.0 = a;
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn place_cards(
    mut cards: Query<CardParts>,
    mut commands: Commands,
    show: Res<Show>,
    seats: Option<Res<Seats>>,
    table: Res<Table>,
    selection: Res<Selection>,
    settings: Res<PlayerSettings>,
    time: Res<Time>,
    fresh: Query<(), Added<TableCard>>,
    mut dealt: Local<u32>,
) {
    let now = time.elapsed_secs();
    let layout = table.layout();
    let shown = &show.shown;
    let fly = settings.0.speed.pace().fly;
    // Cards just spawned (the table entered again) start like a new deal:
    // in the dealer's hands if a deal is being dealt, else in place.
    let new_deal = *dealt != show.deal_serial || !fresh.is_empty();
    *dealt = show.deal_serial;
    let turn = Turn::of(seats.as_deref(), &show, now);
    let lifted = selection.lifted(shown, turn);
    let stock = look(&layout, shown, Place::Stock);
    let mut places_by_card = [None; 32];
    for (card, place) in places(shown) {
        places_by_card[card.index()] = Some(place);
    }
    for (card, mut at, mut current, mut target, tween, entity) in &mut cards {
        let (card, Some(place)) = (card.0, places_by_card[card.0.index()]) else { continue };
        let mut wanted = look(&layout, shown, place);
        // The last card dealt lies open for all to see, on top of the
        // dealer's fanned hand.
        if shown.face_up == Some(card) {
            wanted.face_up = true;
            wanted.z += 5.0;
        }
        if let Place::Hand { seat: HUMAN, .. } = place {
            wanted.dim = turn.playing && !turn.legal.contains(card);
            if lifted == Some(card) {
                wanted.at.y -= wanted.size.y * LIFT;
            }
        }
        if new_deal {
            *current = stock;
            *at = place;
            target.0 = wanted;
            let (start, seconds) = match &shown.dealing {
                Some(d) => (deal_start(d, card), d.flight()),
                None => (now, 0.0),
            };
            commands.entity(entity).insert(Tween { from: stock, to: wanted, start, seconds });
            continue;
        }
        if target.0 == wanted {
            continue;
        }
        // A resized window moves cards at once, a lifted card quickly; a
        // card that changes place flies at the show's pace.
        let seconds = if table.is_changed() {
            0.0
        } else if *at == place {
            fly.min(0.08)
        } else {
            fly
        };
        let from = match tween {
            Some(t) => t.at(now).unwrap_or(t.to),
            None => *current,
        };
        *at = place;
        target.0 = wanted;
        commands.entity(entity).insert(Tween { from, to: wanted, start: now, seconds });
    }
}

/// When `card` leaves the dealer in the deal being dealt.
fn deal_start(dealing: &Dealing, card: Card) -> f32 {
    let k = dealing.order.iter().position(|&(_, c)| c == card).unwrap_or(0);
    dealing.leaves_at(k)
}

fn run_tweens(
    mut cards: Query<(Entity, &Tween, &mut Look)>,
    mut commands: Commands,
    time: Res<Time>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let now = time.elapsed_secs();
    for (entity, tween, mut look) in &mut cards {
        match tween.at(now) {
            Some(l) => *look = l,
            None => {
                *look = tween.to;
                commands.entity(entity).remove::<Tween>();
            }
        }
        redraw.write(RequestRedraw);
    }
}

type ShadowParts =
    (&'static ChildOf, &'static Shadow, &'static mut Transform, &'static mut Sprite, &'static mut Visibility);
type ShadowOnly = (With<Shadow>, Without<TableCard>, Without<TurnedCard>);

/// Looks become transforms and sprites in the current skin.
fn draw_cards(
    mut cards: Query<(&TableCard, &Look, &mut Transform, &mut Sprite, &mut Visibility)>,
    mut turned: Query<(&TurnedCard, &mut Look, &mut Transform, &mut Sprite, &mut Visibility), Without<TableCard>>,
    mut shadows: Query<ShadowParts, ShadowOnly>,
    images: Res<CardImages>,
    pictures: Res<Assets<Image>>,
    table: Res<Table>,
    show: Res<Show>,
) {
    let place = |look: &Look, transform: &mut Transform, sprite: &mut Sprite| {
        *transform = Transform::from_translation(table.world(look.at, look.z));
        if look.sideways {
            transform.rotate_z(std::f32::consts::FRAC_PI_2);
        }
        sprite.custom_size = Some(look.size * table.zoom);
        sprite.color = if look.dim { Color::srgb(0.57, 0.57, 0.57) } else { Color::WHITE };
    };
    for (card, look, mut transform, mut sprite, mut visibility) in &mut cards {
        place(look, &mut transform, &mut sprite);
        let image = if look.face_up { images.card(card.0) } else { images.back() };
        if sprite.image != image {
            sprite.image = image;
        }
        *visibility = Visibility::Inherited;
    }
    // Down and to the right, whichever way the card lies; a flying card,
    // higher above the felt, casts its shadow further.
    let back = images.back();
    let back_pixels = pictures.get(&back).map(|picture| picture.size_f32());
    for (parent, band, mut transform, mut sprite, mut visibility) in &mut shadows {
        let Ok((_, look, card_transform, card, _)) = cards.get(parent.parent()) else { continue };
        let lift = if look.z >= 40.0 { 3.0 } else { 1.0 };
        let offset = Vec2::new(1.5, -2.5) * lift * table.zoom;
        let local = (card_transform.rotation.inverse() * offset.extend(0.0)).truncate();
        let size = look.size * table.zoom;
        // No shadow before its card's picture is there: the bands alone
        // would be a hollow frame.
        let part = shadow_band(*band, size, local).filter(|_| pictures.contains(&card.image));
        let (Some(part), Some(pixels)) = (part, back_pixels) else {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        };
        visibility.set_if_neq(Visibility::Inherited);
        *transform = Transform::from_translation(part.center().extend(-0.05));
        sprite.custom_size = Some(part.size());
        sprite.rect = Some(picture_part(part, Rect::from_center_size(local, size), pixels));
        sprite.color = Color::srgba(0.0, 0.0, 0.0, 0.28);
        if sprite.image != back {
            sprite.image = back.clone();
        }
    }
    let layout = table.layout();
    for (t, mut look, mut transform, mut sprite, mut visibility) in &mut turned {
        let Some(&pile) = show.shown.turned.get(t.index) else {
            *visibility = Visibility::Hidden;
            continue;
        };
        let at = layout.turned_card(t.index);
        *look = if t.back {
            Look { at: at - Vec2::splat(3.0), z: 3.0, size: layout.small(), ..Look::default() }
        } else {
            Look { at, z: 3.5, size: layout.small(), face_up: true, ..Look::default() }
        };
        place(&look, &mut transform, &mut sprite);
        let image = if t.back { images.back() } else { images.pile(pile) };
        if sprite.image != image {
            sprite.image = image;
        }
        *visibility = Visibility::Inherited;
    }
}

/// The card the keyboard points at, the one tapped once, and the one
/// under the mouse.
#[derive(Resource, Default, Debug, PartialEq)]
pub struct Selection {
    /// A slot of the player's hand, moved by the arrow keys.
    pub keyboard: Option<usize>,
    /// With "tap to lift": the card a first tap lifted, and when; a second
    /// tap plays it. It drops when the match moves on (a card played, an
    /// undo, a new deal).
    pub tapped: Option<(Card, Moment)>,
    pub hovered: Option<Card>,
    /// egui's keyboard focus is on something else than a card (a button
    /// Tab reached): Enter is that button's, not the hand's.
    pub focus_elsewhere: bool,
}

impl Selection {
    /// The card drawn lifted on the player's turn: the tapped card or the
    /// keyboard's cursor, dimmed or not (it must be seen wherever it is),
    /// else the playable card under the mouse.
    pub fn lifted(&self, shown: &Shown, turn: Turn) -> Option<Card> {
        if !turn.playing {
            return None;
        }
        let hand = sorted_hand(shown.hands[HUMAN.index()], shown.contract.map(|c| c.trump), shown.values);
        let keyed = self.keyboard.and_then(|i| hand.get(i).copied());
        let tapped = self.tapped.map(|(c, _)| c).filter(|c| hand.contains(c));
        tapped.or(keyed).or(self.hovered.filter(|&c| turn.legal.contains(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four bands cover the shadow less the card's opaque middle,
    /// each pixel once, for a card lying still, flying or turned.
    #[test]
    fn a_shadow_s_bands_cover_what_the_card_leaves_visible_once() {
        let size = Vec2::new(100.0, 145.0);
        for offset in [Vec2::new(1.5, -2.5), Vec2::new(-2.5, -1.5), Vec2::new(4.5, -7.5), Vec2::new(60.0, 0.0)] {
            let bands: Vec<Rect> = Shadow::BANDS.iter().filter_map(|&b| shadow_band(b, size, offset)).collect();
            let shadow = Rect::from_center_size(offset, size);
            let middle = Rect::from_center_size(Vec2::ZERO, size - 2.0 * size.x * klaverjas_cards::SEE_THROUGH);
            for y in 0..=30 {
                for x in 0..=30 {
                    let at = shadow.min + shadow.size() * Vec2::new(x as f32 + 0.1, y as f32 + 0.1) / 31.0;
                    let covered = bands.iter().filter(|b| b.contains(at)).count();
                    assert_eq!(covered, usize::from(!middle.contains(at)), "at {at} with the card {offset} away");
                }
            }
            let drawn: f32 = bands.iter().map(|b| b.width() * b.height()).sum();
            assert!(drawn < shadow.width() * shadow.height() * if offset.x < 50.0 { 0.4 } else { 1.01 });
        }
    }

    /// A band's place in the picture: the shadow's top left is the
    /// picture's first pixel.
    #[test]
    fn a_band_samples_its_own_part_of_the_picture() {
        let whole = Rect::new(-50.0, -72.5, 50.0, 72.5);
        let top = Rect::new(-50.0, 60.0, 50.0, 72.5);
        let part = picture_part(top, whole, Vec2::new(320.0, 464.0));
        assert_eq!(part.min, Vec2::ZERO);
        assert!((part.max - Vec2::new(320.0, 40.0)).length() < 1e-3, "{part:?}");
    }
}
