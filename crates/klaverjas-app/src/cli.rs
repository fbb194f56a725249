//! Command-line options of the game, for players and for tests. Parsing is
//! plain Rust so it is tested without a window.

use klaverjas::{Preset, Rules};
use klaverjas_ai::Level;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// All four seats are bots: watch a match.
    pub demo: bool,
    /// `--play`: straight to the table, at the saved match or a new one.
    pub play: bool,
    pub seed: Option<u64>,
    pub rules: Option<Preset>,
    /// `--set`: options on top of the preset, `name=value,...`.
    pub set: String,
    /// The window's size in pixels.
    pub window: (u32, u32),
    /// `--phone`: the window is a phone's screen of this many pixels to a
    /// logical pixel (its scale factor), touched, with a phone's insets.
    pub phone: Option<f32>,
    pub data_dir: Option<PathBuf>,
    /// Write a PNG of the window after every trick and each deal's end.
    pub screenshot: Option<PathBuf>,
    pub quit_after_deals: Option<u32>,
    /// At exit, write frame times and the card entities as JSON.
    pub stats: Option<PathBuf>,
    /// Open this lesson (its id, checked by the caller).
    pub lesson: Option<String>,
    /// Quit with 0 when the lesson ends.
    pub quit_after_lesson: bool,
    /// In a demo, review South's cards after each deal before dealing on or
    /// quitting.
    pub review: bool,
    /// `--bots`: the bots' level for this run, over the settings'.
    pub bots: Option<Level>,
    /// `--record-sound`: the table's sounds go into this WAV file, in the
    /// game's time, instead of the sound device.
    pub record_sound: Option<PathBuf>,
    /// `--daily`: the day the deals of the day open on, instead of today.
    pub daily: Option<klaverjas_ai::daily::Day>,
    /// `--screen`: the menu screen to open at the start, one of [`SCREENS`].
    pub screen: Option<String>,
    /// `--targets`: log where the marked controls are (see
    /// [`crate::forms::targets_plugin`]).
    pub targets: bool,
    /// `--host-table NAME`: host a table with friends at the start, as
    /// NAME, its waiting room open.
    pub host_table: Option<String>,
    /// `--join-table CODE@ADDRESS`: join that table at the start (with
    /// `--demo`, a bot plays this chair).
    pub join_table: Option<String>,
    /// `--join CODE` (a table's link in a browser, `?join=CODE`): open
    /// Play with friends with the code filled in, for the player to give
    /// a name and join.
    pub join: Option<String>,
    /// `--evening CODE` (an evening's link in a browser, `?evening=CODE`):
    /// open the club evening to check in there.
    pub evening: Option<String>,
}

/// The menu screens `--screen` opens.
pub const SCREENS: [&str; 10] =
    ["title", "new-game", "settings", "rules", "lessons", "statistics", "friends", "daily", "sheet", "evening"];

impl Default for Options {
    fn default() -> Options {
        Options {
            demo: false,
            play: false,
            seed: None,
            rules: None,
            set: String::new(),
            window: (1280, 720),
            phone: None,
            data_dir: None,
            screenshot: None,
            quit_after_deals: None,
            stats: None,
            lesson: None,
            quit_after_lesson: false,
            review: false,
            bots: None,
            record_sound: None,
            screen: None,
            daily: None,
            targets: false,
            host_table: None,
            join_table: None,
            join: None,
            evening: None,
        }
    }
}

pub const USAGE: &str = "\
klaverjas: Klaverjas and Klawerjas against bots

  --demo                 four bots play; you watch
  --play                 straight to the table: your saved match, else a new
                         one (of --rules, --seed)
  --seed S               the match's deals follow from S
  --rules PRESET         classic (default), amsterdam, rotterdam, wilde-boom, klawerjas or three
  --set NAME=VALUE,...   rule options on top of the preset, as in kj
                         (e.g. bidding=free,kraken=yes)
  --window WxH           window size, e.g. 1280x720 or 1080x2340
  --phone WxH[@SCALE]    the window as a phone: W x H pixels, SCALE pixels to
                         a dp (e.g. 1080x2340@2.625), touch only, the status
                         bar's and gesture bar's edges kept clear
  --data-dir DIR         where saves and settings live
  --screenshot DIR       a PNG of the window after each trick and deal
  --quit-after-deals N   quit after N deals
  --stats FILE           at exit, write frame times as JSON
  --record-sound FILE    the table's sounds into a WAV file, not the speaker
  --screen NAME          open a menu screen: title, new-game, settings, rules,
                         lessons, statistics, friends, daily, sheet or evening
                         (with --screenshot, NAME.png, and quit)
  --daily YYYY-MM-DD     the deals of that day (today or before), not today's;
                         with --demo four bots play them and the day's result
                         follows (daily-result.png with --screenshot)
  --host-table NAME      host a table with friends as NAME, its waiting room
                         open (with --screenshot, friends.png once its code
                         and QR code are up, and quit)
  --join-table CODE@ADDRESS
                         join that table (ADDRESS: the table server's
                         HOST:PORT); with --demo a bot plays your chair
  --evening CODE         open the club evening of that code, to check in
                         (an evening's link in a browser: ?evening=CODE)
  --join CODE            open Play with friends at that table's code (a
                         table's link in a browser: ?join=CODE)
  --lessons              list the lessons, one JSON line each
  --lesson ID            open a lesson (with --demo it plays itself)
  --quit-after-lesson    quit when the lesson ends
  --bots LEVEL           the bots of this run: random, heuristic, expert or pimc
  --review               in a demo, after each deal, open its review (South's
                         cards) and wait for it before dealing on or quitting
  --targets              log where the buttons a check touches are, as
                         `target NAME X,Y` lines (window pixels)
  --version              the game's version
  --help                 this text";

impl Options {
    /// The rules asked for: the preset (else `home`, else classic) with
    /// the `--set` options, which [`parse`] has checked.
    pub fn rules(&self, home: Option<Preset>) -> Rules {
        let mut rules = self.rules.or(home).map(|p| p.rules()).unwrap_or_default();
        let _ = rules.set_all(&self.set);
        rules
    }
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Run(Box<Options>),
    Help,
    /// Print the game's name and version and stop.
    Version,
    /// Print the lessons and stop.
    Lessons,
}

/// Parses the arguments after the program name. Errors are one line.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut o = Options::default();
    let mut sized = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it.next().cloned().ok_or_else(|| format!("{name} needs a value")),
            }
        };
        match name {
            "--help" | "-h" => return Ok(Command::Help),
            "--version" | "-V" => return Ok(Command::Version),
            "--lessons" => return Ok(Command::Lessons),
            "--lesson" => o.lesson = Some(value()?),
            "--quit-after-lesson" => o.quit_after_lesson = true,
            "--review" => o.review = true,
            "--targets" => o.targets = true,
            "--demo" => o.demo = true,
            "--play" => o.play = true,
            "--bots" => o.bots = Some(value()?.parse().map_err(|e| format!("--bots: {e}"))?),
            "--seed" => {
                let v = value()?;
                o.seed = Some(v.parse().map_err(|_| format!("--seed: not a whole number: '{v}'"))?);
            }
            "--daily" => {
                let v = value()?;
                o.daily = Some(v.parse().map_err(|e| format!("--daily: {e}"))?);
            }
            "--rules" => o.rules = Some(value()?.parse().map_err(|e| format!("--rules: {e}"))?),
            "--set" => {
                o.set = value()?;
                Rules::default().set_all(&o.set).map_err(|e| format!("--set: {e}"))?;
            }
            "--window" if sized => return Err("--window and --phone: give one size".into()),
            "--window" => {
                o.window = window_size(&value()?).map_err(|e| format!("--window: {e}"))?;
                sized = true;
            }
            "--phone" if sized => return Err("--window and --phone: give one size".into()),
            "--phone" => {
                let v = value()?;
                let (size, scale) = match v.split_once('@') {
                    Some((size, scale)) => (size, Some(scale)),
                    None => (v.as_str(), None),
                };
                o.window = window_size(size).map_err(|e| format!("--phone: {e}"))?;
                let scale = match scale {
                    // A phone's logical width is about 412 dp.
                    None => (o.window.0.min(o.window.1) as f32 / 412.0).max(1.0),
                    Some(s) => s
                        .parse::<f32>()
                        .ok()
                        .filter(|s| (1.0..=5.0).contains(s))
                        .ok_or_else(|| format!("--phone: expected a scale from 1 to 5 after '@', not '{s}'"))?,
                };
                o.phone = Some(scale);
                sized = true;
            }
            "--data-dir" => o.data_dir = Some(PathBuf::from(value()?)),
            "--screenshot" => o.screenshot = Some(PathBuf::from(value()?)),
            "--stats" => o.stats = Some(PathBuf::from(value()?)),
            "--record-sound" => o.record_sound = Some(PathBuf::from(value()?)),
            "--evening" => {
                o.evening = Some(value()?);
                o.screen = Some("evening".into());
            }
            "--join" => {
                o.join = Some(value()?);
                o.screen = Some("friends".into());
            }
            "--join-table" => {
                let v = value()?;
                if !v.contains('@') {
                    return Err(format!("--join-table: CODE@HOST:PORT, not '{v}'"));
                }
                o.join_table = Some(v);
                o.screen = Some("friends".into());
            }
            "--host-table" => {
                o.host_table = Some(value()?);
                o.screen = Some("friends".into());
            }
            "--screen" => {
                let name = value()?;
                if !SCREENS.contains(&name.as_str()) {
                    return Err(format!("--screen: '{name}' is not one of {}", SCREENS.join(", ")));
                }
                o.screen = Some(name);
            }
            "--quit-after-deals" => {
                let v = value()?;
                o.quit_after_deals = Some(
                    v.parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("--quit-after-deals: expected a count, not '{v}'"))?,
                );
            }
            other => return Err(format!("unknown argument '{other}' (try --help)")),
        }
    }
    Ok(Command::Run(Box::new(o)))
}

/// `WIDTHxHEIGHT` in pixels, each from 200 to 10000.
fn window_size(v: &str) -> Result<(u32, u32), String> {
    let parsed = v.split_once(['x', 'X']).and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)));
    match parsed {
        Some((w, h)) if (200..=10_000).contains(&w) && (200..=10_000).contains(&h) => Ok((w, h)),
        _ => Err(format!("expected WIDTHxHEIGHT (200 to 10000), not '{v}'")),
    }
}

/// On Linux and the BSDs, why no window can open: neither an X11 nor a
/// Wayland display is named in the environment (`var` reads it). Said in
/// one line before Bevy starts, which would otherwise panic.
pub fn no_display(var: impl Fn(&str) -> Option<String>) -> Option<String> {
    if !cfg!(all(unix, not(any(target_os = "macos", target_os = "ios", target_os = "android")))) {
        return None;
    }
    let named = |name: &str| var(name).is_some_and(|v| !v.is_empty());
    (!named("DISPLAY") && !named("WAYLAND_DISPLAY") && !named("WAYLAND_SOCKET"))
        .then(|| "no display: neither DISPLAY (X11) nor WAYLAND_DISPLAY (Wayland) is set".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_display_is_said_in_one_line() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        };
        let missing = no_display(env(&[("HOME", "/root")])).expect("no display named");
        assert_eq!(missing.lines().count(), 1);
        assert!(missing.contains("DISPLAY"));
        assert!(no_display(env(&[("DISPLAY", "")])).is_some(), "an empty name is no display");
        assert_eq!(no_display(env(&[("DISPLAY", ":0")])), None);
        assert_eq!(no_display(env(&[("WAYLAND_DISPLAY", "wayland-0")])), None);
    }

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_every_option() {
        let Command::Run(o) = parse(&args(
            "--demo --seed 7 --rules rotterdam --window 1080x2340 --data-dir /tmp/d --screenshot out --quit-after-deals 1 --stats s.json --bots expert --record-sound r.wav --screen statistics --targets",
        ))
        .unwrap() else {
            panic!()
        };
        assert!(o.demo);
        assert_eq!(o.seed, Some(7));
        assert_eq!(o.bots, Some(Level::Expert));
        assert_eq!(o.rules, Some(Preset::Rotterdam));
        assert_eq!(o.window, (1080, 2340));
        assert_eq!(o.data_dir, Some(PathBuf::from("/tmp/d")));
        assert_eq!(o.screenshot, Some(PathBuf::from("out")));
        assert_eq!(o.quit_after_deals, Some(1));
        assert_eq!(o.stats, Some(PathBuf::from("s.json")));
        assert_eq!(o.record_sound, Some(PathBuf::from("r.wav")));
        assert_eq!(o.screen.as_deref(), Some("statistics"));
        assert!(o.targets);
        assert_eq!(
            parse(&args("--seed=3")).unwrap(),
            Command::Run(Box::new(Options { seed: Some(3), ..Options::default() }))
        );
        assert_eq!(parse(&args("--help")).unwrap(), Command::Help);
        assert_eq!(parse(&args("--demo --version")).unwrap(), Command::Version);
        let phone = |a: &str| match parse(&args(a)).unwrap() {
            Command::Run(o) => (o.window, o.phone),
            _ => panic!(),
        };
        assert_eq!(phone("--phone 1080x2340@2.625"), ((1080, 2340), Some(2.625)));
        assert_eq!(phone("--phone=824x1648"), ((824, 1648), Some(2.0)), "a 412 dp wide phone");
        assert_eq!(phone("--phone 2340x1080@3"), ((2340, 1080), Some(3.0)), "held sideways");
        let Command::Run(o) = parse(&args("--rules amsterdam --set bidding=free,kraken=yes")).unwrap() else {
            panic!()
        };
        let rules = o.rules(Some(Preset::Rotterdam));
        assert!(rules.kraken && rules.bidding == klaverjas::Bidding::FreeChoice);
        assert_eq!(rules.following, Preset::Amsterdam.rules().following, "the preset asked for, not the home one");
    }

    #[test]
    fn bad_arguments_are_one_line_errors() {
        for bad in [
            "--bogus",
            "--seed",
            "--seed x",
            "--window 12",
            "--window 0x0",
            "--phone 1080x2340@",
            "--phone 1080x2340@9",
            "--phone 1080@2",
            "--phone 1080x2340 --window 1280x720",
            "--window 1280x720 --phone 1080x2340",
            "--rules nope",
            "--set kraken=maybe",
            "--set kraken",
            "--quit-after-deals 0",
            "--stats",
            "stray",
        ] {
            let e = parse(&args(bad)).unwrap_err();
            assert_eq!(e.lines().count(), 1, "{bad}: {e}");
        }
    }
}
