//! A lesson at the table, step by step: the lessons and the learner's
//! progress, the commands of the bubble's buttons, each step's deal,
//! script and gate, and the coach's words in a deal played out.

use super::lesson::{self, Lesson, Step};
use crate::seats::{ActionGate, Controller, GameEvent, HUMAN, PlayerAction, Refusal, Seats};
use crate::show::Show;
use crate::state::Config;
use crate::state::Files;
use crate::state::Screen;
use crate::state::Texts;
use bevy::prelude::*;
use bevy::tasks::{Task, block_on, poll_once};
use klaverjas::Action;
use klaverjas_ai::Level;
use serde::{Deserialize, Serialize};

/// The lessons, checked when the game starts.
#[derive(Resource, Clone, Default)]
pub struct Lessons(pub Vec<Lesson>);

/// What the learner has done, on disk.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub format: u32,
    /// Lessons played to their end.
    pub finished: Vec<String>,
    /// The lesson under way and its step.
    pub current: Option<(String, usize)>,
}

#[derive(Resource, Default)]
pub struct LessonProgress(pub Progress);

/// A lesson at the table.
#[derive(Resource)]
pub struct Tutorial {
    pub lesson: Lesson,
    /// The step under way (from 0); `steps.len()` once the lesson is done.
    pub step: usize,
    /// Whether the step has been set up (scripts queued, gate set).
    entered: bool,
    entered_at: f32,
    /// The game's action count when the step began.
    actions_at: usize,
    /// Why the learner's last action was refused, in their language.
    pub wrong: Option<String>,
    /// The coach: the expert's choice for the learner's turn.
    pub advice: Option<(usize, klaverjas_ai::coach::Advice)>,
    /// The expert thinking about the learner's turn at action `n`, off the
    /// main thread: a first trick's search takes a few frames.
    thinking: Option<(usize, Task<Option<klaverjas_ai::coach::Advice>>)>,
    /// The learner asked for the hint of this turn.
    pub hint_shown: bool,
    /// After a trick, what the coach would have played instead.
    pub coach_note: Option<String>,
    /// The learner's choice at action `n`, the advice and the club
    /// player's card of that turn, and the tricks complete when it was made.
    played_against: Option<(usize, Action, klaverjas_ai::coach::Advice, Option<Action>, usize)>,
    /// The turn the coach last spoke about.
    coach_for: Option<usize>,
    /// When `--quit-after-lesson` ends the app.
    quit_at: Option<f32>,
    /// The learner pressed Next.
    next_pressed: bool,
    /// The learner did what the step asked, and the step shows the
    /// table's answer until Next.
    pub answered: bool,
    /// The club player's (the heuristic's) card for the learner's turn at
    /// action `n`: a second opinion.
    club_choice: Option<(usize, Action)>,
}

/// What the learner asks of the lesson.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum TutorialCommand {
    /// Open lesson `id` at `step` (from 0).
    Start { id: String, step: usize },
    /// Past the words of a step.
    Next,
    /// Back to the list of lessons.
    Leave,
}

/// The coach's Hint (the bubble's button, or H) shows the hint of the
/// learner's turn in a deal played out.
pub fn hint(mut asked: MessageReader<crate::coach::CoachCommand>, tutorial: Option<ResMut<Tutorial>>) {
    let hint = asked.read().any(|c| *c == crate::coach::CoachCommand::Hint);
    if let (true, Some(mut t)) = (hint, tutorial) {
        t.hint_shown = true;
    }
}

/// `klaverjas --lessons`: one JSON line per lesson.
pub fn lesson_line(l: &Lesson, t: &crate::i18n::Texts) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    format!("{{\"id\":{},\"title\":{},\"steps\":{}}}", quote(&l.id), quote(&t.get(&l.title_key())), l.steps.len())
}

/// A `--lesson` that names no lesson is refused before a window opens.
pub fn check_option(o: &crate::cli::Options) -> Result<(), String> {
    let Some(id) = &o.lesson else { return Ok(()) };
    let lessons = lesson::all().map_err(|e| e.to_string())?;
    if lessons.iter().any(|l| &l.id == id) {
        Ok(())
    } else {
        let ids: Vec<_> = lessons.iter().map(|l| l.id.as_str()).collect();
        Err(format!("--lesson: no lesson '{id}' (there are: {})", ids.join(", ")))
    }
}

fn progress_path(files: &Files) -> std::path::PathBuf {
    files.0.dir.join("tutorial.ron")
}

pub fn load_progress(
    files: Res<Files>,
    mut progress: ResMut<LessonProgress>,
    config: Res<Config>,
    mut out: MessageWriter<TutorialCommand>,
) {
    if let crate::save::Loaded::Found(p) = files.0.read::<Progress>(&progress_path(&files)) {
        progress.0 = p;
    }
    if let Some(id) = &config.0.lesson {
        out.write(TutorialCommand::Start { id: id.clone(), step: 0 });
    }
}

fn save_progress(files: &Files, progress: &LessonProgress) {
    let p = Progress { format: crate::save::oldest_format(false), ..progress.0.clone() };
    if let Err(e) = files.0.write(&progress_path(files), &p) {
        warn!("{e}");
    }
}

/// The step the learner resumes `id` at: where they left it, else 0.
pub fn resume_step(progress: &Progress, id: &str) -> usize {
    progress.current.as_ref().filter(|(c, _)| c == id).map_or(0, |(_, s)| *s)
}

/// Sits the learner down at `lesson`, at the start of `step`: the deal is
/// brought there by the lesson's own actions.
pub fn start_lesson(
    commands: &mut Commands,
    events: &mut MessageWriter<GameEvent>,
    lesson: &Lesson,
    step: usize,
    now: f32,
) {
    let mut m = lesson.new_match();
    for action in lesson.actions_before(step) {
        // The lesson's own actions, each for the seat it was checked for
        // (the seat to act); a roem call in a lesson is the learner's.
        let replayed = if action == Action::ClaimRoem { m.call_roem(HUMAN) } else { m.apply(action) };
        if let Err(e) = replayed {
            // A checked lesson replays; should it not, start it afresh.
            error!("lesson {} does not replay to step {step}: {e}", lesson.id);
            return start_lesson(commands, events, lesson, 0, now);
        }
    }
    let controllers = klaverjas::Seat::ALL
        .map(|s| if s == HUMAN { Controller::Human } else { Controller::Script(Default::default()) });
    let seats = Seats::with_controllers(m, crate::seats::Kind::Lesson, controllers);
    crate::seats::sit_down(commands, events, seats);
    commands.insert_resource(Tutorial {
        lesson: lesson.clone(),
        step,
        entered: false,
        entered_at: now,
        actions_at: 0,
        wrong: None,
        advice: None,
        thinking: None,
        hint_shown: false,
        coach_note: None,
        played_against: None,
        coach_for: None,
        quit_at: None,
        next_pressed: false,
        answered: false,
        club_choice: None,
    });
}

#[allow(clippy::too_many_arguments)]
pub fn commands(
    mut input: MessageReader<TutorialCommand>,
    mut commands: Commands,
    lessons: Res<Lessons>,
    tutorial: Option<ResMut<Tutorial>>,
    files: Res<Files>,
    mut progress: ResMut<LessonProgress>,
    mut events: MessageWriter<GameEvent>,
    mut gate: ResMut<ActionGate>,
    mut next: ResMut<NextState<Screen>>,
    mut show: ResMut<Show>,
    time: Res<Time>,
) {
    let mut tutorial = tutorial;
    for command in input.read() {
        match command {
            TutorialCommand::Start { id, step } => {
                let Some(lesson) = lessons.0.iter().find(|l| &l.id == id) else { continue };
                let step = (*step).min(lesson.steps.len().saturating_sub(1));
                // Words after a deal played out talk about that deal: a
                // lesson left there resumes at the deal.
                let step = lesson.steps[..step].iter().position(|s| matches!(s, Step::PlayOut { .. })).unwrap_or(step);
                gate.0 = None;
                show.hold_trick = false;
                start_lesson(&mut commands, &mut events, lesson, step, time.elapsed_secs());
                progress.0.current = Some((id.clone(), step));
                save_progress(&files, &progress);
                next.set(Screen::Table);
            }
            TutorialCommand::Next => {
                // The step moves on where every step does, so that the last
                // one finishes the lesson.
                if let Some(t) = tutorial.as_deref_mut() {
                    t.next_pressed = true;
                }
            }
            // Leaving the table ends the lesson ([`end_lesson`]).
            TutorialCommand::Leave => next.set(Screen::Lessons),
        }
    }
}

/// A lesson lives at the table only: leaving it by any way (the bubble's
/// Leave, the menu, the end) ends its gate, scripts and bubble, and the
/// player's own match, if any, is what Continue goes on with. The step is
/// already on disk, so the lessons screen resumes it there.
pub fn end_lesson(
    mut commands: Commands,
    tutorial: Option<Res<Tutorial>>,
    mut gate: ResMut<ActionGate>,
    mut show: ResMut<Show>,
    files: Res<Files>,
    settings: Res<crate::state::PlayerSettings>,
) {
    if tutorial.is_none() {
        return;
    }
    gate.0 = None;
    show.lesson_roem_help = false;
    show.hold_trick = false;
    commands.remove_resource::<Tutorial>();
    crate::seats::restore_saved(&mut commands, &files.0, settings.0.bot_level.level());
}

/// Runs the lesson's step: sets it up, sees when it is done, moves on.
#[allow(clippy::too_many_arguments)]
pub fn run_step(
    mut commands: Commands,
    taking: Query<(), With<bevy::render::view::screenshot::Screenshot>>,
    tutorial: Option<ResMut<Tutorial>>,
    seats: Option<ResMut<Seats>>,
    mut show: ResMut<Show>,
    mut gate: ResMut<ActionGate>,
    mut refusals: MessageReader<GameEvent>,
    mut actions: MessageWriter<PlayerAction>,
    mut progress: ResMut<LessonProgress>,
    files: Res<Files>,
    texts: Res<Texts>,
    config: Res<Config>,
    time: Res<Time>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let (Some(mut t), Some(mut seats)) = (tutorial, seats) else {
        refusals.clear();
        return;
    };
    if !seats.lesson() {
        // A match sat down over the lesson: the lesson is over, and
        // nothing of it may narrow the match's choices.
        gate.0 = None;
        show.hold_trick = false;
        show.lesson_roem_help = false;
        commands.remove_resource::<Tutorial>();
        refusals.clear();
        return;
    }
    let now = time.elapsed_secs();
    let demo = config.0.demo;
    for event in refusals.read() {
        if let GameEvent::Refused { seat: HUMAN, refusal } = event {
            t.wrong = Some(match refusal {
                Refusal::Lesson(key) => texts.0.get(key),
                Refusal::Rule(e) => crate::words::explain(e, &texts.0, seats.game().contract().map(|c| c.trump)),
                Refusal::NotNow => texts.0.get("notice.wait"),
            });
        }
    }
    if t.step >= t.lesson.steps.len() {
        return;
    }
    if !t.entered {
        begin_step(&mut t, &mut seats, &mut gate, &mut show, &mut progress, &files, now);
    }
    // A finished trick stays on the table while the lesson talks, and
    // while the learner may call its roem.
    let holds = |step: Option<&Step>| match step {
        // Words about the piles let the trick go to its pile first.
        Some(Step::Say { show, .. }) => *show != super::lesson::Spot::Piles,
        Some(Step::Expect { any_of, .. }) => any_of.contains(&Action::ClaimRoem),
        _ => false,
    };
    show.hold_trick = match &t.lesson.steps[t.step] {
        // The last scripted card played, the trick waits for the next step.
        Step::Auto(_) => seats.scripts_done() && holds(t.lesson.steps.get(t.step + 1)),
        // An answer talks about the trick just played, as words do.
        Step::Expect { answer: Some((_, spot)), .. } if t.answered => *spot != super::lesson::Spot::Piles,
        step => holds(Some(step)),
    };
    // Caught up, or the learner's turn: the last trick's word is theirs
    // while the trick still lies there.
    let stage = show.stage(now);
    let ready = seats.ready(stage) || seats.waiting_for(stage) == Some(HUMAN);
    // In a demo the step waits until its picture is taken: pictures are
    // taken one at a time, late under a slow renderer, and each must show
    // its own step.
    let pictures_taken = show.screenshots.is_empty() && taking.is_empty();
    let photographed = now > t.entered_at + 1.2 && pictures_taken;
    let done = match t.lesson.steps[t.step].clone() {
        Step::Say { .. } => std::mem::take(&mut t.next_pressed) || (demo && now > t.entered_at + 1.5 && photographed),
        // Done once the last scripted card is seen, before a finished
        // trick is swept: the next step may talk about it.
        // (In a demo, once its picture is taken too.)
        Step::Auto(_) => {
            seats.scripts_done() && !seats.unseen && show.caught_up_to_the_sweep(now) && (!demo || pictures_taken)
        }
        // The answer to the learner's action, read in the same step.
        Step::Expect { answer: Some(_), .. } if t.answered => {
            std::mem::take(&mut t.next_pressed) || (demo && now > t.entered_at + 1.5 && photographed)
        }
        Step::Expect { any_of, answer, .. } => {
            let call = any_of[0] == Action::ClaimRoem;
            if demo && (ready || call) && photographed && seats.game().actions().len() == t.actions_at {
                let turn = seats.game().to_act() == Some(HUMAN);
                if turn || (call && seats.game().may_call_roem(HUMAN)) {
                    actions.write(PlayerAction { seat: HUMAN, action: any_of[0] });
                }
            }
            // A call is taken while the trick still lies there.
            let acted = (ready || call) && seats.game().actions().len() > t.actions_at;
            if acted && answer.is_some() {
                t.answered = true;
                t.entered_at = now;
                t.wrong = None;
                gate.0 = None;
                let name = format!("lesson-{}-answer{:02}.png", t.lesson.id, t.step + 1);
                show.photograph(name, now + 0.9);
            }
            acted && answer.is_none()
        }
        Step::PlayOut { .. } => {
            coach(&mut t, &seats, &texts.0, ready, demo, &mut actions, &mut redraw);
            seats.game().result().is_some() && ready && show.shown.result.is_some()
        }
    };
    // Keep the frames coming while a step waits on the clock.
    if demo {
        redraw.write(bevy::window::RequestRedraw);
    }
    if done {
        t.step += 1;
        t.entered = false;
        t.wrong = None;
        // The next step is set up at once: its gate is in place before the
        // learner's next input.
        if t.step < t.lesson.steps.len() {
            begin_step(&mut t, &mut seats, &mut gate, &mut show, &mut progress, &files, now);
        }
        if t.step == t.lesson.steps.len() {
            gate.0 = None;
            show.hold_trick = false;
            let id = t.lesson.id.clone();
            if !progress.0.finished.contains(&id) {
                progress.0.finished.push(id);
            }
            progress.0.current = None;
            save_progress(&files, &progress);
            show.photograph(format!("lesson-{}-end.png", t.lesson.id), now + 0.9);
            t.quit_at = config.0.quit_after_lesson.then_some(now + 2.0);
        }
    }
}

/// `--quit-after-lesson`: once the last screenshot is on disk.
pub fn quit_after_lesson(
    tutorial: Option<Res<Tutorial>>,
    show: Res<Show>,
    time: Res<Time>,
    mut exit: MessageWriter<AppExit>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let Some(at) = tutorial.and_then(|t| t.quit_at) else { return };
    redraw.write(bevy::window::RequestRedraw);
    if time.elapsed_secs() > at && show.screenshots.is_empty() {
        exit.write(AppExit::Success);
    }
}

/// Enters the step under way, notes it in the progress on disk, and asks
/// for its screenshot.
fn begin_step(
    t: &mut Tutorial,
    seats: &mut Seats,
    gate: &mut ActionGate,
    show: &mut Show,
    progress: &mut LessonProgress,
    files: &Files,
    now: f32,
) {
    enter_step(t, seats, gate, show, now);
    progress.0.current = Some((t.lesson.id.clone(), t.step));
    save_progress(files, progress);
    show.photograph(format!("lesson-{}-step{:02}.png", t.lesson.id, t.step + 1), now + 0.9);
}

/// Sets a step up: the scripts of the other seats, the gate for the
/// learner, the bots and the coach for a deal played out.
fn enter_step(t: &mut Tutorial, seats: &mut Seats, gate: &mut ActionGate, show: &mut Show, now: f32) {
    t.entered = true;
    t.entered_at = now;
    t.next_pressed = false;
    t.answered = false;
    t.actions_at = seats.game().actions().len();
    t.wrong = None;
    gate.0 = None;
    match t.lesson.steps[t.step].clone() {
        Step::Say { .. } => {}
        Step::Auto(list) => {
            // Each action to the seat whose turn it will be.
            let mut m = seats.m.clone();
            for a in list {
                let Some(seat) = m.game().to_act() else { break };
                if m.apply(a).is_err() {
                    break;
                }
                seats.script(seat, [a]);
            }
        }
        Step::Expect { any_of, wrong, .. } => {
            gate.0 = Some(Box::new(move |game, _seat, action| {
                // An illegal action goes on to the engine, which names the
                // rule; a legal one other than the lesson's is the lesson's.
                let legal =
                    if action == Action::ClaimRoem { game.may_call_roem(HUMAN) } else { game.check(action).is_ok() };
                if any_of.contains(&action) || !legal { Ok(()) } else { Err(wrong.clone()) }
            }));
        }
        Step::PlayOut { .. } => {
            let seed = t.lesson.deal.code().len() as u64;
            for seat in klaverjas::Seat::ALL.into_iter().filter(|&s| s != HUMAN) {
                seats.set_controller(seat, Controller::bot(Level::Heuristic, seed + seat.index() as u64));
            }
        }
    }
    show.lesson_roem_help = t.lesson.point_out_roem;
}

/// The coach of a deal played out: the hint for each of the learner's
/// turns (the expert's choice, in the club player's words where they
/// agree), shown on request, and after each trick a word when the
/// learner's card was neither the expert's nor the club player's. Both see
/// only the learner's view, as any bot.
fn coach(
    t: &mut Tutorial,
    seats: &Seats,
    texts: &crate::i18n::Texts,
    ready: bool,
    demo: bool,
    actions: &mut MessageWriter<PlayerAction>,
    redraw: &mut MessageWriter<bevy::window::RequestRedraw>,
) {
    let game = seats.game();
    let at = game.actions().len();
    let asked = |n: Option<usize>| n == Some(at);
    let (advised, thinking) = (t.advice.as_ref().map(|a| a.0), t.thinking.as_ref().map(|a| a.0));
    if ready && game.to_act() == Some(HUMAN) && !asked(advised) && !asked(thinking) {
        let view = game.view(HUMAN);
        t.club_choice = Some((at, Level::Heuristic.bot(at as u64).decide(&view).action));
        let task = crate::thinking::hint(view, at as u64);
        t.thinking = Some((at, task));
        // A Hint asked while it thinks is shown when the advice comes.
        t.hint_shown = false;
    }
    if let Some((n, task)) = t.thinking.as_mut() {
        redraw.write(bevy::window::RequestRedraw);
        if let Some(decision) = block_on(poll_once(task)) {
            let n = *n;
            t.thinking = None;
            let Some(advice) = decision else { return };
            if demo && at == n {
                actions.write(PlayerAction { seat: HUMAN, action: advice.decision.action });
            }
            t.advice = Some((n, advice));
        }
    }
    // The learner's choice, against the advice of that turn.
    if let Some((n, advice)) = &t.advice
        && at > *n
        && t.played_against.as_ref().is_none_or(|p| p.0 != *n)
        && let Some(&played) = game.actions().get(*n)
    {
        let club = t.club_choice.filter(|(m, _)| m == n).map(|(_, a)| a);
        t.played_against = Some((*n, played, advice.clone(), club, game.tricks().len()));
    }
    // Once the trick is complete and seen, the coach's word.
    if let Some((n, played, advice, club, tricks)) = t.played_against.clone()
        && ready
        && game.tricks().len() > tricks
        && t.coach_for != Some(n)
    {
        t.coach_for = Some(n);
        // Only a card both the club player and the expert would not have
        // played is worth a word: where they differ, either is fine.
        let neither = played != advice.decision.action && club != Some(played);
        t.coach_note = neither.then(|| {
            texts.fill(
                "coach.instead",
                &[
                    ("card", &crate::words::action_words(advice.decision.action, texts, game)),
                    ("reason", &crate::words::plain_reason(&advice, texts, game)),
                ],
            )
        });
    }
}
