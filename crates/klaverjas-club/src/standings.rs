//! The evening's standings, worked out from its rounds each time they are
//! asked for: per player the evening's points, deals, marches and nats,
//! ranked.

use crate::PlayerId;
use crate::evening::{Evening, SitOutScore};
use klaverjas::Seat;
use serde::{Deserialize, Serialize};

#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Standing {
    pub player: PlayerId,
    pub name: String,
    /// The evening's points as the club adds them (card points, with roem
    /// where it counts, and the sit-out scores).
    pub points: u32,
    pub card_points: u32,
    pub roem: u32,
    pub deals: u32,
    /// Deals their pair took every trick of (*pit*).
    pub marches: u32,
    /// Deals their pair played and went *nat*.
    pub nats: u32,
    pub sat_out: u32,
    /// 1 for the first; players equal on every tie-break share a place.
    pub place: u32,
}

impl Standing {
    /// The tie-breaks after points: more marches, fewer nats, more roem.
    fn order(&self) -> (std::cmp::Reverse<u32>, std::cmp::Reverse<u32>, u32, std::cmp::Reverse<u32>) {
        use std::cmp::Reverse;
        (Reverse(self.points), Reverse(self.marches), self.nats, Reverse(self.roem))
    }
}

impl Evening {
    /// Everyone who checked in, ranked; live: the round in play counts as
    /// far as it is played.
    pub fn standings(&self) -> Vec<Standing> {
        let mut rows: Vec<Standing> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| Standing { player: i as PlayerId, name: p.name.clone(), ..Standing::default() })
            .collect();
        for round in self.rounds.iter().filter(|r| r.started) {
            let mut played_points = Vec::new();
            for (table, score) in round.draw.tables.iter().zip(&round.tables) {
                for seat in Seat::ALL {
                    let Some(player) = table.chairs[seat.index()] else { continue };
                    let row = &mut rows[usize::from(player)];
                    let before = row.points;
                    let team = seat.team();
                    for result in &score.results {
                        row.card_points += u32::from(result.sheet_points[team]);
                        row.roem += u32::from(result.sheet_roem[team]);
                        row.points += u32::from(result.sheet_points[team])
                            + if self.setup.roem_counts { u32::from(result.sheet_roem[team]) } else { 0 };
                        row.deals += 1;
                        row.marches += u32::from(result.pit == Some(team));
                        row.nats += u32::from(result.nat && result.contract.playing_team() == team);
                    }
                    played_points.push(row.points - before);
                }
            }
            let sit_out = match self.setup.sit_out {
                SitOutScore::Fixed(n) => n,
                SitOutScore::Average if played_points.is_empty() => 0,
                // Rounded half up.
                SitOutScore::Average => {
                    let n = played_points.len() as u32;
                    (played_points.iter().sum::<u32>() + n / 2) / n
                }
            };
            for player in &round.draw.sitting_out {
                let row = &mut rows[usize::from(*player)];
                row.points += sit_out;
                row.sat_out += 1;
            }
        }
        rows.sort_by(|a, b| {
            a.order().cmp(&b.order()).then_with(|| crate::name_key(&a.name).cmp(&crate::name_key(&b.name)))
        });
        for i in 0..rows.len() {
            rows[i].place =
                if i > 0 && rows[i].order() == rows[i - 1].order() { rows[i - 1].place } else { i as u32 + 1 };
        }
        rows
    }
}

impl Standing {
    /// The columns' names, as [`Standing::cells`] gives them.
    pub const COLUMNS: [&'static str; 9] =
        ["place", "name", "points", "card points", "roem", "deals", "marches", "nats", "sat out"];

    /// The row's cells as text, in the order of [`Standing::COLUMNS`].
    pub fn cells(&self) -> [String; 9] {
        let n = |v: u32| v.to_string();
        [
            n(self.place),
            self.name.clone(),
            n(self.points),
            n(self.card_points),
            n(self.roem),
            n(self.deals),
            n(self.marches),
            n(self.nats),
            n(self.sat_out),
        ]
    }
}

/// The standings as CSV (RFC 4180: a name with a comma or a quote quoted),
/// with a header line.
pub fn csv(rows: &[Standing]) -> String {
    let line = |cells: Vec<String>| cells.join(",") + "\r\n";
    let mut out = line(Standing::COLUMNS.map(String::from).to_vec());
    for r in rows {
        out += &line(r.cells().iter().map(|c| csv_field(c)).collect());
    }
    out
}

fn csv_field(s: &str) -> String {
    // A leading = + - @ would be a formula to a spreadsheet.
    let s = if s.starts_with(['=', '+', '-', '@']) { format!("'{s}") } else { s.to_owned() };
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s }
}
