//! `kj sim` with bot levels (whole matches, optionally duplicate, on every
//! core) and `kj bench bot`.

use crate::args::Args;
use crate::{Failure, output, percentiles, progress};
use klaverjas::{Game, Phase, Seat, session::deal_seed};
use klaverjas_ai::arena::{self, Outcome, Side};
use klaverjas_ai::expert::Idea;
use klaverjas_ai::{Level, Reason};
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn level(args: &Args, name: &str) -> Result<Level, Failure> {
    Ok(args.parsed::<Level>(name)?.unwrap_or(Level::Heuristic))
}

/// The expert's ideas named by `--NAME idea,idea`.
fn without(args: &Args, name: &str) -> Result<Vec<Idea>, Failure> {
    let names = args.opt(name).into_iter().flat_map(|s| s.split(',')).filter(|n| !n.trim().is_empty());
    Ok(names.map(|n| n.parse::<Idea>().map_err(|e| format!("--{name}: {e}"))).collect::<Result<_, _>>()?)
}

pub fn sim_matches(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let (ns_off, ew_off) = (without(args, "ns-without")?, without(args, "ew-without")?);
    let ns = Side { level: level(args, "ns")?, without: &ns_off };
    let ew = Side { level: level(args, "ew")?, without: &ew_off };
    let n = args.number("matches", 10)?;
    let seed = args.number("seed", 1)?;
    let duplicate = args.flag("duplicate");
    let cores = std::thread::available_parallelism().map(|c| c.get() as u64).unwrap_or(1);
    let threads = args.number("threads", cores)?.clamp(1, 256);
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let mut results: Vec<Option<Outcome>> = vec![None; n as usize];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        mine.push((i, arena::play(rules, deal_seed(seed, i), ns, ew, duplicate)));
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    mine
                })
            })
            .collect();
        let mut bar = progress::Bar::new(n);
        while workers.iter().any(|w| !w.is_finished()) {
            bar.tick(done.load(Ordering::Relaxed));
            std::thread::sleep(Duration::from_millis(100));
        }
        bar.tick(n);
        bar.finish();
        for w in workers {
            for (i, outcome) in w.join().unwrap_or_default() {
                results[i as usize] = Some(outcome);
            }
        }
    });
    let outcomes: Vec<Outcome> = results.into_iter().flatten().collect();
    if outcomes.len() as u64 != n {
        return Err(Failure::Rule("a match worker stopped early".to_string()));
    }
    let stats = Stats::of(&outcomes);
    let value = json!({
        "matches": n,
        "duplicate": duplicate,
        "levels": { "NS": ns.level.name(), "EW": ew.level.name() },
        "without": { "NS": ns_off.iter().map(|i| i.name()).collect::<Vec<_>>(), "EW": ew_off.iter().map(|i| i.name()).collect::<Vec<_>>() },
        "wins": { "NS": stats.wins.0, "EW": stats.wins.1 },
        "ties": stats.ties,
        "points_per_deal": { "NS": stats.per_deal.0, "EW": stats.per_deal.1 },
        "margin_per_deal": { "mean": stats.margin, "ci95": [stats.ci.0, stats.ci.1] },
        "playing": { "NS": stats.playing.0, "EW": stats.playing.1 },
        "nat": { "NS": stats.nat.0, "EW": stats.nat.1 },
        "pit": { "NS": stats.pit.0, "EW": stats.pit.1 },
        "forced": { "NS": stats.forced.0, "EW": stats.forced.1 },
        "forced_nat": { "NS": stats.forced_nat.0, "EW": stats.forced_nat.1 },
        "strokes": { "NS": stats.strokes.0, "EW": stats.strokes.1 },
    });
    let alone = !rules.players.partnerships();
    let kind = match (duplicate, alone) {
        (true, true) => "duplicate match sets (the first level in each seat in turn)",
        (true, false) => "duplicate match pairs",
        (false, _) => "matches",
    };
    let rate = |nat: u64, playing: u64| if playing == 0 { 0.0 } else { 100.0 * nat as f64 / playing as f64 };
    let (ns, ew) = (ns.name(), ew.name());
    let (ns_seats, ew_seats) = if alone { ("one seat", "the other seats") } else { ("NS", "EW") };
    let mut human = format!(
        "{n} {kind}: {ns} ({ns_seats}) won {}, {ew} ({ew_seats}) won {}, {} tied\n\
         points per deal: {ns} {:.1}, {ew} {:.1}; margin {:+.1} per deal (95% CI {:+.1} to {:+.1})\n",
        stats.wins.0,
        stats.wins.1,
        stats.ties,
        stats.per_deal.0,
        stats.per_deal.1,
        stats.margin,
        stats.ci.0,
        stats.ci.1,
    );
    // Where nobody plays against the other side there is no nat to count.
    human += &if rules.has_playing_team() {
        format!(
            "nat as the playing team: {ns} {:.1}% of {}, {ew} {:.1}% of {}; pit: {ns} {}, {ew} {}\n\
         made to play (all passed): {ns} {} times, nat in {}; {ew} {} times, nat in {}",
            rate(stats.nat.0, stats.playing.0),
            stats.playing.0,
            rate(stats.nat.1, stats.playing.1),
            stats.playing.1,
            stats.pit.0,
            stats.pit.1,
            stats.forced.0,
            stats.forced_nat.0,
            stats.forced.1,
            stats.forced_nat.1,
        )
    } else {
        format!("strokes on the boem: {ns} {}, {ew} {}", stats.strokes.0, stats.strokes.1)
    };
    output(args, value, human);
    Ok(())
}

/// Totals over all matches; the confidence interval treats each match (or
/// duplicate pair) as one observation of the per-deal margin.
struct Stats {
    wins: (u64, u64),
    ties: u64,
    per_deal: (f64, f64),
    margin: f64,
    ci: (f64, f64),
    playing: (u64, u64),
    nat: (u64, u64),
    pit: (u64, u64),
    forced: (u64, u64),
    forced_nat: (u64, u64),
    strokes: (u64, u64),
}

impl Stats {
    fn of(outcomes: &[Outcome]) -> Stats {
        let n = outcomes.len().max(1) as f64;
        let sum = |f: &dyn Fn(&Outcome) -> u64| outcomes.iter().map(f).sum::<u64>();
        let deals = sum(&|o| o.first.deals).max(1) as f64;
        let seat_deals = sum(&|o| o.second.deals).max(1) as f64;
        let margins: Vec<f64> = outcomes.iter().map(|o| o.margin_per_deal()).collect();
        let mean = margins.iter().sum::<f64>() / n;
        let var =
            if margins.len() > 1 { margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
        let half = 1.96 * (var / n).sqrt();
        let round = |x: f64| (x * 100.0).round() / 100.0;
        Stats {
            wins: (
                outcomes.iter().filter(|o| o.first.per_deal() > o.second.per_deal()).count() as u64,
                outcomes.iter().filter(|o| o.first.per_deal() < o.second.per_deal()).count() as u64,
            ),
            ties: outcomes.iter().filter(|o| o.first.per_deal() == o.second.per_deal()).count() as u64,
            per_deal: (
                round(sum(&|o| o.first.score) as f64 / deals),
                round(sum(&|o| o.second.score) as f64 / seat_deals),
            ),
            margin: round(mean),
            ci: (round(mean - half), round(mean + half)),
            playing: (sum(&|o| o.first.playing), sum(&|o| o.second.playing)),
            nat: (sum(&|o| o.first.nat), sum(&|o| o.second.nat)),
            pit: (sum(&|o| o.first.pit), sum(&|o| o.second.pit)),
            forced: (sum(&|o| o.first.forced), sum(&|o| o.second.forced)),
            forced_nat: (sum(&|o| o.first.forced_nat), sum(&|o| o.second.forced_nat)),
            strokes: (sum(&|o| o.first.strokes), sum(&|o| o.second.strokes)),
        }
    }
}

/// Times one level's card decisions (or with `--bids` its bids) on
/// positions from heuristic games. Only real choices count: a card with no
/// alternative is no decision.
pub fn bench_bot(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let (timed, what) = if args.flag("bids") { (Phase::Bidding, "bid") } else { (Phase::Playing, "card") };
    let level = level(args, "level")?;
    let decisions = args.at_least_one("decisions", 200)?;
    let seed = args.number("seed", 1)?;
    let mut bot = level.bot_without(seed, &without(args, "without")?);
    let mut driver = Level::Heuristic.bot(seed);
    let mut times = Vec::new();
    let mut fallbacks = 0;
    let mut deal_no = 0;
    while (times.len() as u64) < decisions {
        // Where trump is the last card dealt nobody bids: a hundred deals
        // without a choice say the rules have none to time.
        if times.is_empty() && deal_no == 100 {
            return Err(Failure::Usage(format!("--level: these rules ask for no {what} with a choice to time")));
        }
        let mut game = Game::dealt(rules, deal_seed(seed, deal_no), Seat::from_index(deal_no as usize));
        deal_no += 1;
        while let Some(seat) = game.to_act() {
            let view = game.view(seat);
            let action = if game.phase() == timed && view.legal.len() > 1 && (times.len() as u64) < decisions {
                let start = Instant::now();
                let d = bot.decide(&view);
                times.push(start.elapsed().as_secs_f64() * 1000.0);
                // The expert hands early decisions to the heuristic when the
                // search would not fit its node budget: count them.
                fallbacks += matches!(d.reason, Reason::TooEarlyToSearch(_)) as u64;
                d.action
            } else {
                driver.decide(&view).action
            };
            game.apply(action).map_err(|e| Failure::Rule(format!("bot chose an illegal action: {e}")))?;
        }
    }
    let (median, p95) = percentiles(&mut times);
    output(
        args,
        json!({ "median_ms": median, "p95_ms": p95, "heuristic_fallbacks": fallbacks }),
        format!(
            "{decisions} {level} {what} decisions: median {median:.3} ms, p95 {p95:.3} ms ({fallbacks} left to the heuristic)"
        ),
    );
    Ok(())
}
