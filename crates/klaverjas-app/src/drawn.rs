//! When the first screen has reached the window. Until then a browser's
//! page keeps its own loading screen, the window keeps drawing whatever
//! the input, and what the title does not show (the card pictures, the
//! sounds) waits: in a browser their 64 requests and decodings share the
//! page's one thread with the title's first frames.
//!
//! A screen is on the window once a frame whose menus needed no new
//! glyphs (egui's textures arrive a frame after the text that asks for
//! them) has been rendered into the window's surface with no render
//! pipeline still to be made (a browser makes each the first time it is
//! needed, a desktop on its own threads).

use crate::platform;
use bevy::prelude::*;
use bevy::render::render_resource::{CachedPipelineState, PipelineCache, PipelineDescriptor};
use bevy::render::view::ExtractedWindows;
use bevy::render::{Extract, ExtractSchedule, Render, RenderApp, RenderSystems};
use bevy_egui::{EguiPostUpdateSet, EguiRenderOutput};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// Past this the first screen counts as drawn even unseen, so a pipeline
/// that never gets made cannot keep the pictures unloaded and the window
/// drawing for ever.
const AT_THE_LATEST: Duration = Duration::from_secs(20);

/// Whether the first screen is on the window, and what tells.
#[derive(Resource, Default)]
pub struct Drawn {
    pub yes: bool,
    /// Whether the page and the log have been told.
    said: bool,
    /// This frame's number (the first is 1).
    frame: u32,
    /// The first frame whose menus were complete.
    complete: Option<u32>,
    /// The last frame rendered with every pipeline made, written by the
    /// render world.
    rendered: Arc<AtomicU32>,
}

/// Whether what the title does not show may load now: at once where
/// there is no window (the tests) or the game is elsewhere than at the
/// title, else once the title is on the window.
pub fn may_load(drawn: Option<&Drawn>, at_title: bool) -> bool {
    drawn.is_none_or(|d| d.yes) || !at_title
}

pub fn plugin(app: &mut App) {
    let drawn = Drawn::default();
    let rendered = drawn.rendered.clone();
    app.insert_resource(drawn).add_systems(First, (count_frame, see_drawn).chain()).add_systems(
        PostUpdate,
        note_complete
            .after(EguiPostUpdateSet::ProcessOutput)
            .before(EguiPostUpdateSet::PostProcessOutput)
            .run_if(|d: Res<Drawn>| d.complete.is_none()),
    );
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render
            .insert_resource(Rendering { frame: 0, surface: false, rendered })
            .add_systems(ExtractSchedule, extract_frame)
            .add_systems(Render, note_surface.after(RenderSystems::PrepareViews).before(RenderSystems::Queue))
            .add_systems(Render, note_rendered.in_set(RenderSystems::Cleanup));
    }
}

fn count_frame(mut drawn: ResMut<Drawn>) {
    drawn.frame += 1;
}

/// Said once: in the log (the browser check waits for this line, then
/// times the start by the screen) and to the page. What waited loads a
/// frame later, once the page has shown the first screen, which it would
/// otherwise show only after their requests. Until then every frame is
/// drawn, whatever the input.
fn see_drawn(mut drawn: ResMut<Drawn>, time: Res<Time<Real>>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    if drawn.yes {
        return;
    }
    if drawn.said {
        drawn.yes = true;
        return;
    }
    let seen = drawn.complete.is_some_and(|f| drawn.rendered.load(Ordering::Acquire) >= f);
    if seen || time.elapsed() > AT_THE_LATEST {
        drawn.said = true;
        if seen {
            info!("the first screen is drawn");
        } else {
            warn!("the first screen was not seen drawn in {} s", AT_THE_LATEST.as_secs());
        }
        platform::first_screen_drawn();
    }
    // Once a window shown before its surface was ready stayed black until
    // the mouse moved.
    redraw.write(bevy::window::RequestRedraw);
}

fn note_complete(mut drawn: ResMut<Drawn>, outputs: Query<&EguiRenderOutput>) {
    let painted = outputs.iter().any(|o| !o.paint_jobs.is_empty());
    if painted && outputs.iter().all(|o| o.textures_delta.set.is_empty()) {
        drawn.complete = Some(drawn.frame);
    }
}

/// The frame the render world is drawing, whether it has the window's
/// surface to draw into, and where it says it drew one.
#[derive(Resource)]
struct Rendering {
    frame: u32,
    surface: bool,
    rendered: Arc<AtomicU32>,
}

fn extract_frame(mut rendering: ResMut<Rendering>, drawn: Extract<Res<Drawn>>) {
    rendering.frame = drawn.frame;
}

fn note_surface(mut rendering: ResMut<Rendering>, windows: Res<ExtractedWindows>) {
    rendering.surface = !windows.is_empty() && windows.values().all(|w| w.swap_chain_texture_view.is_some());
}

/// A frame counts where every render pipeline it asked for is made (one
/// made this frame still waits in the cache's list, usable). Compute
/// pipelines draw nothing; in a browser Bevy keeps one waiting for ever.
fn note_rendered(rendering: Res<Rendering>, pipelines: Res<PipelineCache>) {
    let made = |id: usize| match pipelines.pipelines().nth(id) {
        Some(p) if matches!(p.descriptor, PipelineDescriptor::RenderPipelineDescriptor(_)) => {
            matches!(p.state, CachedPipelineState::Ok(_))
        }
        _ => true,
    };
    if rendering.surface && pipelines.waiting_pipelines().all(made) {
        rendering.rendered.fetch_max(rendering.frame, Ordering::AcqRel);
    }
}
