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

impl Texts {
    /// The texts of `language`; with the Swiss-style deck the suits are
    /// named for its pictures (acorns, bells, roses, shields).
    pub fn load(language: Language, skin: Skin) -> Texts {
        let english: HashMap<String, String> = ron::from_str(ENGLISH).unwrap_or_default();
        let mut map = english;
        if language == Language::Dutch {
            // Dutch texts over English ones, so a missing line still reads.
            let dutch: HashMap<String, String> = ron::from_str(DUTCH).unwrap_or_default();
            map.extend(dutch);
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
        let en: HashMap<String, String> = ron::from_str(ENGLISH).expect("en.ron parses");
        let nl: HashMap<String, String> = ron::from_str(DUTCH).expect("nl.ron parses");
        let mut missing: Vec<_> = en.keys().filter(|k| !nl.contains_key(*k)).collect();
        missing.sort();
        assert!(missing.is_empty(), "Dutch lacks {missing:?}");
        let t = Texts::load(Language::Dutch, Skin::French);
        assert_eq!(t.fill("rule.follow", &[("suit", "harten")]), "Je moet harten bekennen");
        assert_eq!(Texts::load(Language::English, Skin::Swiss).get("suit.D"), "bells");
        assert_eq!(Texts::load(Language::Dutch, Skin::Swiss).get("suit.C"), "eikels");
    }
}
