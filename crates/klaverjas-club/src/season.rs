//! A club's season: the evenings' points added up per member, all of them
//! or each member's best N.

use serde::{Deserialize, Serialize};

/// One member's evening: their points.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Attended {
    pub name: String,
    pub points: u32,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeasonRow {
    pub name: String,
    pub evenings: u32,
    /// The points that count: all evenings', or the best `best`.
    pub points: u32,
    pub place: u32,
}

/// The season table of `evenings` (each the members' points of one
/// evening); `best`: only each member's best so many count.
pub fn season(evenings: &[Vec<Attended>], best: Option<usize>) -> Vec<SeasonRow> {
    let mut members: Vec<(String, String, Vec<u32>)> = Vec::new();
    for evening in evenings {
        for a in evening {
            let key = crate::name_key(&a.name);
            match members.iter_mut().find(|m| m.0 == key) {
                Some(m) => m.2.push(a.points),
                None => members.push((key, a.name.trim().to_owned(), vec![a.points])),
            }
        }
    }
    let mut rows: Vec<SeasonRow> = members
        .into_iter()
        .map(|(_, name, mut points)| {
            points.sort_unstable_by(|a, b| b.cmp(a));
            let evenings = points.len() as u32;
            let counted = points.iter().take(best.unwrap_or(usize::MAX)).sum();
            SeasonRow { name, evenings, points: counted, place: 0 }
        })
        .collect();
    rows.sort_by(|a, b| b.points.cmp(&a.points).then_with(|| crate::name_key(&a.name).cmp(&crate::name_key(&b.name))));
    for i in 0..rows.len() {
        rows[i].place = if i > 0 && rows[i].points == rows[i - 1].points { rows[i - 1].place } else { i as u32 + 1 };
    }
    rows
}
