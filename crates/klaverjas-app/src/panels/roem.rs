//! The buttons beside the player's hand: Roem! after a trick the player's
//! side won (and at the last trick, No roem), a hand's roem announced
//! before the first card, and at two the seven of trumps swapped for the
//! turned card.

use super::paint::Drawn;
use super::view::{Seen, TableView};
use crate::forms::mark_target;
use crate::seats::{HUMAN, PlayerAction};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Align2, Pos2, RichText};
use klaverjas::{Action, Phase};

pub fn roem_buttons(
    mut contexts: EguiContexts,
    view: TableView,
    mut drawn: ResMut<Drawn>,
    mut actions: MessageWriter<PlayerAction>,
) -> Result {
    let Some(seen) = view.seen() else { return Ok(()) };
    let my_turn = seen.my_turn();
    let Seen { seats, show, t, layout, now } = seen;
    let ctx = contexts.ctx_mut()?.clone();
    let game = seats.game();
    let mut chosen = None;
    // Roem may be called after any trick the player's team won, whether it
    // holds roem or not, until the next card: the engine says when. The
    // button comes when the trick is seen won and goes once answered.
    let tricks = game.tricks().len() as u8;
    let last_word = game.phase() == Phase::ClaimRoem && my_turn;
    let may_call =
        seats.is_human(HUMAN) && game.may_call_roem(HUMAN) && show.tricks_seen == tricks && show.shown.result.is_none();
    // Hand roem is announced before the player's first card, and at two
    // the seven of trumps swapped for the turned card.
    let announce = my_turn && game.legal_actions().contains(&Action::Announce) && show.idle(now);
    let swap = my_turn && game.legal_actions().contains(&Action::Swap) && show.idle(now);
    if may_call && show.false_call == Some(tricks) {
        if last_word {
            chosen = Some(Action::PassRoem);
        }
    } else if may_call || announce || swap {
        // Beside the player's hand, right of where a full hand reaches; on a
        // narrow table, where the hand fills the width, just above it at the
        // right. Never over a name or a card.
        let card = layout.hand_card(HUMAN);
        let most = (game.rules().hand_size() as usize).max(8);
        let full_hand = layout.hand_positions(HUMAN, most).last().map_or(0.0, |p| p.x) + card.x * 0.5;
        let centre_y = layout.hand_centre(HUMAN).y;
        let beside = full_hand + 16.0 + 150.0 <= layout.area.max.x;
        let (pivot, at) = if beside {
            (Align2::LEFT_CENTER, Pos2::new(full_hand + 16.0, centre_y))
        } else {
            (Align2::RIGHT_BOTTOM, Pos2::new(layout.area.max.x - 16.0, centre_y - card.y * 0.5 - 12.0))
        };
        let shown = egui::Area::new("roem".into()).pivot(pivot).fixed_pos(at).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(10.0).show(ui, |ui| {
                if swap || announce {
                    // Narrow enough to stay clear of the player's name on a
                    // phone.
                    ui.vertical(|ui| {
                        if let (true, Some(turned)) = (swap, game.turned_card()) {
                            let words = t.fill("swap.button", &[("card", &crate::words::card_name(t, turned, None))]);
                            let button = ui
                                .add_sized([136.0, 48.0], egui::Button::new(RichText::new(words).size(18.0).strong()));
                            mark_target(ui, "roem.swap", &button);
                            if button.clicked() {
                                chosen = Some(Action::Swap);
                            }
                        }
                        if announce {
                            let trump = game.contract().map_or(klaverjas::Suit::Clubs, |c| c.trump);
                            let points = klaverjas::roem::hand_roem_points(
                                game.deal().hand(HUMAN),
                                trump,
                                game.rules().roem_table,
                            );
                            let words = t.fill("announce.button", &[("points", &points.to_string())]);
                            let button = ui
                                .add_sized([136.0, 48.0], egui::Button::new(RichText::new(words).size(20.0).strong()));
                            mark_target(ui, "roem.announce", &button);
                            if button.clicked() {
                                chosen = Some(Action::Announce);
                            }
                        }
                    });
                    return;
                }
                let call = egui::Button::new(RichText::new(t.get("roem.call")).size(22.0).strong());
                let call = ui.add_sized([120.0, 48.0], call);
                mark_target(ui, "roem.call", &call);
                if call.clicked() {
                    chosen = Some(Action::ClaimRoem);
                }
                // The last trick waits for a word, roem or not.
                if last_word {
                    let height = crate::look::at_least_a_finger(ui, 40.0);
                    let pass = ui.add_sized([120.0, height], egui::Button::new(t.get("roem.pass")));
                    mark_target(ui, "roem.pass", &pass);
                    if pass.clicked() {
                        chosen = Some(Action::PassRoem);
                    }
                }
            });
        });
        drawn.roem_button = Some(shown.response.rect);
    }
    if let Some(action) = chosen {
        actions.write(PlayerAction { seat: HUMAN, action });
    }
    Ok(())
}
