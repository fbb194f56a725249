//! The lesson's voice at the table: a window with the step's words, what
//! was wrong, Next, the coach's hint, and an outline around what the step
//! points at. It starts where it covers no card the lesson talks about
//! (beside the trick on a wide table, between the trick and the hand on a
//! tall one), and the learner can drag it aside or fold it.

use super::lesson::{Spot, Step};
use super::{Lessons, Tutorial, TutorialCommand};
use crate::show::Show;
use crate::table::cards::{look, places};
use crate::table::layout::{Layout, Table};
use crate::{Screen, Texts};
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, CornerRadius, RichText, Stroke, StrokeKind};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::Team;

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        bubble
            .after(crate::table::overlay::overlay)
            .run_if(in_state(Screen::Table).and_then(resource_exists::<Tutorial>)),
    );
}

const WARM: Color32 = Color32::from_rgb(170, 60, 20);
const OUTLINE: Color32 = Color32::from_rgb(255, 196, 0);

#[allow(clippy::too_many_arguments)]
fn bubble(
    mut contexts: EguiContexts,
    tutorial: Res<Tutorial>,
    lessons: Res<Lessons>,
    texts: Res<Texts>,
    table: Res<Table>,
    show: Res<Show>,
    seats: Option<Res<crate::seats::Seats>>,
    mut out: MessageWriter<TutorialCommand>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    let layout = table.layout();
    let lesson = &tutorial.lesson;
    let number = lessons.0.iter().position(|l| l.id == lesson.id).map_or(1, |i| i + 1);
    let step = lesson.steps.get(tutorial.step);
    if let Some(spot) = step.map(step_spot) {
        outline(&ctx, &layout, &show, spot);
    }
    let (pos, width) = home(&layout);
    let title = t.fill("lesson.header", &[("n", &number.to_string()), ("title", &t.get(&lesson.title_key()))]);
    egui::Window::new(title)
        .id(egui::Id::new("lesson-bubble"))
        .default_pos(pos)
        .default_width(width)
        .resizable(false)
        .collapsible(true)
        .show(&ctx, |ui| {
            ui.set_max_width(width);
            let counter = t.fill(
                "lesson.step",
                &[
                    ("k", &(tutorial.step + 1).min(lesson.steps.len()).to_string()),
                    ("n", &lesson.steps.len().to_string()),
                ],
            );
            ui.label(RichText::new(counter).size(13.0).color(Color32::from_gray(90)));
            match step {
                Some(Step::Say { text, .. }) => {
                    ui.label(RichText::new(t.get(text)).size(18.0));
                    ui.add_space(6.0);
                    if ui
                        .add_sized([140.0, 40.0], egui::Button::new(RichText::new(t.get("lesson.next")).size(18.0)))
                        .clicked()
                    {
                        out.write(TutorialCommand::Next);
                    }
                }
                Some(Step::Expect { text, .. }) => {
                    ui.label(RichText::new(t.get(text)).size(18.0));
                }
                Some(Step::Auto(_)) => {
                    ui.label(RichText::new(t.get("lesson.watch")).size(16.0).italics());
                }
                Some(Step::PlayOut { text }) => {
                    ui.label(RichText::new(t.get(text)).size(17.0));
                    if let Some(note) = &tutorial.coach_note {
                        ui.label(RichText::new(note).size(16.0).color(WARM));
                    }
                    let advice = tutorial.advice.as_ref().zip(seats.as_deref());
                    if let (Some(((_, d), seats)), true) = (advice, tutorial.hint_shown) {
                        let card = super::action_words(d.action, t, seats.game());
                        let hint = t.fill(
                            "lesson.hint_is",
                            &[("card", &card), ("reason", &crate::words::reason(&d.reason, t))],
                        );
                        ui.label(RichText::new(hint).size(16.0).strong());
                    } else if advice.is_some() && ui.button(RichText::new(t.get("lesson.hint")).size(17.0)).clicked() {
                        out.write(TutorialCommand::Hint);
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
            if ui.button(t.get("lesson.leave")).clicked() {
                out.write(TutorialCommand::Leave);
            }
        });
    Ok(())
}

fn step_spot(step: &Step) -> Spot {
    match step {
        Step::Say { show, .. } | Step::Expect { show, .. } => *show,
        _ => Spot::Nothing,
    }
}

/// Where the bubble starts, and how wide it is: left of the trick on a
/// wide table, below the trick on a tall one.
fn home(layout: &Layout) -> (egui::Pos2, f32) {
    let trick = layout.trick_centre();
    let card = layout.trick_card();
    if layout.area.width() > layout.area.height() {
        let right = trick.x - card.x * 1.6 - 12.0;
        let left = layout.area.min.x + layout.small().y + 24.0;
        let width = (right - left).clamp(220.0, 380.0);
        (egui::pos2(right - width, trick.y - card.y * 1.1), width)
    } else {
        let top = trick.y + card.y * 1.05;
        (egui::pos2(layout.area.min.x + 12.0, top), layout.area.width() - 40.0)
    }
}

/// A gold outline around what the step points at.
fn outline(ctx: &egui::Context, layout: &Layout, show: &Show, spot: Spot) {
    let rects: Vec<Rect> = match spot {
        Spot::Nothing | Spot::RoemButton => Vec::new(),
        Spot::Card(card) => places(&show.shown)
            .into_iter()
            .filter(|(c, _)| *c == card)
            .map(|(_, place)| {
                let l = look(layout, &show.shown, place);
                let size = if l.sideways { Vec2::new(l.size.y, l.size.x) } else { l.size };
                Rect::from_center_size(l.at, size)
            })
            .collect(),
        Spot::Trick => {
            let c = layout.trick_card();
            vec![Rect::from_center_size(layout.trick_centre(), Vec2::new(c.x * 3.2, c.y * 2.1))]
        }
        Spot::Pile => vec![Rect::from_center_size(layout.turned_card(0), layout.small() * 1.1)],
        Spot::Piles => {
            Team::BOTH.iter().map(|&t| Rect::from_center_size(layout.pile(t), Vec2::splat(layout.small().y))).collect()
        }
    };
    let p = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("lesson-outline")));
    for r in rects {
        let r = egui::Rect::from_min_max(egui::pos2(r.min.x, r.min.y), egui::pos2(r.max.x, r.max.y)).expand(4.0);
        p.rect_stroke(r, CornerRadius::same(8), Stroke::new(4.0, OUTLINE), StrokeKind::Outside);
    }
}
