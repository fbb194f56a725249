//! The lesson's voice at the table: a window with the step's words, what
//! was wrong, Next, the coach's hint, and an outline around what the step
//! points at. It starts where it covers no card the lesson talks about
//! (beside the trick on a wide table, between the trick and the hand on a
//! tall one), and the learner can drag it aside or fold it.

use super::lesson::{Spot, Step};
use super::teacher::{Lessons, Tutorial, TutorialCommand};
use crate::panels::paint::Drawn;
use crate::show::Show;
use crate::state::Screen;
use crate::state::Texts;
use crate::table::layout::{Layout, Table};
use crate::table::outline;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::Seat;

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        bubble.after(crate::panels::TablePanels).run_if(in_state(Screen::Table).and_then(resource_exists::<Tutorial>)),
    );
}

const WARM: Color32 = Color32::from_rgb(170, 60, 20);

#[allow(clippy::too_many_arguments)]
fn bubble(
    mut contexts: EguiContexts,
    tutorial: Res<Tutorial>,
    lessons: Res<Lessons>,
    texts: Res<Texts>,
    table: Res<Table>,
    show: Res<Show>,
    drawn: Res<Drawn>,
    seats: Option<Res<crate::seats::Seats>>,
    mut out: MessageWriter<TutorialCommand>,
    mut coach: MessageWriter<crate::coach::CoachCommand>,
    device: Res<crate::platform::Device>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    let layout = table.layout();
    let lesson = &tutorial.lesson;
    let number = lessons.0.iter().position(|l| l.id == lesson.id).map_or(1, |i| i + 1);
    let step = lesson.steps.get(tutorial.step);
    let spot = step.map_or(Spot::Nothing, |s| step_spot(s, tutorial.answered));
    outline(&ctx, &layout, &show, &drawn, spot);
    let (pos, pivot, width, height) = home(&layout, spot, show.shown.trick.is_empty());
    let title = t.fill("lesson.header", &[("n", &number.to_string()), ("title", &t.get(&lesson.title_key()))]);
    // The learner's steps: where the others play the count stands still.
    let (k, steps) = lesson.counted_step(tutorial.step);
    let title = format!("{title}  {k}/{steps}");
    // Beside the pile it stays put, clear of the pile; elsewhere it starts
    // at its home and goes where the learner drags it.
    // A long title gets a smaller font rather than being cut off; a
    // character of this face is about half the font size wide.
    let heading = ctx.global_style().text_styles.get(&egui::TextStyle::Heading).map_or(24.0, |f| f.size);
    let fits = (width - 56.0) / (title.chars().count() as f32 * 0.55);
    let title = RichText::new(title).size(heading.min(fits).max(14.0));
    let window = egui::Window::new(title).id(egui::Id::new(("lesson-bubble", spot == Spot::Pile))).pivot(pivot);
    // A finger folds the bubble with a button of its size (egui's own
    // triangle in the title bar is a mouse's target) rather than dragging
    // it: on a phone it stays at its home, step after step.
    let touch = device.touch();
    let window = if spot == Spot::Pile || touch { window.fixed_pos(pos) } else { window.default_pos(pos) };
    // Folded for this step only: the next step's words must be seen.
    let fold_id = egui::Id::new(("lesson-bubble-folded", &lesson.id, tutorial.step));
    let folded = touch && ctx.data(|d| d.get_temp::<bool>(fold_id)).unwrap_or(false);
    let fold = |ui: &egui::Ui, to: bool| ui.ctx().data_mut(|d| d.insert_temp(fold_id, to));
    if folded {
        // Folded, the lesson is one button at the table's right edge,
        // between North's hand and East's.
        let north_bottom = layout.hand_centre(Seat::North).y + layout.small().y * 0.5;
        let east = layout.hand_positions(Seat::East, 8);
        let east_top = east.iter().map(|e| e.y).fold(f32::MAX, f32::min) - layout.small().x * 0.5;
        let at = egui::pos2(layout.area.max.x - 8.0, (north_bottom + east_top) / 2.0);
        egui::Area::new("lesson-folded".into()).pivot(egui::Align2::RIGHT_CENTER).fixed_pos(at).show(&ctx, |ui| {
            if ui.button(t.get("lesson.unfold")).clicked() {
                fold(ui, false);
            }
        });
        return Ok(());
    }
    let window = window.min_width(width).max_width(width).max_height(height).resizable(false);
    window.collapsible(!touch).show(&ctx, |ui| {
        ui.set_max_width(width);
        // What the bubble holds besides the words: the title, the row of
        // buttons (a finger's height on a phone), and what was wrong (two
        // lines at most).
        let row = crate::look::at_least_a_finger(ui, 40.0);
        let chrome = 76.0 + row + if tutorial.wrong.is_some() { 44.0 } else { 0.0 };
        let mut next = false;
        match step {
            Some(Step::Say { text, .. }) => {
                words(ui, t.get(text), height - chrome);
                next = true;
            }
            Some(Step::Expect { answer: Some((answer, _)), .. }) if tutorial.answered => {
                words(ui, t.get(answer), height - chrome);
                next = true;
            }
            Some(Step::Expect { text, .. }) => {
                words(ui, t.get(text), height - chrome);
            }
            Some(Step::Auto(_)) => {
                ui.label(RichText::new(t.get("lesson.watch")).size(16.0).italics());
            }
            Some(Step::PlayOut { text }) => {
                ui.label(RichText::new(t.get(text)).size(17.0));
                if let Some(note) = &tutorial.coach_note {
                    ui.label(RichText::new(note).size(16.0).color(WARM));
                }
                // Only the advice of the turn now: while the coach thinks
                // about a new one, the last turn's is no longer offered.
                let now = |n: usize| seats.as_deref().is_some_and(|s| s.game().actions().len() == n);
                let advice = tutorial.advice.as_ref().filter(|(n, _)| now(*n)).zip(seats.as_deref());
                if let (Some(((_, d), seats)), true) = (advice, tutorial.hint_shown) {
                    let hint = crate::words::hint_words(d, t, seats.game());
                    ui.label(RichText::new(hint).size(16.0).strong());
                } else if advice.is_some() && ui.button(RichText::new(t.get("coach.hint")).size(17.0)).clicked() {
                    coach.write(crate::coach::CoachCommand::Hint);
                }
            }
            None => {
                ui.label(RichText::new(t.get("lesson.done")).size(18.0).strong());
                ui.horizontal_wrapped(|ui| {
                    if let Some(next) = lessons.0.get(number) {
                        let label = t.fill("lesson.next_lesson", &[("title", &t.get(&next.title_key()))]);
                        if ui.button(RichText::new(label).size(17.0)).clicked() {
                            out.write(TutorialCommand::Start { id: next.id.clone(), step: 0 });
                        }
                    }
                });
            }
        }
        if let Some(wrong) = &tutorial.wrong {
            ui.label(RichText::new(wrong).size(16.0).color(WARM));
        }
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            let next_button = egui::Button::new(RichText::new(t.get("lesson.next")).size(18.0));
            if next && ui.add_sized([110.0, row], next_button).clicked() {
                out.write(TutorialCommand::Next);
            }
            // A phone's row is narrow: there the words are short.
            if ui.button(t.get(if touch { "lesson.leave_short" } else { "lesson.leave" })).clicked() {
                out.write(TutorialCommand::Leave);
            }
            if touch && ui.button(t.get("lesson.fold")).clicked() {
                fold(ui, true);
            }
        });
    });
    Ok(())
}

fn step_spot(step: &Step, answered: bool) -> Spot {
    match step {
        Step::Expect { answer: Some((_, show)), .. } if answered => *show,
        Step::Say { show, .. } | Step::Expect { show, .. } => *show,
        _ => Spot::Nothing,
    }
}

/// Where the bubble starts (the corner its pivot names), how wide and how
/// high it may be: left of the trick on a wide table; on a tall one over
/// North's hand, which the lessons do not talk about, and clear of the
/// trick, unless the trick is empty and the step points at nothing there:
/// then down to the side players' names, clear of the learner's hand.
fn home(layout: &Layout, spot: Spot, trick_empty: bool) -> (egui::Pos2, egui::Align2, f32, f32) {
    let trick = layout.trick_centre();
    let card = layout.trick_card();
    if let Some(right) = layout.lesson_bubble_right() {
        let left = layout.area.min.x + layout.small().y + 24.0;
        let width = (right - left).clamp(220.0, 380.0);
        let top = trick.y - card.y * 1.1;
        // Down to West's name, which stays readable; longer words scroll.
        let bottom = layout.name_plate(Seat::West).y - 18.0;
        (egui::pos2(right - width, top), egui::Align2::LEFT_TOP, width, bottom - top)
    } else {
        // Hung from the top (a window placed by its bottom moves while
        // its size settles), no lower than the trick's top edge.
        let top = layout.area.min.y + 6.0;
        let low = trick_empty && matches!(spot, Spot::Nothing | Spot::Card(_) | Spot::Piles);
        let bottom = match layout.lesson_bubble_bottom() {
            Some(_) if low => layout.name_plate(Seat::West).y - 18.0,
            Some(bottom) => bottom,
            None => trick.y,
        };
        let height = bottom - top;
        // Beside the pile in the corner when the step is about it.
        let left = match spot {
            Spot::Pile => layout.turned_card(1).x + layout.small().x * 0.6 + 8.0,
            _ => layout.area.min.x + 12.0,
        };
        (egui::pos2(left, top), egui::Align2::LEFT_TOP, layout.area.max.x - left - 28.0, height)
    }
}

/// A gold outline around what the step points at.
fn outline(ctx: &egui::Context, layout: &Layout, show: &Show, drawn: &Drawn, spot: Spot) {
    let rects: Vec<egui::Rect> = match spot {
        Spot::Nothing => Vec::new(),
        Spot::RoemButton => drawn.roem_button.into_iter().collect(),
        Spot::Sheet => drawn.sheet.into_iter().collect(),
        Spot::Card(card) => outline::card(layout, &show.shown, card),
        Spot::Trick => {
            let c = layout.trick_card();
            vec![outline::on_table(layout.trick_centre(), Vec2::new(c.x * 3.2, c.y * 2.0))]
        }
        Spot::Pile => vec![outline::on_table(layout.turned_card(0), layout.small() * 1.1)],
        // The learner's team's pile, where the tricks they win go.
        Spot::Piles => {
            vec![outline::on_table(layout.pile(klaverjas::Players::Four, Seat::South), Vec2::splat(layout.small().y))]
        }
    };
    outline::paint(ctx, &rects);
}

/// A step's words, scrolling when they are higher than `room`.
fn words(ui: &mut egui::Ui, text: String, room: f32) {
    egui::ScrollArea::vertical().max_height(room.max(60.0)).show(ui, |ui| {
        ui.label(RichText::new(text).size(18.0));
    });
}
