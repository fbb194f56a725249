//! Table roem: the combinations among the four cards of one trick
//! (RULES section 5), credited to the team that wins the trick.

use crate::card::{CardSet, Rank, Suit};
use crate::rules::RoemTable;

/// The roem in one trick, by kind, and its value under a table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TrickRoem {
    /// Length of the longest run in one suit (0, 3 or 4), sequence order
    /// 7 8 9 10 J Q K A in every suit.
    pub run: u8,
    /// The rank of four of a kind, if the trick holds one.
    pub four_of_a_kind: Option<Rank>,
    /// King and queen of trumps in the trick.
    pub stuk: bool,
    /// The value of all of it together.
    pub points: u16,
}

impl TrickRoem {
    pub fn is_empty(&self) -> bool {
        self.points == 0
    }

    /// How a player would call it: "stuk and three in a row: 40".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.stuk {
            parts.push("stuk".to_string());
        }
        match self.run {
            3 => parts.push("three in a row".to_string()),
            4 => parts.push("four in a row".to_string()),
            _ => {}
        }
        if let Some(rank) = self.four_of_a_kind {
            parts.push(format!("four {}s", rank.name()));
        }
        if parts.is_empty() {
            return "no roem".to_string();
        }
        format!("{}: {}", parts.join(" and "), self.points)
    }
}

/// Value of four of a kind under each table.
pub const fn four_of_a_kind_value(rank: Rank, table: RoemTable) -> u16 {
    match table {
        RoemTable::Blog => 50,
        RoemTable::Nku => 100,
        RoemTable::Cards001 => match rank {
            Rank::Jack => 200,
            Rank::Ace | Rank::King | Rank::Queen | Rank::Ten => 100,
            _ => 0,
        },
        RoemTable::None => 0,
    }
}

/// The longest run (0, 3 or 4 cards in sequence) among a suit's cards,
/// one bit a rank in sequence order: the trick loop of solvers asks often.
const RUN: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        let three = x & (x >> 1) & (x >> 2);
        table[x] = if three & (x >> 3) != 0 {
            4
        } else if three != 0 {
            3
        } else {
            0
        };
        x += 1;
    }
    table
};

/// The roem in a trick's cards. Runs and four of a kind do not combine with
/// each other (four cards cannot hold both); stuk adds to a run, so a trump
/// run with king and queen is 40 (three) or 70 (four). A run of four scores
/// 50, not 50 plus the 20 of the three inside it.
pub fn trick_roem(cards: CardSet, trump: Suit, table: RoemTable) -> TrickRoem {
    if table == RoemTable::None {
        return TrickRoem::default();
    }
    let bits = cards.0;
    // A trick holds four cards, so at most one suit can hold a run.
    let run = bits.to_le_bytes().iter().map(|&x| RUN[x as usize]).max().unwrap_or(0);
    let same_rank = bits & (bits >> 8) & (bits >> 16) & (bits >> 24) & 0xFF;
    let four_of_a_kind = (same_rank != 0).then(|| Rank::from_index(same_rank.trailing_zeros() as usize));
    let stuk_cards =
        CardSet::EMPTY.with(crate::Card::new(trump, Rank::King)).with(crate::Card::new(trump, Rank::Queen));
    let stuk = stuk_cards.is_subset(cards);
    let points = match run {
        4 => 50,
        3 => 20,
        _ => 0,
    } + four_of_a_kind.map_or(0, |r| four_of_a_kind_value(r, table))
        + if stuk { 20 } else { 0 };
    TrickRoem { run, four_of_a_kind, stuk, points }
}

/// Score-sheet marks for an amount of roem: 100 = O, 50 = V, 20 = I
/// (seed 001's symbols; seed 000 uses I and V). The marks add up to the
/// roem exactly (60 is III, not V), the larger marks first: every amount
/// roem can come to is 20s and 50s, so one always fits.
pub fn marks(roem: u16) -> String {
    let exact = (0..=roem / 100).rev().find_map(|o| {
        let left = roem - o * 100;
        (0..=left / 50).rev().find_map(|v| {
            let rest = left - v * 50;
            rest.is_multiple_of(20).then_some((o, v, rest / 20))
        })
    });
    // No roem comes to an amount that is not 20s and 50s; were it to, the
    // marks would fall short rather than claim too much.
    let (o, v, i) = exact.unwrap_or((0, roem / 50, roem % 50 / 20));
    ["O".repeat(o as usize), "V".repeat(v as usize), "I".repeat(i as usize)].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark_value(marks: &str) -> u16 {
        marks
            .chars()
            .map(|m| match m {
                'O' => 100,
                'V' => 50,
                'I' => 20,
                other => panic!("mark {other}"),
            })
            .sum()
    }

    /// Every total roem can come to up to 500 (20s and 50s: runs, stuk,
    /// four of a kind) is written with marks that add up to it exactly.
    #[test]
    fn marks_add_up_to_every_roem_total() {
        for total in 0..=500u16 {
            let reachable = (0..=total / 50).any(|b| (total - b * 50).is_multiple_of(20));
            if reachable {
                assert_eq!(mark_value(&marks(total)), total, "{total}: {}", marks(total));
            }
        }
    }

    fn roem(cards: &str, trump: Suit, table: RoemTable) -> u16 {
        let set: CardSet = CardSet::parse(cards).unwrap();
        trick_roem(set, trump, table).points
    }

    #[test]
    fn runs_across_the_tricks_cards_in_any_order() {
        assert_eq!(roem("JH 9H 7C TH", Suit::Spades, RoemTable::Blog), 20);
        assert_eq!(roem("AD QD KD JD", Suit::Spades, RoemTable::Blog), 50);
        // 9 10 J in sequence order though J and 9 rank top in trumps.
        assert_eq!(roem("JH 9H TH 7C", Suit::Hearts, RoemTable::Nku), 20);
        // Runs use sequence order: A K Q is a run, 10 A K is not.
        assert_eq!(roem("AS KS QS 7H", Suit::Hearts, RoemTable::Blog), 20);
        assert_eq!(roem("TS AS KS 7H", Suit::Hearts, RoemTable::Blog), 0);
        // Two suits never make a run.
        assert_eq!(roem("7H 8H 9S 7C", Suit::Hearts, RoemTable::Blog), 0);
    }

    #[test]
    fn stuk_adds_to_a_trump_run() {
        assert_eq!(roem("KH QH 7C 8C", Suit::Hearts, RoemTable::Blog), 20);
        assert_eq!(roem("KH QH JH 8C", Suit::Hearts, RoemTable::Blog), 40);
        assert_eq!(roem("KH QH JH TH", Suit::Hearts, RoemTable::Nku), 70);
        assert_eq!(roem("AH KH QH 7S", Suit::Hearts, RoemTable::Cards001), 40);
        // King and queen of a plain suit are no stuk.
        assert_eq!(roem("KH QH 7C 8C", Suit::Spades, RoemTable::Blog), 0);
        let r = trick_roem(CardSet::parse("KH QH JH TH").unwrap(), Suit::Hearts, RoemTable::Nku);
        assert_eq!(r.describe(), "stuk and four in a row: 70");
    }

    #[test]
    fn four_of_a_kind_per_table() {
        let four = |rank: &str, table| roem(&format!("{rank}C {rank}D {rank}H {rank}S"), Suit::Hearts, table);
        for rank in ["7", "8", "9", "T", "J", "Q", "K", "A"] {
            assert_eq!(four(rank, RoemTable::Blog), 50, "blog, four {rank}");
            assert_eq!(four(rank, RoemTable::Nku), 100, "NKU, four {rank}");
        }
        assert_eq!(four("J", RoemTable::Cards001), 200);
        assert_eq!(four("A", RoemTable::Cards001), 100);
        assert_eq!(four("T", RoemTable::Cards001), 100);
        assert_eq!(four("9", RoemTable::Cards001), 0);
        assert_eq!(four("7", RoemTable::Cards001), 0);
    }

    #[test]
    fn sheet_marks() {
        assert_eq!(marks(60), "III");
        assert_eq!(marks(110), "VIII");
        assert_eq!(marks(160), "OIII");
        assert_eq!(marks(20), "I");
        assert_eq!(marks(90), "VII");
        assert_eq!(marks(70), "VI");
        assert_eq!(marks(200), "OO");
        assert_eq!(marks(0), "");
    }
}
