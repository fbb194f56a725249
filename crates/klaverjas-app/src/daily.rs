//! The deals of the day at the table: the expert's yardstick worked out
//! away from the frames while the player plays (a thread, or the browser's
//! Web Worker), the day kept in the profile once its last deal ends and the
//! yardstick is known, and the day's result screen opened once the last
//! trick has been seen.

use crate::seats::Seats;
use crate::show::{Heard, Pacing, Show};
use crate::state::{Files, PlayerProfile, PlayerSettings, Screen};
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::tasks::{Task, block_on, poll_once};
use klaverjas_ai::daily::{Play, Played};

pub fn plugin(app: &mut App) {
    app.init_resource::<Yardstick>().init_resource::<DayDone>().add_systems(
        Update,
        // After the show has stepped: a last trick whose stillness ended
        // this frame is seen in this frame.
        (start_yardstick, finish_yardstick, keep_the_day, open_the_result).chain().after(Pacing),
    );
}

/// The expert's points per deal for the day being played, once known.
#[derive(Resource, Default)]
pub struct Yardstick {
    /// The day, preset and bots it was asked for.
    asked: Option<(klaverjas_ai::daily::Day, klaverjas::Preset, klaverjas_ai::Level)>,
    task: Option<Task<Option<Vec<u32>>>>,
    points: Option<Vec<u32>>,
}

impl Yardstick {
    /// The expert's points for `play`'s deals, if worked out.
    pub fn of(&self, play: Play) -> Option<&[u32]> {
        self.points.as_deref().filter(|_| self.asked == Some((play.day, play.preset, play.bots)))
    }
}

/// The day whose last deal has ended.
#[derive(Resource, Default)]
pub struct DayDone {
    /// Which sitting's day (see [`crate::seats::Moment::table`]).
    sitting: Option<u64>,
    /// When its last card was seen played, and when the deal was over
    /// (its last trick's roem called or passed): the result's wait is logged.
    pub last_card: Option<Instant>,
    pub deal_over: Option<Instant>,
    /// The day's match over, kept until the expert's points are known
    /// (whatever the table holds by then), and whether four bots played it.
    over: Option<(Play, klaverjas::Match, bool)>,
    /// The day as played, once the expert's points are known.
    pub played: Option<(Play, Played)>,
    /// The result screen was opened for it.
    opened: bool,
    /// The sitting last seen before its day's last card: a day finished
    /// there opens its result; one continued already finished does not.
    playing: Option<u64>,
}

impl DayDone {
    /// The result of `seats`' day, if it is over and the yardstick known.
    pub fn of(&self, seats: &Seats) -> Option<&(Play, Played)> {
        self.played.as_ref().filter(|_| self.sitting == Some(seats.moment().table))
    }
}

fn start_yardstick(seats: Option<Res<Seats>>, mut yardstick: ResMut<Yardstick>) {
    let Some(seats) = seats else { return };
    let Some(play) = seats.daily() else { return };
    let asked = Some((play.day, play.preset, play.bots));
    if yardstick.asked != asked {
        // The browser check compares these with `kj daily`.
        let first = seats.m.finished_deal(1).map_or_else(|| seats.game().deal().code(), |g| g.deal().code());
        info!("the deals of {} ({}): deal 1 {first}", play.day, play.preset);
        let task = crate::thinking::yardstick(play.day, play.preset, play.bots);
        *yardstick = Yardstick { asked, task: Some(task), points: None };
    }
}

fn finish_yardstick(mut yardstick: ResMut<Yardstick>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    let Some(task) = yardstick.task.as_mut() else { return };
    // A window that redraws only on input must still look at the task.
    redraw.write(bevy::window::RequestRedraw);
    if let Some(done) = block_on(poll_once(task)) {
        yardstick.task = None;
        match done {
            Some(points) => {
                info!("the day's yardstick: {points:?}");
                yardstick.points = Some(points);
            }
            None => {
                // Asked again on the next frame.
                error!("the bots answered the day's yardstick with something else");
                yardstick.asked = None;
            }
        }
    }
}

/// A day over: its result made once the yardstick is known, and kept in
/// the profile when it counts for the record, even if another match has
/// taken the table meanwhile.
fn keep_the_day(
    seats: Option<Res<Seats>>,
    yardstick: Res<Yardstick>,
    mut done: ResMut<DayDone>,
    mut profile: ResMut<PlayerProfile>,
    files: Res<Files>,
) {
    if let Some(seats) = seats.as_deref()
        && let Some(play) = seats.daily()
    {
        // The last deal's last card: its trick's roem may still be called.
        let game = seats.game();
        let last_card = seats.m.deal_number() == klaverjas_ai::daily::DEALS
            && (game.phase() == klaverjas::Phase::ClaimRoem || game.result().is_some());
        let sitting = Some(seats.moment().table);
        if !last_card {
            done.playing = sitting;
        }
        if last_card && done.sitting != sitting {
            info!("the day's last card is played");
            *done = DayDone { sitting, last_card: Some(Instant::now()), playing: done.playing, ..default() };
        }
        if seats.m.is_over() && done.sitting == sitting && done.deal_over.is_none() {
            done.deal_over = Some(Instant::now());
            done.over = Some((play, seats.m.clone(), seats.demo()));
        }
    }
    let Some((play, m, demo)) = done.over.as_ref() else { return };
    let Some(expert) = yardstick.of(*play) else { return };
    let played = Played::of(*play, m, expert);
    info!("the day's result: {}", played.result);
    if play.record
        && !demo
        && profile.0.note_day(played.clone())
        && let Err(e) = files.0.write_profile(&profile.0)
    {
        error!("the day's result could not be saved: {e}");
    }
    done.played = Some((*play, played));
    done.over = None;
}

/// The day's last trick seen, lying still as long as every trick does:
/// its result screen, once. Sweeping the trick away would only keep the
/// player waiting: the rest of the show runs out at once, its sounds
/// heard with the result.
fn open_the_result(
    seats: Option<Res<Seats>>,
    (mut show, settings, mut heard): (ResMut<Show>, Res<PlayerSettings>, MessageWriter<Heard>),
    time: Res<Time>,
    screen: Res<State<Screen>>,
    mut done: ResMut<DayDone>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(seats) = seats.filter(|s| s.daily().is_some() && s.m.is_over()) else { return };
    let ours = done.sitting == Some(seats.moment().table) && done.playing == done.sitting;
    let now = time.elapsed_secs();
    let seen = show.shown.result.is_some() && show.idle(now) || show.last_trick_seen(now);
    if ours && seen && !done.opened && *screen.get() == Screen::Table {
        done.opened = true;
        let roem_help = show.roem_help(&settings.0);
        heard.write_batch(show.run_out(now, settings.0.speed.pace(), roem_help).into_iter().map(Heard));
        if let (Some(last), Some(over)) = (done.last_card, done.deal_over) {
            let (last, over) = (last.elapsed().as_millis(), over.elapsed().as_millis());
            info!("the day's result opens {last} ms after its last card, {over} ms after the deal was over");
        }
        next.set(Screen::Daily);
    }
}
