//! The window the game is drawn in: its size and mode on each platform
//! (a browser's canvas, a phone's full screen), where the pictures are
//! found, redrawing only when something moves, the felt behind everything
//! and the one camera.

use crate::cli::Options;
use crate::{look, pictures, platform};
use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;

/// Bevy's plugins with the window and the assets as the game needs them.
pub fn default_plugins(options: &Options) -> PluginGroupBuilder {
    let (w, h) = options.window;
    let mut resolution = bevy::window::WindowResolution::new(w, h);
    if let Some(scale) = options.phone {
        resolution = resolution.with_scale_factor_override(scale);
    }
    // A phone's app fills the screen; the system's bars are kept clear of
    // by the layout (`platform::safe_area`).
    let mode = if platform::TARGET.is_phone() {
        bevy::window::WindowMode::BorderlessFullscreen(bevy::window::MonitorSelection::Primary)
    } else {
        bevy::window::WindowMode::Windowed
    };
    // The assets have no .meta files: not asking for them spares a browser
    // a request (and a 404) for every picture.
    let mut asset_plugin = AssetPlugin { meta_check: bevy::asset::AssetMetaCheck::Never, ..AssetPlugin::default() };
    if let Some(dir) = pictures::find_assets() {
        asset_plugin.file_path = dir.display().to_string();
    }
    DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(Window {
                title: "Klaverjas".into(),
                // X11's WM_CLASS and Wayland's app id: a desktop's dock
                // matches the window to the menu entry of that name.
                name: Some("org.klaverjas.game".into()),
                resolution,
                mode,
                // iOS: the status bar stays hidden, as Info.plist asks.
                prefers_status_bar_hidden: platform::TARGET.is_phone(),
                // In a browser the page's canvas, filling the page.
                canvas: cfg!(target_arch = "wasm32").then(|| "#klaverjas".to_string()),
                fit_canvas_to_parent: true,
                prevent_default_event_handling: true,
                ..default()
            }),
            ..default()
        })
        .set(asset_plugin)
}

pub fn plugin(app: &mut App) {
    // Redraw only on input or when something moves: an idle table costs
    // next to no CPU, and on a phone no battery (see `idle_wait`).
    app.insert_resource(bevy::winit::WinitSettings {
        focused_mode: idle_mode(false),
        unfocused_mode: bevy::winit::UpdateMode::reactive_low_power(IDLE),
    })
    // The show keeps its pace where a frame takes up to a second (a
    // cheap phone's browser, a software GPU): by Bevy's default a slow
    // frame moves the game on by a quarter of a second at most, and a
    // trick's pause of one second lasted four frames of any length.
    .insert_resource(Time::<Virtual>::from_max_delta(std::time::Duration::from_secs(1)))
    .insert_resource(felt())
    .init_resource::<GlyphsChanged>()
    .add_systems(Update, draw_while_pictures_load)
    .add_systems(PostUpdate, idle_wait.after(bevy_egui::EguiPostUpdateSet::ProcessOutput))
    .add_systems(
        PostUpdate,
        draw_new_glyphs
            .after(bevy_egui::EguiPostUpdateSet::ProcessOutput)
            .before(bevy_egui::EguiPostUpdateSet::PostProcessOutput),
    )
    .add_systems(Startup, |mut commands: Commands| {
        commands.spawn(camera());
    });
}

/// The felt, behind everything: the window's clear colour.
pub fn felt() -> ClearColor {
    ClearColor(Color::srgb_u8(look::FELT.r(), look::FELT.g(), look::FELT.b()))
}

/// The one camera. Flat sprites need neither multisampling nor tone
/// mapping; each is a pass over the whole window, costly where the GPU is
/// software.
pub fn camera() -> impl Bundle {
    (Camera2d, bevy::render::view::Msaa::Off, bevy::core_pipeline::tonemapping::Tonemapping::None)
}

/// The longest an idle window waits for input before it looks again. What
/// moves asks for its frames, and what arrives from elsewhere (the bots'
/// answers, a table's messages) wakes the window: this is a safety net,
/// long enough that an idle table draws nothing.
const IDLE: std::time::Duration = std::time::Duration::from_secs(60);

/// How a window waits while nothing moves. While a text field is typed in,
/// frames keep coming, focused or not: in a browser the phone's keyboard
/// types into egui's hidden text field, which takes the focus from the
/// game's canvas, and its letters come through a channel that wakes
/// nothing; waiting as an unfocused window does (a minute), a name typed
/// showed only at the next tap, and the letter after it went to the
/// field's start. The cursor blinks too.
fn idle_mode(typing: bool) -> bevy::winit::UpdateMode {
    if typing { bevy::winit::UpdateMode::Continuous } else { bevy::winit::UpdateMode::reactive(IDLE) }
}

fn idle_wait(mut contexts: bevy_egui::EguiContexts, mut settings: ResMut<bevy::winit::WinitSettings>) {
    // A text field, not any focus: a card or a button the keyboard
    // reached waits like the rest of the table.
    let typing = contexts.ctx_mut().is_ok_and(|ctx| {
        ctx.memory(|m| m.focused()).is_some_and(|id| bevy_egui::egui::TextEdit::load_state(ctx, id).is_some())
    });
    let (focused, unfocused) = match typing {
        true => (idle_mode(true), idle_mode(true)),
        false => (idle_mode(false), bevy::winit::UpdateMode::reactive_low_power(IDLE)),
    };
    if settings.focused_mode != focused || settings.unfocused_mode != unfocused {
        settings.focused_mode = focused;
        settings.unfocused_mode = unfocused;
    }
}

/// Frames go on while the card pictures load: each becomes an asset, and
/// reaches the GPU, only at a frame, and an idle title would keep them all
/// for the first touch's frame.
fn draw_while_pictures_load(
    images: Res<pictures::CardImages>,
    server: Res<AssetServer>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if images.asked() && !images.ready(&server) {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// A frame that adds glyphs (or pictures) to egui's textures is followed by
/// another: the new texture reaches the screen a frame late, so an idle
/// window would otherwise keep a word with letters missing until the next
/// input.
fn draw_new_glyphs(
    outputs: Query<&bevy_egui::EguiRenderOutput>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    mut changed: ResMut<GlyphsChanged>,
) {
    changed.0 = outputs.iter().any(|o| !o.textures_delta.set.is_empty());
    if changed.0 {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// Whether the last frame added to egui's textures: a picture of it may
/// lack the new letters, so `--screenshot` waits a frame.
#[derive(Resource, Default)]
pub struct GlyphsChanged(pub bool);
