//! Player settings, saved beside the game.

use serde::{Deserialize, Serialize};

/// The deck the table is drawn with: one type for the settings, the
/// pictures and the texts (the Swiss-style deck names its suits).
pub use klaverjas_cards::Deck as Skin;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Speed {
    Slow,
    Normal,
    Fast,
    Instant,
}

impl Speed {
    /// How long cards move and rest at this speed.
    pub fn pace(self) -> Pace {
        let (fly, pause) = match self {
            Speed::Slow => (0.6, 1.6),
            Speed::Normal => (0.35, 1.0),
            Speed::Fast => (0.15, 0.45),
            Speed::Instant => (0.0, 0.0),
        };
        Pace { fly, pause }
    }
}

/// Seconds of the table's show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// A card on its way: played to the trick, swept, or dealt in a packet.
    pub fly: f32,
    /// A complete trick lies still this long before it is swept.
    pub pause: f32,
}

impl Pace {
    /// A complete trick lies still this long, so that it is seen at every
    /// speed.
    pub fn still(self) -> f32 {
        self.pause.max(0.6)
    }

    /// The whole deal, 32 cards in packets, takes as long as six flights.
    pub fn deal(self) -> f32 {
        self.fly * 6.0
    }

    /// The shuffle before a deal, as long as two flights.
    pub fn shuffle(self) -> f32 {
        self.fly * 2.0
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
    Afrikaans,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub format: u32,
    pub skin: Skin,
    pub speed: Speed,
    pub bot_level: BotLevel,
    pub language: Language,
    /// For beginners: say when a trick holds roem (in `classic`, calling it
    /// is otherwise the player's own task).
    #[serde(default)]
    pub point_out_roem: bool,
    /// Both teams' points so far in the deal, under their won tricks.
    #[serde(default = "yes")]
    pub show_points: bool,
    /// The rules the player plays at home, asked on the first start: the
    /// default of a new game. `None` until answered.
    #[serde(default)]
    pub home_rules: Option<klaverjas::Preset>,
    /// New games are practice games: hints and taking back a card.
    #[serde(default = "yes")]
    pub practice: bool,
    /// Against misplays on a phone: a first tap lifts a card, a second
    /// plays it.
    #[serde(default)]
    pub tap_to_lift: bool,
    /// The preset of the last match started from the menus: the title's
    /// quick start deals it again.
    #[serde(default)]
    pub last_preset: Option<klaverjas::Preset>,
    /// The house rules: each preset's options as the player changed them
    /// on the new-game screen. A preset played as it is has no entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub house_rules: Vec<(klaverjas::Preset, klaverjas::Rules)>,
    /// The table's sounds on or off.
    #[serde(default = "yes")]
    pub sound: bool,
    /// Their volume, 0 to 100.
    #[serde(default = "usual_volume")]
    pub volume: u8,
    /// The name this player gives at a table with friends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The table server a phone or a browser hosts and joins at, as typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_server: Option<String>,
    /// Text size, in percent of the usual: for low sight.
    #[serde(default = "usual_text")]
    pub text_size: u16,
    /// White on black, thick edges.
    #[serde(default)]
    pub high_contrast: bool,
}

/// The text sizes offered, in percent.
pub const TEXT_SIZES: [u16; 5] = [100, 125, 150, 175, 200];

/// The largest text size: any larger in a file is drawn at this. Twice
/// the usual fits every screen of a phone of 360x640 dp without a word
/// broken or cut (the test `at_twice_the_text_no_words_are_cut_off`).
pub const LARGEST_TEXT: u16 = 200;

fn usual_text() -> u16 {
    100
}

impl Settings {
    /// `preset` as this player plays it: with the house rules kept for it.
    pub fn rules_for(&self, preset: klaverjas::Preset) -> klaverjas::Rules {
        self.house_rules.iter().find(|(p, _)| *p == preset).map_or(preset.rules(), |(_, rules)| *rules)
    }

    /// Keeps `rules` as the house rules of `preset`; the preset's own
    /// rules leave no entry.
    pub fn keep_house_rules(&mut self, preset: klaverjas::Preset, rules: klaverjas::Rules) {
        self.house_rules.retain(|(p, _)| *p != preset);
        if rules != preset.rules() {
            self.house_rules.push((preset, rules));
        }
    }

    /// How loud the table's sounds play, 0 to 1; `None` when they are off.
    pub fn sound_volume(&self) -> Option<f32> {
        Some(f32::from(self.volume.min(100)) / 100.0).filter(|&v| self.sound && v > 0.0)
    }

    /// The preset a new match starts from: the last one started, else the
    /// home rules, else classic.
    pub fn quick_preset(&self) -> klaverjas::Preset {
        self.last_preset.or(self.home_rules).unwrap_or(klaverjas::Preset::Classic)
    }
}

fn yes() -> bool {
    true
}

fn usual_volume() -> u8 {
    80
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            format: crate::disk::SAVE_FORMAT,
            skin: Skin::French,
            speed: Speed::Normal,
            bot_level: BotLevel::Heuristic,
            language: Language::English,
            point_out_roem: false,
            show_points: true,
            home_rules: None,
            practice: true,
            tap_to_lift: false,
            last_preset: None,
            house_rules: Vec::new(),
            sound: true,
            volume: usual_volume(),
            name: None,
            table_server: None,
            text_size: usual_text(),
            high_contrast: false,
        }
    }
}
