//! Where the bots think: away from the frames, so the cards keep moving
//! while an expert searches or a deal is reviewed. On a desktop or a phone
//! a [`Job`] runs on a thread of Bevy's task pool. A browser's page has one
//! thread, so there the job crosses to the bots' Web Worker (the page's
//! `bots.js`, built from `crates/klaverjas-worker`) as JSON, and is worked
//! out in the page only where the worker cannot start or fails.

use bevy::tasks::{AsyncComputeTaskPool, Task};
use klaverjas::{Action, Deal, PlayerView, Preset, Rules, Seat};
use klaverjas_ai::coach::{Advice, Review};
use klaverjas_ai::daily::Day;
use klaverjas_ai::remote::{Answer, Desk, Job};
use klaverjas_ai::{Decision, Level};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A bot's decision; the desk, which keeps the bots' memory, comes back
/// with it.
pub fn decide(desk: Desk, job: Job) -> Task<(Desk, Option<Decision>)> {
    AsyncComputeTaskPool::get().spawn(async move {
        let (desk, answer) = work(desk, job, None).await;
        (desk, answer.decision())
    })
}

/// The expert's hint for the view's seat, with its plain reason.
pub fn hint(view: PlayerView, seed: u64) -> Task<Option<Advice>> {
    AsyncComputeTaskPool::get().spawn(async move {
        let (_, answer) = work(Desk::default(), Job::Hint { view, seed }, None).await;
        answer.advice()
    })
}

/// The review of `seat`'s choices in a finished deal; `progress` counts
/// the decisions reviewed.
pub fn review(
    rules: Rules,
    deal: Deal,
    actions: Vec<Action>,
    seat: Seat,
    seed: u64,
    progress: Arc<AtomicUsize>,
) -> Task<Result<Review, String>> {
    AsyncComputeTaskPool::get().spawn(async move {
        let job = Job::Review { rules, deal, actions, seat, seed };
        let (_, answer) = work(Desk::default(), job, Some(progress)).await;
        answer.review().unwrap_or_else(|| Err("the bots answered a review with a decision".into()))
    })
}

/// The expert's points per deal of a day's deals, played from South
/// with `bots` around it: the day's yardstick.
pub fn yardstick(day: Day, preset: Preset, bots: Level) -> Task<Option<Vec<u32>>> {
    AsyncComputeTaskPool::get().spawn(async move {
        let (_, answer) = work(Desk::default(), Job::Yardstick { day, preset, bots }, None).await;
        answer.points()
    })
}

async fn work(mut desk: Desk, job: Job, progress: Option<Arc<AtomicUsize>>) -> (Desk, Answer) {
    #[cfg(target_arch = "wasm32")]
    if let Some(answer) = worker::ask(&job, progress.clone()).await {
        return (desk, answer);
    }
    let answer = desk.answer(job, &mut |done| {
        if let Some(p) = &progress {
            p.store(done, Ordering::Relaxed);
        }
    });
    (desk, answer)
}

/// The page's side of the bots' Web Worker. Messages to it are
/// `[id, job]`; it posts `[id, "progress", done]` while it reviews and
/// `[id, "answer", answer]` or `[id, "error", words]` when it is done.
#[cfg(target_arch = "wasm32")]
mod worker {
    use super::*;
    use bevy::log::{error, info};
    use std::cell::RefCell;
    use std::collections::HashMap;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;

    struct Worker {
        worker: web_sys::Worker,
        next: u32,
        waiting: HashMap<u32, Waiting>,
    }

    /// A job sent: where its answer goes, and its progress.
    struct Waiting {
        answer: async_channel::Sender<Answer>,
        progress: Option<Arc<AtomicUsize>>,
    }

    thread_local! {
        /// Two workers: the bots' and the day's expert's. A worker answers
        /// one job at a time, so the expert's four deals (seconds) must not
        /// queue before a bot's card. Each is `None` until its first job;
        /// `Some(None)` once it could not start or failed: the page works
        /// its jobs out itself.
        static WORKERS: [RefCell<Option<Option<Worker>>>; 2] = const { [RefCell::new(None), RefCell::new(None)] };
    }

    /// The worker's answer to `job`, or `None` where there is no worker or
    /// it gave no answer (its waiting askers are let go when it fails).
    pub async fn ask(job: &Job, progress: Option<Arc<AtomicUsize>>) -> Option<Answer> {
        let text = serde_json::to_string(job).ok()?;
        let (sender, answer) = async_channel::bounded(1);
        let lane = usize::from(matches!(job, Job::Yardstick { .. }));
        WORKERS.with(|workers| {
            let mut slot = workers[lane].borrow_mut();
            let worker = slot.get_or_insert_with(|| start(lane)).as_mut()?;
            let id = worker.next;
            worker.next = worker.next.wrapping_add(1);
            worker.worker.post_message(&js_sys::Array::of2(&id.into(), &text.into())).ok()?;
            worker.waiting.insert(id, Waiting { answer: sender, progress });
            Some(())
        })?;
        answer.recv().await.ok()
    }

    fn start(lane: usize) -> Option<Worker> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = match web_sys::Worker::new_with_options("bots.js", &options) {
            Ok(w) => w,
            Err(e) => {
                error!("the bots' worker could not start ({e:?}): they think in the page");
                return None;
            }
        };
        // Made once a page and kept for its life: they are never dropped
        // while the browser may call them.
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| receive(lane, e.data()));
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        let on_error = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| fail(lane, &e));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        on_error.forget();
        info!("{} in a Web Worker", if lane == 0 { "the bots think" } else { "the day's expert plays" });
        Some(Worker { worker, next: 0, waiting: HashMap::new() })
    }

    fn receive(lane: usize, data: JsValue) {
        let parts = js_sys::Array::from(&data);
        let id = parts.get(0).as_f64().unwrap_or(-1.0) as u32;
        let kind = parts.get(1).as_string().unwrap_or_default();
        WORKERS.with(|workers| {
            let mut slot = workers[lane].borrow_mut();
            let Some(Some(worker)) = slot.as_mut() else { return };
            match kind.as_str() {
                "progress" => {
                    let done = parts.get(2).as_f64().unwrap_or(0.0) as usize;
                    if let Some(p) = worker.waiting.get(&id).and_then(|w| w.progress.as_ref()) {
                        p.store(done, Ordering::Relaxed);
                    }
                }
                "answer" => {
                    let Some(waiting) = worker.waiting.remove(&id) else { return };
                    match parts.get(2).as_string().map(|t| serde_json::from_str::<Answer>(&t)) {
                        Some(Ok(answer)) => {
                            let _ = waiting.answer.try_send(answer);
                        }
                        other => error!("the bots' worker answered what the page cannot read: {other:?}"),
                    }
                }
                _ => {
                    error!("the bots' worker could not do a job: {:?}", parts.get(2).as_string());
                    worker.waiting.remove(&id);
                }
            }
        });
    }

    /// The worker is given up; whoever waits on it works the job out in
    /// the page.
    fn fail(lane: usize, event: &JsValue) {
        let message = js_sys::Reflect::get(event, &"message".into()).ok().and_then(|m| m.as_string());
        error!("the bots' worker failed ({}): they think in the page", message.unwrap_or_default());
        WORKERS.with(|workers| {
            let mut slot = workers[lane].borrow_mut();
            if let Some(Some(worker)) = slot.take() {
                worker.worker.terminate();
            }
            *slot = Some(None);
        });
    }
}
