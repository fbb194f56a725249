//! Player settings, saved beside the game.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Skin {
    French,
    /// Clubs green, diamonds orange: four colours for colour-blind players
    /// and small screens.
    FrenchFourColour,
    /// Bells, Shields, Roses and Acorns with B, V, H courts (seed 001).
    Swiss,
}

impl Skin {
    /// The deck of pictures this skin shows.
    pub fn deck(self) -> klaverjas_cards::Deck {
        match self {
            Skin::French => klaverjas_cards::Deck::French,
            Skin::FrenchFourColour => klaverjas_cards::Deck::FrenchFourColour,
            Skin::Swiss => klaverjas_cards::Deck::Swiss,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Speed {
    Slow,
    Normal,
    Fast,
    Instant,
}

impl Speed {
    /// Seconds a card takes to fly, and the pause on a complete trick.
    pub fn timings(self) -> (f32, f32) {
        match self {
            Speed::Slow => (0.6, 1.6),
            Speed::Normal => (0.35, 1.0),
            Speed::Fast => (0.15, 0.45),
            Speed::Instant => (0.0, 0.0),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BotLevel {
    Heuristic,
    Expert,
}

impl BotLevel {
    pub fn level(self) -> klaverjas_ai::Level {
        match self {
            BotLevel::Heuristic => klaverjas_ai::Level::Heuristic,
            BotLevel::Expert => klaverjas_ai::Level::Expert,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Language {
    English,
    Dutch,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub format: u32,
    pub skin: Skin,
    pub speed: Speed,
    pub bot_level: BotLevel,
    pub language: Language,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            format: crate::save::SAVE_FORMAT,
            skin: Skin::French,
            speed: Speed::Normal,
            bot_level: BotLevel::Heuristic,
            language: Language::English,
        }
    }
}
