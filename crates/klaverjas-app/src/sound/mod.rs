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

mod heard;
pub mod mixer;
mod speaker;

#[cfg(target_os = "linux")]
mod alsa;
#[cfg(not(target_os = "linux"))]
mod bevy_out;

use bevy::prelude::*;
use heard::{close_on_exit, fall_silent, open_speaker, play_heard};
pub use speaker::Speaker;

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, open_speaker)
        .add_systems(Update, (fall_silent, play_heard).chain().after(crate::show::Pacing))
        .add_systems(Last, close_on_exit);
    #[cfg(not(target_os = "linux"))]
    app.add_systems(
        Update,
        (
            bevy_out::load.run_if(not(resource_exists::<bevy_out::Clips>).and_then(crate::pictures::may_load)),
            bevy_out::play,
        )
            .chain()
            .after(play_heard),
    );
}
