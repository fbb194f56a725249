//! The buttons beside the player's hand: Roem! after a trick the player's
//! side won (and at the last trick, No roem), a hand's roem announced
//! before the first card, and at two the seven of trumps swapped for the
//! turned card.

use super::paint::{Drawn, Way, shortcut};
use super::view::{Seen, TableView};
use crate::forms::mark_target;
use crate::look::Pt;
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
        // right. Never over a name or a card. Its size is known before it
        // is drawn (egui would place a new area by last pass's size).
        let card = layout.hand_card(HUMAN);
        let most = (game.rules().hand_size() as usize).max(8);
        let full_hand = layout.hand_positions(HUMAN, most).last().map_or(0.0, |p| p.x) + card.x * 0.5;
        let centre_y = layout.hand_centre(HUMAN).y;
        // No roem: a finger's height on a phone.
        let row = ctx.global_style().spacing.interact_size.y.max(40.0);
        let size = buttons_size(swap && game.turned_card().is_some(), announce, last_word, row, &ctx.global_style());
        let beside = full_hand + 16.0 + size.x <= layout.area.max.x;
        let rect = if beside {
            Align2::LEFT_CENTER.anchor_size(Pos2::new(full_hand + 16.0, centre_y), size)
        } else {
            let at = Pos2::new(layout.area.max.x - 16.0, centre_y - card.y * 0.5 - 12.0);
            Align2::RIGHT_BOTTOM.anchor_size(at, size)
        };
        let names: Vec<egui::Rect> = drawn.plates.iter().flatten().copied().collect();
        let rect = super::paint::clear_of(rect, &names, super::paint::egui_rect(&layout), Way::Up);
        let shown = egui::Area::new("roem".into()).fixed_pos(rect.min).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(10.0).show(ui, |ui| {
                if swap || announce {
                    // Narrow enough to stay clear of the player's name on a
                    // phone.
                    ui.vertical(|ui| {
                        if let (true, Some(turned)) = (swap, game.turned_card()) {
                            let words = t.fill("swap.button", &[("card", &crate::words::card_name(t, turned, None))]);
                            let button =
                                ui.add_sized([WIDE, HIGH], egui::Button::new(RichText::new(words).pt(18.0).strong()));
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
                            let button =
                                ui.add_sized([WIDE, HIGH], egui::Button::new(RichText::new(words).pt(20.0).strong()));
                            mark_target(ui, "roem.announce", &button);
                            let button = shortcut(ui, button, Some(egui::Key::R));
                            if button.clicked() || pressed(ui, egui::Key::R) {
                                chosen = Some(Action::Announce);
                            }
                        }
                    });
                    return;
                }
                let call = egui::Button::new(RichText::new(t.get("roem.call")).pt(22.0).strong());
                let call = ui.add_sized([NARROW, HIGH], call);
                mark_target(ui, "roem.call", &call);
                let call = shortcut(ui, call, Some(egui::Key::R));
                if call.clicked() || pressed(ui, egui::Key::R) {
                    chosen = Some(Action::ClaimRoem);
                }
                // The last trick waits for a word, roem or not.
                if last_word {
                    let pass = ui.add_sized([NARROW, row], egui::Button::new(t.get("roem.pass")));
                    mark_target(ui, "roem.pass", &pass);
                    let pass = shortcut(ui, pass, Some(egui::Key::N));
                    if pass.clicked() || pressed(ui, egui::Key::N) {
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

/// R calls roem (or announces the hand's), N says there is none.
fn pressed(ui: &egui::Ui, key: egui::Key) -> bool {
    ui.input(|i| i.key_pressed(key))
}

/// The buttons' sizes: the hand's roem and the swap, Roem! and No roem.
const WIDE: f32 = 136.0;
const NARROW: f32 = 120.0;
const HIGH: f32 = 48.0;
/// The popup's margin and stroke on each side.
const FRAME: f32 = 12.0;

/// The size of the box of buttons: the swap and the hand's roem one under
/// the other, or Roem! with No roem (`row` high) under it.
fn buttons_size(swap: bool, announce: bool, last_word: bool, row: f32, style: &egui::Style) -> egui::Vec2 {
    let gap = style.spacing.item_spacing.y;
    let (width, heights) = if swap || announce {
        (WIDE, [Some(HIGH).filter(|_| swap), Some(HIGH).filter(|_| announce)])
    } else {
        (NARROW, [Some(HIGH), Some(row).filter(|_| last_word)])
    };
    let heights: Vec<f32> = heights.into_iter().flatten().collect();
    let high = heights.iter().sum::<f32>() + gap * heights.len().saturating_sub(1) as f32;
    egui::vec2(width, high) + egui::Vec2::splat(2.0 * FRAME)
}
