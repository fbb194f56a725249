//! The review of a deal: what the player's cards gave away, the costliest
//! choices, the bids beside the expert's, and trick by trick all four hands
//! with every card the player could have played and what it was worth.

use super::paint::texture;
use crate::coach::{CoachCommand, DealReview};
use crate::look::Pt;
use crate::pictures::CardImages;
use crate::seats::Seats;
use crate::state::Texts;
use crate::table::layout::Table;
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, RichText};
use klaverjas::{Action, Seat};
use klaverjas_cards::Face;

/// The review: what the player's cards gave away, the costliest choices,
/// the bids beside the expert's, and trick by trick all four hands with
/// every card the player could have played and what it was worth.
#[allow(clippy::too_many_arguments)]
pub fn review_window(
    mut contexts: EguiContexts,
    mut review: ResMut<DealReview>,
    seats: Option<Res<Seats>>,
    table: Res<Table>,
    texts: Res<Texts>,
    images: Res<CardImages>,
    mut out: MessageWriter<CoachCommand>,
) -> Result {
    let Some(seats) = seats else { return Ok(()) };
    if review.showing(&seats).is_none() {
        return Ok(());
    }
    let Some((number, game)) = review.deal.clone() else { return Ok(()) };
    let t = &texts.0;
    let faces: Vec<egui::TextureId> = (0..32)
        .filter_map(klaverjas::Card::from_index)
        .map(|c| texture(&mut contexts, &images, Face::Card(c)))
        .collect();
    let ctx = contexts.ctx_mut()?.clone();
    let area = table.layout().area;
    let trump = game.contract().map(|c| c.trump);
    let mut close = false;
    egui::Window::new(t.fill("deal_review.title", &[("n", &number.to_string())]))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .min_width((area.width() - 40.0).min(900.0))
        .max_width((area.width() - 16.0).min(940.0))
        .show(&ctx, |ui| {
            // Close first: the review may be longer than the screen.
            ui.horizontal_wrapped(|ui| {
                close = ui.button(RichText::new(t.get("review.close")).pt(16.0)).clicked();
                // The other deals of the match, when there are.
                let finished = seats.m.deals_finished();
                if finished > 1 {
                    // A match saved before deals were kept lacks its first.
                    let earlier = number > 1 && seats.m.has_finished_deal(number - 1);
                    if ui.add_enabled(earlier, egui::Button::new("◀")).clicked() {
                        out.write(CoachCommand::ReviewDeal(number - 1));
                    }
                    ui.label(t.fill("deal_review.deal", &[("n", &number.to_string()), ("of", &finished.to_string())]));
                    if ui.add_enabled(number < finished, egui::Button::new("▶")).clicked() {
                        out.write(CoachCommand::ReviewDeal(number + 1));
                    }
                }
                crate::panels::score::share_code(ui, t, game.deal().code());
            });
            egui::ScrollArea::vertical()
                .max_height(area.height() - 180.0)
                .min_scrolled_height(area.height() - 180.0)
                .show(ui, |ui| {
                    let Some(r) = review.review.clone() else {
                        let done = review.reviewed();
                        ui.label(RichText::new(t.get("deal_review.working")).pt(16.0));
                        let fraction = done as f32 / review.decisions.max(1) as f32;
                        ui.add(egui::ProgressBar::new(fraction).text(format!("{done} / {}", review.decisions)));
                        return;
                    };
                    let total = r.total_loss();
                    let summary = if total == 0 {
                        t.get("deal_review.perfect")
                    } else {
                        t.count("deal_review.total", ("points", total as i64), &[])
                    };
                    ui.label(RichText::new(summary).pt(17.0).strong());
                    // First in plain words: the costliest cards (a tap shows
                    // the trick) and the bids beside the expert's.
                    for &i in &r.costliest(3) {
                        let c = &r.cards[i];
                        let line = RichText::new(crate::words::plain_cost(t, c, &game)).pt(16.0);
                        if ui.add(egui::Button::new(line).wrap().frame(false)).clicked() {
                            review.trick = c.trick as usize - 1;
                        }
                    }
                    for b in &r.bids {
                        let (bid, expert) = (b.bid, b.expert.action);
                        let bid_name = crate::words::bid_name(t, bid);
                        let line = match expert {
                            Action::Bid(e) if e != bid => t.fill(
                                "deal_review.plain.bid_differs",
                                &[("bid", &bid_name), ("expert", &crate::words::bid_name(t, e))],
                            ),
                            _ => t.fill("deal_review.plain.bid_same", &[("bid", &bid_name)]),
                        };
                        ui.label(RichText::new(line).pt(15.0));
                    }
                    // The expert's figures, for those who want them.
                    if !r.bids.is_empty() {
                        egui::CollapsingHeader::new(t.get("deal_review.figures")).id_salt("bid-figures").show(
                            ui,
                            |ui| {
                                for b in &r.bids {
                                    let line = t.fill(
                                        "deal_review.bid",
                                        &[
                                            ("bid", &crate::words::bid_name(t, b.bid)),
                                            ("reason", &crate::words::reason(&b.expert.reason, t)),
                                        ],
                                    );
                                    ui.label(RichText::new(line).pt(14.0));
                                }
                            },
                        );
                    }
                    ui.separator();
                    let tricks = game.tricks();
                    let Some(trick) = tricks.get(review.trick) else { return };
                    ui.horizontal_wrapped(|ui| {
                        if ui.add_enabled(review.trick > 0, egui::Button::new("◀")).clicked() {
                            review.trick -= 1;
                        }
                        let k = (review.trick + 1).to_string();
                        ui.label(RichText::new(t.fill("deal_review.trick", &[("k", &k)])).pt(17.0).strong());
                        if ui.add_enabled(review.trick + 1 < tricks.len(), egui::Button::new("▶")).clicked() {
                            review.trick += 1;
                        }
                        let who = t.fill(
                            "deal_review.who",
                            &[
                                ("leader", &crate::words::seat_name(t, trick.leader)),
                                ("winner", &crate::words::seat_name(t, trick.winner)),
                            ],
                        );
                        ui.label(RichText::new(who).pt(14.0));
                    });
                    // Every hand as it was when this trick began; the card each
                    // seat played to it is outlined.
                    let mut hands = game.deal().hands;
                    for done in &tricks[..review.trick] {
                        for (seat, card) in done.plays() {
                            hands[seat.index()].remove(card);
                        }
                    }
                    let played: Vec<klaverjas::Card> = trick.cards.to_vec();
                    let hands_ui = |ui: &mut egui::Ui| {
                        for seat in Seat::ALL {
                            ui.horizontal(|ui| {
                                let name = RichText::new(crate::words::seat_name(t, seat)).pt(14.0);
                                ui.add_sized([64.0, 20.0], egui::Label::new(name));
                                let cards = crate::table::cards::sorted_hand(
                                    hands[seat.index()],
                                    trump,
                                    game.rules().card_values,
                                );
                                mini_cards(ui, &faces, &cards, &played);
                            });
                        }
                    };
                    let choice = r.cards.iter().find(|c| c.trick as usize == review.trick + 1);
                    let verdict_ui = |ui: &mut egui::Ui| {
                        if let Some(c) = choice {
                            card_verdict(ui, t, c, trump);
                        }
                    };
                    // Side by side where the window is wide, else one under
                    // the other.
                    if ui.available_width() > 760.0 {
                        ui.columns(2, |columns| {
                            hands_ui(&mut columns[0]);
                            verdict_ui(&mut columns[1]);
                        });
                    } else {
                        hands_ui(ui);
                        ui.separator();
                        verdict_ui(ui);
                    }
                });
        });
    if close {
        out.write(CoachCommand::CloseReview);
    }
    Ok(())
}

/// What the player's card in a trick was worth against every card they
/// could have played, and the expert's choice.
fn card_verdict(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    c: &klaverjas_ai::coach::CardReview,
    trump: Option<klaverjas::Suit>,
) {
    let head = if c.loss == 0 {
        t.fill("deal_review.best", &[("card", &crate::words::card_name(t, c.card, trump))])
    } else {
        t.count(
            "deal_review.lost",
            ("loss", c.loss as i64),
            &[
                ("card", &crate::words::card_name(t, c.card, trump)),
                ("best", &crate::words::card_name(t, c.best, trump)),
            ],
        )
    };
    ui.label(RichText::new(head).pt(16.0).strong());
    egui::CollapsingHeader::new(t.get("deal_review.figures")).id_salt("card-figures").show(ui, |ui| {
        card_figures(ui, t, c, trump);
    });
}

/// Every card the player could play with its value, and the expert's
/// reason from the player's view.
fn card_figures(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    c: &klaverjas_ai::coach::CardReview,
    trump: Option<klaverjas::Suit>,
) {
    ui.label(RichText::new(t.get("deal_review.values")).pt(14.0));
    egui::Grid::new("values")
        .min_row_height(ui.text_style_height(&egui::TextStyle::Body))
        .num_columns(3)
        .spacing([16.0, 2.0])
        .show(ui, |ui| {
            let mut values = c.values.clone();
            values.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
            for (card, value) in values {
                ui.label(crate::words::card_name(t, card, trump));
                ui.label(RichText::new(format!("{value:+}")).monospace());
                let mut marks = Vec::new();
                if card == c.card {
                    marks.push(t.get("deal_review.yours"));
                }
                if c.expert.action == Action::Play(card) {
                    marks.push(t.get("deal_review.experts"));
                }
                ui.add(egui::Label::new(marks.join(", ")).wrap());
                ui.end_row();
            }
        });
    let expert = t.fill("deal_review.expert", &[("reason", &crate::words::reason(&c.expert.reason, t))]);
    ui.label(RichText::new(expert).pt(14.0));
}

/// A row of small cards, overlapping where the row is short of room; those
/// in `marked` get a gold edge.
fn mini_cards(ui: &mut egui::Ui, faces: &[egui::TextureId], cards: &[klaverjas::Card], marked: &[klaverjas::Card]) {
    let size = egui::vec2(42.0, 42.0 * 1.45);
    let (row, _) = ui.allocate_exact_size(egui::vec2(ui.available_width(), size.y), egui::Sense::hover());
    let step = ((row.width() - size.x) / (cards.len().max(2) - 1) as f32).min(size.x + 3.0);
    for (i, &card) in cards.iter().enumerate() {
        let rect = egui::Rect::from_min_size(row.min + egui::vec2(step * i as f32, 0.0), size);
        let whole = egui::Rect::from_min_max(egui::Pos2::ZERO, egui::pos2(1.0, 1.0));
        crate::panels::paint::paint_part(ui.painter(), faces[card.index()], rect, whole);
        if marked.contains(&card) {
            let gold = egui::Stroke::new(2.5, egui::Color32::from_rgb(255, 196, 0));
            ui.painter().rect_stroke(rect, egui::CornerRadius::same(3), gold, egui::StrokeKind::Outside);
        }
    }
}
