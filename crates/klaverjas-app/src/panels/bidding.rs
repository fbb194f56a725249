//! The player's bid: the card the bid is about and a button for each bid
//! the engine allows (pass, play, a suit, a double); and at three, while
//! the trump maker lays two cards away, a word on what a tap does now.

use super::paint::{paint_suit, pile_texture, shortcut, suit_texture};
use super::view::{Seen, TableView};
use crate::i18n::Texts;
use crate::look::Pt;
use crate::pictures::CardImages;
use crate::seats::{HUMAN, PlayerAction};
use crate::words::{double_name, suit_name};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Align2, RichText};
use klaverjas::{Action, Bid, Bidding, Game, Phase, PileCard, Suit};

pub fn bidding(
    mut contexts: EguiContexts,
    view: TableView,
    images: Res<CardImages>,
    mut actions: MessageWriter<PlayerAction>,
    mut drawn: ResMut<super::paint::Drawn>,
) -> Result {
    let Some(seen) = view.seen() else { return Ok(()) };
    let my_turn = seen.my_turn();
    let Seen { seats, t, layout, .. } = seen;
    let ctx = contexts.ctx_mut()?.clone();
    let game = seats.game();
    let mut chosen = None;
    let doubling = game.phase() == Phase::Doubling;
    if my_turn && (game.phase() == Phase::Bidding || doubling) {
        let pile = game.turned_cards().last().map(|&c| pile_texture(&mut contexts, &images, c));
        let symbols: Vec<_> = Suit::ALL.iter().map(|&s| suit_texture(&mut contexts, &images, s)).collect();
        // Right of the middle on a wide table, clear of a lesson's bubble
        // left of the trick; on a tall one hung below North's hand and
        // what North says, where the trick will lie, clear of what the
        // side players say below their hands.
        // A short table (a phone held sideways) gets a compact box over
        // the trick's place, between the hands, without the card's picture
        // (it lies in the corner) and wider, so its words take fewer lines.
        let wide = layout.area.width() > layout.area.height();
        let short = layout.area.height() < 450.0;
        let width = (layout.area.width() - 32.0).min(if short { 500.0 } else { 440.0 });
        let area = egui::Area::new("bidding".into());
        let area = if wide {
            let centre =
                egui::pos2(layout.area.center().x + 90.0, layout.trick_centre().y + if short { 0.0 } else { 40.0 });
            area.pivot(Align2::CENTER_CENTER).fixed_pos(centre)
        } else if seats.lesson() {
            // A lesson's bubble hangs below North: the box stands low,
            // over the player's name.
            let bottom = layout.name_plate(crate::seats::HUMAN).y + 12.0;
            area.pivot(Align2::CENTER_BOTTOM).fixed_pos(egui::pos2(layout.area.center().x, bottom))
        } else {
            let top = layout.hand_centre(klaverjas::Seat::North).y + layout.small().y * 0.5 + 40.0;
            area.pivot(Align2::CENTER_TOP).fixed_pos(egui::pos2(layout.area.center().x, top))
        };
        let shown = area.show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(12.0).show(ui, |ui| {
                ui.set_width(width - 24.0);
                let size = if short { 16.0 } else { 18.0 };
                ui.label(RichText::new(bid_question(game, t)).pt(size).strong());
                // The card the bid is about, and what it is, for it is none
                // of the 32.
                if let (Some(pile), Some(card)) = (pile, game.turned_cards().last()) {
                    ui.horizontal(|ui| {
                        if !short {
                            ui.add(egui::Image::new((pile, egui::vec2(48.0, 48.0 * 1.45))));
                        }
                        let note = t.fill("bid.turned_note", &[("card", &pile_card_name(t, *card))]);
                        ui.add(
                            egui::Label::new(RichText::new(note).pt(if short { 13.0 } else { 14.0 }).italics()).wrap(),
                        );
                    });
                }
                ui.horizontal_wrapped(|ui| {
                    for action in game.legal_actions() {
                        let (label, suit) = match action {
                            Action::Bid(Bid::Pass) => (t.get("bid.pass"), None),
                            // At two the turned card lies on the stock, not
                            // in the dialog: say its suit.
                            Action::Bid(Bid::Play) => match game.turned_card() {
                                Some(c) => (
                                    format!("      {}", t.fill("bid.play_suit", &[("suit", &suit_name(t, c.suit()))])),
                                    Some(c.suit()),
                                ),
                                None => (t.get("bid.play"), None),
                            },
                            Action::Bid(Bid::Double) => (double_name(t, game.stakes().doubles + 1), None),
                            // Room on the left for the skin's symbol.
                            Action::Bid(Bid::Trump(suit)) => (format!("      {}", suit_name(t, suit)), Some(suit)),
                            _ => continue,
                        };
                        let response = ui.add_sized(
                            [130.0, crate::look::at_least_a_finger(ui, 44.0)],
                            egui::Button::new(RichText::new(label).pt(18.0)),
                        );
                        crate::forms::mark_target(ui, &bid_target(action), &response);
                        let key = bid_key(action);
                        let response = shortcut(ui, response, key);
                        if let Some(suit) = suit {
                            let at = response.rect.left_center() + egui::vec2(22.0, 0.0);
                            paint_suit(ui.painter(), symbols[suit.index()], at, 13.0);
                        }
                        if response.clicked() || key.is_some_and(|k| ui.input(|i| i.key_pressed(k))) {
                            chosen = Some(action);
                        }
                    }
                });
            });
        });
        drawn.bid_box = Some(shown.response.rect);
    }
    // At three, the player who named trump lays two cards away: a word on
    // what the taps on the hand do now.
    if my_turn && game.phase() == Phase::Discarding {
        let left = 2 - game.discards().len();
        egui::Area::new("lay away".into()).anchor(Align2::CENTER_CENTER, [0.0, 0.0]).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(12.0).show(ui, |ui| {
                ui.set_max_width(360.0);
                ui.label(RichText::new(t.fill("table.lay_away", &[("n", &left.to_string())])).pt(17.0));
            });
        });
    }
    if let Some(action) = chosen {
        actions.write(PlayerAction { seat: HUMAN, action });
    }
    Ok(())
}

/// The key of a bid, the same in every language (listed in the rules):
/// P pass, Y play, K a double (kraak), and a suit by its English initial.
pub fn bid_key(action: Action) -> Option<egui::Key> {
    use egui::Key;
    Some(match action {
        Action::Bid(Bid::Pass) => Key::P,
        Action::Bid(Bid::Play) => Key::Y,
        Action::Bid(Bid::Double) => Key::K,
        Action::Bid(Bid::Trump(Suit::Clubs)) => Key::C,
        Action::Bid(Bid::Trump(Suit::Diamonds)) => Key::D,
        Action::Bid(Bid::Trump(Suit::Hearts)) => Key::H,
        Action::Bid(Bid::Trump(Suit::Spades)) => Key::S,
        _ => return None,
    })
}

/// The name a bid's button is marked by for checks from outside:
/// `bid.pass`, `bid.play`, `bid.double`, `bid.trump.H`.
fn bid_target(action: Action) -> String {
    match action {
        Action::Bid(Bid::Trump(suit)) => format!("bid.trump.{suit}"),
        Action::Bid(Bid::Pass) => "bid.pass".into(),
        Action::Bid(Bid::Play) => "bid.play".into(),
        _ => "bid.double".into(),
    }
}

/// What the player's bid asks, in each preset's way of choosing trump: a
/// double, the stock's turned card (Klaberjass), the turned pile card to
/// pass or play, a trump to name or pass, or a trump the player must name.
pub fn bid_question(game: &Game, t: &Texts) -> String {
    let legal = game.legal_actions();
    let can = |a: Bid| legal.contains(&Action::Bid(a));
    let names = legal.iter().any(|a| matches!(a, Action::Bid(Bid::Trump(_))));
    let fill = |key: &str, s: Suit| t.fill(key, &[("suit", &suit_name(t, s))]);
    if let Some(c) = game.contract().filter(|_| game.phase() == Phase::Doubling) {
        return fill("double.your_turn", c.trump);
    }
    match (game.turned_card(), game.turned_cards().last()) {
        (Some(stock), _) if can(Bid::Play) => fill("bid.ask_stock", stock.suit()),
        // Klaberjass's second round: the turned suit is out.
        (Some(stock), _) => fill("bid.second_round", stock.suit()),
        (None, Some(pile)) if can(Bid::Play) && can(Bid::Pass) => fill("bid.ask_turned", pile.suit),
        (None, Some(pile)) if can(Bid::Play) => fill("bid.forced_turned", pile.suit),
        _ if names && can(Bid::Pass) => t.get("bid.name_or_pass"),
        _ if names && game.rules().bidding == Bidding::Mandatory => t.get("bid.must_choose_left"),
        _ if names => t.get("bid.must_choose"),
        _ => t.get("bid.your_turn"),
    }
}

/// A pile card by its number and suit ("the 6 of clubs").
fn pile_card_name(t: &Texts, c: PileCard) -> String {
    t.fill("card.name", &[("rank", &c.rank.to_string()), ("suit", &suit_name(t, c.suit))])
}
