//! `kj stats`: the numbers of the game's Statistics screen, read from the
//! player's profile (`profile.ron` in the game's data folder), so they can
//! be checked without a window.

use crate::args::Args;
use crate::{Failure, output};
use klaverjas_ai::progress::{Kind, PROFILE_FORMAT, Profile, SPANS, Tally, span_shown};
use serde_json::{Value, json};
use std::path::PathBuf;

/// Only the version, read first: a newer file is named as such even when
/// the rest would not parse.
#[derive(serde::Deserialize)]
struct FormatProbe {
    format: u32,
}

pub fn stats(args: &Args) -> Result<(), Failure> {
    let dir = PathBuf::from(args.req("data-dir")?);
    if !dir.is_dir() {
        return Err(format!("--data-dir: {} is not a folder", dir.display()).into());
    }
    let path = dir.join("profile.ron");
    let profile = match std::fs::read_to_string(&path) {
        Ok(text) => read(&text).map_err(|e| format!("{}: {e}", path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Profile::default(),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display()).into()),
    };
    output(args, as_json(&profile), in_words(&profile));
    Ok(())
}

fn read(text: &str) -> Result<Profile, String> {
    let probe: FormatProbe = ron::from_str(text).map_err(|e| format!("damaged: {e}"))?;
    if probe.format > PROFILE_FORMAT {
        return Err(format!("written by a newer game (format {}, kj reads {PROFILE_FORMAT})", probe.format));
    }
    ron::from_str(text).map_err(|e| format!("damaged: {e}"))
}

fn tally_json(t: &Tally) -> Value {
    json!({
        "matches": t.matches, "matches_won": t.matches_won, "matches_lost": t.matches_lost,
        "deals": t.deals, "deals_won": t.deals_won, "deals_lost": t.deals_lost,
        "nat_for": t.nat_for, "nat_against": t.nat_against,
        "pit_for": t.pit_for, "pit_against": t.pit_against,
        "roem_called": t.roem_called, "roem_missed": t.roem_missed,
        "points": t.points, "points_per_deal": t.points_per_deal(),
        "longest_run": t.longest_run, "played": t.played, "played_nat": t.played_nat,
    })
}

/// A span's name in the JSON: `last_10`, `last_50`, `all`.
fn span_name(last: Option<usize>) -> String {
    last.map_or("all".into(), |n| format!("last_{n}"))
}

fn as_json(p: &Profile) -> Value {
    let rows: Vec<Value> = p
        .rows
        .iter()
        .map(|r| {
            json!({"preset": r.preset.name(), "bots": r.bots.name(), "kind": r.kind.name(), "tally": tally_json(&r.tally)})
        })
        .collect();
    let curve: serde_json::Map<String, Value> = Kind::ALL
        .iter()
        .map(|&kind| {
            let mut each = serde_json::Map::new();
            each.insert("deals".into(), json!(p.curve_of(kind).count()));
            for last in SPANS {
                let avg = p.average(kind, last).map(|(you, expert)| json!({"you": you, "expert": expert}));
                each.insert(span_name(last), json!(avg));
            }
            let costliest: Vec<Value> = p
                .costliest(kind, 5)
                .into_iter()
                .map(|i| {
                    let d = &p.curve[i];
                    json!({"deal": p.number_in_kind(i), "code": d.code, "preset": d.preset.name(), "loss": d.loss, "expert": d.expert})
                })
                .collect();
            each.insert("costliest".into(), json!(costliest));
            (kind.name().to_string(), Value::Object(each))
        })
        .collect();
    json!({"format": p.format, "rows": rows, "curve": curve})
}

fn in_words(p: &Profile) -> String {
    if p.rows.is_empty() {
        return "No deals counted yet.".into();
    }
    let mut out = Vec::new();
    for r in &p.rows {
        let t = &r.tally;
        out.push(format!("{} against {} bots, {}:", r.preset.name(), r.bots.name(), r.kind.name()));
        out.push(format!("  matches {} (won {}, lost {})", t.matches, t.matches_won, t.matches_lost));
        out.push(format!("  deals   {} (won {}, lost {})", t.deals, t.deals_won, t.deals_lost));
        out.push(format!(
            "  nat     {} for, {} against; pit {} for, {} against",
            t.nat_for, t.nat_against, t.pit_for, t.pit_against
        ));
        out.push(format!("  roem    {} counted, {} missed", t.roem_called, t.roem_missed));
        let per_deal = t.points_per_deal().map_or("-".into(), |a| format!("{a:.1}"));
        out.push(format!("  points  {} ({per_deal} a deal); longest winning run {}", t.points, t.longest_run));
        out.push(format!("  bids    chose to play {}, of which nat {}", t.played, t.played_nat));
    }
    for kind in Kind::ALL {
        let n = p.curve_of(kind).count();
        if n == 0 {
            continue;
        }
        out.push(format!("Points given away per deal, {} ({n} deals reviewed):", kind.name()));
        for last in SPANS.into_iter().filter(|&last| span_shown(last, n)) {
            if let Some((you, expert)) = p.average(kind, last) {
                out.push(format!("  {:<8} you {you:.1}, expert {expert:.1}", span_name(last).replace('_', " ")));
            }
        }
        for i in p.costliest(kind, 5) {
            let d = &p.curve[i];
            out.push(format!(
                "  deal {} ({}): {} given away, expert {}; code {}",
                p.number_in_kind(i),
                d.preset.name(),
                d.loss,
                d.expert,
                d.code
            ));
        }
    }
    out.join("\n")
}
