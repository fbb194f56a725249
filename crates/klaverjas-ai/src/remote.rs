//! The bots' work as data: a [`Job`] asked and an [`Answer`] given, so that
//! the work can be done away from the asker. The game asks on a thread of
//! its task pool; a browser's page has one thread, which a search would
//! freeze, so there the same jobs cross to a Web Worker as JSON (with the
//! `serde` feature) and the answers come back.

use crate::coach::Advice;
use crate::coach::{Review, Reviewer};
use crate::daily::Day;
use crate::{Bot, Decision, Level};
use klaverjas::{Action, Deal, Game, PlayerView, Preset, Rules, Seat};

/// Work for the bots.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Job {
    /// The bot of `level` seeded with `seed` at `seat` of sitting `table`
    /// decides: it is made at its first question and keeps what it has
    /// seen for the next, as a bot at the table does.
    Decide { table: u64, seat: Seat, level: Level, seed: u64, view: PlayerView },
    /// The expert's hint for the view's seat.
    Hint { view: PlayerView, seed: u64 },
    /// The review of `seat`'s choices in a finished deal, the deal given as
    /// its rules, its cards and the actions played.
    Review { rules: Rules, deal: Deal, actions: Vec<Action>, seat: Seat, seed: u64 },
    /// The expert's points on each of a day's deals, from South, with
    /// `bots` at the other seats ([`crate::daily`]).
    Yardstick { day: Day, preset: Preset, bots: Level },
}

/// What a [`Job`] comes back with.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Answer {
    Decision(Decision),
    /// A hint: the expert's decision and its plain reason.
    Advice(Advice),
    /// The review, or why the deal could not be reviewed, in words.
    Review(Result<Review, String>),
    /// South's points in each deal of the day.
    Points(Vec<u32>),
}

impl Answer {
    pub fn decision(self) -> Option<Decision> {
        match self {
            Answer::Decision(d) => Some(d),
            Answer::Advice(_) | Answer::Review(_) | Answer::Points(_) => None,
        }
    }

    pub fn advice(self) -> Option<Advice> {
        match self {
            Answer::Advice(a) => Some(a),
            Answer::Decision(_) | Answer::Review(_) | Answer::Points(_) => None,
        }
    }

    pub fn review(self) -> Option<Result<Review, String>> {
        match self {
            Answer::Review(r) => Some(r),
            Answer::Decision(_) | Answer::Advice(_) | Answer::Points(_) => None,
        }
    }

    pub fn points(self) -> Option<Vec<u32>> {
        match self {
            Answer::Points(p) => Some(p),
            Answer::Decision(_) | Answer::Advice(_) | Answer::Review(_) => None,
        }
    }
}

/// One bot at a seat, with what it was made from.
struct SeatedBot {
    level: Level,
    seed: u64,
    bot: Box<dyn Bot>,
}

/// Where jobs are answered: it keeps the bots of one sitting between their
/// decisions. A question from another sitting sends them all away.
#[derive(Default)]
pub struct Desk {
    table: u64,
    bots: [Option<SeatedBot>; 4],
}

impl Desk {
    /// Answers `job`, telling `progress` how many of a review's decisions
    /// are done as it goes.
    pub fn answer(&mut self, job: Job, progress: &mut dyn FnMut(usize)) -> Answer {
        match job {
            Job::Decide { table, seat, level, seed, view } => {
                if table != self.table {
                    *self = Desk { table, ..Desk::default() };
                }
                let slot = &mut self.bots[seat.index()];
                if slot.as_ref().is_some_and(|b| b.level != level || b.seed != seed) {
                    *slot = None;
                }
                let seated = slot.get_or_insert_with(|| SeatedBot { level, seed, bot: level.bot(seed) });
                Answer::Decision(seated.bot.decide(&view))
            }
            Job::Hint { view, seed } => Answer::Advice(crate::coach::hint(&view, seed)),
            Job::Yardstick { day, preset, bots } => Answer::Points(crate::daily::expert_points(day, preset, bots)),
            Job::Review { rules, deal, actions, seat, seed } => {
                Answer::Review(Game::new(rules, deal).map_err(|e| e.to_string()).and_then(|start| {
                    Reviewer::new(start, actions, seat, seed).finish_with(progress).map_err(|e| e.to_string())
                }))
            }
        }
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;
    use klaverjas::Rules;

    /// The day's yardstick through JSON (the browser's worker) is the
    /// expert's in place.
    #[test]
    fn the_day_s_yardstick_through_json_is_the_one_in_place() {
        let day: crate::daily::Day = "2026-11-26".parse().unwrap();
        let job = Job::Yardstick { day, preset: Preset::Classic, bots: Level::Heuristic };
        let sent: Job = serde_json::from_str(&serde_json::to_string(&job).unwrap()).unwrap();
        let answer = Desk::default().answer(sent, &mut |_| {});
        let came: Answer = serde_json::from_str(&serde_json::to_string(&answer).unwrap()).unwrap();
        assert_eq!(came.points(), Some(crate::daily::expert_points(day, Preset::Classic, Level::Heuristic)));
    }

    /// A job and its answer survive the trip through JSON, and the desk's
    /// bots answer as the same bots asked in place would, decision after
    /// decision, whichever way the questions travelled.
    #[test]
    fn jobs_and_answers_cross_as_json_and_the_bots_keep_their_memory() {
        let rules = Rules::classic();
        let mut game = Game::dealt(rules, 11, Seat::North);
        let mut desk = Desk::default();
        let mut here: [Box<dyn Bot>; 4] = Seat::ALL.map(|s| Level::Expert.bot(s.index() as u64));
        let mut decisions = 0;
        while let Some(seat) = game.to_act() {
            let job =
                Job::Decide { table: 7, seat, level: Level::Expert, seed: seat.index() as u64, view: game.view(seat) };
            let sent: Job = serde_json::from_str(&serde_json::to_string(&job).unwrap()).unwrap();
            assert_eq!(sent, job);
            let answer = desk.answer(sent, &mut |_| {});
            let back: Answer = serde_json::from_str(&serde_json::to_string(&answer).unwrap()).unwrap();
            assert_eq!(back, answer);
            let decision = back.decision().expect("a decision");
            assert_eq!(decision, here[seat.index()].decide(&game.view(seat)));
            game.apply(decision.action).unwrap();
            decisions += 1;
        }
        assert!(decisions >= 32, "a whole deal: {decisions} decisions");

        let mut steps = Vec::new();
        let job =
            Job::Review { rules, deal: *game.deal(), actions: game.actions().to_vec(), seat: Seat::South, seed: 3 };
        let sent: Job = serde_json::from_str(&serde_json::to_string(&job).unwrap()).unwrap();
        let review = desk.answer(sent, &mut |n| steps.push(n)).review().expect("a review").expect("reviewed");
        assert_eq!(steps.last().copied(), Some(review.bids.len() + review.cards.len()));
        assert_eq!(review.cards.len(), 8);
        let back: Answer =
            serde_json::from_str(&serde_json::to_string(&Answer::Review(Ok(review.clone()))).unwrap()).unwrap();
        assert_eq!(back, Answer::Review(Ok(review)));

        // Another deal's actions: refused in words, not a panic.
        let other = Game::dealt(rules, 12, Seat::North);
        let job =
            Job::Review { rules, deal: *other.deal(), actions: game.actions().to_vec(), seat: Seat::South, seed: 3 };
        let refused = desk.answer(job, &mut |_| {}).review().expect("a review's answer");
        assert!(refused.as_ref().is_err_and(|e| e.contains("cannot be played")), "{refused:?}");
    }
}
