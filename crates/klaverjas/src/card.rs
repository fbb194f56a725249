//! Cards, suits, ranks and the 32-card set as a bitset.
//!
//! A [`Card`] is an index 0..32 (`suit * 8 + rank`), and a [`CardSet`] is a
//! `u32` with one bit per card, so hands, tricks and "cards still out" are
//! single machine words and every rule check is a few bit operations.

use std::fmt;
use std::str::FromStr;

/// The four suits. The engine knows only these four; Swiss-style names
/// (Bells, Shields, Roses, Acorns) are a skin chosen by the app.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Suit {
    /// Klaveren.
    Clubs = 0,
    /// Ruiten.
    Diamonds = 1,
    /// Harten.
    Hearts = 2,
    /// Schoppen.
    Spades = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Suit {
        match i & 3 {
            0 => Suit::Clubs,
            1 => Suit::Diamonds,
            2 => Suit::Hearts,
            _ => Suit::Spades,
        }
    }

    /// The letter of the `kj` notation: C D H S.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The plural name players use: "hearts".
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        }
    }

    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Suit {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Suit, ParseError> {
        let t = s.trim();
        let mut chars = t.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Suit::from_letter(c),
            _ => Suit::ALL.into_iter().find(|suit| suit.name().eq_ignore_ascii_case(t)),
        }
        .ok_or_else(|| ParseError::new("suit", t))
    }
}

/// Ranks in sequence order (7 8 9 10 J Q K A), the order that runs of roem use.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rank {
    Seven = 0,
    Eight = 1,
    Nine = 2,
    Ten = 3,
    /// Boer.
    Jack = 4,
    /// Vrouw.
    Queen = 5,
    /// Heer.
    King = 6,
    Ace = 7,
}

/// Which order and points the cards have (RULES section 1): the Dutch
/// game's, or South African Klawerjas's (002), where the ten ranks in its
/// natural place, the jack of trumps is worth 20 and a plain jack 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CardValues {
    /// Plain A 10 K Q J 9 8 7, trump J 9 A 10 K Q 8 7; 152 card points.
    #[default]
    Dutch,
    /// Plain A K Q J 10 9 8 7, trump J 9 A K Q 10 8 7; 141 card points
    /// (002 line 208: "the Queen of trumps, which only has a two point
    /// value, outranks the ten of trumps").
    SouthAfrican,
}

/// Trick-taking strength of each rank (by sequence index), by
/// [`CardValues`] and then plain (0) or trump (1), 0..8 low to high.
const STRENGTH: [[[u8; 8]; 2]; 2] = [
    // Dutch: A 10 K Q J 9 8 7 and J 9 A 10 K Q 8 7.
    [[0, 1, 2, 6, 3, 4, 5, 7], [0, 1, 6, 4, 7, 2, 3, 5]],
    // South African: A K Q J 10 9 8 7 and J 9 A K Q 10 8 7.
    [[0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 6, 2, 7, 3, 4, 5]],
];
/// Card points by the same indices.
const POINTS: [[[u8; 8]; 2]; 2] = [
    // Dutch: J 2 / 20, 9 0 / 14, A 11, 10 10, K 4, Q 3.
    [[0, 0, 0, 10, 2, 3, 4, 11], [0, 0, 14, 10, 20, 3, 4, 11]],
    // South African (002, III): J 1 / 20, 9 0 / 14, A 11, 10 10, K 3, Q 2.
    [[0, 0, 0, 10, 1, 2, 3, 11], [0, 0, 14, 10, 20, 2, 3, 11]],
];

/// For each rank, the suit-local bits of the ranks that beat it, by the
/// same indices as [`STRENGTH`].
const ABOVE: [[[u8; 8]; 2]; 2] = [
    [above_masks(STRENGTH[0][0]), above_masks(STRENGTH[0][1])],
    [above_masks(STRENGTH[1][0]), above_masks(STRENGTH[1][1])],
];

const fn above_masks(strength: [u8; 8]) -> [u8; 8] {
    let mut out = [0u8; 8];
    let mut r = 0;
    while r < 8 {
        let mut o = 0;
        while o < 8 {
            if strength[o] > strength[r] {
                out[r] |= 1 << o;
            }
            o += 1;
        }
        r += 1;
    }
    out
}

impl CardValues {
    pub const ALL: [CardValues; 2] = [CardValues::Dutch, CardValues::SouthAfrican];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// Strength 0..8 of `rank` within its suit; `trump` picks the trump order.
    pub const fn strength(self, rank: Rank, trump: bool) -> u8 {
        STRENGTH[self as usize][trump as usize][rank as usize]
    }

    /// Points of `rank`, in the trump suit or a plain one.
    pub const fn rank_points(self, rank: Rank, trump: bool) -> u8 {
        POINTS[self as usize][trump as usize][rank as usize]
    }

    /// Points of `card` with `trump` as the trump suit.
    pub const fn points(self, card: Card, trump: Suit) -> u8 {
        self.rank_points(card.rank(), card.is_trump(trump))
    }

    /// The cards of `card`'s suit that beat it, given the trump suit.
    pub const fn higher_in_suit(self, card: Card, trump: Suit) -> CardSet {
        let local = ABOVE[self as usize][card.is_trump(trump) as usize][card.rank() as usize];
        CardSet((local as u32) << (card.0 & !7))
    }

    /// Card points of all cards in the set.
    #[inline]
    pub fn set_points(self, set: CardSet, trump: Suit) -> u16 {
        // Plain values by rank across all suits, then the trump jack's and
        // nine's extra: a handful of popcounts instead of a loop.
        const RANK: u32 = 0x0101_0101;
        let count = |rank: Rank| (set.0 & (RANK << rank as u32)).count_ones() as u16;
        let plain = |rank: Rank| self.rank_points(rank, false) as u16;
        let extra = |rank: Rank| (self.rank_points(rank, true) - self.rank_points(rank, false)) as u16;
        let all = 10 * count(Rank::Ten)
            + plain(Rank::Jack) * count(Rank::Jack)
            + plain(Rank::Queen) * count(Rank::Queen)
            + plain(Rank::King) * count(Rank::King)
            + 11 * count(Rank::Ace);
        let jack = set.contains(Card::new(trump, Rank::Jack)) as u16;
        let nine = set.contains(Card::new(trump, Rank::Nine)) as u16;
        all + extra(Rank::Jack) * jack + extra(Rank::Nine) * nine
    }

    /// The points of all 32 cards: 152 Dutch, 141 South African.
    pub const fn total(self) -> u16 {
        let (mut total, mut r) = (0, 0);
        while r < 8 {
            let rank = Rank::from_index(r);
            total += 3 * self.rank_points(rank, false) as u16 + self.rank_points(rank, true) as u16;
            r += 1;
        }
        total
    }
}

impl Rank {
    pub const ALL: [Rank; 8] =
        [Rank::Seven, Rank::Eight, Rank::Nine, Rank::Ten, Rank::Jack, Rank::Queen, Rank::King, Rank::Ace];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Rank {
        match i & 7 {
            0 => Rank::Seven,
            1 => Rank::Eight,
            2 => Rank::Nine,
            3 => Rank::Ten,
            4 => Rank::Jack,
            5 => Rank::Queen,
            6 => Rank::King,
            _ => Rank::Ace,
        }
    }

    /// The letter of the `kj` notation: 7 8 9 T J Q K A.
    pub const fn letter(self) -> char {
        match self {
            Rank::Seven => '7',
            Rank::Eight => '8',
            Rank::Nine => '9',
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            Rank::Ace => 'A',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "jack",
            Rank::Queen => "queen",
            Rank::King => "king",
            Rank::Ace => "ace",
        }
    }

    fn from_token(t: &str) -> Option<Rank> {
        Some(match t.to_ascii_uppercase().as_str() {
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "T" | "10" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return None,
        })
    }
}

/// One of the 32 cards, stored as `suit * 8 + rank`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card((suit as u8) << 3 | rank as u8)
    }

    /// The card with index `i` (0..32); `None` outside that range.
    pub const fn from_index(i: usize) -> Option<Card> {
        if i < 32 { Some(Card(i as u8)) } else { None }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn suit(self) -> Suit {
        Suit::from_index((self.0 >> 3) as usize)
    }

    pub const fn rank(self) -> Rank {
        Rank::from_index((self.0 & 7) as usize)
    }

    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    pub const fn is_trump(self, trump: Suit) -> bool {
        self.0 >> 3 == trump as u8
    }

    /// The name a player says: "the 9 of trumps", "the ace of hearts".
    pub fn spoken(self, trump: Option<Suit>) -> String {
        let suit = if Some(self.suit()) == trump { "trumps" } else { self.suit().name() };
        format!("the {} of {}", self.rank().name(), suit)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Card {
    type Err = ParseError;
    /// Rank then suit, case-insensitive: `JH`, `10s`, `td`.
    fn from_str(s: &str) -> Result<Card, ParseError> {
        let t = s.trim();
        let bad = || ParseError::new("card", t);
        let last = t.chars().last().ok_or_else(bad)?;
        let suit = Suit::from_letter(last).ok_or_else(bad)?;
        let rank = Rank::from_token(&t[..t.len() - last.len_utf8()]).ok_or_else(bad)?;
        Ok(Card::new(suit, rank))
    }
}

/// A set of cards: bit `i` is the card with index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(pub u32);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    pub const ALL: CardSet = CardSet(u32::MAX);

    /// All eight cards of `suit`.
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(0xFF << (suit as u32 * 8))
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }

    pub fn insert(&mut self, card: Card) {
        self.0 |= card.bit();
    }

    pub fn remove(&mut self, card: Card) {
        self.0 &= !card.bit();
    }

    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | card.bit())
    }

    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    pub const fn intersect(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The cards of `suit` in this set.
    pub const fn of_suit(self, suit: Suit) -> CardSet {
        CardSet(self.0 & CardSet::suit(suit).0)
    }

    /// The lowest-index card, if any.
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 { None } else { Some(Card(self.0.trailing_zeros() as u8)) }
    }

    /// The `n`-th card in index order (0-based), if the set has that many.
    pub fn nth(self, n: u32) -> Option<Card> {
        let mut bits = self.0;
        for _ in 0..n {
            bits &= bits.wrapping_sub(1);
        }
        CardSet(bits).first()
    }

    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// Parse cards separated by spaces or commas. Duplicates are an error:
    /// in a 32-card deck a card named twice is always a typing mistake.
    pub fn parse_list(s: &str) -> Result<Vec<Card>, ParseError> {
        let mut seen = CardSet::EMPTY;
        let mut out = Vec::new();
        for token in s.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()) {
            let card: Card = token.parse()?;
            if seen.contains(card) {
                return Err(ParseError::new("duplicate card", token));
            }
            seen.insert(card);
            out.push(card);
        }
        Ok(out)
    }

    /// [`CardSet::parse_list`] as a set, where the order does not matter
    /// (a hand).
    pub fn parse(s: &str) -> Result<CardSet, ParseError> {
        Ok(CardSet::parse_list(s)?.into_iter().collect())
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

/// Iterates a [`CardSet`] in index order (clubs 7 first, spades ace last).
pub struct CardSetIter(u32);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card(i as u8))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

/// A token that does not name what was expected. The message names the token.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    pub what: &'static str,
    pub token: String,
}

impl ParseError {
    pub fn new(what: &'static str, token: &str) -> ParseError {
        ParseError { what, token: token.to_string() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} '{}'", self.what_phrase(), self.token)
    }
}

impl ParseError {
    fn what_phrase(&self) -> String {
        if self.what.starts_with("duplicate") { self.what.to_string() } else { format!("unknown {}", self.what) }
    }
}

impl std::error::Error for ParseError {}

#[cfg(feature = "serde")]
mod serde_impls {
    //! Cards serialise as their notation ("JH") so save files stay readable.
    use super::*;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    macro_rules! via_string {
        ($t:ty) => {
            impl Serialize for $t {
                fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.collect_str(self)
                }
            }
            impl<'de> Deserialize<'de> for $t {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                    let s = String::deserialize(d)?;
                    s.parse().map_err(D::Error::custom)
                }
            }
        };
    }
    via_string!(Card);
    via_string!(Suit);

    impl Serialize for CardSet {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.iter())
        }
    }
    impl<'de> Deserialize<'de> for CardSet {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
            Ok(Vec::<Card>::deserialize(d)?.into_iter().collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_and_points_follow_rules_section_1() {
        use Rank::*;
        let by = |values: CardValues, trump: bool| {
            let mut r = Rank::ALL.to_vec();
            r.sort_by_key(|&r| std::cmp::Reverse(values.strength(r, trump)));
            r
        };
        assert_eq!(by(CardValues::Dutch, false), [Ace, Ten, King, Queen, Jack, Nine, Eight, Seven]);
        assert_eq!(by(CardValues::Dutch, true), [Jack, Nine, Ace, Ten, King, Queen, Eight, Seven]);
        assert_eq!(by(CardValues::SouthAfrican, false), [Ace, King, Queen, Jack, Ten, Nine, Eight, Seven]);
        assert_eq!(by(CardValues::SouthAfrican, true), [Jack, Nine, Ace, King, Queen, Ten, Eight, Seven]);
        assert_eq!(CardValues::Dutch.total(), 152, "card points without the last trick");
        // 002: "three ordinary suits with a total value of 27 points each"
        // and "The trump suit has a total value of 60 points".
        let sa = CardValues::SouthAfrican;
        assert_eq!(sa.set_points(CardSet::suit(Suit::Clubs), Suit::Hearts), 27);
        assert_eq!(sa.set_points(CardSet::suit(Suit::Hearts), Suit::Hearts), 60);
        assert_eq!(sa.total(), 141);
        // The fast sum agrees with card-by-card points.
        for values in CardValues::ALL {
            for trump in Suit::ALL {
                for bits in [0x1234_5678u32, 0xFFFF_0000, 0x8421_8421, u32::MAX, 0] {
                    let set = CardSet(bits);
                    let each: u16 = set.iter().map(|c| values.points(c, trump) as u16).sum();
                    assert_eq!(values.set_points(set, trump), each, "{values:?} {trump:?} {set}");
                }
            }
        }
    }

    #[test]
    fn parse_and_display() {
        assert_eq!("10h".parse::<Card>().unwrap(), Card::new(Suit::Hearts, Rank::Ten));
        assert_eq!("TH".parse::<Card>().unwrap().to_string(), "TH");
        assert_eq!("js".parse::<Card>().unwrap(), Card::new(Suit::Spades, Rank::Jack));
        let e = "1H".parse::<Card>().unwrap_err();
        assert_eq!(e.to_string(), "unknown card '1H'");
        assert!("".parse::<Card>().is_err());
        assert!("Hé".parse::<Card>().is_err());
        let e = CardSet::parse_list("JH, 9h QH 9H").unwrap_err();
        assert_eq!(e.to_string(), "duplicate card '9H'");
        assert_eq!(CardSet::parse_list("7c,8c  AS").unwrap().len(), 3);
    }

    #[test]
    fn higher_in_suit_uses_the_right_order() {
        let nine = Card::new(Suit::Hearts, Rank::Nine);
        let dutch = CardValues::Dutch;
        assert_eq!(dutch.higher_in_suit(nine, Suit::Hearts).to_string(), "JH");
        assert_eq!(dutch.higher_in_suit(nine, Suit::Clubs).to_string(), "TH JH QH KH AH");
        let ten = Card::new(Suit::Hearts, Rank::Ten);
        assert_eq!(dutch.higher_in_suit(ten, Suit::Clubs).to_string(), "AH");
        let sa = CardValues::SouthAfrican;
        assert_eq!(sa.higher_in_suit(ten, Suit::Clubs).to_string(), "JH QH KH AH");
        assert_eq!(sa.higher_in_suit(ten, Suit::Hearts).to_string(), "9H JH QH KH AH");
    }

    #[test]
    fn nth_selects_in_index_order() {
        let set: CardSet = CardSet::parse("AS 7C 9D").unwrap();
        assert_eq!(set.nth(0).unwrap().to_string(), "7C");
        assert_eq!(set.nth(2).unwrap().to_string(), "AS");
        assert_eq!(set.nth(3), None);
    }
}
