//! The score sheet's keypad: the keys a person taps to enter one deal
//! played with real cards, and the [`EnteredDeal`] they make. The app
//! draws the keys and shows the pad's state; what a key does, and what a
//! finished entry is, is decided here, so that random key sequences can be
//! tested against the sheet without a screen.

use crate::bidding::Contract;
use crate::card::Suit;
use crate::entered::{EnteredDeal, KeptSheet, Out, SheetError};
use crate::score::{DealResult, Stakes};
use crate::seat::{PerTeam, Team};
use std::fmt;

/// Which number the digits go to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Field {
    /// The playing team's card points.
    #[default]
    Points,
    /// A team's roem.
    Roem(Team),
    /// In a boem, the other team's card points where a side went on
    /// before the last trick.
    Others,
}

/// One tap on the keypad.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Key {
    /// The team that played, and its trump: one tap, since the sheet
    /// knows who dealt.
    Played(Team, Suit),
    /// A digit, 0 to 9, into the field in focus.
    Digit(u8),
    /// The field in focus loses its last digit.
    Erase,
    /// The digits go to this field from now.
    Focus(Field),
    /// A team counted this much more roem (the quick buttons: 20, 50,
    /// 100, stuk, the preset's other values).
    AddRoem(Team, u16),
    /// The team took every trick: its card points are all of the deal's.
    Pit(Team),
    /// The team did not follow when it could (*verzaakt*); again, it did
    /// after all.
    Revoke(Team),
    /// One more double (*kraken*), by turns the defenders' and the
    /// players'; after the third, none.
    Double,
    /// In a boem, the team went on by points; again, it did not.
    Out(Team),
    /// In a boem, the team won the game outright: on two strokes, again
    /// on one, again not.
    Outright(Team),
    /// Everything of this entry starts again.
    Clear,
}

/// Why the keypad's entry is not a deal yet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PadError {
    /// No team was chosen as the one that played.
    NoTeam,
    /// No card points were typed.
    NoPoints,
    /// The deal cannot be, or the sheet takes no deal.
    Sheet(SheetError),
}

impl fmt::Display for PadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PadError::NoTeam => write!(f, "say which team played"),
            PadError::NoPoints => write!(f, "type the playing team's card points"),
            PadError::Sheet(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PadError {}

impl From<SheetError> for PadError {
    fn from(e: SheetError) -> PadError {
        PadError::Sheet(e)
    }
}

/// The most digits a number on the pad takes: no deal's points or roem
/// have more, and a longer number cannot overflow.
const DIGITS: u16 = 4;

/// One deal being entered.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Keypad {
    pub played: Option<(Team, Suit)>,
    /// The playing team's card points, as typed (`None`: nothing yet).
    pub points: Option<u16>,
    pub roem: PerTeam<u16>,
    pub focus: Field,
    pub pit: Option<Team>,
    pub revoke: Option<Team>,
    pub doubles: u8,
    #[cfg_attr(feature = "serde", serde(default))]
    pub out: Option<Out>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub others: Option<u16>,
}

impl Keypad {
    /// The pad holding a deal already on the sheet, to correct it.
    pub fn holding(deal: &EnteredDeal) -> Keypad {
        Keypad {
            played: Some((deal.contract.playing_team(), deal.contract.trump)),
            points: Some(deal.points),
            roem: deal.roem,
            focus: Field::Points,
            pit: deal.pit,
            revoke: deal.revoke,
            doubles: deal.stakes.doubles,
            out: deal.out,
            others: deal.others,
        }
    }

    /// What `key` does to the entry under `rules`.
    pub fn press(&mut self, key: Key, rules: &crate::Rules) {
        let most = rules.deal_points();
        // Outside a boem the two teams' points make the deal's: the team
        // typed last is the one counted, the other follows.
        if !rules.races_to_the_boem() && matches!(key, Key::Digit(_) | Key::Erase) {
            match self.focus {
                Field::Points => self.others = None,
                Field::Others => self.points = None,
                Field::Roem(_) => {}
            }
        }
        let number = |pad: &mut Keypad, f: &dyn Fn(Option<u16>) -> Option<u16>| match pad.focus {
            Field::Points => pad.points = f(pad.points),
            Field::Roem(team) => pad.roem[team] = f(Some(pad.roem[team])).unwrap_or(0),
            Field::Others => pad.others = f(pad.others),
        };
        match key {
            Key::Played(team, suit) => {
                // The points typed were the team's that played: a pit
                // stays with whoever took every trick.
                self.played = Some((team, suit));
                if let Some(pit) = self.pit {
                    self.points = Some(if pit == team { most } else { 0 });
                }
            }
            Key::Digit(d) => number(self, &|n| {
                let n = n.unwrap_or(0);
                Some(if n >= 10u16.pow(DIGITS as u32 - 1) { n } else { n * 10 + u16::from(d.min(9)) })
            }),
            Key::Erase => number(self, &|n| n.map(|n| n / 10).filter(|&n| n > 0)),
            Key::Focus(field) => self.focus = field,
            Key::AddRoem(team, value) => {
                self.roem[team] = self.roem[team].saturating_add(value).min(10u16.pow(DIGITS as u32) - 1)
            }
            Key::Pit(team) => {
                if self.pit == Some(team) {
                    self.pit = None;
                } else {
                    self.pit = Some(team);
                    self.revoke = None;
                    let playing = self.played.map(|(t, _)| t);
                    self.points = Some(if playing.is_none_or(|p| p == team) { most } else { 0 });
                }
            }
            Key::Revoke(team) => {
                self.revoke = if self.revoke == Some(team) { None } else { Some(team) };
                self.pit = None;
            }
            Key::Double => self.doubles = (self.doubles + 1) % 4,
            Key::Out(team) => {
                self.out = if self.out == Some(Out::ByPoints(team)) { None } else { Some(Out::ByPoints(team)) }
            }
            Key::Outright(team) => {
                self.out = match self.out {
                    Some(Out::Outright(t, 2)) if t == team => Some(Out::Outright(team, 1)),
                    Some(Out::Outright(t, _)) if t == team => None,
                    _ => Some(Out::Outright(team, 2)),
                }
            }
            Key::Clear => *self = Keypad::default(),
        }
    }

    /// The deal entered as deal `number` of `sheet` (from 1; its dealer
    /// says which player of the playing team chose: the one who first
    /// could).
    pub fn deal(&self, sheet: &KeptSheet, number: usize) -> Result<EnteredDeal, PadError> {
        let (team, trump) = self.played.ok_or(PadError::NoTeam)?;
        let most = sheet.rules.deal_points();
        let boem = sheet.rules.races_to_the_boem();
        let (typed, typed_others) = match (self.points, self.others) {
            // The other team's points only, outside a boem: the rest.
            (None, Some(o)) if !boem => (most.saturating_sub(o), None),
            (None, _) => return Err(PadError::NoPoints),
            // Both teams' points of a whole hand are no hand ended early.
            (Some(p), Some(o)) if boem && self.out.is_none() && u32::from(p) + u32::from(o) == u32::from(most) => {
                (p, None)
            }
            (Some(p), o) => (p, o),
        };
        let dealer = sheet.dealer_of(number);
        let leader = sheet.rules.players.next(sheet.rules.direction, dealer);
        // Where the last card dealt makes trump, the dealer's team is the
        // playing one, and the team tapped is only whose points were typed.
        let forced = !sheet.rules.has_playing_team();
        let declarer = if forced || leader.team() != team { dealer } else { leader };
        let contract = Contract { trump, declarer, forced };
        let (points, others) = if contract.playing_team() == team {
            (typed, typed_others)
        } else {
            (typed_others.unwrap_or(most.saturating_sub(typed)), typed_others.map(|_| typed))
        };
        // Kraken by turns: the defenders first, then the players.
        let challenger = (self.doubles > 0).then(|| if self.doubles % 2 == 1 { team.other() } else { team });
        let stakes = Stakes { doubles: self.doubles, challenger, multiplier: 1 };
        let out = self.out;
        Ok(EnteredDeal { contract, stakes, points, roem: self.roem, pit: self.pit, revoke: self.revoke, out, others })
    }

    /// Puts the entry on `sheet` as its next deal, or as deal `correcting`
    /// (from 1); on a refusal the sheet and the pad stay as they were.
    pub fn enter(&self, sheet: &mut KeptSheet, correcting: Option<usize>) -> Result<DealResult, PadError> {
        let deal = self.deal(sheet, correcting.unwrap_or(sheet.lines.len() + 1))?;
        Ok(match correcting {
            Some(number) => sheet.correct(number, deal)?,
            None => sheet.enter(deal)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Preset, Rules, Seat};

    fn typed(keys: &[Key]) -> Keypad {
        let mut pad = Keypad::default();
        for &k in keys {
            pad.press(k, &Rules::classic());
        }
        pad
    }

    #[test]
    fn a_made_deal_with_no_roem_takes_five_taps() {
        let mut sheet = KeptSheet::new(Rules::classic(), Seat::West).unwrap();
        let taps = [Key::Played(Team::NS, Suit::Hearts), Key::Digit(1), Key::Digit(0), Key::Digit(2)];
        let result = typed(&taps).enter(&mut sheet, None).unwrap();
        assert_eq!(taps.len() + 1, 5, "with the enter key");
        assert_eq!(result.final_score(), PerTeam::new(102, 60));
        // North leads after West's deal: North chose.
        assert_eq!(sheet.lines[0].deal.contract.declarer, Seat::North);
    }

    #[test]
    fn roem_pit_revoke_and_doubles_come_from_their_keys() {
        let mut sheet = KeptSheet::new(Preset::WildeBoom.rules(), Seat::West).unwrap();
        let pad = typed(&[
            Key::AddRoem(Team::EW, 50),
            Key::Played(Team::EW, Suit::Clubs),
            Key::Pit(Team::EW),
            Key::AddRoem(Team::EW, 20),
            Key::Double,
        ]);
        assert_eq!((pad.points, pad.roem, pad.pit), (Some(162), PerTeam::new(0, 70), Some(Team::EW)));
        let deal = pad.deal(&sheet, sheet.lines.len() + 1).unwrap();
        // The defenders doubled; West, the dealer, chose for EW.
        assert_eq!((deal.stakes.doubles, deal.stakes.challenger), (1, Some(Team::NS)));
        assert_eq!(deal.contract.declarer, Seat::West);
        pad.enter(&mut sheet, None).unwrap();
        // Typing into roem: focus, digits, erase.
        let pad = typed(&[Key::Focus(Field::Roem(Team::NS)), Key::Digit(4), Key::Digit(0), Key::Digit(7), Key::Erase]);
        assert_eq!((pad.roem.ns, pad.points), (40, None));
        assert_eq!(pad.deal(&sheet, sheet.lines.len() + 1), Err(PadError::NoTeam));
        let pad = typed(&[Key::Played(Team::NS, Suit::Hearts)]);
        assert_eq!(
            pad.deal(&sheet, sheet.lines.len() + 1).unwrap_err().to_string(),
            "type the playing team's card points"
        );
        // A revoke undoes a pit; a number stops at four digits.
        let pad = typed(&[
            Key::Pit(Team::NS),
            Key::Revoke(Team::EW),
            Key::Digit(9),
            Key::Digit(9),
            Key::Digit(9),
            Key::Digit(9),
            Key::Digit(9),
        ]);
        assert_eq!((pad.pit, pad.revoke, pad.points), (None, Some(Team::EW), Some(1629)));
        assert_eq!(Keypad::holding(&sheet.lines[0].deal).deal(&sheet, 1).map(|d| d.points), Ok(162));
    }

    #[test]
    fn the_other_teams_points_may_be_typed_instead() {
        let mut sheet = KeptSheet::new(Rules::classic(), Seat::West).unwrap();
        let pad =
            typed(&[Key::Played(Team::NS, Suit::Hearts), Key::Focus(Field::Others), Key::Digit(6), Key::Digit(0)]);
        assert_eq!(pad.deal(&sheet, 1).map(|d| (d.points, d.others)), Ok((102, None)));
        // The team typed last counts.
        let mut pad = pad;
        for k in [Key::Focus(Field::Points), Key::Digit(9), Key::Digit(0)] {
            pad.press(k, &Rules::classic());
        }
        assert_eq!(pad.deal(&sheet, 1).map(|d| d.points), Ok(90));
        pad.enter(&mut sheet, None).unwrap();
        typed(&[Key::Played(Team::EW, Suit::Spades), Key::Digit(9), Key::Digit(0)]).enter(&mut sheet, None).unwrap();
        // Deal 1 corrected: West dealt it, North led and chose for NS, as
        // when it was entered (not the next deal's dealer).
        let fixed = typed(&[Key::Played(Team::NS, Suit::Clubs), Key::Digit(8), Key::Digit(2)]);
        fixed.enter(&mut sheet, Some(1)).unwrap();
        assert_eq!(sheet.lines[0].deal.contract.declarer, Seat::North);
        // In a boem, both teams' points of a whole hand are no early end.
        let boem = KeptSheet::new(Rules::klawerjas(), Seat::West).unwrap();
        let mut pad = Keypad::default();
        for k in [Key::Played(Team::NS, Suit::Hearts), Key::Digit(7), Key::Digit(0), Key::Focus(Field::Others)] {
            pad.press(k, &Rules::klawerjas());
        }
        for k in [Key::Digit(7), Key::Digit(6)] {
            pad.press(k, &Rules::klawerjas());
        }
        assert_eq!(pad.deal(&boem, 1).map(|d| d.others), Ok(None));
    }

    mod fuzz {
        use super::*;
        use proptest::prelude::*;

        /// A tap on the pad, or a button of the sheet around it.
        #[derive(Clone, Debug)]
        enum Tap {
            Key(Key),
            Enter,
            Correct(usize),
            Undo,
        }

        fn team() -> impl Strategy<Value = Team> {
            prop_oneof![Just(Team::NS), Just(Team::EW)]
        }

        fn key() -> impl Strategy<Value = Key> {
            prop_oneof![
                2 => (team(), 0usize..4).prop_map(|(t, s)| Key::Played(t, Suit::ALL[s])),
                6 => (0u8..10).prop_map(Key::Digit),
                1 => Just(Key::Erase),
                1 => prop_oneof![Just(Field::Points), team().prop_map(Field::Roem)].prop_map(Key::Focus),
                2 => (team(), prop_oneof![Just(20u16), Just(50), Just(100), Just(150), Just(200)])
                    .prop_map(|(t, v)| Key::AddRoem(t, v)),
                1 => team().prop_map(Key::Pit),
                1 => team().prop_map(Key::Revoke),
                1 => Just(Key::Double),
                1 => team().prop_map(Key::Out),
                1 => team().prop_map(Key::Outright),
                1 => Just(Key::Focus(Field::Others)),
                1 => Just(Key::Clear),
            ]
        }

        fn tap() -> impl Strategy<Value = Tap> {
            prop_oneof![
                12 => key().prop_map(Tap::Key),
                3 => Just(Tap::Enter),
                1 => (0usize..20).prop_map(Tap::Correct),
                1 => Just(Tap::Undo),
            ]
        }

        proptest! {
            /// Any taps on any four-player preset that keeps a sheet:
            /// nothing panics, a refusal names its reason and changes
            /// nothing, and the sheet saved at every step reads back and
            /// scores the same.
            #[test]
            fn random_taps_keep_a_sheet_that_replays(preset in 0usize..5, taps in proptest::collection::vec(tap(), 0..200)) {
                let preset = [Preset::Classic, Preset::Amsterdam, Preset::Rotterdam, Preset::WildeBoom, Preset::Klawerjas][preset];
                let rules = preset.rules();
                let mut sheet = KeptSheet::new(rules, Seat::South).unwrap();
                let mut pad = Keypad::default();
                let mut correcting = None;
                for tap in taps {
                    let before = sheet.clone();
                    match tap {
                        Tap::Key(k) => pad.press(k, &rules),
                        Tap::Correct(n) => {
                            if let Some(line) = n.checked_sub(1).and_then(|i| sheet.lines.get(i)) {
                                pad = Keypad::holding(&line.deal);
                                correcting = Some(n);
                            }
                        }
                        Tap::Undo => {
                            sheet.undo();
                            correcting = None;
                        }
                        Tap::Enter => match pad.enter(&mut sheet, correcting) {
                            Ok(result) => {
                                prop_assert_eq!(sheet.sheet().rows.last().copied().filter(|_| correcting.is_none()).unwrap_or(result), result);
                                pad = Keypad::default();
                                correcting = None;
                            }
                            Err(e) => {
                                prop_assert!(!e.to_string().is_empty());
                                prop_assert_eq!(&sheet, &before, "a refusal changed the sheet");
                            }
                        },
                    }
                    prop_assert_eq!(sheet.sheet().rows.len(), sheet.lines.len(), "a kept line no longer scores");
                    let saved = serde_json::to_string(&sheet).unwrap();
                    let back: KeptSheet = serde_json::from_str(&saved).unwrap();
                    prop_assert_eq!(&back, &sheet);
                    prop_assert_eq!(back.sheet().totals(), sheet.sheet().totals());
                }
            }
        }
    }
}
