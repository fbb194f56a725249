//! Klaverjas bots and the double-dummy solver.
//!
//! A bot gets a [`klaverjas::PlayerView`] and nothing else: the only code
//! here that sees every hand is the [`solver`], and the expert feeds it
//! hands it sampled itself from what its seat has seen ([`sample`]).

pub mod arena;
pub mod coach;
pub mod expert;
pub mod heuristic;
pub mod knowledge;
pub mod reason;
pub mod sample;
pub mod solver;

use klaverjas::{Action, PlayerView, Rng};
pub use reason::{Mean, Reason, ReasonArg};
use std::fmt;
use std::str::FromStr;

/// A bot's choice with the reason a player would give, for hints.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Decision {
    pub action: Action,
    pub reason: Reason,
}

impl Decision {
    pub fn new(action: Action, reason: Reason) -> Decision {
        Decision { action, reason }
    }
}

/// A player that decides from its own seat's view only.
pub trait Bot: Send + Sync {
    /// Answers the decision the view's seat faces: `view.legal` is never
    /// empty when this is called, and the answer is one of its actions.
    fn decide(&mut self, view: &PlayerView) -> Decision;
}

/// The three strengths of bot.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Level {
    Random,
    Heuristic,
    Expert,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Random, Level::Heuristic, Level::Expert];

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Heuristic => "heuristic",
            Level::Expert => "expert",
        }
    }

    /// A bot of this level; `seed` fixes every random choice it makes.
    pub fn bot(self, seed: u64) -> Box<dyn Bot> {
        match self {
            Level::Random => Box::new(RandomBot(Rng::new(seed))),
            Level::Heuristic => Box::new(heuristic::HeuristicBot),
            Level::Expert => Box::new(expert::ExpertBot::new(seed)),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown level '{}' (known: random, heuristic, expert)", s.trim()))
    }
}

/// Any legal action, uniformly: the baseline.
pub struct RandomBot(pub Rng);

impl Bot for RandomBot {
    fn decide(&mut self, view: &PlayerView) -> Decision {
        let i = self.0.below(view.legal.len().max(1) as u32) as usize;
        let action = view.legal.get(i).copied().unwrap_or(Action::PassRoem);
        Decision::new(action, Reason::Random)
    }
}
