//! The player's hands on the table: a click or a touch on a card of their
//! hand, the arrow keys and Enter, or the number keys 1-8, become
//! [`PlayerAction`]s. A card the rules forbid is sent too: the engine
//! refuses it and the refusal names the rule. With the setting "tap to
//! lift" a first tap lifts the card and a second plays it. On a touched
//! screen nothing follows a hovering pointer: a finger has none.

use super::cards::{LIFT, Place, Selection, TableCard, Turn, look, sorted_hand};
use super::layout::{Layout, Table};
use crate::seats::{Flow, HUMAN, PlayerAction, Seats};
use crate::show::Show;
use crate::shown::Shown;
use bevy::input::touch::Touches;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, RequestRedraw};

/// Whether egui has the pointer (a dialog or a button over the cards):
/// then a press is egui's, not the table's.
#[derive(Resource, Default)]
pub struct PointerOverUi(pub bool);

/// Whether the top bar's menu list is open (large text on a narrow
/// screen): it takes the keys then, and Escape closes it, not the table.
#[derive(Resource, Default)]
pub struct MenuListOpen(pub bool);

/// Open (or close) the second look at the last trick: a press on a pile
/// of won tricks, or the bar's button.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct Review(pub bool);

pub fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<PointerOverUi>()
        .init_resource::<MenuListOpen>()
        .add_message::<Review>()
        .add_systems(Update, (keys, review).in_set(Flow::Input).run_if(in_state(crate::state::Screen::Table)))
        // After egui's pass, which says whether a press was on a dialog.
        .add_systems(Last, press_cards.run_if(in_state(crate::state::Screen::Table)));
}

/// The card of the player's hand under `point` (layout points): where it
/// rests in the hand, not lifted (a lifted card would slip from under a
/// resting pointer), the later card where two overlap.
pub fn card_under(point: Vec2, layout: &Layout, shown: &Shown, places: impl Iterator<Item = Place>) -> Option<usize> {
    places
        .filter_map(|place| match place {
            Place::Hand { seat: HUMAN, slot } => Some((slot, look(layout, shown, place))),
            _ => None,
        })
        .filter(|(_, l)| Rect::from_center_size(l.at, l.size).contains(point))
        .max_by_key(|(slot, _)| *slot)
        .map(|(slot, _)| slot)
}

#[allow(clippy::too_many_arguments)]
fn press_cards(
    cards: Query<(&TableCard, &Place)>,
    table: Res<Table>,
    show: Res<Show>,
    seats: Option<Res<Seats>>,
    time: Res<Time>,
    over_ui: Res<PointerOverUi>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    touches: Option<Res<Touches>>,
    (device, settings): (Option<Res<crate::platform::Device>>, Option<Res<crate::state::PlayerSettings>>),
    windows: Query<&Window, With<PrimaryWindow>>,
    mut selection: ResMut<Selection>,
    mut actions: MessageWriter<PlayerAction>,
    mut reviews: MessageWriter<Review>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let layout = table.layout();
    let under = |at: Vec2| {
        let slot = card_under(table.points(at), &layout, &show.shown, cards.iter().map(|c| *c.1))?;
        cards.iter().find(|c| *c.1 == Place::Hand { seat: HUMAN, slot }).map(|c| c.0.0)
    };
    let moment = seats.as_deref().map(Seats::moment);
    if selection.tapped.is_some_and(|(_, at)| Some(at) != moment) {
        selection.tapped = None;
        redraw.write(RequestRedraw);
    }
    // A lifted card is hit where it is drawn too, above its place.
    let tapped = selection.tapped;
    let lifted_at = |at: Vec2| {
        let (card, _) = tapped?;
        let (_, place) = cards.iter().find(|c| c.0.0 == card)?;
        let l = look(&layout, &show.shown, *place);
        let raised = Rect::from_center_size(l.at - Vec2::new(0.0, l.size.y * LIFT), l.size);
        raised.contains(table.points(at)).then_some(card)
    };
    let cursor = windows.iter().next().and_then(|w| w.cursor_position());
    let touched = device.is_some_and(|d| d.touch());
    let hovered = cursor.filter(|_| !touched).and_then(under);
    if selection.hovered != hovered {
        selection.hovered = hovered;
        redraw.write(RequestRedraw);
    }
    // egui's dialogs and buttons take their own presses.
    if over_ui.0 {
        return;
    }
    let mut presses: Vec<Vec2> = Vec::new();
    if mouse.is_some_and(|m| m.just_pressed(MouseButton::Left))
        && let Some(c) = cursor
    {
        presses.push(c);
    }
    if let Some(touches) = touches {
        presses.extend(touches.iter_just_pressed().map(|t| t.position()));
    }
    let turn = Turn::of(seats.as_deref(), &show, time.elapsed_secs());
    let playing = turn.playing;
    let lift_first = settings.is_some_and(|s| s.0.tap_to_lift);
    for press in presses {
        if let Some(card) = under(press).or_else(|| lifted_at(press)).filter(|_| playing) {
            selection.keyboard = None;
            if lift_first && selection.tapped.map(|(c, _)| c) != Some(card) {
                selection.tapped = moment.map(|m| (card, m));
            } else {
                selection.tapped = None;
                actions.write(PlayerAction { seat: HUMAN, action: turn.action(card) });
            }
        } else if show.shown.last_trick.is_some() && on_a_pile(table.points(press), &layout, &show.shown) {
            reviews.write(Review(true));
        } else if selection.tapped.take().is_none() {
            // A tap beside the hand lowers a lifted card; otherwise it is
            // nothing of the table's.
            continue;
        }
        // The result is drawn in the next frame: ask for it now, not at
        // the next input.
        redraw.write(RequestRedraw);
    }
}

/// `--targets`: each card of the hand the rules allow now is a target,
/// `play.CARD`, at a point of it no later card covers, so that a check
/// from outside plays by touch without knowing the layout or the rules.
pub fn targets_plugin(app: &mut App) {
    app.add_systems(PostUpdate, mark_playable_cards.run_if(in_state(crate::state::Screen::Table)));
}

fn mark_playable_cards(
    mut contexts: bevy_egui::EguiContexts,
    cards: Query<(&TableCard, &Place)>,
    table: Res<Table>,
    show: Res<Show>,
    seats: Option<Res<Seats>>,
    time: Res<Time>,
) -> Result {
    let turn = Turn::of(seats.as_deref(), &show, time.elapsed_secs());
    if !turn.playing {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let layout = table.layout();
    let places = || cards.iter().map(|c| *c.1);
    for (card, place) in cards.iter().filter(|(c, _)| turn.legal.contains(c.0)) {
        let Place::Hand { seat: HUMAN, slot } = *place else { continue };
        let l = look(&layout, &show.shown, *place);
        let whole = Rect::from_center_size(l.at, l.size);
        // The part left of the next card, which lies over this one.
        let uncovered = places()
            .filter_map(|p| match p {
                Place::Hand { seat: HUMAN, slot: s } if s > slot => {
                    Some(look(&layout, &show.shown, p).at.x - l.size.x / 2.0)
                }
                _ => None,
            })
            .fold(whole.max.x, f32::min);
        let point = Vec2::new((whole.min.x + uncovered) / 2.0, l.at.y);
        if card_under(point, &layout, &show.shown, places()) != Some(slot) {
            continue;
        }
        let rect = |r: Rect| {
            bevy_egui::egui::Rect::from_min_max(
                bevy_egui::egui::pos2(r.min.x, r.min.y),
                bevy_egui::egui::pos2(r.max.x, r.max.y),
            )
        };
        let spot = Rect::from_center_size(point, Vec2::splat(2.0));
        crate::forms::mark_area(&ctx, &format!("play.{}", card.0), rect(whole), rect(spot));
    }
    Ok(())
}

/// Whether `point` (layout points) is on a pile of won tricks.
fn on_a_pile(point: Vec2, layout: &Layout, shown: &Shown) -> bool {
    shown.piles().into_iter().any(|pile| {
        !shown.won[pile.index()].is_empty()
            && Rect::from_center_size(layout.pile(shown.players, pile), Vec2::splat(layout.small().y)).contains(point)
    })
}

/// The second look at the last trick opens and closes as asked.
fn review(mut reviews: MessageReader<Review>, mut show: ResMut<Show>) {
    for &Review(open) in reviews.read() {
        show.reviewing = open && show.shown.last_trick.is_some();
    }
}

/// Arrows move the keyboard's cursor in the hand (at any time: a player
/// who cannot see the cards reads their hand while others play), Enter
/// plays the card under it, 1-8 play a card directly; Escape closes the
/// second look at the last trick, else opens the menu, and L opens that
/// look. None of them while the top bar's menu list is open.
#[allow(clippy::too_many_arguments)]
fn keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    seats: Option<Res<Seats>>,
    show: Res<Show>,
    time: Res<Time>,
    mut selection: ResMut<Selection>,
    mut actions: MessageWriter<PlayerAction>,
    mut reviews: MessageWriter<Review>,
    mut next: ResMut<NextState<crate::state::Screen>>,
    list_open: Res<MenuListOpen>,
) {
    let (Some(keys), Some(seats)) = (keys, seats) else { return };
    if list_open.0 {
        return;
    }
    if keys.just_pressed(KeyCode::Escape) {
        match show.reviewing {
            true => reviews.write(Review(false)),
            false => {
                next.set(crate::state::Screen::Title);
                return;
            }
        };
    }
    if keys.just_pressed(KeyCode::KeyL) && show.shown.last_trick.is_some() {
        reviews.write(Review(!show.reviewing));
    }
    let turn = Turn::of(Some(&seats), &show, time.elapsed_secs());
    let hand = sorted_hand(show.shown.hands[HUMAN.index()], show.shown.contract.map(|c| c.trump), show.shown.values);
    let n = hand.len();
    if n == 0 {
        return;
    }
    let step =
        |i: Option<usize>, by: usize| Some(i.map_or(if by == 1 { 0 } else { n - 1 }, |i| (i.min(n - 1) + by) % n));
    if keys.just_pressed(KeyCode::ArrowRight) {
        selection.keyboard = step(selection.keyboard, 1);
    }
    if keys.just_pressed(KeyCode::ArrowLeft) {
        selection.keyboard = step(selection.keyboard, n - 1);
    }
    if keys.just_pressed(KeyCode::Home) {
        selection.keyboard = Some(0);
    }
    if keys.just_pressed(KeyCode::End) {
        selection.keyboard = Some(n - 1);
    }
    if !turn.playing {
        return;
    }
    let mut chosen = None;
    let enter = keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter);
    if enter && !selection.focus_elsewhere {
        chosen = selection.keyboard.and_then(|i| hand.get(i).copied());
    }
    let digits = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
    ];
    for (i, k) in digits.iter().enumerate() {
        if keys.just_pressed(*k) {
            chosen = hand.get(i).copied();
        }
    }
    if let Some(card) = chosen {
        selection.keyboard = None;
        actions.write(PlayerAction { seat: HUMAN, action: turn.action(card) });
    }
}
