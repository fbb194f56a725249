//! Lessons as data: `assets/lessons.ron` read into [`LessonData`], then
//! checked against the engine into [`Lesson`]s. Checking plays every
//! scripted and expected action of a lesson on its deal, so a lesson that
//! loads can be played to its end; an error names the lesson and the step.
//! No Bevy here: the checks are plain functions, tested as such.

use crate::seats::HUMAN;
use klaverjas::{Action, Card, CardSet, Deal, Match, PileCard, Preset, Rules, Seat, Suit};
use serde::Deserialize;
use std::fmt;

const LESSONS: &str = include_str!("../../../../assets/lessons.ron");

/// A lesson as written in the file.
#[derive(Clone, Debug, Deserialize)]
pub struct LessonData {
    pub id: String,
    pub rules: Preset,
    pub dealer: Seat,
    /// North, East, South, West: eight cards each, as `kj` writes them.
    pub hands: Vec<String>,
    /// The two turned cards of the 2-6 pile, e.g. `"2H"`.
    pub pile: Vec<String>,
    /// The beginners' roem help is on in this lesson.
    #[serde(default)]
    pub point_out_roem: bool,
    pub steps: Vec<StepData>,
}

/// A step as written in the file. Actions are words: `pass`, `play`,
/// `trump H`, a card such as `AH`, `roem`, `no roem`.
#[derive(Clone, Debug, Deserialize)]
pub enum StepData {
    /// Words to read, then Next.
    Say {
        text: String,
        #[serde(default)]
        show: Spot,
    },
    /// The other seats act, in turn.
    Auto(Vec<String>),
    /// The learner acts: one of `any_of`; anything else legal is refused
    /// with `wrong`, anything illegal with the rule it breaks.
    Expect {
        text: String,
        any_of: Vec<String>,
        wrong: String,
        #[serde(default)]
        show: Spot,
        /// What the table answers the learner's action, shown in the same
        /// step (then Next), with what it points at.
        #[serde(default)]
        answer: Option<(String, Spot)>,
    },
    /// The deal is played out: the learner plays freely against bots, with
    /// hints on request and the coach's word after each trick. Only `Say`
    /// steps may follow.
    PlayOut { text: String },
}

/// What a step points at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Spot {
    #[default]
    Nothing,
    /// A card in the learner's hand, or in the trick.
    Card(Card),
    /// The trick on the table.
    Trick,
    /// The 2-6 pile with its turned card.
    Pile,
    /// The Roem! button, while the learner may call.
    RoemButton,
    /// The score sheet, once the deal is played out.
    Sheet,
    /// The piles of won tricks and their points.
    Piles,
}

/// A checked lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    pub id: String,
    pub rules: Rules,
    pub deal: Deal,
    pub point_out_roem: bool,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Say { text: String, show: Spot },
    Auto(Vec<Action>),
    Expect { text: String, any_of: Vec<Action>, wrong: String, show: Spot, answer: Option<(String, Spot)> },
    PlayOut { text: String },
}

impl Lesson {
    pub fn title_key(&self) -> String {
        format!("lesson.{}.title", self.id)
    }

    /// Every text key the lesson uses, its title first.
    pub fn text_keys(&self) -> Vec<String> {
        let mut keys = vec![self.title_key()];
        for step in &self.steps {
            match step {
                Step::Say { text, .. } | Step::PlayOut { text } => keys.push(text.clone()),
                Step::Expect { text, wrong, answer, .. } => {
                    keys.extend([text.clone(), wrong.clone()]);
                    keys.extend(answer.iter().map(|(a, _)| a.clone()));
                }
                Step::Auto(_) => {}
            }
        }
        keys
    }

    /// Step `step` (from 0) as the learner counts: the steps that ask
    /// something of them (words to read, an action), not those where the
    /// others play, and how many of those there are. Where the others play,
    /// the count stays at the step before.
    pub fn counted_step(&self, step: usize) -> (usize, usize) {
        let counted = |steps: &[Step]| steps.iter().filter(|s| !matches!(s, Step::Auto(_))).count();
        let upto = &self.steps[..(step + 1).min(self.steps.len())];
        (counted(upto).max(1), counted(&self.steps))
    }

    /// A match of this lesson's deal only.
    pub fn new_match(&self) -> Match {
        Match::from_deals(self.rules, vec![self.deal], 0).expect("a checked deal")
    }

    /// The actions that bring the deal to the start of step `step`: the
    /// scripted ones and the first expected action of each step before it.
    pub fn actions_before(&self, step: usize) -> Vec<Action> {
        self.steps[..step.min(self.steps.len())]
            .iter()
            .flat_map(|s| match s {
                Step::Auto(actions) => actions.clone(),
                Step::Expect { any_of, .. } => any_of.first().copied().into_iter().collect(),
                _ => Vec::new(),
            })
            .collect()
    }
}

/// Why a lesson does not load: the lesson, the step (from 1; 0 for the
/// lesson's deal and rules) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    pub lesson: String,
    pub step: usize,
    pub problem: String,
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.step {
            0 => write!(f, "lesson '{}': {}", self.lesson, self.problem),
            n => write!(f, "lesson '{}', step {n}: {}", self.lesson, self.problem),
        }
    }
}

impl std::error::Error for LessonError {}

/// An action in a lesson's words.
pub fn parse_action(word: &str) -> Result<Action, String> {
    word.parse::<Action>()
        .map_err(|_| format!("'{}' is not an action (pass, play, trump S, a card, roem)", word.trim()))
}

/// The lessons of the game, checked. The file is part of the program, so
/// an error here is a bug that the tests catch.
pub fn all() -> Result<Vec<Lesson>, LessonError> {
    parse_file(LESSONS)
}

/// Reads and checks a lessons file.
pub fn parse_file(text: &str) -> Result<Vec<Lesson>, LessonError> {
    let data: Vec<LessonData> =
        ron::from_str(text).map_err(|e| LessonError { lesson: "(file)".into(), step: 0, problem: e.to_string() })?;
    data.iter().map(check).collect()
}

/// Checks a lesson by playing it: the deal must be a deal, every scripted
/// action must be the turn of a seat other than the learner's and legal,
/// every expected one the learner's turn and legal.
pub fn check(data: &LessonData) -> Result<Lesson, LessonError> {
    let fail = |step: usize, problem: String| LessonError { lesson: data.id.clone(), step, problem };
    if data.hands.len() != 4 || data.pile.len() != 2 {
        return Err(fail(
            0,
            format!("{} hands and {} pile cards; a deal has 4 and 2", data.hands.len(), data.pile.len()),
        ));
    }
    let mut hands = [CardSet::EMPTY; 4];
    for (i, text) in data.hands.iter().enumerate() {
        let cards =
            CardSet::parse_list(text).map_err(|e| fail(0, format!("{} hand: {e}", Seat::from_index(i).name())))?;
        hands[i] = cards.into_iter().collect();
    }
    let mut pile = [PileCard::showing(Suit::Clubs)[0]; 2];
    for (i, text) in data.pile.iter().enumerate() {
        pile[i] = text.parse().map_err(|e| fail(0, format!("pile card: {e}")))?;
    }
    let deal = Deal::from_hands(data.dealer, hands, pile).map_err(|e| fail(0, format!("the deal: {e}")))?;
    let rules = data.rules.rules();
    let mut m = Match::from_deals(rules, vec![deal], 0).map_err(|e| fail(0, e.to_string()))?;
    let mut steps = Vec::new();
    let mut played_out = false;
    for (i, step) in data.steps.iter().enumerate() {
        let n = i + 1;
        let words = |list: &[String]| -> Result<Vec<Action>, LessonError> {
            list.iter().map(|w| parse_action(w).map_err(|e| fail(n, e))).collect()
        };
        let checked = match step {
            StepData::Say { text, show } => {
                spot_on_table(&m, *show, played_out).map_err(|e| fail(n, e))?;
                Step::Say { text: text.clone(), show: *show }
            }
            StepData::Auto(list) => {
                let actions = words(list)?;
                for &a in &actions {
                    let seat = m.game().to_act().ok_or_else(|| fail(n, format!("{a}: the deal is over")))?;
                    if seat == HUMAN && a != Action::ClaimRoem {
                        return Err(fail(n, format!("{a} is scripted, but it is the learner's turn")));
                    }
                    m.apply(a).map_err(|e| fail(n, format!("{} cannot {a}: {e}", seat.name())))?;
                }
                Step::Auto(actions)
            }
            StepData::Expect { text, any_of, wrong, show, answer } => {
                let wanted = words(any_of)?;
                let first = *wanted.first().ok_or_else(|| fail(n, "nothing is expected".into()))?;
                spot_on_table(&m, *show, played_out).map_err(|e| fail(n, e))?;
                for &a in &wanted {
                    let mut probe = m.clone();
                    if a != Action::ClaimRoem && probe.game().to_act() != Some(HUMAN) {
                        return Err(fail(n, format!("{a} is expected, but it is not the learner's turn")));
                    }
                    probe.act(HUMAN, a).map_err(|e| fail(n, format!("the learner cannot {a}: {e}")))?;
                }
                m.act(HUMAN, first).map_err(|e| fail(n, e.to_string()))?;
                if let Some((_, spot)) = answer {
                    spot_on_table(&m, *spot, played_out).map_err(|e| fail(n, e))?;
                }
                let answer = answer.clone();
                Step::Expect { text: text.clone(), any_of: wanted, wrong: wrong.clone(), show: *show, answer }
            }
            StepData::PlayOut { text } => {
                // After the deal only words can follow: there is nothing
                // left to play.
                if data.steps[i + 1..].iter().any(|s| !matches!(s, StepData::Say { .. })) {
                    return Err(fail(n, "only words may follow a deal played out".into()));
                }
                played_out = true;
                Step::PlayOut { text: text.clone() }
            }
        };
        steps.push(checked);
    }
    Ok(Lesson { id: data.id.clone(), rules, deal, point_out_roem: data.point_out_roem, steps })
}

/// What a step points at is there to see: a card in the learner's hand or
/// on the table, the Roem! button while the learner may call, the sheet
/// once the deal is played out.
fn spot_on_table(m: &Match, spot: Spot, played_out: bool) -> Result<(), String> {
    let game = m.game();
    let card = match spot {
        Spot::Card(card) => card,
        Spot::RoemButton if !game.may_call_roem(HUMAN) => {
            return Err("the Roem! button is shown, but the learner may not call roem here".into());
        }
        Spot::Sheet if !played_out => return Err("the sheet is shown before the deal is played out".into()),
        _ => return Ok(()),
    };
    let in_trick = game.current_trick().is_some_and(|t| t.cards().contains(&card));
    if game.hand(HUMAN).contains(card) || in_trick {
        Ok(())
    } else {
        Err(format!("{card} is shown, but it is neither in the learner's hand nor in the trick"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_lessons_load() {
        let lessons = all().unwrap_or_else(|e| panic!("{e}"));
        assert!(lessons.len() >= 9, "{} lessons", lessons.len());
        let mut ids: Vec<_> = lessons.iter().map(|l| l.id.clone()).collect();
        ids.dedup();
        assert_eq!(ids.len(), lessons.len(), "ids are unique");
    }

    #[test]
    fn every_lesson_text_is_in_both_languages() {
        use crate::settings::{Language, Skin};
        for language in [Language::English, Language::Dutch, Language::Afrikaans] {
            let t = crate::i18n::Texts::load(language, Skin::French);
            for lesson in all().unwrap() {
                for key in lesson.text_keys() {
                    assert_ne!(t.get(&key), key, "{language:?} lacks {key} ({})", lesson.id);
                }
            }
        }
    }

    fn one_lesson(steps: &str, north: &str) -> String {
        format!(
            r#"[(id: "probe", rules: Classic, dealer: West,
                hands: ["{north}", "AC TC KC QC JC 9C 8C 7C", "AD TD KD QD JD 9D 8D 7D", "AS TS KS QS JS 9S 8S 7S"],
                pile: ["2H", "3S"], steps: [{steps}])]"#
        )
    }

    #[test]
    fn a_bad_deal_or_a_bad_action_names_the_lesson_and_the_step() {
        // The deal: North has the spades' ace too, and a heart short.
        let bad_deal = one_lesson("", "AS TH KH QH JH 9H 8H 7H");
        let e = parse_file(&bad_deal).unwrap_err();
        assert_eq!((e.lesson.as_str(), e.step), ("probe", 0), "{e}");
        assert!(e.to_string().starts_with("lesson 'probe': the deal"), "{e}");
        let hearts = "AH TH KH QH JH 9H 8H 7H";
        // North (left of the dealer) bids first; then it is East's turn, not
        // the learner's.
        let e = parse_file(&one_lesson(r#"Auto(["play"]), Expect(text: "t", any_of: ["AD"], wrong: "w")"#, hearts))
            .unwrap_err();
        assert_eq!(e.step, 2, "{e}");
        assert!(e.to_string().contains("not the learner's turn"), "{e}");
        // A card the seat does not hold.
        let e = parse_file(&one_lesson(r#"Auto(["play", "AS"])"#, hearts)).unwrap_err();
        assert_eq!(e.step, 1, "{e}");
        assert!(e.to_string().starts_with("lesson 'probe', step 1: North cannot"), "{e}");
        // A word that is no action.
        let e = parse_file(&one_lesson(r#"Auto(["jump"])"#, hearts)).unwrap_err();
        assert!(e.to_string().contains("'jump' is not an action"), "{e}");
        // And a lesson that is right loads.
        let good = one_lesson(
            r#"Auto(["play"]), Say(text: "t"), Auto(["AH", "AC"]), Expect(text: "t", any_of: ["7D"], wrong: "w")"#,
            hearts,
        );
        let lesson = &parse_file(&good).unwrap()[0];
        assert_eq!(lesson.actions_before(3).len(), 3);
        assert_eq!(lesson.actions_before(4).len(), 4);
    }

    #[test]
    fn a_step_points_only_at_what_is_there() {
        let hearts = "AH TH KH QH JH 9H 8H 7H";
        let fails = |steps: &str| parse_file(&one_lesson(steps, hearts)).unwrap_err().to_string();
        // The learner holds no heart.
        assert!(fails(r#"Say(text: "t", show: Card("AH"))"#).contains("neither in the learner's hand"));
        // No trick is won yet, so there is no roem to call.
        assert!(fails(r#"Say(text: "t", show: RoemButton)"#).contains("may not call roem"));
        // The sheet shows a played deal.
        let early = fails(r#"Say(text: "t", show: Sheet), PlayOut(text: "t")"#);
        assert!(early.contains("before the deal is played out"), "{early}");
        assert!(parse_file(&one_lesson(r#"PlayOut(text: "t"), Say(text: "t", show: Sheet)"#, hearts)).is_ok());
    }
}
