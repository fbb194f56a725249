//! Learn to play: lessons ([`lesson`]) run at the table. A lesson's deal is
//! a match of its own in [`Seats`](crate::seats::Seats): the other seats are
//! [`Controller::Script`](crate::seats::Controller::Script)s fed by the
//! lesson's scripted steps ([`teacher`]), the learner's actions pass the
//! [`ActionGate`](crate::seats::ActionGate) that lets through only what the step expects (an illegal
//! card goes on to the engine, which names the rule), and a deal played out
//! at the end hands the other seats to bots while the coach watches. The
//! bubble that speaks is in [`bubble`]; progress is kept in
//! `tutorial.ron` beside the saves, so a lesson resumes at its step.

pub mod bubble;
pub mod lesson;
pub mod teacher;

use crate::seats::Flow;
use bevy::prelude::*;
use teacher::{
    LessonProgress, Lessons, TutorialCommand, commands, end_lesson, hint, load_progress, quit_after_lesson, run_step,
};

pub fn plugin(app: &mut App) {
    let lessons = match lesson::all() {
        Ok(l) => l,
        Err(e) => {
            // The lessons are part of the program and tested: this is a bug,
            // but the game itself still plays.
            error!("{e}");
            Vec::new()
        }
    };
    app.insert_resource(Lessons(lessons))
        .init_resource::<LessonProgress>()
        .add_message::<TutorialCommand>()
        .add_systems(Startup, load_progress)
        .add_systems(OnExit(crate::state::Screen::Table), end_lesson)
        .add_systems(Update, (commands, hint, run_step, quit_after_lesson).chain().after(Flow::React));
}
