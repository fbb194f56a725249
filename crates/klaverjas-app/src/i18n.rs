//! The one translation layer: every text a player reads comes from
//! `assets/i18n/<language>.ron` through [`Texts::get`] or [`Texts::fill`].

use crate::settings::{Language, Skin};
use std::collections::HashMap;

#[derive(Clone)]
pub struct Texts {
    map: HashMap<String, String>,
}

const ENGLISH: &str = include_str!("../../../assets/i18n/en.ron");
const DUTCH: &str = include_str!("../../../assets/i18n/nl.ron");
/// The lessons' words, kept apart from the game's.
const LESSONS_ENGLISH: &str = include_str!("../../../assets/i18n/lessons.en.ron");
const LESSONS_DUTCH: &str = include_str!("../../../assets/i18n/lessons.nl.ron");

impl Texts {
    /// The texts of `language`; with the Swiss-style deck the suits are
    /// named for its pictures (acorns, bells, roses, shields).
    pub fn load(language: Language, skin: Skin) -> Texts {
        let read = |text: &str| -> HashMap<String, String> { ron::from_str(text).unwrap_or_default() };
        let mut map = read(ENGLISH);
        map.extend(read(LESSONS_ENGLISH));
        if language == Language::Dutch {
            // Dutch texts over English ones, so a missing line still reads.
            map.extend(read(DUTCH));
            map.extend(read(LESSONS_DUTCH));
        }
        if skin == Skin::Swiss {
            for s in ["C", "D", "H", "S"] {
                if let Some(name) = map.get(&format!("suit.swiss.{s}")).cloned() {
                    map.insert(format!("suit.{s}"), name);
                }
            }
        }
        Texts { map }
    }

    /// The text for `key`; the key itself if it is missing (visible, so a
    /// gap is noticed rather than hidden).
    pub fn get(&self, key: &str) -> String {
        self.map.get(key).cloned().unwrap_or_else(|| key.to_string())
    }

    /// The text with `{name}` placeholders filled in.
    pub fn fill(&self, key: &str, values: &[(&str, &str)]) -> String {
        let mut s = self.get(key);
        for (name, value) in values {
            s = s.replace(&format!("{{{name}}}"), value);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_parse_and_have_the_same_keys() {
        for (english, dutch) in [(ENGLISH, DUTCH), (LESSONS_ENGLISH, LESSONS_DUTCH)] {
            let en: HashMap<String, String> = ron::from_str(english).expect("English parses");
            let nl: HashMap<String, String> = ron::from_str(dutch).expect("Dutch parses");
            let mut missing: Vec<_> = en.keys().filter(|k| !nl.contains_key(*k)).collect();
            missing.sort();
            assert!(missing.is_empty(), "Dutch lacks {missing:?}");
            let mut extra: Vec<_> = nl.keys().filter(|k| !en.contains_key(*k)).collect();
            extra.sort();
            assert!(extra.is_empty(), "English lacks {extra:?}");
        }
        let t = Texts::load(Language::Dutch, Skin::French);
        assert_eq!(t.fill("rule.follow", &[("suit", "harten")]), "Je moet harten bekennen");
        assert_eq!(Texts::load(Language::English, Skin::Swiss).get("suit.D"), "bells");
        assert_eq!(Texts::load(Language::Dutch, Skin::Swiss).get("suit.C"), "eikels");
    }
}
