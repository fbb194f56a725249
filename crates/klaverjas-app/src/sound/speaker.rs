//! Where the table's sounds go: the platform's output, opened once.

use super::mixer::{self, Command, Mixer};
use bevy::prelude::*;

/// Where the table's sounds go.
#[derive(Resource)]
pub struct Speaker(pub(super) Out);

pub(super) enum Out {
    /// No device, or none wanted.
    Silent,
    /// Every request kept, none played: what tests count.
    Recorder(Vec<Command>),
    Mixer(Mixer),
    /// Requests for Bevy's audio, taken each frame by `bevy_out`.
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

    pub(super) fn send(&mut self, command: Command) {
        match &mut self.0 {
            Out::Silent => {}
            Out::Recorder(requests) => requests.push(command),
            Out::Mixer(mixer) => mixer.send(command),
            #[cfg(not(target_os = "linux"))]
            Out::Bevy(requests) => requests.push(command),
        }
    }

    /// The platform's own output, or a recording into `record`.
    pub(super) fn open(record: Option<&std::path::Path>) -> Speaker {
        let sounds = crate::pictures::find_assets().map(|dir| dir.join("sounds")).unwrap_or_default();
        if let Some(path) = record {
            return Speaker(Out::Mixer(Mixer::start(&sounds, mixer::Recording::new(path.to_path_buf()))));
        }
        #[cfg(target_os = "linux")]
        let speaker = match super::alsa::Alsa::open() {
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

/// The sounds a frame asked of Bevy's audio, taken out of the speaker.
#[cfg(not(target_os = "linux"))]
pub(super) fn take_for_bevy(speaker: &mut Speaker) -> Vec<Command> {
    match &mut speaker.0 {
        Out::Bevy(requests) => std::mem::take(requests),
        _ => Vec::new(),
    }
}
