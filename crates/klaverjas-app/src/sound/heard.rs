//! The table's sounds played as the show makes them heard, as the
//! settings say; silence in the background and when the game ends.

use super::mixer::Command;
use super::speaker::{Out, Speaker};
use crate::seats::Suspended;
use crate::show::Heard;
use crate::state::{Config, PlayerSettings};
use bevy::prelude::*;

/// Opens the platform's output, unless one is there already (a test's).
pub(super) fn open_speaker(mut commands: Commands, speaker: Option<Res<Speaker>>, config: Res<Config>) {
    if speaker.is_none() {
        commands.insert_resource(Speaker::open(config.0.record_sound.as_deref()));
    }
}

/// Plays what the table made heard, as the settings say.
pub(super) fn play_heard(
    mut heard: MessageReader<Heard>,
    settings: Res<PlayerSettings>,
    suspended: Res<Suspended>,
    speaker: Option<ResMut<Speaker>>,
) {
    let Some(mut speaker) = speaker else {
        heard.clear();
        return;
    };
    let volume = settings.0.sound_volume().filter(|_| !suspended.0);
    for Heard(sound) in heard.read() {
        if let Some(volume) = volume {
            speaker.send(Command::Play(*sound, volume));
        }
    }
}

/// Stops whatever plays when the app goes to the background or the
/// player switches sound off.
pub(super) fn fall_silent(settings: Res<PlayerSettings>, suspended: Res<Suspended>, speaker: Option<ResMut<Speaker>>) {
    let Some(mut speaker) = speaker else { return };
    let off = settings.0.sound_volume().is_none();
    if (suspended.is_changed() && suspended.0) || (settings.is_changed() && off) {
        speaker.send(Command::Stop);
    }
}

/// Ends the mixer with the app, so a recording is written out.
pub(super) fn close_on_exit(mut exit: MessageReader<AppExit>, speaker: Option<ResMut<Speaker>>) {
    if exit.read().next().is_some()
        && let Some(mut speaker) = speaker
        && matches!(speaker.0, Out::Mixer(_))
    {
        speaker.0 = Out::Silent;
    }
}
