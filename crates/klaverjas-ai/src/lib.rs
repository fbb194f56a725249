//! Klaverjas bots and the double-dummy solver.
//!
//! A bot gets a [`klaverjas::PlayerView`] and nothing else: the only bot
//! code that sees every hand is the [`solver`], and the expert feeds it
//! hands it sampled itself from what its seat has seen ([`sample`]). The
//! coach's review of a deal played and the [`arena`], which are not bots,
//! hold whole deals.

pub mod arena;
pub mod coach;
pub mod daily;
pub mod expert;
pub mod heuristic;
pub mod inference;
pub mod knowledge;
pub mod progress;
pub mod reason;
pub mod remote;
pub mod sample;
pub mod solver;

use klaverjas::{Action, PlayerView, Rng};
pub use reason::{Mean, Reason, ReasonArg};
use std::fmt;
use std::str::FromStr;

/// A bot's choice with the reason a player would give, for hints.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

/// The strengths of bot: the three a player chooses from, and `pimc`, the
/// first expert, kept as the measure of every later one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Level {
    Random,
    Heuristic,
    Expert,
    Pimc,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Random, Level::Heuristic, Level::Expert, Level::Pimc];

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Heuristic => "heuristic",
            Level::Expert => "expert",
            Level::Pimc => "pimc",
        }
    }

    /// A bot of this level; `seed` fixes every random choice it makes.
    pub fn bot(self, seed: u64) -> Box<dyn Bot> {
        self.bot_without(seed, &[])
    }

    /// A bot of this level with some of the expert's ideas switched off
    /// (other levels have none), to measure what each is worth.
    pub fn bot_without(self, seed: u64, off: &[expert::Idea]) -> Box<dyn Bot> {
        let expert = |settings: expert::Settings| {
            let settings = off.iter().fold(settings, |s, &idea| s.without(idea));
            Box::new(expert::ExpertBot::with(seed, settings))
        };
        match self {
            Level::Random => Box::new(RandomBot(Rng::new(seed))),
            Level::Heuristic => Box::new(heuristic::HeuristicBot),
            Level::Expert => expert(expert::Settings::EXPERT),
            Level::Pimc => expert(expert::Settings::PIMC),
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
        Level::ALL.into_iter().find(|l| l.name().eq_ignore_ascii_case(s.trim())).ok_or_else(|| {
            let known: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
            format!("unknown level '{}' (known: {})", s.trim(), known.join(", "))
        })
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

#[cfg(test)]
pub(crate) mod tests {
    use klaverjas::CardSet;

    /// A hand from a card list, for hand-made positions.
    pub fn hand(cards: &str) -> CardSet {
        CardSet::parse(cards).unwrap()
    }
}
