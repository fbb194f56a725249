//! The statistics screen: the player's numbers per game and bots (matches,
//! deals, nat and pit, roem, points, runs, bids), the learning curve drawn
//! beside the expert's on the same deals, the costliest deals each opening
//! its review, and a reset that asks first. Help (hints, undo) and watched
//! demos are shown apart from the deals that count.

use crate::forms::big_button;
use crate::look::Pt;
use crate::progress::Reviewing;
use crate::state::{Files, PlayerProfile, Screen, Texts};
use bevy::prelude::*;
use bevy::tasks::{Task, block_on, poll_once};
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::{Deal, Game, Preset};
use klaverjas_ai::coach::Review;
use klaverjas_ai::progress::{DealLoss, Kind, Profile, SPANS, Tally, average, span_shown};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

/// The screen's choices and the review it opened.
#[derive(Resource)]
struct View {
    kind: Kind,
    /// One game, or all together.
    preset: Option<Preset>,
    confirm_reset: bool,
    /// Whether the kind shown was chosen yet (the first with deals).
    kind_chosen: bool,
    review: CurveReview,
}

impl Default for View {
    fn default() -> View {
        View { kind: Kind::Counted, preset: None, confirm_reset: false, kind_chosen: false, review: default() }
    }
}

/// A deal of the learning curve under review: its window's title and
/// the deal, the review being worked out, then shown.
#[derive(Default)]
pub struct CurveReview {
    reviewing: Option<(String, Game)>,
    task: Option<Task<Result<Review, String>>>,
    review: Option<Review>,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<View>()
        .add_systems(EguiPrimaryContextPass, statistics.after(crate::look::Zoom).run_if(in_state(Screen::Statistics)));
}

/// The player's colour on the chart, and the expert's.
const YOU: Color32 = Color32::from_rgb(232, 170, 40);
const EXPERT: Color32 = Color32::from_rgb(90, 170, 255);

fn statistics(
    mut contexts: EguiContexts,
    texts: Res<Texts>,
    mut profile: ResMut<PlayerProfile>,
    files: Res<Files>,
    mut reviewing: ResMut<Reviewing>,
    mut view: ResMut<View>,
    (mut next, mut commands): (ResMut<NextState<Screen>>, Commands),
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    if !view.kind_chosen {
        view.kind_chosen = true;
        view.kind =
            Kind::ALL.into_iter().find(|&k| profile.0.rows.iter().any(|r| r.kind == k)).unwrap_or(Kind::Counted);
    }
    let (mut open, mut again) = (None, None);
    let any = !profile.0.rows.is_empty() || !profile.0.days.is_empty();
    let (mut back, mut reset) = (false, false);
    // Back stays in view at the foot, however long the numbers.
    let footer = |ui: &mut egui::Ui| {
        ui.horizontal_wrapped(|ui| {
            back = big_button(ui, t.get("menu.back")).clicked();
            reset = any && ui.button(RichText::new(t.get("stats.reset")).pt(16.0)).clicked();
        });
    };
    let content = |ui: &mut egui::Ui| {
        choices(ui, t, &profile.0, &mut view);
        ui.add_space(8.0);
        let p = &profile.0;
        let rows: Vec<_> =
            p.rows.iter().filter(|r| r.kind == view.kind && view.preset.is_none_or(|q| q == r.preset)).collect();
        if rows.is_empty() {
            ui.label(RichText::new(t.get("stats.empty")).pt(16.0));
        }
        if rows.len() > 1 {
            tally(ui, t, &t.get("stats.together"), &p.total(view.preset, view.kind));
        }
        for r in rows {
            let heading = format!(
                "{} · {}",
                t.get(&format!("home.{}", r.preset.name())),
                t.get(&format!("level.{}", r.bots.name()))
            );
            tally(ui, t, &heading, &r.tally);
        }
        // Matches kept on the score sheet at a table with real cards.
        for (preset, real) in &p.real_cards {
            let heading = t.fill("stats.real_cards", &[("game", &t.get(&format!("home.{}", preset.name())))]);
            tally(ui, t, &heading, real);
        }
        ui.add_space(12.0);
        again = days(ui, t, p, crate::platform::today());
        ui.add_space(12.0);
        curve(ui, t, p, view.kind, view.preset, reviewing.len());
        ui.add_space(8.0);
        open = costliest(ui, t, p, view.kind, view.preset);
    };
    crate::forms::page_with_footer(&ctx, t.get("menu.statistics"), content, Some(Box::new(footer)));
    if back {
        next.set(Screen::Title);
    }
    if let Some(chosen) = again {
        commands.insert_resource(chosen);
        next.set(Screen::Daily);
    }
    view.confirm_reset |= reset;
    if let Some(i) = open {
        let title = t.fill("stats.review_title", &[("n", &profile.0.number_in_kind(i).to_string())]);
        view.review.open(&profile.0, i, title);
    }
    view.review.show(&ctx, t);
    let answer = view.confirm_reset.then(|| {
        let ask = |k: &str| t.get(&format!("stats.reset{k}"));
        crate::forms::confirm(&ctx, ask(""), ask("_question"), ask("_no"), ask("_yes"))
    });
    if let Some(Some(_)) = answer {
        view.confirm_reset = false;
    }
    if answer == Some(Some(true)) {
        profile.0 = Profile::default();
        reviewing.forget();
        if let Err(e) = files.0.write_profile(&profile.0) {
            error!("the statistics could not be reset: {e}");
        }
    }
    Ok(())
}

/// Which deals are shown: how they counted, and which game.
fn choices(ui: &mut egui::Ui, t: &crate::i18n::Texts, p: &Profile, view: &mut View) {
    ui.horizontal_wrapped(|ui| {
        for kind in Kind::ALL {
            ui.selectable_value(
                &mut view.kind,
                kind,
                RichText::new(t.get(&format!("stats.kind.{}", kind.name()))).pt(16.0),
            );
        }
    });
    let played: Vec<Preset> = Preset::ALL.into_iter().filter(|&q| p.rows.iter().any(|r| r.preset == q)).collect();
    if played.len() > 1 {
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut view.preset, None, RichText::new(t.get("stats.all_games")).pt(16.0));
            for q in played {
                ui.selectable_value(
                    &mut view.preset,
                    Some(q),
                    RichText::new(t.get(&format!("home.{}", q.name()))).pt(16.0),
                );
            }
        });
    }
}

/// The deals of the day played for the record, the latest first: each
/// day's result beside the expert's, the streak, and each day's deals to
/// play again for practice. Returns the day chosen to play again.
fn days(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    p: &Profile,
    today: klaverjas_ai::daily::Day,
) -> Option<crate::state::DayChosen> {
    ui.label(RichText::new(t.get("menu.daily")).pt(18.0).strong());
    if p.days.is_empty() {
        ui.label(RichText::new(t.get("stats.no_days")).pt(15.0));
        return None;
    }
    ui.label(RichText::new(t.count("stats.streak", ("n", i64::from(p.streak(today))), &[])).pt(15.0));
    let mut again = None;
    // A day a line or two: narrow enough for a phone held upright.
    for played in p.days.iter().rev().take(30) {
        let r = &played.result;
        ui.horizontal(|ui| {
            let game = t.get(&format!("home.{}", r.preset.name()));
            ui.label(RichText::new(format!("{} · {game}", r.day)).pt(15.0).strong());
            if ui.button(RichText::new(t.get("stats.day_again")).pt(15.0)).clicked() {
                again = Some(crate::state::DayChosen { day: r.day, preset: r.preset });
            }
        });
        let points = t.fill("daily.points", &[("mine", &r.points.to_string()), ("expert", &r.expert.to_string())]);
        crate::forms::with_marks(ui, &points, &r.marks, 15.0);
    }
    again
}

/// One table's numbers, a line each: narrow enough for a phone.
fn tally(ui: &mut egui::Ui, t: &crate::i18n::Texts, heading: &str, s: &Tally) {
    ui.add_space(6.0);
    ui.label(RichText::new(heading).pt(18.0).strong());
    let n = |v: u32| v.to_string();
    let lines = [
        t.fill("stats.matches", &[("n", &n(s.matches)), ("won", &n(s.matches_won)), ("lost", &n(s.matches_lost))]),
        t.fill("stats.deals", &[("n", &n(s.deals)), ("won", &n(s.deals_won)), ("lost", &n(s.deals_lost))]),
        t.fill("stats.nat", &[("for", &n(s.nat_for)), ("against", &n(s.nat_against))]),
        t.fill("stats.pit", &[("for", &n(s.pit_for)), ("against", &n(s.pit_against))]),
        t.fill("stats.roem", &[("called", &n(s.roem_called)), ("missed", &n(s.roem_missed))]),
        t.fill("stats.points", &[("avg", &s.points_per_deal().map_or("-".into(), |a| format!("{a:.0}")))]),
        t.count("stats.run", ("n", s.longest_run as i64), &[]),
        t.count("stats.bids", ("played", s.played as i64), &[("nat", &n(s.played_nat))]),
    ];
    for line in lines {
        ui.label(RichText::new(line).pt(15.0));
    }
}

/// The learning curve: each deal's points given away, the player's and the
/// expert's, as running averages of ten deals; the averages of the last
/// 10, 50 and all deals below.
fn curve(ui: &mut egui::Ui, t: &crate::i18n::Texts, p: &Profile, kind: Kind, preset: Option<Preset>, working: usize) {
    let deals: Vec<&DealLoss> = p.curve_of(kind).filter(|d| preset.is_none_or(|q| q == d.preset)).collect();
    ui.label(RichText::new(t.get("stats.curve")).pt(18.0).strong());
    ui.label(RichText::new(t.get("stats.curve_explain")).pt(14.0));
    if working > 0 {
        ui.label(RichText::new(t.count("stats.reviewing", ("n", working as i64), &[])).pt(14.0).italics());
    }
    if deals.is_empty() {
        return;
    }
    let running = |f: fn(&DealLoss) -> i32| -> Vec<f32> {
        (0..deals.len())
            .map(|i| {
                let from = i.saturating_sub(9);
                deals[from..=i].iter().map(|d| f(d) as f32).sum::<f32>() / (i + 1 - from) as f32
            })
            .collect()
    };
    let (you, expert) = (running(|d| d.loss), running(|d| d.expert));
    let top = you.iter().chain(&expert).fold(10.0f32, |m, v| m.max(*v)).ceil();
    let width = ui.available_width().min(640.0);
    let (response, painter) = ui.allocate_painter(egui::vec2(width, 170.0), egui::Sense::hover());
    let r = response.rect.shrink2(egui::vec2(30.0, 12.0));
    painter.rect_filled(response.rect, 6.0, Color32::from_rgb(10, 50, 30));
    let grey = egui::Stroke::new(1.0, Color32::from_gray(120));
    painter.line_segment([r.left_bottom(), r.right_bottom()], grey);
    painter.line_segment([r.left_top(), r.left_bottom()], grey);
    let font = egui::FontId::proportional(crate::look::scaled(ui.ctx(), 12.0));
    painter.text(
        r.left_top() - egui::vec2(4.0, 0.0),
        egui::Align2::RIGHT_CENTER,
        format!("{top:.0}"),
        font.clone(),
        Color32::WHITE,
    );
    painter.text(r.left_bottom() - egui::vec2(4.0, 0.0), egui::Align2::RIGHT_CENTER, "0", font.clone(), Color32::WHITE);
    painter.text(
        r.right_bottom() + egui::vec2(0.0, 2.0),
        egui::Align2::RIGHT_TOP,
        deals.len().to_string(),
        font,
        Color32::WHITE,
    );
    let point = |i: usize, v: f32| {
        let x = if deals.len() > 1 { i as f32 / (deals.len() - 1) as f32 } else { 0.5 };
        egui::pos2(r.left() + x * r.width(), r.bottom() - v / top * r.height())
    };
    for (line, colour) in [(&expert, EXPERT), (&you, YOU)] {
        let points: Vec<egui::Pos2> = line.iter().enumerate().map(|(i, v)| point(i, *v)).collect();
        if points.len() == 1 {
            painter.circle_filled(points[0], 4.0, colour);
        }
        painter.add(egui::Shape::line(points, egui::Stroke::new(2.5, colour)));
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("— {}", t.get("stats.you"))).color(YOU).pt(15.0).strong());
        ui.label(RichText::new(format!("— {}", t.get("stats.expert"))).color(EXPERT).pt(15.0).strong());
    });
    for last in SPANS.into_iter().filter(|&last| span_shown(last, deals.len())) {
        if let Some((you, expert)) = average(&deals, last) {
            let n = deals.len().min(last.unwrap_or(usize::MAX));
            let (you, expert) = (format!("{you:.1}"), format!("{expert:.1}"));
            let values = [("you", you.as_str()), ("expert", expert.as_str())];
            let line = match last {
                Some(_) => t.fill("stats.last", &[("n", &n.to_string()), values[0], values[1]]),
                None => t.count("stats.all_deals", ("n", n as i64), &values),
            };
            ui.label(RichText::new(line).pt(15.0));
        }
    }
}

/// The costliest deals, each with a button that opens its review. Returns
/// the one chosen (an index into the profile's curve).
fn costliest(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    p: &Profile,
    kind: Kind,
    preset: Option<Preset>,
) -> Option<usize> {
    let costly: Vec<usize> = p
        .costliest(kind, usize::MAX)
        .into_iter()
        .filter(|&i| preset.is_none_or(|q| q == p.curve[i].preset))
        .take(5)
        .collect();
    if costly.is_empty() {
        return None;
    }
    ui.label(RichText::new(t.get("stats.costliest")).pt(18.0).strong());
    let mut chosen = None;
    for i in costly {
        let d = &p.curve[i];
        ui.horizontal_wrapped(|ui| {
            let line = t.fill(
                "stats.deal_line",
                &[
                    ("n", &p.number_in_kind(i).to_string()),
                    ("game", &t.get(&format!("home.{}", d.preset.name()))),
                    ("loss", &d.loss.to_string()),
                    ("expert", &d.expert.to_string()),
                ],
            );
            ui.label(RichText::new(line).pt(15.0));
            if d.replay.is_some() && ui.button(RichText::new(t.get("stats.open_review")).pt(15.0)).clicked() {
                chosen = Some(i);
            }
        });
    }
    chosen
}

/// The deal as it was played, from its code and actions.
pub fn replay(d: &DealLoss) -> Option<Game> {
    let r = d.replay.as_ref()?;
    let mut game = Game::new(r.rules, Deal::from_code(&d.code).ok()?).ok()?;
    for &a in &r.actions {
        game.apply(a).ok()?;
    }
    Some(game)
}

impl CurveReview {
    /// Opens the review of deal `i` of the curve, under `title`.
    pub fn open(&mut self, p: &Profile, i: usize, title: String) {
        let Some((game, seed)) = p.curve.get(i).and_then(|d| Some((replay(d)?, d.seed))) else {
            warn!("deal {} of the curve does not replay", p.number_in_kind(i));
            return;
        };
        let task = crate::thinking::review(
            *game.rules(),
            *game.deal(),
            game.actions().to_vec(),
            crate::seats::HUMAN,
            seed,
            Arc::new(AtomicUsize::new(0)),
        );
        *self = CurveReview { reviewing: Some((title, game)), task: Some(task), review: None };
    }

    /// The review's window while one is open: what was given away in all
    /// and where, each costly card beside the best and the expert's.
    pub fn show(&mut self, ctx: &egui::Context, t: &crate::i18n::Texts) {
        self.finish(ctx);
        let Some((title, game)) = self.reviewing.clone() else { return };
        let trump = game.contract().map(|c| c.trump);
        let mut close = false;
        let width = (ctx.content_rect().width() - 24.0).min(560.0);
        egui::Window::new(title)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .min_width(width)
            .max_width(width)
            .show(ctx, |ui| {
                close = ui.button(RichText::new(t.get("review.close")).pt(16.0)).clicked();
                let code = t.fill("stats.code", &[("code", &game.deal().code())]);
                ui.label(RichText::new(code).pt(14.0).monospace());
                let Some(review) = &self.review else {
                    ui.label(RichText::new(t.get("stats.review_working")).pt(15.0).italics());
                    return;
                };
                let expert = klaverjas_ai::progress::expert_loss(review);
                let total = t.fill(
                    "stats.review_total",
                    &[("loss", &review.total_loss().to_string()), ("expert", &expert.to_string())],
                );
                ui.label(RichText::new(total).pt(16.0).strong());
                for &c in &review.costliest(8) {
                    let card = &review.cards[c];
                    let expert_card = match card.expert.action {
                        klaverjas::Action::Play(e) => crate::words::card_name(t, e, trump),
                        _ => "-".into(),
                    };
                    let line = t.fill(
                        "stats.review_card",
                        &[
                            ("trick", &card.trick.to_string()),
                            ("card", &crate::words::card_name(t, card.card, trump)),
                            ("loss", &card.loss.to_string()),
                            ("best", &crate::words::card_name(t, card.best, trump)),
                            ("expert", &expert_card),
                        ],
                    );
                    ui.label(RichText::new(line).pt(15.0));
                }
                if review.costliest(1).is_empty() {
                    ui.label(RichText::new(t.get("stats.review_perfect")).pt(15.0));
                }
            });
        if close {
            *self = CurveReview::default();
        }
    }

    fn finish(&mut self, ctx: &egui::Context) {
        let Some(task) = self.task.as_mut() else { return };
        ctx.request_repaint();
        if let Some(done) = block_on(poll_once(task)) {
            self.task = None;
            match done {
                Ok(r) => self.review = Some(r),
                Err(e) => {
                    error!("the deal could not be reviewed: {e}");
                    self.reviewing = None;
                }
            }
        }
    }
}
