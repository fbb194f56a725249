//! Save games, settings and the player's progress: RON files with a format version in the
//! platform's data directory, written atomically (a temporary file, then a
//! rename). A save that cannot be read, or that a newer version wrote, is
//! moved aside and explained; the game goes on with a fresh match.

use crate::disk::{self, SAVE_FORMAT};
use crate::settings::Settings;
use klaverjas::keypad::Keypad;
use klaverjas::{KeptSheet, Match, MatchRecord, Preset};
use klaverjas_ai::daily::Play;
use klaverjas_ai::progress::{PROFILE_FORMAT, Profile};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::path::{Path, PathBuf};

/// The oldest format that holds a file, so that older versions keep
/// reading what they can and refuse as newer what they cannot.
pub const fn oldest_format(needs_format_2: bool) -> u32 {
    if needs_format_2 { 2 } else { 1 }
}

/// The places a game in progress is kept, one per kind of game the player
/// can continue from the title, so that starting one leaves the other be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// The player's own match: `save.ron`.
    Match,
    /// The deals of a day: `day.ron`.
    Day,
}

/// Everything needed to continue exactly where the player left off.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveGame {
    pub format: u32,
    pub demo: bool,
    pub record: MatchRecord,
    /// The deals of a day, where the match is a day's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<Play>,
}

impl SaveGame {
    pub fn of(m: &Match, demo: bool, daily: Option<Play>) -> SaveGame {
        let record = m.record();
        SaveGame { format: oldest_format(record.format > 3), demo, record, daily }
    }

    /// The slot it belongs in.
    pub fn slot(&self) -> Slot {
        if self.daily.is_some() { Slot::Day } else { Slot::Match }
    }
}

/// A score sheet kept for a game with real cards (`sheet.ron`): the
/// table's names, the deals entered, and the entry under way, so that a
/// closed or killed app opens on the same sheet and the same half-typed
/// deal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedSheet {
    pub format: u32,
    pub preset: Preset,
    /// North, East, South, West: Wij are South (who keeps the sheet) and
    /// North, Zij East and West.
    pub names: [String; 4],
    pub kept: KeptSheet,
    pub pad: Keypad,
    /// The deal being corrected (from 1), where the pad holds one.
    pub correcting: Option<usize>,
    /// What the finished match added to the statistics, taken back if the
    /// sheet changes after.
    pub counted: Option<klaverjas_ai::progress::Tally>,
}

impl SavedSheet {
    /// Wij's or Zij's players' names, as the sheet heads their column.
    pub fn team_names(&self, team: klaverjas::Team) -> String {
        let [n, e, s, w] = &self.names;
        match team {
            klaverjas::Team::NS => format!("{s} & {n}"),
            klaverjas::Team::EW => format!("{w} & {e}"),
        }
    }
}

/// Only the version, read before anything else so that a newer file is
/// recognised even when its other fields would not parse.
#[derive(Deserialize)]
struct FormatProbe {
    format: u32,
}

/// Where the files live.
#[derive(Clone, Debug)]
pub struct Store {
    pub dir: PathBuf,
}

/// What loading found.
#[derive(Debug)]
pub enum Loaded<T> {
    Nothing,
    Found(T),
    /// The file could not be used; it was moved to `moved_to` (or left
    /// where it was, when even moving it failed).
    SetAside {
        damage: Damage,
        moved_to: PathBuf,
    },
}

/// What is wrong with a file, in the player's terms; the technical detail
/// goes to the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damage {
    /// The disk would not give it back.
    Unreadable,
    /// Its text is not what this game writes.
    Damaged,
    /// A newer version of the game wrote it.
    Newer { format: u32 },
    /// A saved game whose moves do not replay.
    DoesNotReplay,
}

impl Store {
    /// The given directory, else the platform's
    /// ([`crate::platform::this_data_dir`]).
    pub fn new(dir: Option<PathBuf>) -> Store {
        Store { dir: dir.unwrap_or_else(crate::platform::this_data_dir) }
    }

    pub fn save_path(&self) -> PathBuf {
        self.dir.join("save.ron")
    }

    /// Where a slot's game is kept.
    pub fn slot_path(&self, slot: Slot) -> PathBuf {
        match slot {
            Slot::Match => self.save_path(),
            Slot::Day => self.dir.join("day.ron"),
        }
    }

    /// The score sheet of a game with real cards.
    pub fn sheet_path(&self) -> PathBuf {
        self.dir.join("sheet.ron")
    }

    pub fn settings_path(&self) -> PathBuf {
        self.dir.join("settings.ron")
    }

    /// The player's progress ([`Profile`]): statistics and learning curve.
    pub fn profile_path(&self) -> PathBuf {
        self.dir.join("profile.ron")
    }

    pub fn write_profile(&self, profile: &Profile) -> Result<(), String> {
        self.write(&self.profile_path(), profile)
    }

    /// The profile, or why it was set aside.
    pub fn load_profile(&self) -> Loaded<Profile> {
        self.read_newest(&self.profile_path(), PROFILE_FORMAT)
    }

    /// Writes a game in its slot.
    pub fn write_game(&self, save: &SaveGame) -> Result<(), String> {
        self.write(&self.slot_path(save.slot()), save)
    }

    /// Writes the settings in the oldest format that holds them.
    pub fn write_settings(&self, settings: &Settings) -> Result<(), String> {
        let format = oldest_format(settings.home_rules == Some(Preset::WildeBoom));
        self.write(&self.settings_path(), &Settings { format, ..settings.clone() })
    }

    /// Loads a slot's game and replays it; anything wrong sets it aside.
    /// A day's deals that an older version kept as the match go to their
    /// own slot.
    pub fn load_game(&self, slot: Slot) -> Loaded<(SaveGame, Match)> {
        let path = self.slot_path(slot);
        match self.read::<SaveGame>(&path) {
            Loaded::Found(save) if save.slot() != slot => {
                let to = self.slot_path(save.slot());
                if !disk::exists(&to)
                    && let Err(e) = disk::rename(&path, &to)
                {
                    bevy::log::warn!("{} could not move to {}: {e}", path.display(), to.display());
                }
                Loaded::Nothing
            }
            Loaded::Found(save) => match Match::from_record(&save.record) {
                Ok(m) => Loaded::Found((save, m)),
                Err(e) => self.set_aside(&path, Damage::DoesNotReplay, &e.to_string()),
            },
            Loaded::Nothing => Loaded::Nothing,
            Loaded::SetAside { damage, moved_to } => Loaded::SetAside { damage, moved_to },
        }
    }

    pub fn delete_game(&self, slot: Slot) {
        let _ = disk::remove(&self.slot_path(slot));
    }

    /// Writes `value` as RON, whole or not at all ([`disk::write_whole`]):
    /// a crash never leaves half a save.
    pub fn write<T: Serialize>(&self, path: &Path, value: &T) -> Result<(), String> {
        let text = ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default())
            .map_err(|e| format!("cannot encode {}: {e}", path.display()))?;
        disk::write_whole(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Reads a RON file whose first field is `format`.
    pub fn read<T: DeserializeOwned>(&self, path: &Path) -> Loaded<T> {
        self.read_newest(path, SAVE_FORMAT)
    }

    /// [`Store::read`] for a file whose formats count apart from the save's:
    /// one newer than `newest` is set aside.
    fn read_newest<T: DeserializeOwned>(&self, path: &Path, newest: u32) -> Loaded<T> {
        let text = match disk::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Loaded::Nothing,
            Err(e) => return self.set_aside(path, Damage::Unreadable, &e.to_string()),
        };
        match ron::from_str::<FormatProbe>(&text) {
            Ok(p) if p.format > newest => {
                let detail = format!("format {}, this version reads {newest}", p.format);
                return self.set_aside(path, Damage::Newer { format: p.format }, &detail);
            }
            Ok(_) => {}
            Err(e) => return self.set_aside(path, Damage::Damaged, &e.to_string()),
        }
        match ron::from_str::<T>(&text) {
            Ok(v) => Loaded::Found(v),
            Err(e) => self.set_aside(path, Damage::Damaged, &e.to_string()),
        }
    }

    /// Moves a bad file to a name that is not yet taken, keeping it for the
    /// player (or a bug report) instead of deleting it.
    pub fn set_aside<T>(&self, path: &Path, damage: Damage, detail: &str) -> Loaded<T> {
        bevy::log::warn!("{} is set aside: {damage:?}: {detail}", path.display());
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
        let moved_to = (1..)
            .map(|i| path.with_file_name(format!("{name}.unreadable-{i}")))
            .find(|p| !disk::exists(p))
            .expect("an unused name");
        match disk::rename(path, &moved_to) {
            Ok(()) => Loaded::SetAside { damage, moved_to },
            Err(e) => {
                bevy::log::warn!("moving {} aside failed: {e}", path.display());
                Loaded::SetAside { damage, moved_to: path.to_path_buf() }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use klaverjas::{Rules, Seat};
    use std::fs;

    /// A store in a folder of the test's own (the folder itself not yet
    /// made, as on a first start), removed with the returned guard.
    fn temp_store() -> (tempfile::TempDir, Store) {
        let folder = tempfile::Builder::new().prefix("klaverjas-save-test-").tempdir().unwrap();
        let store = Store::new(Some(folder.path().join("data")));
        (folder, store)
    }

    fn mid_trick_match() -> Match {
        let mut m = Match::new(Rules::classic(), 3, Seat::North);
        // On past the first trick, to a trick with two cards down.
        while m.game().tricks().is_empty() || m.game().current_trick().is_none_or(|t| t.len() != 2) {
            let a = m.game().legal_actions()[0];
            m.apply(a).unwrap();
        }
        m
    }

    /// A Wilde Boom match, or settings that start one, are written in the
    /// format an older version refuses as newer; anything else in the
    /// format it reads. Both come back here.
    #[test]
    fn what_older_versions_would_misread_is_marked_newer() {
        use klaverjas::{Action, Bid, Preset};
        let (_folder, store) = temp_store();
        let mut m = Match::new(Preset::WildeBoom.rules(), 3, Seat::North);
        while !m.game().bids().iter().any(|&(_, b)| b == Bid::Double) {
            let legal = m.game().legal_actions();
            let double = Action::Bid(Bid::Double);
            m.apply(if legal.contains(&double) { double } else { legal[0] }).unwrap();
        }
        let save = SaveGame::of(&m, false, None);
        assert_eq!(save.format, 2);
        store.write_game(&save).unwrap();
        assert!(matches!(store.load_game(Slot::Match), Loaded::Found((_, back)) if back == m));
        assert_eq!(SaveGame::of(&mid_trick_match(), false, None).format, 1);
        let mut settings = Settings { home_rules: Some(Preset::WildeBoom), ..Settings::default() };
        store.write_settings(&settings).unwrap();
        let text = fs::read_to_string(store.settings_path()).unwrap();
        assert!(text.contains("format: 2"), "{text}");
        assert!(
            matches!(store.read::<Settings>(&store.settings_path()), Loaded::Found(s) if s.home_rules == settings.home_rules)
        );
        settings.home_rules = Some(Preset::Rotterdam);
        store.write_settings(&settings).unwrap();
        assert!(fs::read_to_string(store.settings_path()).unwrap().contains("format: 1"));
    }

    #[test]
    fn a_saved_match_comes_back_exactly() {
        let (_folder, store) = temp_store();
        assert!(matches!(store.load_game(Slot::Match), Loaded::Nothing));
        let m = mid_trick_match();
        assert!(!m.game().current_trick().unwrap().is_empty(), "saved mid-trick");
        store.write_game(&SaveGame::of(&m, false, None)).unwrap();
        match store.load_game(Slot::Match) {
            Loaded::Found((save, back)) => {
                assert_eq!(back, m);
                assert!(!save.demo);
            }
            other => panic!("{other:?}"),
        }
        assert!(!store.save_path().with_extension("ron.tmp").exists());
    }

    #[test]
    fn corrupt_and_newer_saves_are_set_aside_with_a_reason() {
        let (_folder, store) = temp_store();
        fs::create_dir_all(&store.dir).unwrap();
        fs::write(store.save_path(), "(format: 1, demo: fal").unwrap();
        match store.load_game(Slot::Match) {
            Loaded::SetAside { damage, moved_to } => {
                assert_eq!(damage, Damage::Damaged);
                assert!(moved_to.exists());
                assert!(!store.save_path().exists());
                assert_eq!(fs::read_to_string(&moved_to).unwrap(), "(format: 1, demo: fal", "kept, not lost");
            }
            other => panic!("{other:?}"),
        }
        fs::write(store.save_path(), "(format: 9, something_new: true)").unwrap();
        match store.load_game(Slot::Match) {
            Loaded::SetAside { damage, moved_to } => {
                assert_eq!(damage, Damage::Newer { format: 9 });
                assert!(moved_to.to_string_lossy().ends_with("unreadable-2"), "{}", moved_to.display());
            }
            other => panic!("{other:?}"),
        }
        // A well-formed file whose moves are not legal does not replay.
        let mut save = SaveGame::of(&mid_trick_match(), false, None);
        save.record.game.actions.swap(0, 5);
        store.write_game(&save).unwrap();
        assert!(matches!(store.load_game(Slot::Match), Loaded::SetAside { damage: Damage::DoesNotReplay, .. }));
    }
}
