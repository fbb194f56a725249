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
const AFRIKAANS: &str = include_str!("../../../assets/i18n/af.ron");
/// The lessons' words, kept apart from the game's.
const LESSONS_ENGLISH: &str = include_str!("../../../assets/i18n/lessons.en.ron");
const LESSONS_DUTCH: &str = include_str!("../../../assets/i18n/lessons.nl.ron");
const LESSONS_AFRIKAANS: &str = include_str!("../../../assets/i18n/lessons.af.ron");

impl Texts {
    /// The texts of `language`; with the Swiss-style deck the suits are
    /// named for its pictures (acorns, bells, roses, shields).
    pub fn load(language: Language, skin: Skin) -> Texts {
        let read = |text: &str| -> HashMap<String, String> { ron::from_str(text).unwrap_or_default() };
        let mut map = read(ENGLISH);
        map.extend(read(LESSONS_ENGLISH));
        // The language's texts over English ones, so a missing line still
        // reads.
        match language {
            Language::English => {}
            Language::Dutch => {
                map.extend(read(DUTCH));
                map.extend(read(LESSONS_DUTCH));
            }
            Language::Afrikaans => {
                map.extend(read(AFRIKAANS));
                map.extend(read(LESSONS_AFRIKAANS));
            }
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

    /// The text for a count: `key.one` where `n` is 1, else `key.other`
    /// (English, Dutch and Afrikaans have those two forms), with `n` as
    /// placeholder `name` and the other `values` filled in.
    pub fn count(&self, key: &str, (name, n): (&str, i64), values: &[(&str, &str)]) -> String {
        let form = if n == 1 { "one" } else { "other" };
        let n = n.to_string();
        let mut all = vec![(name, n.as_str())];
        all.extend_from_slice(values);
        self.fill(&format!("{key}.{form}"), &all)
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
    fn every_language_parses_and_has_the_same_keys() {
        let pairs = [
            (ENGLISH, DUTCH, "Dutch"),
            (LESSONS_ENGLISH, LESSONS_DUTCH, "Dutch lessons"),
            (ENGLISH, AFRIKAANS, "Afrikaans"),
            (LESSONS_ENGLISH, LESSONS_AFRIKAANS, "Afrikaans lessons"),
        ];
        for (english, other, name) in pairs {
            let en: HashMap<String, String> = ron::from_str(english).expect("English parses");
            let theirs: HashMap<String, String> =
                ron::from_str(other).unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
            let mut missing: Vec<_> = en.keys().filter(|k| !theirs.contains_key(*k)).collect();
            missing.sort();
            assert!(missing.is_empty(), "{name} lacks {missing:?}");
            let mut extra: Vec<_> = theirs.keys().filter(|k| !en.contains_key(*k)).collect();
            extra.sort();
            assert!(extra.is_empty(), "English lacks {name}'s {extra:?}");
            // Every value fills the same placeholders as the English one.
            for (key, words) in &en {
                let names = |s: &str| {
                    let mut v: Vec<String> =
                        s.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|(n, _)| n.to_string()).collect();
                    v.sort();
                    v
                };
                assert_eq!(names(words), names(&theirs[key]), "{name}: {key}");
            }
        }
        // Every count has both its forms, in every language.
        for text in [ENGLISH, DUTCH, AFRIKAANS] {
            let map: HashMap<String, String> = ron::from_str(text).expect("parses");
            for key in map.keys() {
                if let Some(base) = key.strip_suffix(".one") {
                    assert!(map.contains_key(&format!("{base}.other")), "{base}.other is missing");
                }
                if let Some(base) = key.strip_suffix(".other") {
                    assert!(map.contains_key(&format!("{base}.one")), "{base}.one is missing");
                }
            }
        }
        let en = Texts::load(Language::English, Skin::French);
        assert_eq!(en.count("table.points", ("n", 1), &[]), "1 point");
        assert_eq!(en.count("table.points", ("n", 0), &[]), "0 points");
        assert_eq!(en.count("table.points", ("n", 12), &[]), "12 points");
        let t = Texts::load(Language::Dutch, Skin::French);
        assert_eq!(t.count("stats.bids", ("played", 1), &[("nat", "0")]), "Je koos één keer om te spelen; 0 keer nat");
        assert_eq!(t.fill("rule.follow", &[("suit", "harten")]), "Je moet harten bekennen");
        assert_eq!(Texts::load(Language::English, Skin::Swiss).get("suit.D"), "bells");
        assert_eq!(Texts::load(Language::Dutch, Skin::Swiss).get("suit.C"), "eikels");
    }
}
