//! The deals of the day: a day's four deals under a preset, played from
//! South for the record (today's, once) or for practice; the result beside
//! the expert's, deal by deal with what the player's cards gave away and
//! each deal's review; the line to share, and a friend's line pasted back
//! beside it.

use super::new_game::{FirstDeal, begin, start_confirmed};
use super::statistics::CurveReview;
use crate::daily::DayDone;
use crate::forms::big_button;
use crate::forms::with_marks;
use crate::look::Pt;
use crate::platform::TOUCH_TARGET;
use crate::save::Slot;
use crate::seats::{GameEvent, Going, Kept, Seats};
use crate::show::Show;
use crate::state::{Config, DayChosen, Files, PlayerProfile, PlayerSettings, Screen, SetupRules, Texts, TitleMessage};
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas_ai::daily::{DEALS, DayResult, Play, Played};
use klaverjas_ai::progress::{Kind, Profile};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, daily.after(crate::look::Zoom).run_if(in_state(Screen::Daily)));
}

/// What the screen keeps between frames.
#[derive(Default)]
struct View {
    /// A friend's line as pasted, and what it read as.
    friend: String,
    compared: Option<Result<DayResult, String>>,
    review: CurveReview,
    /// Asking before a match in progress is replaced.
    asking: bool,
    /// The sitting whose result's wait was logged, and photographed.
    logged: Option<u64>,
    photographed: bool,
    /// The day and preset the screen was last drawn for.
    day: Option<(klaverjas_ai::daily::Day, klaverjas::Preset)>,
}

#[allow(clippy::too_many_arguments)]
fn daily(
    mut contexts: EguiContexts,
    texts: Res<Texts>,
    mut chosen: ResMut<DayChosen>,
    (seats, done, mut profile, kept): (Option<Res<Seats>>, Res<DayDone>, ResMut<PlayerProfile>, Res<Kept>),
    (files, mut settings, mut message): (Res<Files>, ResMut<PlayerSettings>, ResMut<TitleMessage>),
    (mut show, time, config): (ResMut<Show>, Res<Time>, Res<Config>),
    mut next: ResMut<NextState<Screen>>,
    (mut commands, mut events, mut exit): (Commands, MessageWriter<GameEvent>, MessageWriter<AppExit>),
    mut view: Local<View>,
    // On the main thread: iOS's share sheet may only be opened there.
    _main: bevy::ecs::system::NonSendMarker,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    let today = crate::platform::today();
    let DayChosen { day, preset } = *chosen;
    // A friend's line, once read, belongs to the day it was read for.
    if view.day != Some((day, preset)) {
        *view = View { day: Some((day, preset)), logged: view.logged, photographed: view.photographed, ..default() };
    }
    let this_day = |p: &Play| p.day == day && p.preset == preset;
    let seats_of_day = seats.as_deref().filter(|s| s.daily().as_ref().is_some_and(this_day));
    // The day's deals under way: in memory, else kept in their slot.
    let playing = seats_of_day
        .map(|s| Going::of(&s.m, s.daily()))
        .or(kept.day.filter(|d| d.play.as_ref().is_some_and(this_day)))
        .filter(|d| !d.over);
    let finished = seats_of_day.and_then(|s| done.of(s)).filter(|(p, _)| this_day(p));
    let expert_thinking = seats_of_day.is_some_and(|s| s.m.is_over()) && finished.is_none();
    let record = profile.0.day(day, preset);
    let for_record = day == today && profile.0.day_open(day, preset);
    // This sitting's result, else the record's.
    let shown: Option<(&Played, bool)> = finished.map(|(p, played)| (played, p.record)).or(record.map(|r| (r, true)));
    if let (Some(_), Some(s), Some(last), Some(over)) = (finished, seats_of_day, done.last_card, done.deal_over)
        && view.logged != Some(s.moment().table)
    {
        view.logged = Some(s.moment().table);
        let (last, over) = (last.elapsed().as_millis(), over.elapsed().as_millis());
        info!(
            "the day's result is up with the expert's points {last} ms after the last card, {over} ms after the deal was over"
        );
    }
    let (mut start, mut back, mut open, mut resume) = (false, false, None, false);
    let content = |ui: &mut egui::Ui| {
        ui.label(RichText::new(t.fill("daily.line", &[("day", &day.to_string())])).pt(16.0));
        ui.add_space(4.0);
        // A day played: its result first, what the player came back for.
        if expert_thinking {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(RichText::new(t.get("daily.expert_thinking")).pt(16.0).italics());
            });
        }
        if let Some((played, counted)) = shown {
            open = result(ui, t, (played, counted, finished.is_some()), &profile.0);
            ui.add_space(12.0);
            friend(ui, t, (day, preset), Some(&played.result), &mut view);
            ui.add_space(12.0);
        }
        let height = crate::look::at_least_a_finger(ui, TOUCH_TARGET);
        let gold = |text: String| {
            egui::Button::new(RichText::new(text).pt(20.0).strong())
                .fill(crate::look::GOLD)
                .min_size([ui.available_width().min(320.0), height].into())
        };
        if let Some(d) = playing {
            let n = d.deal.to_string();
            let response = ui.add(gold(t.fill("daily.continue", &[("n", &n)])));
            crate::forms::mark_target(ui, "daily.continue", &response);
            resume = response.clicked();
        } else {
            let words = t.get(if for_record { "daily.play" } else { "daily.again" });
            let response = if shown.is_some() { big_button(ui, words) } else { ui.add(gold(words)) };
            crate::forms::mark_target(ui, "daily.play", &response);
            start = response.clicked();
            let note = if for_record { "daily.for_record" } else { "daily.practice" };
            ui.label(RichText::new(t.get(note)).pt(14.0));
        }
        ui.add_space(8.0);
        if let Some(p) = crate::forms::preset_buttons(ui, t, Some(preset), false) {
            chosen.preset = p;
            view.compared = None;
        }
        // Not played yet: a friend's line can still be read.
        if shown.is_none() && !expert_thinking {
            ui.add_space(12.0);
            friend(ui, t, (day, preset), None, &mut view);
        }
    };
    let footer = |ui: &mut egui::Ui| back = big_button(ui, t.get("menu.back")).clicked();
    crate::forms::page_with_footer(&ctx, t.get("daily.title"), content, Some(Box::new(footer)));
    if back {
        next.set(Screen::Title);
    }
    if let Some((deal, i)) = open {
        view.review.open(&profile.0, i, t.fill("daily.review_title", &[("n", &deal.to_string())]));
    }
    view.review.show(&ctx, t);
    let level = settings.0.bot_level.level();
    if resume && crate::seats::take_up(&mut commands, &mut events, (&files.0, seats.as_deref(), level), Slot::Day) {
        next.set(Screen::Table);
    }
    // Another day's deals under way are not replaced unasked; the match
    // keeps its own place.
    if start_confirmed(&ctx, t, kept.day, start, &mut view.asking) {
        let play = Play { day, preset, bots: settings.0.bot_level.level(), record: for_record };
        // Begun for the record is begun: left or replaced, it is not
        // begun for the record again.
        if for_record {
            profile.0.begin_day(day, preset);
            if let Err(e) = files.0.write_profile(&profile.0) {
                error!("the statistics could not be saved: {e}");
            }
        }
        let setup = SetupRules::of(preset, &settings.0);
        begin(setup, &mut settings.0, &files.0, &mut message, FirstDeal::Day(play), (&mut commands, &mut events));
        view.compared = None;
        next.set(Screen::Table);
    }
    // `--demo --daily`: the result photographed once every deal's review
    // is in, then, with --quit-after-deals, the end of the run.
    if config.0.demo
        && let Some((_, played)) = finished
        && played.codes.iter().all(|c| reviewed(&profile.0, c, false).is_some())
    {
        let now = time.elapsed_secs();
        if !view.photographed {
            view.photographed = true;
            show.photograph("daily-result.png".into(), now + 0.5);
        } else if show.screenshots.is_empty() && config.0.quit_after_deals.is_some() {
            exit.write(AppExit::Success);
        }
    }
    Ok(())
}

/// A deal of the day on the learning curve: where, what its cards gave
/// away, and whether it can be reviewed again (the curve keeps the
/// actions of recent deals only).
struct Reviewed {
    at: usize,
    loss: i32,
    replays: bool,
}

/// Where a deal of the day lies on the learning curve: its latest review
/// played for the record (`counted`) or else for practice.
fn reviewed(profile: &Profile, code: &str, counted: bool) -> Option<Reviewed> {
    let at = profile.curve.iter().rposition(|d| d.code == code && (d.kind == Kind::Counted) == counted)?;
    let deal = &profile.curve[at];
    Some(Reviewed { at, loss: deal.loss, replays: deal.replay.is_some() })
}

/// The day's result: the points beside the expert's, deal by deal with
/// what the player's cards gave away, and the line to share. Returns the
/// deal (1-based) whose review was asked for, and its place on the curve.
/// `reviewing`: the day was just played, its reviews may be under way.
fn result(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    (played, counted, reviewing): (&Played, bool, bool),
    profile: &Profile,
) -> Option<(usize, usize)> {
    let r = &played.result;
    let points = t.fill("daily.points", &[("mine", &r.points.to_string()), ("expert", &r.expert.to_string())]);
    ui.label(RichText::new(points).pt(24.0).strong());
    let at_least = t.fill("daily.at_least", &[("n", &r.at_least().to_string()), ("of", &DEALS.to_string())]);
    with_marks(ui, &at_least, &r.marks, 16.0);
    if !counted {
        ui.label(RichText::new(t.get("daily.practice_result")).pt(14.0).italics());
    }
    let mut open = None;
    egui::Frame::new()
        .stroke(egui::Stroke::new(1.0, Color32::from_gray(200)))
        .corner_radius(8.0)
        .inner_margin(8.0)
        .show(ui, |ui| {
            egui::Grid::new("daily.deals").spacing([14.0, 6.0]).show(ui, |ui| {
                for key in ["daily.deal", "daily.you", "daily.expert", "daily.given"] {
                    ui.label(RichText::new(t.get(key)).pt(14.0).strong());
                }
                ui.end_row();
                for (i, code) in played.codes.iter().enumerate() {
                    let cell = |v: Option<&u32>| v.map_or("-".to_string(), u32::to_string);
                    ui.label(RichText::new((i + 1).to_string()).pt(16.0));
                    ui.label(RichText::new(cell(played.mine.get(i))).pt(16.0));
                    ui.label(RichText::new(cell(played.expert.get(i))).pt(16.0));
                    match reviewed(profile, code, counted) {
                        Some(Reviewed { at, loss, replays }) => {
                            ui.label(RichText::new(loss.to_string()).pt(16.0));
                            let review = RichText::new(t.get("stats.open_review")).pt(15.0);
                            if replays && ui.button(review).clicked() {
                                open = Some((i + 1, at));
                            }
                        }
                        None if reviewing => {
                            ui.label(RichText::new(t.get("daily.reviewing")).pt(14.0).italics());
                        }
                        None => {
                            ui.label(RichText::new("-").pt(16.0));
                        }
                    }
                    ui.end_row();
                }
            });
            // "Missed" is no loss of the deal: say what it counts.
            ui.label(RichText::new(t.get("daily.given_note")).pt(13.0).italics());
        });
    ui.add_space(8.0);
    // Only the record is shared: a practice play knew the deals.
    if counted {
        crate::forms::share_line(ui, t, "daily", &r.to_string());
    }
    open
}

/// A friend's line pasted and read: beside the player's result, or why not.
fn friend(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    (day, preset): (klaverjas_ai::daily::Day, klaverjas::Preset),
    mine: Option<&DayResult>,
    view: &mut View,
) {
    ui.label(RichText::new(t.get("daily.friend")).pt(16.0).strong());
    ui.horizontal_wrapped(|ui| {
        let height = crate::look::at_least_a_finger(ui, TOUCH_TARGET);
        let field = egui::TextEdit::singleline(&mut view.friend)
            .hint_text("Klaverjas …")
            .font(egui::TextStyle::Body)
            .min_size(egui::vec2(0.0, height))
            .desired_width(ui.available_width().min(420.0) - 110.0 - crate::forms::beside_field(ui));
        let response = ui.add(field);
        crate::forms::mark_field(ui, "daily.friend", &response, &view.friend);
        crate::forms::paste_button(ui, t, "daily.friend", &response, &mut view.friend, usize::MAX);
        let compare = ui.button(RichText::new(t.get("daily.compare")).pt(18.0));
        crate::forms::mark_target(ui, "daily.compare", &compare);
        if compare.clicked() || (response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter))) {
            view.compared = Some(
                view.friend
                    .parse::<DayResult>()
                    .and_then(|r| r.is_of(day, preset).map(|()| r))
                    .map_err(|e| crate::words::line_error(&e, t)),
            );
        }
    });
    match &view.compared {
        Some(Err(why)) => {
            let response = ui.label(RichText::new(why).pt(15.0).color(crate::look::REFUSED));
            crate::forms::mark_target(ui, "daily.refused", &response);
        }
        Some(Ok(theirs)) => {
            egui::Grid::new("daily.friends").spacing([14.0, 4.0]).show(ui, |ui| {
                let row = |ui: &mut egui::Ui, who: String, r: &DayResult| {
                    ui.label(RichText::new(who).pt(16.0).strong());
                    let points =
                        t.fill("daily.points", &[("mine", &r.points.to_string()), ("expert", &r.expert.to_string())]);
                    with_marks(ui, &points, &r.marks, 16.0);
                    ui.end_row();
                };
                if let Some(mine) = mine {
                    row(ui, t.get("daily.you"), mine);
                }
                row(ui, t.get("daily.your_friend"), theirs);
            });
            let response = ui.label("");
            crate::forms::mark_target(ui, "daily.friend_row", &response);
            if mine.is_some_and(|m| m.bots != theirs.bots) {
                let bots = t.get(&format!("level.{}", theirs.bots.name()));
                ui.label(RichText::new(t.fill("daily.other_bots", &[("bots", &bots)])).pt(14.0).italics());
            }
        }
        None => {}
    }
}
