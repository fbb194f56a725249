//! Roem (RULES section 5): table roem, the combinations among the four
//! cards of one trick, credited to the team that wins the trick; and hand
//! roem, the combinations held in a hand as dealt.

use crate::card::{Card, CardSet, Rank, Suit};
use crate::rules::RoemTable;
use crate::seat::{Seat, Team};

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

/// Stuk (*stuk*, king and queen of trumps) is worth 20 under every table
/// that has roem.
pub const STUK: u16 = 20;

/// Every value one combination scores under `table` (stuk, a run of each
/// length, four of a kind of each rank), each once: the parts a team's
/// roem in a deal adds up from. Empty where the table has no roem.
pub fn values(table: RoemTable) -> Vec<u16> {
    if table == RoemTable::None {
        return Vec::new();
    }
    let runs = (3..=8).map(|length| hand_run_value(length, table));
    let fours = Rank::ALL.into_iter().map(|rank| four_of_a_kind_value(rank, table));
    let mut all: Vec<u16> = std::iter::once(STUK).chain(runs).chain(fours).filter(|&v| v > 0).collect();
    all.sort_unstable();
    all.dedup();
    all
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
        RoemTable::SouthAfrican => match rank {
            Rank::Jack => 200,
            Rank::Ace | Rank::King | Rank::Queen => 100,
            _ => 0,
        },
        RoemTable::None | RoemTable::Klaberjass => 0,
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

/// A combination held in a hand (hand roem): a run in one suit, or four of
/// a kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Meld {
    /// The run's suit; `None` for four of a kind.
    pub suit: Option<Suit>,
    /// Cards in the run, 4 for four of a kind.
    pub length: u8,
    /// The run's highest card in sequence order, or the four's rank.
    pub top: Rank,
    pub points: u16,
}

impl Meld {
    /// Which of two melds is better (RULES section 5, seed 001's Wilde
    /// Boom: "the combination with the highest scoring value is considered
    /// higher. However, if the highest combination claimed by both teams is
    /// the same scoring value, the combination which contains the highest
    /// ranked card is considered the higher"), ranks in sequence order.
    /// Where both are equal the source is silent: a run in trumps beats one
    /// in a plain suit, as South African sizing has it (002: "trump beats
    /// plain of equal rank"); otherwise neither is better. In Klaberjass,
    /// where every run of four or more is worth 50, the longer run comes
    /// before the higher (003: "a four card sequence beats three, and so
    /// on").
    pub fn beats(&self, other: &Meld, trump: Suit, table: RoemTable) -> bool {
        let length = |m: &Meld| if table == RoemTable::Klaberjass { m.length } else { 0 };
        let key = |m: &Meld| (m.points, length(m), m.top.index(), m.suit == Some(trump));
        key(self) > key(other)
    }

    /// Whether it wins the game outright in a boem (002): *vyf-eenderse*, a
    /// run of five or more, or four jacks, aces, kings or queens.
    pub fn wins_outright(&self, table: RoemTable) -> bool {
        table == RoemTable::SouthAfrican && (self.length >= 5 || self.suit.is_none())
    }

    /// How a player announces it: "fifty, queen high".
    pub fn describe(&self) -> String {
        let what = match (self.suit, self.length) {
            (None, _) => format!("four {}s", self.top.name()),
            (Some(_), 3) => "three in a row".to_string(),
            (Some(_), 4) => "four in a row".to_string(),
            (Some(_), n) => format!("{n} in a row"),
        };
        format!("{what}, {} high: {}", self.top.name(), self.points)
    }
}

/// The value of a run of `length` held in a hand: 20 for three, 50 for
/// four, and for five or more 100 under seed 001's values (Wilde Boom: "A
/// sequence (run) of five or more cards in the same suit has a value of
/// 100 points"), 150 under the South African table, where it wins the
/// game outright and the value only ranks it (it is never scored), and 50
/// under the others
/// (003, Klaberjass: four or more 50).
pub const fn hand_run_value(length: u8, table: RoemTable) -> u16 {
    match (length, table) {
        (_, RoemTable::None) | (0..=2, _) => 0,
        (3, _) => 20,
        (4, _) | (_, RoemTable::Blog | RoemTable::Nku | RoemTable::Klaberjass) => 50,
        (_, RoemTable::Cards001) => 100,
        (_, RoemTable::SouthAfrican) => 150,
    }
}

/// The combinations in a hand as dealt, best first: every longest run of
/// three or more in one suit (sequence order 7 8 9 10 J Q K A) and every
/// four of a kind the table values. A card may be in a run and in a four
/// of a kind both; stuk is not among them (it counts when played).
pub fn hand_melds(hand: CardSet, trump: Suit, table: RoemTable) -> Vec<Meld> {
    let mut melds = Vec::new();
    for suit in Suit::ALL {
        let bits = (hand.0 >> (suit.index() * 8)) & 0xFF;
        let mut rank = 0;
        while rank < 8 {
            let length = (bits >> rank).trailing_ones() as usize;
            let points = hand_run_value(length as u8, table);
            if points > 0 {
                let top = Rank::from_index(rank + length - 1);
                melds.push(Meld { suit: Some(suit), length: length as u8, top, points });
            }
            rank += length.max(1);
        }
    }
    for rank in Rank::ALL {
        let points = four_of_a_kind_value(rank, table);
        if points > 0 && Suit::ALL.iter().all(|&s| hand.contains(Card::new(s, rank))) {
            melds.push(Meld { suit: None, length: 4, top: rank, points });
        }
    }
    melds.sort_by(|a, b| {
        if a.beats(b, trump, table) {
            std::cmp::Ordering::Less
        } else if b.beats(a, trump, table) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    melds
}

/// What a hand as dealt brings its side if its announcement wins: every
/// combination in it, or under Klaberjass's table only the best.
pub fn hand_roem_points(hand: CardSet, trump: Suit, table: RoemTable) -> u16 {
    let melds = hand_melds(hand, trump, table);
    if table.best_only() { melds.first().map_or(0, |m| m.points) } else { melds.iter().map(|m| m.points).sum() }
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

/// Hand roem settled (RULES section 5): of the combinations `announced`
/// in order, the best decides, the first announced winning among equals
/// (002: "first announced wins ties"), and its team scores every
/// combination in both its players' hands (001: "entitled to score for all
/// such combinations as found in the hands of both members"); under the
/// South African table only those of its seats that announced, and none
/// that wins outright; under Klaberjass's only the best combination
/// itself. `hands` are the hands as dealt. `None` when nothing was
/// announced.
pub fn settle_hand_roem(
    announced: impl IntoIterator<Item = (Seat, Meld)>,
    hands: [CardSet; 4],
    trump: Suit,
    table: RoemTable,
) -> Option<SettledRoem> {
    let mut announcers = Vec::new();
    let best =
        announced.into_iter().inspect(|&(s, _)| announcers.push(s)).fold(None, |best: Option<(Seat, Meld)>, a| {
            match best {
                Some(b) if !a.1.beats(&b.1, trump, table) => Some(b),
                _ => Some(a),
            }
        })?;
    let team = best.0.team();
    // South African roemte counts only as roemed, by the seats that
    // announced (002: "if a player neglects to roem in the first round
    // of play, he forfeits the chance to roem"), and a combination that
    // wins outright is no points.
    let south_african = table == RoemTable::SouthAfrican;
    let counts = |s: &Seat| s.team() == team && (!south_african || announcers.contains(s));
    let points = if table.best_only() {
        best.1.points
    } else {
        Seat::ALL
            .iter()
            .filter(|s| counts(s))
            .flat_map(|s| hand_melds(hands[s.index()], trump, table))
            .filter(|m| !m.wins_outright(table))
            .map(|m| m.points)
            .sum()
    };
    Some(SettledRoem { team, points, best: best.1 })
}

/// Hand roem once settled: the team that scores, all it scores, and the
/// combination that won it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SettledRoem {
    pub team: Team,
    pub points: u16,
    pub best: Meld,
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
    fn hand_melds_find_every_longest_run_and_four_of_a_kind() {
        let melds = |cards: &str, table| {
            let found = hand_melds(CardSet::parse(cards).unwrap(), Suit::Hearts, table);
            found.iter().map(|m| (m.length, m.top, m.points)).collect::<Vec<_>>()
        };
        // 7 8 9 10 J of clubs is one run of five, not runs of three and four.
        assert_eq!(melds("7C 8C 9C TC JC AH KH 7S", RoemTable::Cards001), vec![(5, Rank::Jack, 100)]);
        assert_eq!(melds("7C 8C 9C TC JC AH KH 7S", RoemTable::Nku), vec![(5, Rank::Jack, 50)]);
        // Two runs, the better first; Q K A is a run, 10 A K is not.
        assert_eq!(melds("QD KD AD 7S 8S 9S TS TH", RoemTable::Blog), vec![(4, Rank::Ten, 50), (3, Rank::Ace, 20)]);
        // Four jacks are 200 under seed 001 and four nines nothing.
        assert_eq!(melds("JC JD JH JS 9C 9D 9H 9S", RoemTable::Cards001), vec![(4, Rank::Jack, 200)]);
        assert!(melds("AH KH 7S 9C 8D TD QC 7C", RoemTable::Nku).is_empty());
        assert!(melds("7C 8C 9C TC JC AH KH 7S", RoemTable::None).is_empty());
        let m = hand_melds(CardSet::parse("9D TD JD QD").unwrap(), Suit::Hearts, RoemTable::Nku)[0];
        assert_eq!(m.describe(), "four in a row, queen high: 50");
    }

    #[test]
    fn the_better_meld_by_value_then_top_card_then_trump() {
        let run = |suit, top, points| Meld { suit: Some(suit), length: 3, top, points };
        let trump = Suit::Spades;
        let nku = RoemTable::Nku;
        assert!(run(Suit::Hearts, Rank::Ten, 50).beats(&run(Suit::Clubs, Rank::Ace, 20), trump, nku));
        assert!(run(Suit::Hearts, Rank::King, 20).beats(&run(Suit::Clubs, Rank::Queen, 20), trump, nku));
        assert!(run(Suit::Spades, Rank::King, 20).beats(&run(Suit::Clubs, Rank::King, 20), trump, nku));
        // Klaberjass: a run of five, king high, beats four to the ace.
        let five = Meld { suit: Some(Suit::Hearts), length: 5, top: Rank::King, points: 50 };
        let four = Meld { suit: Some(Suit::Clubs), length: 4, top: Rank::Ace, points: 50 };
        assert!(five.beats(&four, trump, RoemTable::Klaberjass) && !four.beats(&five, trump, RoemTable::Klaberjass));
        let hand = CardSet::parse("9H TH JH QH KH 8C 9C TC JC").unwrap();
        assert_eq!(hand_melds(hand, trump, RoemTable::Klaberjass)[0].length, 5, "the five-run is announced");
        let (a, b) = (run(Suit::Hearts, Rank::King, 20), run(Suit::Clubs, Rank::King, 20));
        assert!(!a.beats(&b, trump, nku) && !b.beats(&a, trump, nku), "equal: neither");
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
