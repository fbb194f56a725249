//! `kj daily`: a day's four deals, the expert's result on them, and a
//! friend's shared line read beside it.

use crate::args::Args;
use crate::{Failure, output};
use klaverjas::Preset;
use klaverjas_ai::Level;
use klaverjas_ai::daily::{self, DEALS, Day, DayResult};
use serde_json::json;

pub fn daily(args: &Args) -> Result<(), Failure> {
    let today = Day::today();
    let day = args.parsed::<Day>("date")?.unwrap_or(today);
    if day > today {
        return Err(format!("--date: {day} is still to come (today is {today}, UTC)").into());
    }
    let preset = args.parsed::<Preset>("rules")?.unwrap_or(Preset::Classic);
    let bots = args.parsed::<Level>("bots")?.unwrap_or(Level::Heuristic);
    // A friend's line is read before the expert thinks: a wrong one says
    // so at once.
    let friend = match args.opt("result") {
        None => None,
        Some(line) => {
            let r = line.parse::<DayResult>().map_err(|e| format!("--result: {e}"))?;
            if (r.day, r.preset, r.bots) != (day, preset, bots) {
                return Err(format!(
                    "--result: that line is of {} {} with {} bots, not of {day} {preset} with {bots} bots",
                    r.day, r.preset, r.bots
                )
                .into());
            }
            Some(r)
        }
    };
    let m = daily::expert_day(day, preset, bots);
    let expert = daily::south_points(&m);
    // Each finished deal is replayed from the match's record: once.
    let (codes, dealers): (Vec<String>, Vec<String>) =
        daily::finished_deals(&m).map(|g| (g.deal().code(), g.deal().dealer.to_string())).unzip();
    let mut human =
        format!("the deals of {day} ({preset}, the player South, {bots} bots; seed {}):\n", day.seed(preset));
    for (i, (code, dealer)) in codes.iter().zip(&dealers).enumerate() {
        human += &format!("  deal {}: {code} (dealer {dealer}), the expert's points {}\n", i + 1, expert[i]);
    }
    human += &format!("the expert: {}", expert.iter().sum::<u32>());
    if let Some(r) = &friend {
        human +=
            &format!("\nthe line given: {} points, {} of {DEALS} deals at least the expert's", r.points, r.at_least());
        if r.expert != expert.iter().sum::<u32>() {
            human += &format!(" (it names the expert's as {}: another version of the game?)", r.expert);
        }
    }
    let value = json!({
        "date": day.to_string(),
        "rules": preset.name(),
        "bots": bots.name(),
        "seed": day.seed(preset),
        "deals": codes.iter().zip(&dealers).zip(&expert).map(|((c, d), p)| json!({ "code": c, "dealer": d, "expert": p })).collect::<Vec<_>>(),
        "expert": expert.iter().sum::<u32>(),
        "result": friend.map(|r| json!({ "points": r.points, "expert": r.expert, "at_least": r.at_least() })),
    });
    output(args, value, human);
    Ok(())
}
