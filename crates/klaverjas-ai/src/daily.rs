//! The deals of the day: for each date and preset four deals that are the
//! same on every device, played from South; the expert's play of the same
//! four deals from the same seat as the yardstick; and a one-line result to
//! share, which reads back.
//!
//! The seed of a day is FNV-1a (64 bits) of the text
//! `klaverjas daily YYYY-MM-DD PRESET`; the day is a match of four deals,
//! deal `n` (from 0) dealt from `deal_seed(seed, n)` by North, East, South
//! and West in turn (at three, the empty chair's turn passes on), so
//! `kj daily --date YYYY-MM-DD --rules PRESET` gives its deals' codes, and
//! `kj code --seed S` any one of them by the match's deal seeds.

use crate::Level;
use crate::arena::{self, Side};
use klaverjas::{Match, MatchLength, Preset, Rules, Seat, Team};
use std::fmt;
use std::str::FromStr;

/// The deals a day holds.
pub const DEALS: usize = 4;

/// A date of the Gregorian calendar.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Day {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

/// Why a date was not read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DayError {
    /// Not of the form YYYY-MM-DD.
    Form(String),
    /// Of the form, but no day of the calendar (2026-02-30).
    NoSuchDay(String),
}

impl fmt::Display for DayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DayError::Form(s) => write!(f, "'{s}' is not a date of the form YYYY-MM-DD"),
            DayError::NoSuchDay(s) => write!(f, "'{s}' is no day of the calendar"),
        }
    }
}

impl std::error::Error for DayError {}

fn days_in_month(year: u16, month: u8) -> u8 {
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Day {
    /// The day `days` after 1970-01-01 (a clock's day, in UTC).
    pub fn from_unix_days(days: i64) -> Day {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as u16;
        Day { year, month, day }
    }

    /// Days since 1970-01-01: [`Day::from_unix_days`] read back.
    pub fn unix_days(self) -> i64 {
        // Howard Hinnant's days_from_civil.
        let (m, d) = (i64::from(self.month), i64::from(self.day));
        let y = i64::from(self.year) - i64::from(m <= 2);
        let era = y.div_euclid(400);
        let yoe = y.rem_euclid(400);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// Today's date in UTC by the system clock (not in a browser's wasm,
    /// which has no such clock: the page gives the date there).
    pub fn today() -> Day {
        let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        Day::from_unix_days((secs / 86_400) as i64)
    }

    /// The seed of this day's deals under `preset`.
    pub fn seed(self, preset: Preset) -> u64 {
        let text = format!("klaverjas daily {self} {preset}");
        text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for Day {
    type Err = DayError;
    fn from_str(s: &str) -> Result<Day, DayError> {
        let form = || DayError::Form(s.to_string());
        let parts: Vec<&str> = s.split('-').collect();
        let [y, m, d] = parts[..] else { return Err(form()) };
        if y.len() != 4 || m.len() != 2 || d.len() != 2 || !s.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
            return Err(form());
        }
        let (year, month, day) =
            (y.parse().map_err(|_| form())?, m.parse().map_err(|_| form())?, d.parse().map_err(|_| form())?);
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return Err(DayError::NoSuchDay(s.to_string()));
        }
        Ok(Day { year, month, day })
    }
}

/// The preset's rules for a day: a match of its four deals.
pub fn rules(preset: Preset) -> Rules {
    Rules { match_length: MatchLength::Deals(DEALS as u16), ..preset.rules() }
}

/// The day's match, its first deal dealt: the player holds South. Its four
/// deals are fixed, each with its dealer one seat on from the last, as
/// [`Match::new`] deals them where the deal goes round: where the winner
/// deals next (Klaberjass, a boem's old play), everyone still meets the
/// same cards.
pub fn new_match(day: Day, preset: Preset) -> Match {
    let (rules, seed) = (rules(preset), day.seed(preset));
    let mut dealer = rules.players.seated(rules.direction, Seat::North);
    let deals = (0..DEALS as u64)
        .map(|n| {
            let deal = *klaverjas::Game::dealt(rules, klaverjas::deal_seed(seed, n), dealer).deal();
            dealer = rules.players.next(rules.direction, dealer);
            deal
        })
        .collect();
    // Dealt deals are whole; were one refused, the seed's own deals.
    Match::from_deals(rules, deals, seed).unwrap_or_else(|_| Match::new(rules, seed, Seat::North))
}

/// The day's deals played so far, as played (each replayed once).
pub fn finished_deals(m: &Match) -> impl Iterator<Item = klaverjas::Game> + '_ {
    (1..=m.deals_finished()).filter_map(|n| m.finished_deal(n))
}

/// South's points in each deal of a finished (or unfinished) day's match:
/// its team's where there are teams, else its own.
pub fn south_points(m: &Match) -> Vec<u32> {
    m.sheet()
        .rows
        .iter()
        .map(|row| match row.players {
            Some(each) => u32::from(each.score[Seat::South.index()]),
            None => u32::from(row.total(Team::NS)),
        })
        .collect()
}

/// The yardstick: the expert plays the day from South with `bots` at the
/// other seats. The expert counts its search in nodes, not time, so the
/// result is the same on every device.
pub fn expert_points(day: Day, preset: Preset, bots: Level) -> Vec<u32> {
    south_points(&expert_day(day, preset, bots))
}

/// The day's match as the expert played it from South.
pub fn expert_day(day: Day, preset: Preset, bots: Level) -> Match {
    let seed = day.seed(preset);
    arena::run(new_match(day, preset), seed, |s| {
        if s == Seat::South { Side::from(Level::Expert) } else { Side::from(bots) }
    })
}

/// A day's match being played: which day, under which preset, with
/// which bots around the player, and whether it counts for the record
/// (the first play of today's deals) or is practice.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Play {
    pub day: Day,
    pub preset: Preset,
    pub bots: Level,
    pub record: bool,
}

/// One deal of a result: at least the expert's points, or fewer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Mark {
    AtLeast,
    Fewer,
}

impl Mark {
    pub fn symbol(self) -> char {
        match self {
            Mark::AtLeast => '✅',
            Mark::Fewer => '❌',
        }
    }
}

/// A player's day, as shared in one line.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DayResult {
    pub day: Day,
    pub preset: Preset,
    pub bots: Level,
    pub points: u32,
    pub expert: u32,
    pub marks: [Mark; DEALS],
}

impl DayResult {
    /// The result of the player's points per deal against the expert's.
    pub fn new(day: Day, preset: Preset, bots: Level, mine: &[u32], expert: &[u32]) -> DayResult {
        let mut marks = [Mark::Fewer; DEALS];
        for (i, mark) in marks.iter_mut().enumerate() {
            if mine.get(i).copied().unwrap_or(0) >= expert.get(i).copied().unwrap_or(0) {
                *mark = Mark::AtLeast;
            }
        }
        DayResult { day, preset, bots, points: mine.iter().sum(), expert: expert.iter().sum(), marks }
    }

    pub fn at_least(&self) -> usize {
        self.marks.iter().filter(|m| **m == Mark::AtLeast).count()
    }

    /// Whether this (a friend's) result is of the deals of `day` under
    /// `preset`; the bots around the player may differ.
    pub fn is_of(&self, day: Day, preset: Preset) -> Result<(), LineError> {
        if self.day != day {
            return Err(LineError::OtherDay(self.day));
        }
        if self.preset != preset {
            return Err(LineError::OtherPreset(self.preset));
        }
        Ok(())
    }
}

/// A day played for the record, as the profile keeps it: the result, and
/// per deal the player's points, the expert's and the deal's code (which
/// finds its review on the learning curve).
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Played {
    pub result: DayResult,
    pub mine: Vec<u32>,
    pub expert: Vec<u32>,
    pub codes: Vec<String>,
}

impl Played {
    /// The day's finished match, beside the expert's points per deal.
    pub fn of(play: Play, m: &Match, expert: &[u32]) -> Played {
        let mine = south_points(m);
        let codes = finished_deals(m).map(|g| g.deal().code()).collect();
        let result = DayResult::new(play.day, play.preset, play.bots, &mine, expert);
        Played { result, mine, expert: expert.to_vec(), codes }
    }
}

/// The days in a row, up to `today` (or up to yesterday while today is
/// not played yet), with a day played under any preset: the streak.
pub fn streak<'a>(played: impl IntoIterator<Item = &'a Day>, today: Day) -> u32 {
    let days: std::collections::BTreeSet<i64> = played.into_iter().map(|d| d.unix_days()).collect();
    let mut day = today.unix_days();
    if !days.contains(&day) {
        day -= 1;
    }
    let mut n = 0;
    while days.contains(&day) {
        n += 1;
        day -= 1;
    }
    n
}

const PREFIX: &str = "Klaverjas";

impl fmt::Display for DayResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let marks: String = self.marks.iter().map(|m| m.symbol()).collect();
        write!(
            f,
            "{PREFIX} {} {} with {} bots: {} / expert {}, {} of {DEALS} deals at least the expert's {marks}",
            self.day,
            self.preset,
            line_word(self.bots),
            self.points,
            self.expert,
            self.at_least()
        )
    }
}

/// The word for the heuristic bots in a day's line: the app calls them
/// club players, and a line says what the player saw.
const CLUB_PLAYER: &str = "club-player";

/// The bots' level as a day's line names it.
fn line_word(level: Level) -> &'static str {
    match level {
        Level::Heuristic => CLUB_PLAYER,
        other => other.name(),
    }
}

/// Why a pasted line is not a day's result.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LineError {
    /// It does not begin as a result does.
    NotAResult,
    /// Where a part was expected, this token stood instead.
    Token { expected: &'static str, found: String },
    /// Its marks do not say what its count does.
    Marks,
    /// A result of another day's deals.
    OtherDay(Day),
    /// A result of the same day under another preset.
    OtherPreset(Preset),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotAResult => write!(f, "not a Klaverjas result of the day"),
            LineError::Token { expected, found } => write!(f, "expected {expected}, found '{found}'"),
            LineError::Marks => write!(f, "its marks do not match its count of deals"),
            LineError::OtherDay(d) => write!(f, "a result of the deals of {d}, not of these"),
            LineError::OtherPreset(p) => write!(f, "a result of the {p} deals, not of these"),
        }
    }
}

impl std::error::Error for LineError {}

impl FromStr for DayResult {
    type Err = LineError;
    /// Reads a line as [`DayResult`]'s `Display` writes it, anywhere in
    /// the pasted text (a chat adds names and times around it).
    fn from_str(text: &str) -> Result<DayResult, LineError> {
        let start = text.find(&format!("{PREFIX} ")).ok_or(LineError::NotAResult)?;
        let mut words = text[start + PREFIX.len()..].split_whitespace();
        let mut next = |expected: &'static str| {
            words.next().ok_or(LineError::Token { expected, found: String::new() }).map(|w| (w, expected))
        };
        let wrong = |(found, expected): (&str, &'static str)| LineError::Token { expected, found: found.to_string() };
        let word = |got: (&str, &'static str), want: &str| if got.0 == want { Ok(()) } else { Err(wrong(got)) };
        let number = |got: (&str, &'static str)| got.0.trim_end_matches(',').parse::<u32>().map_err(|_| wrong(got));
        let w = next("a date")?;
        let day = w.0.parse::<Day>().map_err(|_| wrong(w))?;
        let w = next("a preset")?;
        let preset = w.0.parse::<Preset>().map_err(|_| wrong(w))?;
        word(next("'with'")?, "with")?;
        let w = next("the bots' level")?;
        let bots = match w.0 {
            // Lines from before the bots had the app's own names.
            CLUB_PLAYER => Level::Heuristic,
            level => level.parse::<Level>().map_err(|_| wrong(w))?,
        };
        word(next("'bots:'")?, "bots:")?;
        let points = number(next("the points")?)?;
        word(next("'/'")?, "/")?;
        word(next("'expert'")?, "expert")?;
        let expert = number(next("the expert's points")?)?;
        let at_least = number(next("a count of deals")?)? as usize;
        for want in ["of", "4", "deals", "at", "least", "the", "expert's"] {
            word(next("the rest of the line")?, want)?;
        }
        let w = next("the deals' marks")?;
        let marks: Vec<Mark> =
            // Some chats add the emoji presentation selector after a mark.
            w.0.chars()
                .filter(|&c| c != '\u{FE0F}')
                .map(|c| match c {
                    '✅' => Ok(Mark::AtLeast),
                    '❌' => Ok(Mark::Fewer),
                    _ => Err(wrong(w)),
                })
                .collect::<Result<_, _>>()?;
        let marks: [Mark; DEALS] = marks.try_into().map_err(|_| wrong(w))?;
        let result = DayResult { day, preset, bots, points, expert, marks };
        if result.at_least() != at_least {
            return Err(LineError::Marks);
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> Day {
        s.parse().unwrap()
    }

    #[test]
    fn dates_read_back_and_impossible_ones_are_refused() {
        assert_eq!(day("2026-11-26").to_string(), "2026-11-26");
        assert_eq!(day("2024-02-29"), Day { year: 2024, month: 2, day: 29 });
        assert_eq!("2026-02-29".parse::<Day>(), Err(DayError::NoSuchDay("2026-02-29".into())));
        assert_eq!("1900-02-29".parse::<Day>(), Err(DayError::NoSuchDay("1900-02-29".into())));
        for bad in ["2026-11", "26-11-2026", "2026-1-26", "2026-11-26x", "+026-11-26", ""] {
            assert_eq!(bad.parse::<Day>(), Err(DayError::Form(bad.into())), "{bad}");
        }
        assert_eq!("2026-13-01".parse::<Day>(), Err(DayError::NoSuchDay("2026-13-01".into())));
    }

    #[test]
    fn a_clock_day_is_its_calendar_date() {
        assert_eq!(Day::from_unix_days(0), day("1970-01-01"));
        assert_eq!(Day::from_unix_days(11_016), day("2000-02-29"));
        assert_eq!(Day::from_unix_days(20_418), day("2025-11-26"));
        assert_eq!(Day::from_unix_days(20_783), day("2026-11-26"));
        for n in [-719_162, -1, 0, 59, 60, 11_016, 20_783, 2_932_896] {
            assert_eq!(Day::from_unix_days(n).unix_days(), n, "{n}");
        }
    }

    #[test]
    fn a_streak_counts_the_days_in_a_row_up_to_today_or_yesterday() {
        let played: Vec<Day> =
            ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-20", "2026-11-25"].iter().map(|d| day(d)).collect();
        assert_eq!(streak(&played, day("2026-11-25")), 3);
        // Today not played yet: the streak still stands.
        assert_eq!(streak(&played, day("2026-11-26")), 3);
        assert_eq!(streak(&played, day("2026-11-27")), 0);
        let across_a_month = [day("2026-02-28"), day("2026-03-01")];
        assert_eq!(streak(&across_a_month, day("2026-03-01")), 2);
    }

    #[test]
    fn a_day_and_preset_give_the_same_deals_every_time_and_others_give_others() {
        let codes = |d: &str, p: Preset| {
            let mut m = new_match(day(d), p);
            let mut codes = vec![m.game().deal().code()];
            while codes.len() < DEALS {
                while m.game().to_act().is_some() {
                    let action = m.game().legal_actions()[0];
                    m.apply(action).unwrap();
                }
                m.next_deal().unwrap();
                codes.push(m.game().deal().code());
            }
            codes
        };
        let today = codes("2026-11-26", Preset::Classic);
        assert_eq!(today, codes("2026-11-26", Preset::Classic));
        assert_ne!(today, codes("2026-11-27", Preset::Classic));
        assert_ne!(today, codes("2026-11-26", Preset::Amsterdam));
        // The seed is FNV-1a of the documented text.
        assert_eq!(day("2026-11-26").seed(Preset::Classic), {
            let mut h: u64 = 0xcbf29ce484222325;
            for b in b"klaverjas daily 2026-11-26 classic" {
                h = (h ^ *b as u64).wrapping_mul(0x100000001b3);
            }
            h
        });
    }

    #[test]
    fn a_result_line_round_trips_and_damaged_lines_are_refused_in_words() {
        let r = DayResult::new(
            day("2026-11-26"),
            Preset::Classic,
            Level::Heuristic,
            &[162, 0, 100, 150],
            &[150, 30, 100, 118],
        );
        assert_eq!((r.points, r.expert, r.at_least()), (412, 398, 3));
        let line = r.to_string();
        assert_eq!(
            line,
            "Klaverjas 2026-11-26 classic with club-player bots: 412 / expert 398, 3 of 4 deals at least the expert's ✅❌✅✅"
        );
        assert_eq!(line.parse::<DayResult>(), Ok(r.clone()));
        // A line from before the club players' name still reads.
        assert_eq!(line.replace("club-player", "heuristic").parse::<DayResult>(), Ok(r.clone()));
        assert_eq!(format!("[21:04] Ann: {line} 😀").parse::<DayResult>(), Ok(r.clone()));
        assert_eq!(line.replace('✅', "✅\u{FE0F}").parse::<DayResult>(), Ok(r));
        assert_eq!("good game!".parse::<DayResult>(), Err(LineError::NotAResult));
        let damaged = line.replace("398", "lots");
        assert_eq!(
            damaged.parse::<DayResult>(),
            Err(LineError::Token { expected: "the expert's points", found: "lots,".into() })
        );
        let damaged = line.replace("2026-11-26", "2026-11-31");
        assert_eq!(
            damaged.parse::<DayResult>(),
            Err(LineError::Token { expected: "a date", found: "2026-11-31".into() })
        );
        assert_eq!(line.replace("3 of", "4 of").parse::<DayResult>(), Err(LineError::Marks));
        let cut = &line[..line.find(" deals").unwrap()];
        assert_eq!(
            cut.parse::<DayResult>(),
            Err(LineError::Token { expected: "the rest of the line", found: String::new() })
        );
        assert!(matches!(
            line.replace("✅❌", "✅").parse::<DayResult>(),
            Err(LineError::Token { expected: "the deals' marks", .. })
        ));
        // Compared: the same deals, whatever the friend's bots; another
        // day's or preset's deals are named.
        let mine = line.parse::<DayResult>().unwrap();
        let friend = line.replace("club-player", "expert").replace("412", "300").parse::<DayResult>().unwrap();
        assert_eq!(friend.is_of(mine.day, mine.preset), Ok(()));
        assert_ne!(friend, mine);
        let other = line.replace("2026-11-26", "2026-11-25").parse::<DayResult>().unwrap();
        assert_eq!(other.is_of(mine.day, mine.preset), Err(LineError::OtherDay(day("2026-11-25"))));
        let other = line.replace("classic", "rotterdam").parse::<DayResult>().unwrap();
        assert_eq!(other.is_of(mine.day, mine.preset), Err(LineError::OtherPreset(Preset::Rotterdam)));
    }

    /// Where the winner of a deal deals the next (Klaberjass, Klawerjas's
    /// old play), the day's deals do not depend on who won: the expert
    /// and the player meet the same cards.
    #[test]
    fn a_day_s_deals_do_not_depend_on_how_it_is_played() {
        for preset in Preset::ALL {
            let d = day("2026-11-26");
            let codes = |first: bool| {
                let mut m = new_match(d, preset);
                let mut codes = vec![m.game().deal().code()];
                while codes.len() < DEALS {
                    while m.game().to_act().is_some() {
                        // Two ways of playing, neither passing where it may
                        // play (all passing deals the hand again, for ever).
                        let legal = m.game().legal_actions();
                        let mut playing = legal.iter().filter(|a| **a != klaverjas::Action::Bid(klaverjas::Bid::Pass));
                        let action = if first { playing.next() } else { playing.next_back() };
                        let action = *action.unwrap_or(&legal[0]);
                        m.apply(action).unwrap();
                    }
                    // A hand thrown in is dealt again by its seed; the
                    // day's next deal is the one after it.
                    let thrown_in = m.game().phase() == klaverjas::Phase::ThrownIn;
                    m.next_deal().unwrap();
                    if !thrown_in {
                        codes.push(m.game().deal().code());
                    }
                }
                codes
            };
            assert_eq!(codes(true), codes(false), "{preset}");
        }
        // Where the deal goes round the days are Match::new's deals.
        let mut round = Match::new(rules(Preset::Classic), day("2026-11-26").seed(Preset::Classic), Seat::North);
        assert_eq!(round.game().deal(), new_match(day("2026-11-26"), Preset::Classic).game().deal());
        while round.game().to_act().is_some() {
            round.apply(round.game().legal_actions()[0]).unwrap();
        }
        round.next_deal().unwrap();
        let mut day_match = new_match(day("2026-11-26"), Preset::Classic);
        while day_match.game().to_act().is_some() {
            day_match.apply(day_match.game().legal_actions()[0]).unwrap();
        }
        day_match.next_deal().unwrap();
        assert_eq!(round.game().deal(), day_match.game().deal());
    }

    #[test]
    fn the_expert_s_day_is_the_same_every_time() {
        let once = expert_points(day("2026-11-26"), Preset::Classic, Level::Heuristic);
        assert_eq!(once.len(), DEALS);
        assert_eq!(once, expert_points(day("2026-11-26"), Preset::Classic, Level::Heuristic));
    }
}
