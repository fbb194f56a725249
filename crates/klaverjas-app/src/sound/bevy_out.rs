//! Bevy's audio, where it needs no system headers to build: every platform
//! but Linux. Each request becomes an entity that plays its sound once and
//! despawns. On iOS the audio session is *ambient*: the silent switch
//! mutes the table and the player's own music plays on. In the browser the
//! page's script resumes the audio after the first touch or click, as
//! browsers require (`crates/klaverjas-web/site/index.html`).

use super::speaker::{Speaker, take_for_bevy};
use crate::sound::mixer::Command;
use bevy::audio::{AudioPlayer, AudioSink, AudioSinkPlayback, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;
use klaverjas_cards::Sound;

/// Each sound's file, loaded once.
#[derive(Resource)]
pub(super) struct Clips(Vec<Handle<AudioSource>>);

/// The sounds load when the card pictures may (`pictures::may_load`):
/// where the game opens at the title, once it is on the window.
pub(super) fn load(mut commands: Commands, server: Res<AssetServer>) {
    #[cfg(target_os = "ios")]
    ambient_session();
    commands.insert_resource(Clips(Sound::ALL.iter().map(|s| server.load(s.path())).collect()));
}

pub(super) fn play(
    mut commands: Commands,
    speaker: Option<ResMut<Speaker>>,
    clips: Option<Res<Clips>>,
    playing: Query<(Entity, &AudioSink)>,
) {
    let (Some(mut speaker), Some(clips)) = (speaker, clips) else { return };
    for command in take_for_bevy(&mut speaker) {
        match command {
            Command::Play(sound, volume) => {
                let settings = PlaybackSettings::DESPAWN.with_volume(Volume::Linear(volume));
                commands.spawn((AudioPlayer(clips.0[sound.index()].clone()), settings));
            }
            Command::Stop => {
                for (entity, sink) in &playing {
                    sink.stop();
                    commands.entity(entity).despawn();
                }
            }
        }
    }
}

/// An ambient session: silenced by the ring/silent switch, mixed with
/// other apps' sound instead of stopping it.
#[cfg(target_os = "ios")]
fn ambient_session() {
    use objc2_avf_audio::{AVAudioSession, AVAudioSessionCategoryAmbient};
    // SAFETY: the shared session exists for the app's life, and the
    // category is one of the system's own constants.
    let result = unsafe {
        let Some(ambient) = AVAudioSessionCategoryAmbient else { return };
        AVAudioSession::sharedInstance().setCategory_error(ambient)
    };
    if let Err(e) = result {
        warn!("the audio session stays as it was: {e:?}");
    }
}
