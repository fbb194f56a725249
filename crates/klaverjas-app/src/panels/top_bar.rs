//! The bar along the table's top: the menu, each side's total (strokes in
//! a boem, each player's where all play alone), the deal's number, Last
//! trick, Review, and a practice game's Hint and Undo. It is drawn first:
//! the area below it is the table's.

use super::paint::Drawn;
use super::score::shown_sheet;
use crate::coach::{CoachCommand, Hint, can_undo, helps, may_undo};
use crate::look::Pt;
use crate::look::{seat_colour, team_colour};
use crate::seats::{HUMAN, Seats};
use crate::show::Show;
use crate::state::{Screen, Texts};
use crate::table::input::{MenuListOpen, Review};
use crate::table::layout::Table;
use crate::words::{seat_name, team_name};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::containers::menu::{MenuButton, MenuConfig};
use bevy_egui::egui::{self, Color32, RichText};
use klaverjas::Team;

/// Without a match at the table, back to the title, unless a screen is
/// already chosen (leaving a lesson goes to the lessons). With one, a new
/// pass: where the Roem! button stood is last frame's now, and where the
/// contract's words go stays until the felt decides again.
pub fn begin_pass(seats: Option<Res<Seats>>, mut next: ResMut<NextState<Screen>>, mut drawn: ResMut<Drawn>) {
    if seats.is_none() {
        if matches!(*next, NextState::Unchanged) {
            next.set(Screen::Title);
        }
        return;
    }
    *drawn = Drawn { last_bubble: drawn.bubble, contract_in_bar: drawn.contract_in_bar, ..Drawn::default() };
}

/// The bar, and the area below it measured for the cards.
#[allow(clippy::too_many_arguments)]
pub fn top_bar(
    mut contexts: EguiContexts,
    seats: Option<Res<Seats>>,
    show: Res<Show>,
    texts: Res<Texts>,
    hint: Res<Hint>,
    mut table: ResMut<Table>,
    mut coach: MessageWriter<CoachCommand>,
    mut reviews: MessageWriter<Review>,
    mut next: ResMut<NextState<Screen>>,
    drawn: Res<Drawn>,
    mut list_open: ResMut<MenuListOpen>,
) -> Result {
    let Some(seats) = seats else { return Ok(()) };
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = crate::look::root_ui(&ctx);
    let t = &texts.0;
    let game = seats.game();
    egui::Panel::top("bar").frame(egui::Frame::new().fill(Color32::from_rgb(12, 60, 36)).inner_margin(6.0)).show(
        &mut root,
        |ui| {
            // On a narrow screen with large text, the deal's number and the
            // buttons go in the menu's list: beside the totals, or in rows of
            // their own, they would leave the cards no room (and a strip
            // scrolling across shows words cut at its edge).
            let compact = crate::look::cramped(ui);
            // A total or a button that does not fit moves whole to the next
            // row: "They: 81" broken after its colon would read as two.
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            // The deals of a day say which day, and how many are left.
            let n = seats.m.deal_number().to_string();
            let deal = match seats.daily() {
                Some(play) => t.fill("table.deal_of_day", &[("n", &n), ("day", &play.day.to_string())]),
                None => t.fill("table.deal", &[("n", &n)]),
            };
            let deal = RichText::new(deal).pt(15.0);
            let mut buttons = |ui: &mut egui::Ui| {
                let review = egui::Button::new(RichText::new(t.get("table.last_trick")).pt(15.0));
                let review = ui.add_enabled(show.shown.last_trick.is_some(), review);
                crate::forms::mark_target(ui, "last trick", &review);
                if review.clicked() {
                    reviews.write(Review(!show.reviewing));
                }
                // The review of the deals played so far.
                let review = egui::Button::new(RichText::new(t.get("table.review")).pt(15.0));
                if !seats.demo() && !seats.lesson() && ui.add_enabled(seats.m.deals_finished() > 0, review).clicked() {
                    coach.write(CoachCommand::Review);
                }
                // A practice game's coach (H and U on the keyboard).
                if helps(&seats) {
                    let asked = hint.working() || hint.shown(seats.moment()).is_some();
                    let hint_button = egui::Button::new(RichText::new(t.get("coach.hint")).pt(15.0));
                    if ui.add_enabled(game.to_act() == Some(HUMAN) && !asked, hint_button).clicked() {
                        coach.write(CoachCommand::Hint);
                    }
                    let undo = egui::Button::new(RichText::new(t.get("coach.undo")).pt(15.0));
                    if may_undo(&seats) && ui.add_enabled(can_undo(game), undo).clicked() {
                        coach.write(CoachCommand::Undo);
                    }
                }
            };
            ui.horizontal_wrapped(|ui| {
                let menu = RichText::new("☰").pt(18.0);
                let menu = match compact {
                    true => {
                        // Its items look like the buttons they are (egui's
                        // menus draw them as bare words).
                        let config = MenuConfig::new().style(egui::style::StyleModifier::default());
                        let (menu, list) = MenuButton::new(menu).config(config).ui(ui, |ui| {
                            ui.label(deal.clone().strong());
                            let leave = ui.button(RichText::new(t.get("table.to_title")).pt(15.0));
                            crate::forms::mark_target(ui, "to the title", &leave);
                            buttons(ui);
                            leave.clicked()
                        });
                        // The list takes the keys while it is open: Escape
                        // closes it, not the table.
                        list_open.0 = list.is_some();
                        (list.is_some_and(|l| l.inner), menu)
                    }
                    false => {
                        list_open.0 = false;
                        let menu = ui.button(menu);
                        (menu.clicked(), menu)
                    }
                };
                let (leave, menu) = menu;
                if leave {
                    next.set(Screen::Title);
                }
                crate::forms::mark_target(ui, "menu", &menu);
                // A boem counts strokes; other matches points.
                let sheet = shown_sheet(&seats, &show);
                let boem = seats.m.rules().races_to_the_boem();
                let totals = if boem { sheet.strokes().map(u32::from) } else { sheet.totals() };
                let players = seats.m.rules().players;
                // Each alone: a total for every player.
                let each = sheet.player_totals();
                for &seat in players.seats().iter().filter(|_| !players.partnerships()) {
                    ui.label(
                        RichText::new(format!("{}: {}", seat_name(t, seat), each[seat.index()]))
                            .color(seat_colour(players, seat))
                            .pt(17.0)
                            .strong(),
                    );
                    ui.add_space(8.0);
                }
                for team in Team::BOTH.into_iter().filter(|_| players.partnerships()) {
                    let total = match boem {
                        true => t.count("table.strokes", ("n", totals[team] as i64), &[]),
                        false => totals[team].to_string(),
                    };
                    ui.label(
                        RichText::new(format!("{}: {total}", team_name(t, team)))
                            .color(team_colour(team))
                            .pt(17.0)
                            .strong(),
                    );
                    ui.add_space(8.0);
                }
                if !compact {
                    ui.label(deal.clone().color(Color32::WHITE));
                    buttons(ui);
                }
            });
            // Where the felt has no room for the contract's words (large
            // text on a small phone), here, with the dealer, whom the name
            // plates then leave out: one phrase a line, the lines close
            // (words, not buttons: no finger's height between them).
            if drawn.contract_in_bar {
                let words = super::felt::bar_words(t, &seats, &show);
                ui.spacing_mut().interact_size.y = 0.0;
                ui.add(egui::Label::new(RichText::new(words).color(Color32::WHITE).pt(15.0)).wrap());
            }
        },
    );
    let area = root.available_rect_before_wrap();
    let measured = Rect::new(area.left(), area.top(), area.right(), area.bottom());
    if table.area != measured && measured.width() > 0.0 && measured.height() > 0.0 {
        table.area = measured;
    }
    Ok(())
}
