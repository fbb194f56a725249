//! The lesson's voice at the table: a window with the step's words, what
//! was wrong, Next, the coach's hint, and an outline around what the step
//! points at. It starts where it covers no card the lesson talks about
//! (beside the trick on a wide table, between the trick and the hand on a
//! tall one), and the learner can drag it aside or fold it.

use super::lesson::{Spot, Step};
use super::teacher::{Lessons, Tutorial, TutorialCommand};
use crate::look::Pt;
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
    mut show: ResMut<Show>,
    mut drawn: ResMut<Drawn>,
    seats: Option<Res<crate::seats::Seats>>,
    mut out: MessageWriter<TutorialCommand>,
    mut coach: MessageWriter<crate::coach::CoachCommand>,
    device: Res<crate::platform::Device>,
    time: Res<Time>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    // A bubble new on the screen (egui sizes a window unseen in its first
    // pass): a lesson's picture waits until it shows.
    if drawn.last_bubble.is_none() {
        let later = time.elapsed_secs() + 0.3;
        for due in show.screenshots.iter_mut().filter(|d| d.name.starts_with("lesson-")) {
            due.at = due.at.max(later);
        }
    }
    let t = &texts.0;
    let layout = table.layout();
    let lesson = &tutorial.lesson;
    let number = lessons.0.iter().position(|l| l.id == lesson.id).map_or(1, |i| i + 1);
    let step = lesson.steps.get(tutorial.step);
    let spot = step.map_or(Spot::Nothing, |s| step_spot(s, tutorial.answered));
    let rects = outline(&ctx, &layout, &show, &drawn, spot);
    let (pos, pivot, width, height) =
        home(&layout, spot, &rects, show.shown.trick.is_empty(), &drawn, ctx.content_rect().bottom());
    let title = t.fill("lesson.header", &[("n", &number.to_string()), ("title", &t.get(&lesson.title_key()))]);
    // The learner's steps: where the others play the count stands still.
    let (k, steps) = lesson.counted_step(tutorial.step);
    let title = format!("{title}  {k}/{steps}");
    // A long title gets a smaller font rather than being cut off; a
    // character of this face is about half the font size wide.
    let heading = ctx.global_style().text_styles.get(&egui::TextStyle::Heading).map_or(24.0, |f| f.size);
    let fits = (width - 56.0) / (title.chars().count() as f32 * 0.55);
    let title_size = heading.min(fits).max(14.0);
    // In points already at the player's text size (the heading's style).
    let title = RichText::new(title).size(title_size);
    // A bubble whose home moves (a step about another part of the table)
    // is a new window there; at the same home it stays where dragged.
    let home_id = ((pos.x / 10.0) as i32, (pos.y / 10.0) as i32);
    let window = egui::Window::new(title).id(egui::Id::new(("lesson-bubble", home_id))).pivot(pivot);
    // A finger folds the bubble with a button of its size (egui's own
    // triangle in the title bar is a mouse's target) rather than dragging
    // it: on a phone it stays at its home, step after step.
    let touch = device.touch();
    // Unconstrained: in its first pass, before it knows its size, egui
    // would push a window low on a tall screen up over the trick, and keep
    // it there.
    let window = if touch { window.fixed_pos(pos) } else { window.default_pos(pos).constrain(false) };
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
    // egui counts a window's width with its frame.
    let window = window.min_width(width + FRAME).max_width(width + FRAME).max_height(height).resizable(false);
    // For the tests: the room the bubble was given.
    ctx.data_mut(|d| d.insert_temp(egui::Id::new("lesson-bubble-room"), height));
    let shown = window.collapsible(!touch).show(&ctx, |ui| {
        // The title bar is as wide as the room egui gives the body here:
        // the body wider than that would stand out beyond its header.
        let body = ui.available_width();
        // Under the title (its line and the frame's margins) the words, then
        // what was wrong (two lines at most) and the row of buttons (a
        // finger's height on a phone): the words get the rest of the room.
        // (The window's own height is last frame's, so it cannot tell.)
        let row = crate::look::at_least_a_finger(ui, 40.0);
        let after = row + 24.0 + if tutorial.wrong.is_some() { 44.0 } else { 0.0 };
        let room = height - (title_size * 1.3 + 20.0) - after;
        let mut next = false;
        match step {
            Some(Step::Say { text, .. }) => {
                words(ui, t.get(text), room, touch);
                next = true;
            }
            Some(Step::Expect { answer: Some((answer, _)), .. }) if tutorial.answered => {
                words(ui, t.get(answer), room, touch);
                next = true;
            }
            Some(Step::Expect { text, .. }) => {
                words(ui, t.get(text), room, touch);
            }
            Some(Step::Auto(_)) => {
                ui.label(RichText::new(t.get("lesson.watch")).pt(16.0).italics());
            }
            Some(Step::PlayOut { text }) => {
                ui.label(RichText::new(t.get(text)).pt(17.0));
                if let Some(note) = &tutorial.coach_note {
                    ui.label(RichText::new(note).pt(16.0).color(WARM));
                }
                // Only the advice of the turn now: while the coach thinks
                // about a new one, the last turn's is no longer offered.
                let now = |n: usize| seats.as_deref().is_some_and(|s| s.game().actions().len() == n);
                let advice = tutorial.advice.as_ref().filter(|(n, _)| now(*n)).zip(seats.as_deref());
                if let (Some(((_, d), seats)), true) = (advice, tutorial.hint_shown) {
                    let hint = crate::words::hint_words(d, t, seats.game());
                    ui.label(RichText::new(hint).pt(16.0).strong());
                } else if advice.is_some() && ui.button(RichText::new(t.get("coach.hint")).pt(17.0)).clicked() {
                    coach.write(crate::coach::CoachCommand::Hint);
                }
            }
            None => {
                ui.label(RichText::new(t.get("lesson.done")).pt(18.0).strong());
                ui.horizontal_wrapped(|ui| {
                    if let Some(next) = lessons.0.get(number) {
                        let label = t.fill("lesson.next_lesson", &[("title", &t.get(&next.title_key()))]);
                        if ui.button(RichText::new(label).pt(17.0)).clicked() {
                            out.write(TutorialCommand::Start { id: next.id.clone(), step: 0 });
                        }
                    }
                });
            }
        }
        if let Some(wrong) = &tutorial.wrong {
            ui.label(RichText::new(wrong).pt(16.0).color(WARM));
        }
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            let next_button = egui::Button::new(RichText::new(t.get("lesson.next")).pt(18.0));
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
        // For the tests: how far the body stood out beyond its header.
        let beyond = ui.min_rect().width() - body;
        ui.ctx().data_mut(|d| d.insert_temp(egui::Id::new("lesson-bubble-beyond"), beyond));
    });
    // For the tests, which check what the bubble covers.
    if let Some(shown) = shown {
        ctx.data_mut(|d| d.insert_temp(egui::Id::new("lesson-bubble-rect"), shown.response.rect));
        drawn.bubble = Some(shown.response.rect);
    }
    Ok(())
}

fn step_spot(step: &Step, answered: bool) -> Spot {
    match step {
        Step::Expect { answer: Some((_, show)), .. } if answered => *show,
        Step::Say { show, .. } | Step::Expect { show, .. } => *show,
        _ => Spot::Nothing,
    }
}

/// The bubble's frame and margins beyond the width it is given.
const FRAME: f32 = 20.0;

/// Where the bubble starts (the corner its pivot names), how wide and how
/// high it may be, clear of `spot` (the rectangles the step points at) and
/// of the trick. On a wide table left of the trick, above the player's
/// hand. On a tall one, while the trick is empty and the step points at
/// nothing on the table's top half (nothing, a card of the hand, the pile
/// in the corner, the piles), it hangs below North's hand and what North
/// says, leaving the pile and North in view, down to the learner's name
/// (or to the side players' names, above the learner's pile). With a trick
/// on the table it takes the taller of the room above the trick (over
/// North's hand, which the lessons do not talk about, below the trump's
/// words) and the room below it, of those the step's spot leaves free.
fn home(
    layout: &Layout,
    spot: Spot,
    rects: &[egui::Rect],
    trick_empty: bool,
    drawn: &Drawn,
    room_bottom: f32,
) -> (egui::Pos2, egui::Align2, f32, f32) {
    let trick = layout.trick_centre();
    let card = layout.trick_card();
    let hand_top = layout.hand_centre(Seat::South).y - layout.card.y * (0.5 + crate::table::cards::LIFT) - 8.0;
    if let Some(right) = layout.lesson_bubble_right() {
        let left = layout.area.min.x + layout.small().y + 24.0;
        let width = (right - left - FRAME).clamp(160.0, 380.0);
        // Down to West's name, which stays readable, and clear of the
        // player's hand; on a low table (a phone held sideways) up to the
        // top where the trick's height is not enough. Longer words scroll.
        let bottom = (layout.name_plate(Seat::West).y - 18.0).min(hand_top);
        let top = (trick.y - card.y * 1.1).min(bottom - 300.0).max(layout.area.min.y + 6.0);
        return (egui::pos2(right - width - FRAME, top), egui::Align2::LEFT_TOP, width, bottom - top);
    }
    let (left, width) = (layout.area.min.x + 12.0, layout.area.width() - 40.0);
    // Hung from its top (a window placed by its bottom moves while its
    // size settles).
    let low = trick_empty && matches!(spot, Spot::Nothing | Spot::Card(_) | Spot::Pile | Spot::Piles);
    let (top, bottom) = if low {
        // Below the trump's words in the corner too, and above the box of
        // the player's bid.
        let below_north = layout.hand_centre(Seat::North).y + layout.small().y * 0.5 + 40.0;
        let top = drawn.indicator().map_or(below_north, |i| below_north.max(i.bottom() + 8.0));
        let above = if spot == Spot::Piles { Seat::West } else { Seat::South };
        let bottom = layout.name_plate(above).y - 18.0;
        (top, drawn.bid_box.map_or(bottom, |b| bottom.min(b.top() - 8.0)))
    } else {
        // Above the trick: below the trump's words and the playing side,
        // which a learner needs in view while the cards are played, or,
        // where that leaves too little room and the trick's other side is
        // taken, over them.
        let over_north = (layout.area.min.y + 6.0, layout.lesson_bubble_bottom().unwrap_or(trick.y));
        let above = (drawn.indicator().map_or(over_north.0, |i| over_north.0.max(i.bottom() + 8.0)), over_north.1);
        // egui keeps a window inside the content rect (above a phone's
        // gesture bar).
        let below = (trick.y + card.y * 1.02 + 8.0, (layout.name_plate(Seat::South).y - 18.0).min(room_bottom));
        let free = |(t, b): (f32, f32)| {
            let room = egui::Rect::from_min_max(egui::pos2(left, t), egui::pos2(left + width + FRAME, b));
            !rects.iter().any(|r| r.intersects(room))
        };
        let mut rooms: Vec<(f32, f32)> =
            [above, below].into_iter().filter(|&r| free(r) && r.1 - r.0 >= 100.0).collect();
        rooms.sort_by(|a, b| (b.1 - b.0).total_cmp(&(a.1 - a.0)));
        rooms.first().copied().unwrap_or(over_north)
    };
    (egui::pos2(left, top), egui::Align2::LEFT_TOP, width, bottom - top)
}

/// A gold outline around what the step points at.
fn outline(ctx: &egui::Context, layout: &Layout, show: &Show, drawn: &Drawn, spot: Spot) -> Vec<egui::Rect> {
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
    // For the tests, which check that the bubble leaves it in view.
    ctx.data_mut(|d| d.insert_temp(egui::Id::new("lesson-spot"), rects.clone()));
    rects
}

/// A step's words, scrolling when they are higher than `room`.
fn words(ui: &mut egui::Ui, text: String, room: f32, touch: bool) {
    // A phone is held close: a smaller face leaves more of the table.
    let size = if touch { 16.0 } else { 18.0 };
    // Scrolling, the words take all their room: a window grows only to
    // what its content asks.
    let room = room.max(60.0);
    let shown = egui::ScrollArea::vertical()
        .max_height(room)
        .min_scrolled_height(room)
        // A bar in view says there is more.
        .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
        .show(ui, |ui| {
            let said = ui.label(RichText::new(text).pt(size));
            // Each step's words are read out as they come, in order.
            let live = bevy_egui::egui::accesskit::Live::Polite;
            ui.ctx().accesskit_node_builder(said.id, |node| node.set_live(live));
        });
    // For the tests: whether the words had to scroll, and how far they are.
    let scrolls = shown.content_size.y > shown.inner_rect.height() + 1.0;
    ui.ctx().data_mut(|d| {
        d.insert_temp(egui::Id::new("lesson-words-scroll"), scrolls);
        d.insert_temp(egui::Id::new("lesson-words-offset"), shown.state.offset.y);
    });
}
