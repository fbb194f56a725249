//! The coach at the table. In a practice game: a hint with its reason on
//! the player's turn (the Hint button or H), and taking back the player's
//! last card (the Undo button or U); the match counts both, and the sheet
//! marks the deals where they were used. After any deal: its review, every
//! card the player chose against every card they could have played with
//! all hands known, and the expert's choice from the player's view. Hints
//! and reviews are worked out off the main thread.

use crate::pictures::CardImages;
use crate::seats::{GameEvent, HUMAN, Moment, Seats};
use crate::show::{NoticeText, Show};
use crate::table::layout::Table;
use crate::table::outline;
use crate::table::overlay::texture;
use crate::{Screen, Texts};
use bevy::prelude::*;
use bevy::tasks::{Task, block_on, poll_once};
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::Game;
use klaverjas::Seat;
use klaverjas::{Action, Bid, Phase};
use klaverjas_ai::Decision;
use klaverjas_ai::coach::Review;
use klaverjas_cards::Face;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What the player asks of the coach.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum CoachCommand {
    Hint,
    Undo,
    /// Review the deal just finished, or the last finished one.
    Review,
    /// Review deal `n` (1-based) of the match, if it is finished.
    ReviewDeal(usize),
    /// Close the review.
    CloseReview,
    /// Copy a deal's code (the one on the screen) to the clipboard.
    CopyCode(String),
}

/// The hint for the player's turn: being worked out, then shown until the
/// player acts.
#[derive(Resource, Default)]
pub struct Hint {
    /// The moment it answers; any other moment makes it stale.
    pub at: Option<Moment>,
    task: Option<Task<Option<Decision>>>,
    pub decision: Option<Decision>,
}

impl Hint {
    pub fn working(&self) -> bool {
        self.task.is_some()
    }

    /// The hint, if it is for `now`.
    pub fn shown(&self, now: Moment) -> Option<&Decision> {
        self.decision.as_ref().filter(|_| self.at == Some(now))
    }
}

/// The review of a finished deal: being worked out, then shown trick by
/// trick.
#[derive(Resource, Default)]
pub struct DealReview {
    /// The sitting it belongs to ([`Moment::table`]): another match's
    /// review is not shown.
    pub table: u64,
    /// The deal as played, and its number in the match.
    pub deal: Option<(usize, Game)>,
    /// The player's decisions reviewed so far and in all.
    progress: Arc<AtomicUsize>,
    pub decisions: usize,
    task: Option<Task<Result<Review, String>>>,
    pub review: Option<Review>,
    /// The trick shown, from 0.
    pub trick: usize,
}

impl DealReview {
    pub fn working(&self) -> bool {
        self.task.is_some()
    }

    pub fn reviewed(&self) -> usize {
        self.progress.load(Ordering::Relaxed)
    }

    /// The number of the deal under review at this sitting, if any.
    pub fn showing(&self, seats: &Seats) -> Option<usize> {
        self.deal.as_ref().filter(|_| self.table == seats.moment().table).map(|(n, _)| *n)
    }
}

pub fn plugin(app: &mut App) {
    app.add_message::<CoachCommand>().init_resource::<Hint>().init_resource::<DealReview>().add_systems(
        Update,
        (keys.run_if(in_state(Screen::Table)), coach_commands, finish_hint, finish_review)
            .chain()
            .in_set(crate::seats::Flow::Input),
    );
}

/// At the table, H asks for a hint and U takes the last card back (in the
/// menus the letters are for the text fields).
fn keys(keys: Option<Res<ButtonInput<KeyCode>>>, mut out: MessageWriter<CoachCommand>) {
    let Some(keys) = keys else { return };
    if keys.just_pressed(KeyCode::KeyH) {
        out.write(CoachCommand::Hint);
    }
    if keys.just_pressed(KeyCode::KeyU) {
        out.write(CoachCommand::Undo);
    }
}

/// Whether the player sits at the table in a game of their own: not a
/// demo, and not a lesson, which has its own coach.
fn own_game(seats: &Seats) -> bool {
    !seats.demo && !seats.lesson && seats.is_human(HUMAN)
}

/// Whether the coach helps in this match: practice games only.
pub fn helps(seats: &Seats) -> bool {
    seats.m.is_practice() && own_game(seats)
}

fn coach_commands(
    mut commands: MessageReader<CoachCommand>,
    seats: Option<ResMut<Seats>>,
    mut hint: ResMut<Hint>,
    mut review: ResMut<DealReview>,
    mut show: ResMut<Show>,
    time: Res<Time>,
    mut events: MessageWriter<GameEvent>,
) {
    let Some(mut seats) = seats else {
        commands.clear();
        return;
    };
    let now = time.elapsed_secs();
    for command in commands.read() {
        match command {
            CoachCommand::Review => {
                let last = seats.m.deals_finished().max(1);
                start_review(&seats, &mut review, last);
            }
            CoachCommand::ReviewDeal(n) => start_review(&seats, &mut review, *n),
            CoachCommand::CloseReview => *review = DealReview::default(),
            CoachCommand::CopyCode(code) => {
                let copied = copy_to_clipboard(code);
                let warning = copied.is_err();
                show.notice(NoticeText::CodeCopied(copied), Some(HUMAN), now, warning);
            }
            _ if !own_game(&seats) => {}
            _ if !seats.m.is_practice() => {
                show.notice(NoticeText::Aid(klaverjas::AidError::CountingMatch), Some(HUMAN), now, true);
            }
            CoachCommand::Hint => {
                let at = seats.moment();
                let asked = hint.at == Some(at) && (hint.working() || hint.decision.is_some());
                if asked || seats.game().to_act() != Some(HUMAN) {
                    continue;
                }
                if let Err(e) = seats.m.note_hint() {
                    show.notice(NoticeText::Aid(e), Some(HUMAN), now, true);
                    continue;
                }
                let view = seats.game().view(HUMAN);
                let seed = seats.m.seed() ^ at.actions as u64;
                hint.at = Some(seats.moment());
                hint.decision = None;
                hint.task = Some(crate::thinking::hint(view, seed));
                events.write(GameEvent::Helped);
            }
            CoachCommand::Undo => match seats.m.undo(HUMAN) {
                Ok(_) => {
                    // The table is put back as it was before the card; the
                    // save follows the event.
                    events.write(GameEvent::Dealt { number: seats.m.deal_number() });
                    seats.unseen = true;
                }
                Err(e) => show.notice(NoticeText::Aid(e), Some(HUMAN), now, true),
            },
        }
    }
}

/// Starts the review of South's cards in deal `number` of the match, if
/// it is finished and its review not already under way or shown. A demo's
/// is asked for by `--review`.
fn start_review(seats: &Seats, review: &mut DealReview, number: usize) {
    if review.showing(seats) == Some(number) {
        return;
    }
    let Some(game) = seats.m.finished_deal(number) else { return };
    // A finished deal of the match was played, so it is whole.
    let Ok(start) = Game::new(*game.rules(), *game.deal()) else { return };
    let decisions = klaverjas_ai::coach::decisions(&start, game.actions(), HUMAN);
    let progress = Arc::new(AtomicUsize::new(0));
    let seed = seats.m.seed() ^ number as u64;
    let task =
        crate::thinking::review(*game.rules(), *game.deal(), game.actions().to_vec(), HUMAN, seed, progress.clone());
    *review = DealReview {
        table: seats.moment().table,
        deal: Some((number, game.clone())),
        progress,
        decisions,
        task: Some(task),
        review: None,
        trick: 0,
    };
}

/// A window that redraws only on input must still look at a task in
/// flight, and show its answer.
fn finish_review(mut review: ResMut<DealReview>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    let Some(task) = review.task.as_mut() else { return };
    redraw.write(bevy::window::RequestRedraw);
    if let Some(done) = block_on(poll_once(task)) {
        review.task = None;
        match done {
            Ok(r) => {
                // Open at the costliest choice, else at the first trick.
                review.trick = r.costliest(1).first().map_or(0, |&i| r.cards[i].trick as usize - 1);
                review.review = Some(r);
            }
            Err(e) => {
                error!("the review of the deal failed: {e}");
                *review = DealReview::default();
            }
        }
    }
}

fn finish_hint(mut hint: ResMut<Hint>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    let Some(task) = hint.task.as_mut() else { return };
    redraw.write(bevy::window::RequestRedraw);
    if let Some(decision) = block_on(poll_once(task)) {
        hint.task = None;
        hint.decision = decision;
    }
}

/// The hint on the table: its words above the player's hand, and the card
/// outlined.
pub fn panel_plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (hint_panel, review_window).after(crate::table::overlay::overlay).run_if(in_state(Screen::Table)),
    );
}

fn hint_panel(
    mut contexts: EguiContexts,
    hint: Res<Hint>,
    seats: Option<Res<Seats>>,
    show: Res<Show>,
    table: Res<Table>,
    texts: Res<Texts>,
) -> Result {
    let Some(seats) = seats.filter(|s| helps(s)) else { return Ok(()) };
    let Some(decision) = hint.shown(seats.moment()) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    let layout = table.layout();
    let game = seats.game();
    if let Action::Play(card) = decision.action {
        outline::paint(&ctx, &outline::card(&layout, &show.shown, card));
    }
    let words = hint_words(decision, t, game);
    // Just above the player's cards, as wide as the hand may be.
    let hand_top = layout.hand_centre(HUMAN).y - layout.hand_card(HUMAN).y * 0.5 - 10.0;
    let width = (layout.area.width() - 24.0).min(560.0);
    egui::Area::new("hint".into())
        .pivot(egui::Align2::CENTER_BOTTOM)
        .fixed_pos(egui::pos2(layout.area.center().x, hand_top))
        .show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(10.0).show(ui, |ui| {
                ui.set_max_width(width);
                ui.label(RichText::new(words).size(17.0));
            });
        });
    Ok(())
}

/// A hint in words: its reason, which names the card or bid, or where a
/// reason does not, the card or bid alone.
pub fn hint_words(decision: &Decision, t: &crate::i18n::Texts, game: &klaverjas::Game) -> String {
    match decision.reason {
        klaverjas_ai::Reason::OnlyChoice | klaverjas_ai::Reason::Random => {
            t.fill("coach.hint_card", &[("card", &action_words(decision.action, t, game))])
        }
        _ => t.fill("coach.hint_is", &[("reason", &crate::words::reason(&decision.reason, t))]),
    }
}

/// An action as the player reads it.
pub fn action_words(a: Action, t: &crate::i18n::Texts, game: &klaverjas::Game) -> String {
    match a {
        Action::Play(c) => crate::words::card_name(t, c, game.contract().map(|c| c.trump)),
        Action::Bid(Bid::Double) => crate::words::double_name(t, game.stakes().doubles + 1),
        Action::Bid(b) => crate::words::bid_name(t, b),
        Action::ClaimRoem => t.get("roem.call"),
        Action::PassRoem => t.get("roem.pass"),
        Action::Announce => t.get("announce.action"),
        Action::Discard(c) => {
            t.fill("discard.action", &[("card", &crate::words::card_name(t, c, game.contract().map(|c| c.trump)))])
        }
        Action::Swap => t.get("swap.action"),
    }
}

/// Whether the player has a card to take back: one played in this deal,
/// which is not over.
pub fn can_undo(game: &klaverjas::Game) -> bool {
    game.result().is_none()
        && !matches!(game.phase(), Phase::Bidding | Phase::Doubling | Phase::Discarding)
        && game.hand(HUMAN).len() < game.rules().hand_size()
}

/// The review: what the player's cards gave away, the costliest choices,
/// the bids beside the expert's, and trick by trick all four hands with
/// every card the player could have played and what it was worth.
#[allow(clippy::too_many_arguments)]
fn review_window(
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
                close = ui.button(RichText::new(t.get("review.close")).size(16.0)).clicked();
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
                crate::table::overlay::share_code(ui, t, game.deal().code(), &mut out);
            });
            egui::ScrollArea::vertical()
                .max_height(area.height() - 180.0)
                .min_scrolled_height(area.height() - 180.0)
                .show(ui, |ui| {
                    let Some(r) = review.review.clone() else {
                        let done = review.reviewed();
                        ui.label(RichText::new(t.get("deal_review.working")).size(16.0));
                        let fraction = done as f32 / review.decisions.max(1) as f32;
                        ui.add(egui::ProgressBar::new(fraction).text(format!("{done} / {}", review.decisions)));
                        return;
                    };
                    let total = r.total_loss();
                    let summary = if total == 0 {
                        t.get("deal_review.perfect")
                    } else {
                        t.fill("deal_review.total", &[("points", &total.to_string())])
                    };
                    ui.label(RichText::new(summary).size(17.0).strong());
                    let costly = r.costliest(3);
                    if !costly.is_empty() {
                        ui.horizontal_wrapped(|ui| {
                            ui.label(t.get("deal_review.costliest"));
                            for &i in &costly {
                                let c = &r.cards[i];
                                let label = t.fill(
                                    "deal_review.cost",
                                    &[("trick", &c.trick.to_string()), ("loss", &c.loss.to_string())],
                                );
                                if ui.button(label).clicked() {
                                    review.trick = c.trick as usize - 1;
                                }
                            }
                        });
                    }
                    for b in &r.bids {
                        let line = t.fill(
                            "deal_review.bid",
                            &[
                                ("bid", &crate::words::bid_name(t, b.bid)),
                                ("reason", &crate::words::reason(&b.expert.reason, t)),
                            ],
                        );
                        ui.label(RichText::new(line).size(15.0));
                    }
                    ui.separator();
                    let tricks = game.tricks();
                    let Some(trick) = tricks.get(review.trick) else { return };
                    ui.horizontal_wrapped(|ui| {
                        if ui.add_enabled(review.trick > 0, egui::Button::new("◀")).clicked() {
                            review.trick -= 1;
                        }
                        let k = (review.trick + 1).to_string();
                        ui.label(RichText::new(t.fill("deal_review.trick", &[("k", &k)])).size(17.0).strong());
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
                        ui.label(RichText::new(who).size(14.0));
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
                                let name = RichText::new(crate::words::seat_name(t, seat)).size(14.0);
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
        t.fill(
            "deal_review.lost",
            &[
                ("card", &crate::words::card_name(t, c.card, trump)),
                ("loss", &c.loss.to_string()),
                ("best", &crate::words::card_name(t, c.best, trump)),
            ],
        )
    };
    ui.label(RichText::new(head).size(16.0).strong());
    ui.label(RichText::new(t.get("deal_review.values")).size(14.0));
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
    ui.label(RichText::new(expert).size(14.0));
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
        crate::table::overlay::paint_part(ui.painter(), faces[card.index()], rect, whole);
        if marked.contains(&card) {
            let gold = egui::Stroke::new(2.5, egui::Color32::from_rgb(255, 196, 0));
            ui.painter().rect_stroke(rect, egui::CornerRadius::same(3), gold, egui::StrokeKind::Outside);
        }
    }
}

/// Copies `text` to the system clipboard, or says why it could not.
#[cfg(not(any(target_os = "android", target_os = "ios", target_arch = "wasm32")))]
fn copy_to_clipboard(text: &str) -> Result<(), String> {
    use std::sync::{Mutex, OnceLock};
    // On X11 the copying program serves the clipboard: it lives as long as
    // the game does.
    static CLIPBOARD: OnceLock<Mutex<Option<arboard::Clipboard>>> = OnceLock::new();
    let lock = CLIPBOARD.get_or_init(|| Mutex::new(arboard::Clipboard::new().ok()));
    let mut clipboard = lock.lock().map_err(|e| e.to_string())?;
    match clipboard.as_mut() {
        Some(c) => c.set_text(text.to_string()).map_err(|e| e.to_string()),
        None => Err("no clipboard".to_string()),
    }
}

/// Without a clipboard the code is on the screen, to copy by hand.
#[cfg(any(target_os = "android", target_os = "ios", target_arch = "wasm32"))]
fn copy_to_clipboard(_text: &str) -> Result<(), String> {
    Err("no clipboard".to_string())
}
