//! What the app's headless tests share: a fresh data folder per test,
//! removed with the test's thread, and the app without a window or GPU.
#![allow(dead_code)]

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use klaverjas_app::cli::Options;
use klaverjas_app::settings::Speed;
use klaverjas_app::sound::Speaker;
use klaverjas_app::state::PlayerSettings;
use klaverjas_app::{logic_plugin, table_plugin};
use std::path::PathBuf;
use std::time::Duration;

/// Game time per update.
pub const STEP: Duration = Duration::from_millis(20);

/// A fresh data folder for a test, removed when the test's thread ends
/// (after its apps, passed or failed).
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("klaverjas-app-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    MADE.with(|made| made.borrow_mut().0.push(dir.clone()));
    dir
}

/// The folders a test's thread made, removed with the thread.
struct Made(Vec<PathBuf>);

impl Drop for Made {
    fn drop(&mut self) {
        for dir in &self.0 {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

thread_local! {
    static MADE: std::cell::RefCell<Made> = const { std::cell::RefCell::new(Made(Vec::new())) };
}

pub fn headless_app(options: Options, speed: Speed) -> App {
    headless_app_with(options, speed, |_| {})
}

/// [`headless_app`], with `more` added before the first update.
pub fn headless_app_with(options: Options, speed: Speed, more: impl FnOnce(&mut App)) -> App {
    // Never the player's own data folder.
    static UNNAMED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let unnamed = || temp_dir(&format!("unnamed-{}", UNNAMED.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    let options = Options { data_dir: Some(options.data_dir.clone().unwrap_or_else(unnamed)), ..options };
    let mut app = App::new();
    let root = klaverjas_app::pictures::find_assets().expect("the checkout's assets");
    let assets = AssetPlugin { file_path: root.display().to_string(), ..AssetPlugin::default() };
    app.add_plugins((MinimalPlugins, StatesPlugin, assets, bevy::image::ImagePlugin::default(), InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(STEP))
        .add_plugins(logic_plugin(options))
        .add_plugins(table_plugin)
        .insert_resource(Speaker::recorder());
    more(&mut app);
    app.world_mut().resource_mut::<PlayerSettings>().0.speed = speed;
    app.update();
    app
}
