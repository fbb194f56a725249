//! The player's hands on the table: a click or a touch on a card of their
//! hand, the arrow keys and Enter, or the number keys 1-8, become
//! [`PlayerAction`]s. A card the rules forbid is sent too: the engine
//! refuses it and the refusal names the rule.

use super::cards::{Look, Place, TableCard, Turn, sorted_hand};
use super::layout::Table;
use crate::seats::{Flow, HUMAN, PlayerAction, Seats};
use crate::show::{Show, Shown};
use bevy::input::touch::Touches;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, RequestRedraw};
use klaverjas::{Action, Card};

/// The card the keyboard points at, and the one under the mouse.
#[derive(Resource, Default, Debug, PartialEq)]
pub struct Selection {
    /// A slot of the player's hand, moved by the arrow keys.
    pub keyboard: Option<usize>,
    pub hovered: Option<Card>,
}

impl Selection {
    /// The card drawn lifted: the one pointed at, while the player may
    /// play it.
    pub fn lifted(&self, shown: &Shown, turn: Turn) -> Option<Card> {
        if !turn.playing {
            return None;
        }
        let hand = sorted_hand(shown.hands[HUMAN.index()], shown.contract.map(|c| c.trump));
        let keyed = self.keyboard.and_then(|i| hand.get(i).copied());
        keyed.or(self.hovered).filter(|&c| turn.legal.contains(c))
    }
}

/// Whether egui has the pointer (a dialog or a button over the cards):
/// then a press is egui's, not the table's.
#[derive(Resource, Default)]
pub struct PointerOverUi(pub bool);

pub fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<PointerOverUi>()
        .add_systems(Update, (press_cards, keys).in_set(Flow::Input).run_if(in_state(crate::Screen::Table)));
}

/// The topmost card of the player's hand under `point` (layout points).
pub fn card_under<'a>(point: Vec2, cards: impl Iterator<Item = (&'a TableCard, &'a Place, &'a Look)>) -> Option<Card> {
    cards
        .filter(|(_, place, _)| matches!(place, Place::Hand { seat: HUMAN, .. }))
        .filter(|(_, _, look)| Rect::from_center_size(look.at, look.size).contains(point))
        .max_by(|a, b| a.2.z.total_cmp(&b.2.z))
        .map(|(card, _, _)| card.0)
}

#[allow(clippy::too_many_arguments)]
fn press_cards(
    cards: Query<(&TableCard, &Place, &Look)>,
    table: Res<Table>,
    over_ui: Res<PointerOverUi>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    touches: Option<Res<Touches>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut selection: ResMut<Selection>,
    mut actions: MessageWriter<PlayerAction>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let cursor = windows.iter().next().and_then(|w| w.cursor_position());
    let hovered = cursor.and_then(|c| card_under(table.points(c), cards.iter()));
    if selection.hovered != hovered {
        selection.hovered = hovered;
        redraw.write(RequestRedraw);
    }
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
    for press in presses {
        if let Some(card) = card_under(table.points(press), cards.iter()) {
            selection.keyboard = None;
            actions.write(PlayerAction { seat: HUMAN, action: Action::Play(card) });
        }
    }
}

/// Arrows move the selection, Enter plays it, 1-8 play a card directly.
fn keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    seats: Option<Res<Seats>>,
    show: Res<Show>,
    time: Res<Time>,
    mut selection: ResMut<Selection>,
    mut actions: MessageWriter<PlayerAction>,
) {
    let (Some(keys), Some(seats)) = (keys, seats) else { return };
    let turn = Turn::of(Some(&seats), &show, time.elapsed_secs());
    if !turn.playing {
        return;
    }
    let hand = sorted_hand(show.shown.hands[HUMAN.index()], show.shown.contract.map(|c| c.trump));
    let n = hand.len();
    if n == 0 {
        return;
    }
    if keys.just_pressed(KeyCode::ArrowRight) {
        selection.keyboard = Some(selection.keyboard.map_or(0, |i| (i + 1) % n));
    }
    if keys.just_pressed(KeyCode::ArrowLeft) {
        selection.keyboard = Some(selection.keyboard.map_or(n - 1, |i| (i + n - 1) % n));
    }
    let mut chosen = None;
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter) {
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
        actions.write(PlayerAction { seat: HUMAN, action: Action::Play(card) });
    }
}
