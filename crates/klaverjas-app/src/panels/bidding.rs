//! The player's bid: the card the bid is about and a button for each bid
//! the engine allows (pass, play, a suit, a double); and at three, while
//! the trump maker lays two cards away, a word on what a tap does now.

use super::paint::{paint_suit, pile_texture, suit_texture};
use super::view::{Seen, TableView};
use crate::pictures::CardImages;
use crate::seats::{HUMAN, PlayerAction};
use crate::words::{double_name, suit_name};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Align2, RichText};
use klaverjas::{Action, Bid, Phase, Suit};

pub fn bidding(
    mut contexts: EguiContexts,
    view: TableView,
    images: Res<CardImages>,
    mut actions: MessageWriter<PlayerAction>,
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
        // left of the trick.
        let aside = if layout.area.width() > layout.area.height() { 90.0 } else { 0.0 };
        egui::Area::new("bidding".into()).anchor(Align2::CENTER_CENTER, [aside, 40.0]).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(12.0).show(ui, |ui| {
                let title = match game.contract().filter(|_| doubling) {
                    Some(c) => t.fill("double.your_turn", &[("suit", &suit_name(t, c.trump))]),
                    // Klaberjass's second round: the turned suit is out.
                    None => {
                        match game.turned_card().filter(|_| !game.legal_actions().contains(&Action::Bid(Bid::Play))) {
                            Some(turned) => t.fill("bid.second_round", &[("suit", &suit_name(t, turned.suit()))]),
                            None => t.get("bid.your_turn"),
                        }
                    }
                };
                ui.label(RichText::new(title).size(18.0));
                ui.horizontal(|ui| {
                    // The card the bid is about: pass or play beside it.
                    if let Some(pile) = pile {
                        let size = egui::vec2(64.0, 64.0 * 1.45);
                        ui.add(egui::Image::new((pile, size)));
                    }
                    ui.horizontal_wrapped(|ui| {
                        for action in game.legal_actions() {
                            let (label, suit) = match action {
                                Action::Bid(Bid::Pass) => (t.get("bid.pass"), None),
                                // At two the turned card lies on the stock, not
                                // in the dialog: say its suit.
                                Action::Bid(Bid::Play) => match game.turned_card() {
                                    Some(c) => (
                                        format!(
                                            "      {}",
                                            t.fill("bid.play_suit", &[("suit", &suit_name(t, c.suit()))])
                                        ),
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
                                egui::Button::new(RichText::new(label).size(18.0)),
                            );
                            if let Some(suit) = suit {
                                let at = response.rect.left_center() + egui::vec2(22.0, 0.0);
                                paint_suit(ui.painter(), symbols[suit.index()], at, 13.0);
                            }
                            if response.clicked() {
                                chosen = Some(action);
                            }
                        }
                    });
                });
            });
        });
    }
    // At three, the player who named trump lays two cards away: a word on
    // what the taps on the hand do now.
    if my_turn && game.phase() == Phase::Discarding {
        let left = 2 - game.discards().len();
        egui::Area::new("lay away".into()).anchor(Align2::CENTER_CENTER, [0.0, 0.0]).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(12.0).show(ui, |ui| {
                ui.set_max_width(360.0);
                ui.label(RichText::new(t.fill("table.lay_away", &[("n", &left.to_string())])).size(17.0));
            });
        });
    }
    if let Some(action) = chosen {
        actions.write(PlayerAction { seat: HUMAN, action });
    }
    Ok(())
}
