//! `--stats FILE`: at exit the game writes how smoothly it drew, as JSON:
//! `{"frames", "longest_frame_ms", "p99_frame_ms", "frames_per_second",
//! "card_entities", "review_frames", "review_longest_frame_ms",
//! "review_p99_frame_ms"}` (in
//! a browser, to the console after `--stats`); the `review_` figures are
//! of the frames drawn while deals were reviewed in the background for the
//! statistics. A
//! frame's time is the wait from the frame before it while something moved
//! (the frame before asked for a redraw); the time an idle window waits for
//! input is no frame. Frames that begin in the first second, when the
//! window opens and the pictures load, are left out.

use crate::table::cards::{TableCard, TurnedCard};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use std::path::PathBuf;

#[derive(Resource, Default)]
struct FrameStats {
    path: PathBuf,
    frames: u64,
    /// Frame times after the first second, in milliseconds.
    times: Vec<f32>,
    /// Those of them drawn while a deal was reviewed for the statistics.
    reviewing: Vec<f32>,
    card_entities: usize,
    written: bool,
    /// Whether the last frame asked for the next one.
    moving: bool,
}

pub fn plugin(path: PathBuf) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.insert_resource(FrameStats { path: path.clone(), ..FrameStats::default() })
            .add_systems(Last, (count_frame, write_at_exit).chain());
    }
}

fn count_frame(
    mut stats: ResMut<FrameStats>,
    time: Res<Time<Real>>,
    cards: Query<(), With<TableCard>>,
    turned: Query<(), With<TurnedCard>>,
    mut redraws: MessageReader<RequestRedraw>,
    reviews: Res<crate::progress::Reviewing>,
) {
    stats.frames += 1;
    if stats.moving && time.elapsed_secs() - time.delta_secs() > 1.0 {
        stats.times.push(time.delta_secs() * 1000.0);
        if !reviews.is_empty() {
            stats.reviewing.push(time.delta_secs() * 1000.0);
        }
    }
    stats.moving = redraws.read().count() > 0;
    stats.card_entities = stats.card_entities.max(cards.iter().count() + turned.iter().count());
}

/// The longest of `times` and their 99th percentile.
fn longest_and_p99(times: &[f32]) -> (f32, f32) {
    let mut sorted = times.to_vec();
    sorted.sort_by(f32::total_cmp);
    let longest = sorted.last().copied().unwrap_or(0.0);
    let p99 = if sorted.is_empty() { 0.0 } else { sorted[((sorted.len() - 1) as f32 * 0.99).round() as usize] };
    (longest, p99)
}

/// The JSON line, with the longest frame and the 99th percentile, of all
/// frames and of those drawn during a background review, and how many
/// frames a second were drawn while something moved.
fn summary(frames: u64, times: &[f32], reviewing: &[f32], card_entities: usize) -> String {
    let (longest, p99) = longest_and_p99(times);
    let (r_longest, r_p99) = longest_and_p99(reviewing);
    let moving_ms: f32 = times.iter().sum();
    let per_second = if moving_ms > 0.0 { times.len() as f32 * 1000.0 / moving_ms } else { 0.0 };
    format!(
        "{{\"frames\":{frames},\"longest_frame_ms\":{longest:.1},\"p99_frame_ms\":{p99:.1},\
         \"frames_per_second\":{per_second:.2},\"card_entities\":{card_entities},\
         \"review_frames\":{},\"review_longest_frame_ms\":{r_longest:.1},\"review_p99_frame_ms\":{r_p99:.1}}}\n",
        reviewing.len()
    )
}

fn write_at_exit(mut exits: MessageReader<AppExit>, mut stats: ResMut<FrameStats>) {
    if exits.read().next().is_none() || stats.written {
        return;
    }
    stats.written = true;
    let text = summary(stats.frames, &stats.times, &stats.reviewing, stats.card_entities);
    // A browser's page has no files: the line goes to its console.
    if cfg!(target_arch = "wasm32") {
        info!("--stats {}", text.trim_end());
        return;
    }
    if let Err(e) = std::fs::write(&stats.path, text) {
        error!("--stats {}: {e}", stats.path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_has_the_longest_frame_and_the_99th_percentile() {
        let times: Vec<f32> = (1..=200).map(|i| i as f32).collect();
        let line = summary(250, &times, &times[..100], 36);
        // 200 frames in 20.1 s.
        assert_eq!(
            line,
            "{\"frames\":250,\"longest_frame_ms\":200.0,\"p99_frame_ms\":198.0,\"frames_per_second\":9.95,\"card_entities\":36,\
             \"review_frames\":100,\"review_longest_frame_ms\":100.0,\"review_p99_frame_ms\":99.0}\n"
        );
        assert!(summary(0, &[], &[], 0).contains("\"longest_frame_ms\":0.0"));
    }
}
