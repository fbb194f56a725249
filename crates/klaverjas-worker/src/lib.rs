//! The bots of the browser build, in a Web Worker of their own: a page has
//! one thread, and an expert's search or a deal's review on it would stop
//! the cards from moving. The page's worker script (`bots.js`) hands each
//! [`Job`] over as JSON and posts back the [`Answer`], and a review's
//! progress as it goes.

use klaverjas_ai::remote::{Answer, Desk, Job};

/// Answers a job given as JSON with its answer as JSON, or says in words
/// why the job could not be read.
pub fn answer_json(desk: &mut Desk, job: &str, progress: &mut dyn FnMut(usize)) -> Result<String, String> {
    let job: Job = serde_json::from_str(job).map_err(|e| format!("the bots' job could not be read: {e}"))?;
    let answer: Answer = desk.answer(job, progress);
    serde_json::to_string(&answer).map_err(|e| format!("the bots' answer could not be written: {e}"))
}

#[cfg(target_arch = "wasm32")]
mod web {
    use klaverjas_ai::remote::Desk;
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;

    thread_local! {
        static DESK: RefCell<Desk> = RefCell::new(Desk::default());
    }

    /// The worker's one entry: `job` as JSON in, the answer as JSON out;
    /// `progress` is called with the count of a review's decisions done.
    #[wasm_bindgen]
    pub fn answer(job: &str, progress: &js_sys::Function) -> Result<String, JsValue> {
        DESK.with_borrow_mut(|desk| {
            super::answer_json(desk, job, &mut |done| {
                let _ = progress.call1(&JsValue::NULL, &JsValue::from(done as u32));
            })
        })
        .map_err(|e| JsValue::from_str(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use klaverjas::{Game, Rules, Seat};
    use klaverjas_ai::Level;
    use klaverjas_ai::remote::{Answer, Desk, Job};

    #[test]
    fn a_job_in_json_is_answered_in_json_and_garbage_is_refused_in_words() {
        let game = Game::dealt(Rules::classic(), 5, Seat::West);
        let seat = game.to_act().unwrap();
        let job = Job::Decide { table: 1, seat, level: Level::Heuristic, seed: 2, view: game.view(seat) };
        let mut desk = Desk::default();
        let text = answer_json(&mut desk, &serde_json::to_string(&job).unwrap(), &mut |_| {}).unwrap();
        let answer: Answer = serde_json::from_str(&text).unwrap();
        assert!(game.legal_actions().contains(&answer.decision().unwrap().action));
        let refused = answer_json(&mut desk, "{\"Decide\": 3}", &mut |_| {}).unwrap_err();
        assert!(refused.starts_with("the bots' job could not be read"), "{refused}");
    }
}
