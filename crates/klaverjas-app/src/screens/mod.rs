//! The menu screens, one module and plugin each, drawn with egui under
//! `run_if(in_state(..))`; the table's are [`crate::panels`]. Egui draws a
//! screen anew each frame, so a menu has nothing to spawn on `OnEnter` or
//! to despawn on `OnExit`: those hooks are used where something happens,
//! the table spawning its cards (which despawn on leaving it) and dealing
//! a fresh deal, the new-game form starting from the rules in play.

pub mod daily;
pub mod evening;
pub mod friends;
pub mod lessons;
pub mod new_game;
pub mod rules;
pub mod settings;
pub mod sheet;
pub mod statistics;
pub mod title;

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        title::plugin,
        lessons::plugin,
        new_game::plugin,
        settings::plugin,
        rules::plugin,
        statistics::plugin,
        friends::plugin,
        daily::plugin,
        sheet::plugin,
        evening::plugin,
    ));
}
