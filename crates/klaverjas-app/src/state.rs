//! What every room of the app shares, on the ground floor: the screen
//! shown, the command line, the files, the player's settings, progress and words,
//! the rules being set up, and the notes the title has to give. Loaded
//! once at the start ([`plugin`]); no module below the root owns them.

use crate::cli::Options;
use crate::save::{self, Loaded, Store};
use crate::settings::Settings;
use crate::{i18n, platform};
use bevy::prelude::*;
use klaverjas::Rules;

/// The screens of the app.
#[derive(States, Default, Debug, Clone, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Title,
    NewGame,
    Settings,
    Rules,
    Lessons,
    Statistics,
    /// Play with friends: hosting, joining, the waiting room.
    Friends,
    /// The deals of the day: to play, the result, a friend's beside it.
    Daily,
    /// The score sheet for a game with real cards.
    Sheet,
    /// A club evening: organising it, checking in, its tables and standings.
    Evening,
    Table,
}

impl Screen {
    /// The menu screens, which `--screen` opens by [`Screen::name`].
    pub const MENUS: [Screen; 10] = [
        Screen::Title,
        Screen::NewGame,
        Screen::Settings,
        Screen::Rules,
        Screen::Lessons,
        Screen::Statistics,
        Screen::Friends,
        Screen::Daily,
        Screen::Sheet,
        Screen::Evening,
    ];

    /// Its name on the command line and in a screenshot's file name.
    pub const fn name(&self) -> &'static str {
        match self {
            Screen::Title => "title",
            Screen::NewGame => "new-game",
            Screen::Settings => "settings",
            Screen::Rules => "rules",
            Screen::Lessons => "lessons",
            Screen::Statistics => "statistics",
            Screen::Friends => "friends",
            Screen::Daily => "daily",
            Screen::Sheet => "sheet",
            Screen::Evening => "evening",
            Screen::Table => "table",
        }
    }
}

/// The command line, for every system that needs it.
#[derive(Resource, Clone)]
pub struct Config(pub Options);

#[derive(Resource)]
pub struct Files(pub Store);

#[derive(Resource)]
pub struct PlayerSettings(pub Settings);

#[derive(Resource)]
pub struct Texts(pub i18n::Texts);

/// The player's statistics and learning curve, as on disk.
#[derive(Resource, Default)]
pub struct PlayerProfile(pub klaverjas_ai::progress::Profile);

/// Messages for the title screen, until a new game starts.
#[derive(Resource, Default)]
pub struct TitleMessage(pub Vec<TitleNote>);

#[derive(Clone, Debug, PartialEq)]
pub enum TitleNote {
    /// The saved game could not be used and was moved aside.
    SaveSetAside { damage: save::Damage, moved_to: std::path::PathBuf },
    /// The settings could not be used and were moved aside: the defaults
    /// hold until the player changes them.
    SettingsSetAside { damage: save::Damage, moved_to: std::path::PathBuf },
    /// The statistics could not be read and were moved aside: they start
    /// again from nothing.
    ProfileSetAside { damage: save::Damage, moved_to: std::path::PathBuf },
    /// The score sheet could not be read and was moved aside.
    SheetSetAside { damage: save::Damage, moved_to: std::path::PathBuf },
}

/// The day and preset the deals of the day screen shows: today's (or
/// `--daily`'s) under the player's home rules, until the history opens
/// another.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct DayChosen {
    pub day: klaverjas_ai::daily::Day,
    pub preset: klaverjas::Preset,
}

/// The rules being set up on the new-game screen: a preset, and its
/// options as they will be played.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct SetupRules {
    pub preset: klaverjas::Preset,
    pub rules: Rules,
}

impl SetupRules {
    /// `preset` with the player's house rules for it.
    pub fn of(preset: klaverjas::Preset, settings: &Settings) -> SetupRules {
        SetupRules { preset, rules: settings.rules_for(preset) }
    }
}

/// The shared resources, from the command line and the player's files: the
/// settings (or, where they cannot be read, the defaults and a note for the
/// title), the words of their language, and the rules to set up.
pub fn plugin(options: Options) -> impl Fn(&mut App) {
    move |app: &mut App| {
        let store = Store::new(options.data_dir.clone());
        let mut notes = Vec::new();
        let settings = match store.read::<Settings>(&store.settings_path()) {
            Loaded::Found(s) => s,
            Loaded::Nothing => Settings::default(),
            Loaded::SetAside { damage, moved_to } => {
                notes.push(TitleNote::SettingsSetAside { damage, moved_to });
                Settings::default()
            }
        };
        let profile = match store.load_profile() {
            Loaded::Found(p) => p,
            Loaded::Nothing => Default::default(),
            Loaded::SetAside { damage, moved_to } => {
                notes.push(TitleNote::ProfileSetAside { damage, moved_to });
                Default::default()
            }
        };
        let texts = i18n::Texts::load(settings.language, settings.skin);
        // The command line's preset and options, else the player's own.
        let setup = match options.rules {
            Some(preset) => SetupRules { preset, rules: options.rules(None) },
            None => SetupRules::of(settings.home_rules.unwrap_or(klaverjas::Preset::Classic), &settings),
        };
        let screen = Screen::MENUS.into_iter().find(|s| Some(s.name()) == options.screen.as_deref());
        // `--daily` opens the day's screen, unless four bots play it.
        let screen = screen.or((options.daily.is_some() && !options.demo).then_some(Screen::Daily));
        let chosen = DayChosen {
            day: options.daily.unwrap_or_else(platform::today),
            preset: options.rules.or(settings.home_rules).unwrap_or(klaverjas::Preset::Classic),
        };
        app.insert_state(screen.unwrap_or_default())
            .insert_resource(Config(options.clone()))
            .insert_resource(platform::Device::new(options.phone.is_some()))
            .insert_resource(Files(store))
            .insert_resource(Texts(texts))
            .insert_resource(PlayerSettings(settings))
            .insert_resource(PlayerProfile(profile))
            .insert_resource(setup)
            .insert_resource(chosen)
            .insert_resource(TitleMessage(notes))
            .add_message::<bevy::window::RequestRedraw>();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_knows_every_menu_screen_by_its_name() {
        assert_eq!(Screen::MENUS.map(|s| s.name()), crate::cli::SCREENS);
    }
}
