//! The floor under the browser check's figures: Bevy and bevy_egui with
//! the game's features, felt and camera (`window`'s, all it takes of
//! ours), drawing a title of five buttons and nothing of the game. What it costs to start, to hold in memory and
//! to draw a frame, no game built on this stack can go below; the check
//! measures the game beside it (`crates/klaverjas-web/check/check.mjs`).
//! Built for the browser only, by `crates/klaverjas-web/build`.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use klaverjas_app::window;

fn main() {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window { canvas: Some("#klaverjas".into()), fit_canvas_to_parent: true, ..default() }),
            ..default()
        }))
        .add_plugins(EguiPlugin::default())
        .insert_resource(window::felt())
        .add_systems(Startup, |mut commands: Commands| {
            commands.spawn(window::camera());
        })
        .add_systems(EguiPrimaryContextPass, title)
        .add_systems(Update, frames_a_second)
        .run();
}

/// No full-window panel: what is drawn besides the clear colour is only
/// as large as the buttons.
fn title(mut contexts: EguiContexts) -> Result {
    egui::Area::new("title".into()).anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO).show(
        contexts.ctx_mut()?,
        |ui| {
            ui.vertical_centered(|ui| {
                ui.heading("Klaverjas");
                for label in ["Play", "Lessons", "Play with friends", "Statistics", "Settings"] {
                    let _ = ui.button(label);
                }
            });
        },
    );
    Ok(())
}

/// Bevy draws every frame here (its default for a game): the frames drawn
/// in each 10 s, said on the log for the check.
fn frames_a_second(time: Res<Time<Real>>, mut counted: Local<Option<(u32, f64)>>) {
    let now = time.elapsed_secs_f64();
    let (frames, since) = counted.get_or_insert((0, now));
    *frames += 1;
    if now - *since >= 10.0 {
        info!("bevy_floor: {:.2} frames a second", f64::from(*frames) / (now - *since));
        *counted = None;
    }
}
