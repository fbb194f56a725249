//! The table told to a screen reader, through egui's AccessKit tree (the
//! cards are Bevy's sprites, which no screen reader sees): each card of
//! the player's hand a button named as a player says it, marked where the
//! rules forbid it with the rule as its description; the contract, the
//! trick and the last trick as text; and what happens read out as it
//! happens, from the show's [`SaidLog`](crate::show::SaidLog), in a
//! polite live region, with the last lines kept to read back.
//!
//! The keyboard's cursor in the hand ([`Selection::keyboard`]) is egui's
//! focus on those buttons, so the screen reader follows the arrow keys,
//! Tab leads on to the other buttons, and a screen reader's own "focus"
//! and "click" reach the cards. The focused card is outlined.

use super::view::{Seen, TableView};
use crate::i18n::Texts;
use crate::seats::{HUMAN, PlayerAction, Seats};
use crate::show::{Notice, Said};
use crate::table::cards::{LIFT, Place, Selection, Turn, look, sorted_hand};
use crate::words::{card_name, explain, notice, seat_called};
use bevy::a11y::AccessibilityRequested;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, CornerRadius, Stroke, StrokeKind, accesskit};
use bevy_egui::{EguiContexts, EguiInput};
use klaverjas::{Card, Seat, Suit};
use std::collections::VecDeque;

/// A screen reader's requests (focus a card, click it) reach egui, which
/// bevy_egui does not pass on itself.
pub fn plugin(app: &mut App) {
    // Bevy's window adds it; a test's app without one does not.
    app.add_message::<bevy::a11y::ActionRequest>().add_systems(
        PreUpdate,
        pass_on_requests.after(bevy_egui::EguiInputSet::WriteEguiEvents).before(bevy_egui::EguiPreUpdateSet::BeginPass),
    );
}

fn pass_on_requests(mut requests: MessageReader<bevy::a11y::ActionRequest>, mut inputs: Query<&mut EguiInput>) {
    for request in requests.read() {
        for mut input in &mut inputs {
            input.0.events.push(egui::Event::AccessKitActionRequest(request.0.clone()));
        }
    }
}

/// How many lines of what happened are kept to read back.
const LINES: usize = 12;

/// What the reader has taken from the show, and what it says.
#[derive(Default)]
pub struct Reader {
    read: u64,
    lines: VecDeque<String>,
    news: String,
    my_turn: bool,
    keyboard: Option<usize>,
}

/// The id of a card's button in the hand: the same while it is held.
pub fn card_id(card: Card) -> egui::Id {
    egui::Id::new(("hand card", card.index()))
}

#[allow(clippy::too_many_arguments)]
pub fn told(
    mut contexts: EguiContexts,
    view: TableView,
    mut selection: ResMut<Selection>,
    requested: Option<Res<AccessibilityRequested>>,
    mut reader: Local<Reader>,
    mut actions: MessageWriter<PlayerAction>,
) -> Result {
    let Some(seen) = view.seen() else { return Ok(()) };
    let my_turn = seen.my_turn();
    let Seen { seats, show, t, layout, now } = seen;
    let ctx = contexts.ctx_mut()?.clone();
    let shown = &show.shown;
    let trump = shown.contract.map(|c| c.trump);
    let turn = Turn::of(Some(seats), show, now);
    let game = seats.game();
    let hand = sorted_hand(shown.hands[HUMAN.index()], trump, shown.values);

    // The hand: a button per card, where the card lies.
    let ui = crate::look::root_ui(&ctx);
    let focused = ctx.memory(|m| m.focused());
    let mut focused_slot = None;
    let lifted = selection.lifted(shown, turn);
    // Words for a tree nobody reads are not made each frame.
    let listening = ctx.accesskit_node_builder(egui::accesskit_root_id(), |_| ()).is_some();
    for (slot, &card) in hand.iter().enumerate() {
        let l = look(&layout, shown, Place::Hand { seat: HUMAN, slot });
        let raised = if lifted == Some(card) { l.size.y * LIFT } else { 0.0 };
        let rect = crate::table::outline::on_table(l.at - Vec2::new(0.0, raised), l.size);
        let id = card_id(card);
        let response = ui.interact(rect, id, egui::Sense::focusable_noninteractive());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Button, true, hand_card_name(t, card, trump)));
        // Forbidden only when it is the player's card to choose: the rule
        // that forbids it is what the table would say if it were played.
        let why_not = match (listening && turn.playing).then(|| game.check(turn.action(card))) {
            Some(Err(e)) => Some(explain(&e, t, trump)),
            _ => None,
        };
        ctx.accesskit_node_builder(id, |node| {
            node.add_action(accesskit::Action::Click);
            if let Some(why) = &why_not {
                node.set_disabled();
                node.set_description(why.clone());
            }
        });
        // The arrows move within the hand (the system `keys`), not to the
        // nearest widget as egui would.
        ctx.memory_mut(|m| {
            let filter = egui::EventFilter { horizontal_arrows: true, vertical_arrows: true, ..Default::default() };
            m.set_focus_lock_filter(id, filter)
        });
        if focused == Some(id) {
            focused_slot = Some(slot);
            paint_focus(&ctx, rect);
        }
        if turn.playing && ctx.input(|i| i.has_accesskit_action_request(id, accesskit::Action::Click)) {
            actions.write(PlayerAction { seat: HUMAN, action: turn.action(card) });
        }
    }
    follow_focus(&ctx, &mut selection, &mut reader, &hand, focused, focused_slot, &turn, requested.as_deref());

    // What lies on the table, as text.
    let people = seats.remote().map(|r| &r.told.people);
    let text = |key: &str, words: String| {
        ctx.accesskit_node_builder(egui::Id::new(("told", key)), |node| {
            node.set_role(accesskit::Role::Label);
            node.set_value(words);
        });
    };
    let who = |seat: Seat| seat_called(t, seat, people);
    let plays = |plays: &[(Seat, Card)]| {
        plays.iter().map(|&(s, c)| format!("{}: {}", who(s), card_name(t, c, trump))).collect::<Vec<_>>().join("; ")
    };
    if listening {
        text(
            "contract",
            match shown.contract {
                Some(c) => t.fill(
                    "told.contract",
                    &[("suit", &crate::words::suit_name(t, c.trump)), ("seat", &who(c.declarer))],
                ),
                None => t.get("table.bidding"),
            },
        );
        text(
            "trick",
            match shown.trick.is_empty() {
                true => t.get("told.trick_empty"),
                false => t.fill("told.trick", &[("cards", &plays(&shown.trick))]),
            },
        );
        if let Some(last) = &shown.last_trick {
            text("last", t.fill("told.last_trick", &[("seat", &who(last.winner)), ("cards", &plays(&last.plays))]));
        }
    }

    // What happened since the last pass: read out, and kept.
    if show.said.count < reader.read {
        // A new show (a new match): its count starts again.
        reader.read = 0;
    }
    let mut fresh: Vec<String> = show.said.since(reader.read).map(|s| said(s, t, trump, seats)).collect();
    reader.read = show.said.count;
    if my_turn && !reader.my_turn {
        fresh.push(t.get("told.your_turn"));
    }
    reader.my_turn = my_turn;
    if !fresh.is_empty() {
        for line in &fresh {
            if reader.lines.len() == LINES {
                reader.lines.pop_front();
            }
            reader.lines.push_back(line.clone());
        }
        reader.news = fresh.join(". ");
    }
    ctx.accesskit_node_builder(egui::Id::new(("told", "news")), |node| {
        node.set_role(accesskit::Role::Label);
        node.set_live(accesskit::Live::Polite);
        node.set_value(reader.news.clone());
    });
    let log: Vec<&str> = reader.lines.iter().map(String::as_str).collect();
    text("log", t.fill("told.log", &[("lines", &log.join("\n"))]));
    Ok(())
}

/// The keyboard's cursor and egui's focus agree: the arrows move the
/// cursor (and the focus with it); Tab, or a screen reader, moves the
/// focus (and the cursor with it). With a screen reader listening, the
/// player's turn puts the focus on a card they may play.
#[allow(clippy::too_many_arguments)]
fn follow_focus(
    ctx: &egui::Context,
    selection: &mut Selection,
    reader: &mut Reader,
    hand: &[Card],
    focused: Option<egui::Id>,
    focused_slot: Option<usize>,
    turn: &Turn,
    requested: Option<&AccessibilityRequested>,
) {
    let moved = selection.keyboard != reader.keyboard;
    let cursor = selection.keyboard.and_then(|i| hand.get(i));
    if let (true, Some(card)) = (moved || focused.is_none(), cursor) {
        ctx.memory_mut(|m| m.request_focus(card_id(*card)));
    } else if !moved && focused_slot.is_some() && selection.keyboard != focused_slot {
        selection.keyboard = focused_slot;
    } else if focused.is_none()
        && turn.playing
        && requested.is_some_and(|r| r.get())
        && let Some(slot) = hand.iter().position(|&c| turn.legal.contains(c))
    {
        selection.keyboard = Some(slot);
        ctx.memory_mut(|m| m.request_focus(card_id(hand[slot])));
    }
    reader.keyboard = selection.keyboard;
    let elsewhere = focused.is_some() && focused_slot.is_none();
    if selection.focus_elsewhere != elsewhere {
        selection.focus_elsewhere = elsewhere;
    }
}

/// A card of the hand as a player says it: "jack of hearts, trump".
pub fn hand_card_name(t: &Texts, card: Card, trump: Option<Suit>) -> String {
    let rank = t.get(&format!("rank.{}", card.rank().letter()));
    let suit = crate::words::suit_name(t, card.suit());
    let key = if Some(card.suit()) == trump { "told.card_trump" } else { "told.card" };
    t.fill(key, &[("rank", &rank), ("suit", &suit)])
}

/// One thing that happened, in words.
fn said(s: &Said, t: &Texts, trump: Option<Suit>, seats: &Seats) -> String {
    let people = seats.remote().map(|r| &r.told.people);
    let mine = |seat: Seat| seat == HUMAN && seats.is_human(HUMAN);
    match s {
        Said::Played(seat, card) if mine(*seat) => t.fill("told.you_play", &[("card", &card_name(t, *card, trump))]),
        Said::Played(seat, card) => {
            t.fill("told.plays", &[("seat", &seat_called(t, *seat, people)), ("card", &card_name(t, *card, trump))])
        }
        Said::Won { winner, points } => {
            let points = t.count("table.points", ("n", i64::from(*points)), &[]);
            match mine(*winner) {
                true => t.fill("told.you_win", &[("points", &points)]),
                false => t.fill("told.wins", &[("seat", &seat_called(t, *winner, people)), ("points", &points)]),
            }
        }
        Said::Notice(text, seat) => {
            let n = Notice { text: text.clone(), seat: *seat, until: 0.0, warning: false, trick: 0 };
            let words = notice(&n, t, trump, people);
            match seat {
                Some(s) if !mine(*s) => format!("{}: {words}", seat_called(t, *s, people)),
                _ => words,
            }
        }
        Said::DealOver(result) => {
            t.fill("told.deal_over", &[("result", &super::score::result_line(t, result, seats.m.rules(), None))])
        }
    }
}

/// The keyboard's card, outlined so that it is seen from afar: white
/// inside black, clear on the felt and on a card alike.
fn paint_focus(ctx: &egui::Context, rect: egui::Rect) {
    let p = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("focus")));
    p.rect_stroke(rect.expand(3.0), CornerRadius::same(8), Stroke::new(4.0, Color32::WHITE), StrokeKind::Outside);
    p.rect_stroke(rect.expand(7.0), CornerRadius::same(10), Stroke::new(2.5, Color32::BLACK), StrokeKind::Outside);
}
