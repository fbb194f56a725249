//! Learn to play: the lessons in order, a tick for each finished one, and
//! where an unfinished one was left.

use crate::forms::big_button;
use crate::forms::page;
use crate::look::Pt;
use crate::state::Screen;
use crate::state::Texts;
use crate::tutorial::teacher::{LessonProgress, Lessons, TutorialCommand, resume_step};
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, lessons.after(crate::look::Zoom).run_if(in_state(Screen::Lessons)));
}

fn lessons(
    mut contexts: EguiContexts,
    texts: Res<Texts>,
    lessons: Res<Lessons>,
    progress: Res<LessonProgress>,
    mut out: MessageWriter<TutorialCommand>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    page(&ctx, t.get("menu.tutorial"), |ui| {
        ui.label(RichText::new(t.get("lessons.intro")).pt(16.0));
        ui.add_space(8.0);
        for (i, lesson) in lessons.0.iter().enumerate() {
            let done = progress.0.finished.contains(&lesson.id);
            let step = resume_step(&progress.0, &lesson.id);
            let mark = if done { "✔" } else { "  " };
            let mut label = format!("{mark} {}. {}", i + 1, t.get(&lesson.title_key()));
            if step > 0 {
                label += &format!("  ({})", t.fill("lessons.at_step", &[("k", &(step + 1).to_string())]));
            }
            let button = egui::Button::new(RichText::new(label).pt(18.0))
                .min_size(egui::vec2(ui.available_width(), crate::look::at_least_a_finger(ui, 44.0)));
            if ui.add(button).clicked() {
                out.write(TutorialCommand::Start { id: lesson.id.clone(), step });
            }
        }
        ui.add_space(12.0);
        let back = big_button(ui, t.get("menu.back"));
        crate::forms::mark_target(ui, "lessons.back", &back);
        if back.clicked() {
            next.set(Screen::Title);
        }
    });
    Ok(())
}
