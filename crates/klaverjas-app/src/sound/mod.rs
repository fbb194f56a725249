//! The table's sounds, made by our generator (`assets/sounds/`), played as
//! the show runs the beats they belong to ([`Heard`]). Where they go is the
//! [`Speaker`]:
//! - Linux: our mixer into ALSA, loaded at run time ([`alsa`]): Bevy's
//!   audio links ALSA, whose headers a plain Debian machine lacks.
//! - Android, iOS, macOS, Windows and the browser: Bevy's audio ([`bevy_out`]).
//! - `--record-sound FILE`: our mixer into a WAV file, in the game's time.
//! - Tests: a recorder that only counts.
//!
//! The player's settings switch sound off and set its volume; the app in
//! the background is silent.

pub mod mixer;

#[cfg(target_os = "linux")]
mod alsa;
#[cfg(not(target_os = "linux"))]
mod bevy_out;

use crate::seats::Suspended;
use crate::show::Heard;
use crate::state::{Config, PlayerSettings};
use bevy::prelude::*;
use klaverjas_cards::Sound;
use mixer::{Command, Mixer};

/// Where the table's sounds go.
#[derive(Resource)]
pub struct Speaker(Out);

enum Out {
    /// No device, or none wanted.
    Silent,
    /// Every request kept, none played: what tests count.
    Recorder(Vec<Command>),
    Mixer(Mixer),
    /// Requests for Bevy's audio, taken each frame by [`bevy_out`].
    #[cfg(not(target_os = "linux"))]
    Bevy(Vec<Command>),
}

impl Speaker {
    /// A speaker that plays nothing and keeps every request.
    pub fn recorder() -> Speaker {
        Speaker(Out::Recorder(Vec::new()))
    }

    /// What a recorder was asked to play, in order.
    pub fn requests(&self) -> &[Command] {
        match &self.0 {
            Out::Recorder(requests) => requests,
            _ => &[],
        }
    }

    fn send(&mut self, command: Command) {
        match &mut self.0 {
            Out::Silent => {}
            Out::Recorder(requests) => requests.push(command),
            Out::Mixer(mixer) => mixer.send(command),
            #[cfg(not(target_os = "linux"))]
            Out::Bevy(requests) => requests.push(command),
        }
    }

    /// The platform's own output, or a recording into `record`.
    fn open(record: Option<&std::path::Path>) -> Speaker {
        let sounds = crate::pictures::find_assets().map(|dir| dir.join("sounds")).unwrap_or_default();
        if let Some(path) = record {
            return Speaker(Out::Mixer(Mixer::start(&sounds, mixer::Recording::new(path.to_path_buf()))));
        }
        #[cfg(target_os = "linux")]
        let speaker = match alsa::Alsa::open() {
            Ok(device) => Speaker(Out::Mixer(Mixer::start(&sounds, device))),
            Err(why) => {
                info!("the table is silent: {why}");
                Speaker(Out::Silent)
            }
        };
        #[cfg(not(target_os = "linux"))]
        let speaker = Speaker(Out::Bevy(Vec::new()));
        speaker
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, open_speaker)
        .add_systems(Update, (fall_silent, play_heard).chain().after(crate::show::Pacing))
        .add_systems(Last, close_on_exit);
    #[cfg(not(target_os = "linux"))]
    app.add_plugins(bevy_out::plugin);
}

/// Opens the platform's output, unless one is there already (a test's).
fn open_speaker(mut commands: Commands, speaker: Option<Res<Speaker>>, config: Res<Config>) {
    if speaker.is_none() {
        commands.insert_resource(Speaker::open(config.0.record_sound.as_deref()));
    }
}

/// Plays what the table made heard, as the settings say.
fn play_heard(
    mut heard: MessageReader<Heard>,
    settings: Res<PlayerSettings>,
    suspended: Res<Suspended>,
    speaker: Option<ResMut<Speaker>>,
) {
    let Some(mut speaker) = speaker else {
        heard.clear();
        return;
    };
    let volume = settings.0.volume.min(100) as f32 / 100.0;
    for Heard(sound) in heard.read() {
        if settings.0.sound && !suspended.0 && volume > 0.0 {
            speaker.send(Command::Play(*sound, volume));
        }
    }
}

/// Stops whatever plays when the app goes to the background or the
/// player switches sound off.
fn fall_silent(settings: Res<PlayerSettings>, suspended: Res<Suspended>, speaker: Option<ResMut<Speaker>>) {
    let Some(mut speaker) = speaker else { return };
    let off = !settings.0.sound || settings.0.volume == 0;
    if (suspended.is_changed() && suspended.0) || (settings.is_changed() && off) {
        speaker.send(Command::Stop);
    }
}

/// Ends the mixer with the app, so a recording is written out.
fn close_on_exit(mut exit: MessageReader<AppExit>, speaker: Option<ResMut<Speaker>>) {
    if exit.read().next().is_some()
        && let Some(mut speaker) = speaker
        && matches!(speaker.0, Out::Mixer(_))
    {
        speaker.0 = Out::Silent;
    }
}

/// The sounds a frame asked of Bevy's audio, taken out of the speaker.
#[cfg(not(target_os = "linux"))]
fn take_for_bevy(speaker: &mut Speaker) -> Vec<Command> {
    match &mut speaker.0 {
        Out::Bevy(requests) => std::mem::take(requests),
        _ => Vec::new(),
    }
}

/// Which sound a request is for, for tests and logs.
pub fn sound_of(command: &Command) -> Option<Sound> {
    match command {
        Command::Play(sound, _) => Some(*sound),
        Command::Stop => None,
    }
}
