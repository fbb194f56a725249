//! The game on a phone. `#[bevy_main]` gives Android the `android_main`
//! that NativeActivity calls (and hands Bevy the activity, where
//! `klaverjas_app::platform` finds the app's internal storage); iOS runs
//! [`main`] from the binary. Both start the same game as the desktop.

use bevy::prelude::bevy_main;

#[bevy_main]
pub fn main() {
    // A phone has no command line: the game starts at its title.
    let _ = klaverjas_app::main();
}
