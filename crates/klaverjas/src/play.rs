//! Tricks: which cards may be played, who wins, and the bare play of a deal
//! ([`PlayState`]) that the game, the perft counts and the bots share.

use crate::card::{Card, CardSet, CardValues, Rank, Suit};
use crate::roem::{self, TrickRoem};
use crate::rules::{Following, RoemTable, Undertrump};
use crate::seat::{Direction, PerTeam, Players, Seat, Team};
use std::fmt;

/// The cards of one trick so far, in order of play from its leader. A trick
/// knows the trump suit, the cards' order and which way the turn passes, so
/// it keeps track of the winning card and the seat to act as it grows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Trick {
    leader: Seat,
    trump: Suit,
    values: CardValues,
    direction: Direction,
    players: Players,
    cards: [Card; 4],
    len: u8,
    /// Index of the card now winning, and its strength key.
    best: u8,
    best_key: u8,
    set: CardSet,
}

/// Strength keys by `values * 16 + trump * 4 + led` and card: trumps 16..,
/// the led suit 8.., discards 0, so one comparison decides who is winning.
const KEYS: [[u8; 32]; 32] = {
    let mut table = [[0u8; 32]; 32];
    let mut vtl = 0;
    while vtl < 32 {
        let (values, trump, led) = (CardValues::ALL[vtl / 16], vtl / 4 % 4, vtl % 4);
        let mut c = 0;
        while c < 32 {
            let (suit, rank) = (c / 8, Rank::from_index(c % 8));
            table[vtl][c] = if suit == trump {
                16 + values.strength(rank, true)
            } else if suit == led {
                8 + values.strength(rank, false)
            } else {
                0
            };
            c += 1;
        }
        vtl += 1;
    }
    table
};

impl Trick {
    /// An empty trick of Dutch cards played clockwise.
    pub fn new(leader: Seat, trump: Suit) -> Trick {
        Trick::under(leader, trump, CardValues::Dutch, Direction::Clockwise)
    }

    /// An empty trick with the cards' order and the turn's direction given.
    pub fn under(leader: Seat, trump: Suit, values: CardValues, direction: Direction) -> Trick {
        let cards = [Card::new(Suit::Clubs, Rank::Seven); 4];
        let players = Players::Four;
        Trick { leader, trump, values, direction, players, cards, len: 0, best: 0, best_key: 0, set: CardSet::EMPTY }
    }

    /// An empty trick under `rules`.
    pub fn for_rules(leader: Seat, trump: Suit, rules: &crate::Rules) -> Trick {
        Trick { players: rules.players, ..Trick::under(leader, trump, rules.card_values, rules.direction) }
    }

    /// The next trick, led by `leader`, under this one's rules.
    pub fn next(&self, leader: Seat) -> Trick {
        Trick { players: self.players, ..Trick::under(leader, self.trump, self.values, self.direction) }
    }

    /// This trick's first cards, `cards` (at most one a player), played on.
    pub fn with_cards(mut self, cards: &[Card]) -> Trick {
        for &c in cards.iter().take(self.players.count()) {
            self.push(c);
        }
        self
    }

    /// A Dutch, clockwise trick holding `cards` (at most four), led by
    /// `leader`.
    pub fn from_cards(leader: Seat, trump: Suit, cards: &[Card]) -> Trick {
        Trick::new(leader, trump).with_cards(cards)
    }

    pub fn values(&self) -> CardValues {
        self.values
    }

    pub fn direction(&self) -> Direction {
        self.direction
    }

    pub fn players(&self) -> Players {
        self.players
    }

    pub fn leader(&self) -> Seat {
        self.leader
    }

    pub fn trump(&self) -> Suit {
        self.trump
    }

    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_complete(&self) -> bool {
        self.len as usize == self.players.count()
    }

    /// The seat that plays the trick's next card.
    pub fn to_act(&self) -> Seat {
        self.players.step(self.direction, self.leader, self.len as usize)
    }

    /// The seat that played the `i`-th card.
    pub fn seat_of(&self, i: usize) -> Seat {
        self.players.step(self.direction, self.leader, i)
    }

    /// Each card with the seat that played it.
    pub fn plays(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        self.cards().iter().enumerate().map(|(i, &c)| (self.seat_of(i), c))
    }

    pub fn led_suit(&self) -> Option<Suit> {
        self.cards().first().map(|c| c.suit())
    }

    pub fn set(&self) -> CardSet {
        self.set
    }

    /// Adds a card without checking it; the caller checked legality. A
    /// card after the trick is complete is ignored.
    #[inline]
    pub fn push(&mut self, card: Card) {
        if self.is_complete() {
            return;
        }
        let key = self.strength_key(card);
        if self.len == 0 || key > self.best_key {
            self.best = self.len;
            self.best_key = key;
        }
        self.cards[self.len as usize] = card;
        self.len += 1;
        self.set.insert(card);
    }

    /// Whether `card`, played next, would be winning the trick.
    #[inline]
    pub fn would_win(&self, card: Card) -> bool {
        self.len == 0 || (!self.is_complete() && self.strength_key(card) > self.best_key)
    }

    /// `card`'s strength in this trick: the first card sets the led suit.
    #[inline]
    fn strength_key(&self, card: Card) -> u8 {
        let led = if self.len == 0 { card.suit() } else { self.cards[0].suit() };
        KEYS[self.values.index() * 16 + self.trump.index() * 4 + led.index()][card.index()]
    }

    /// Index of the card now winning: the highest trump if any trump was
    /// played, else the highest card of the led suit. `None` while empty.
    pub fn winning_index(&self) -> Option<usize> {
        (self.len > 0).then_some(self.best as usize)
    }

    pub fn winner(&self) -> Option<Seat> {
        self.winning_index().map(|i| self.seat_of(i))
    }

    /// The highest trump on the table, if a trump was played.
    pub fn highest_trump(&self) -> Option<Card> {
        (self.len > 0 && self.best_key >= 16).then_some(self.cards[self.best as usize])
    }
}

/// The rule that limits what the player to act may play. Each broken rule
/// is worded as a player would explain it at the table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PlayRule {
    /// Any card of the hand may be played.
    Free,
    /// *Bekennen*: a card of the led suit must be played.
    FollowSuit(Suit),
    /// Trumps were led: a trump must be played, higher than `over` when set.
    TrumpLead { over: Option<Card> },
    /// Void in the led suit, with an opponent winning: trump.
    MustTrump { led: Suit },
    /// *Overtroeven*: beat the highest trump on the table.
    MustOvertrump { over: Card },
    /// *Ondertroeven* is forbidden: no trump lower than `over` unless the
    /// hand holds only trumps.
    NoUndertrump { over: Card, partner_winning: bool },
    /// Unable to overtrump, a trump must still be played (Rotterdam).
    MustUndertrump { over: Card },
    /// Follow suit, or trump instead (South African); the trump higher
    /// than `over` when one is on the table.
    FollowOrTrump { led: Suit, over: Option<Card> },
    /// Follow suit higher than `over`, to win the trick (Klaberjass).
    MustBeat { over: Card },
}

impl PlayRule {
    /// Why a card outside the legal set is refused, in a player's words.
    pub fn explain(self, trump: Suit) -> String {
        let t = Some(trump);
        match self {
            PlayRule::Free => "Any card may be played".to_string(),
            PlayRule::FollowSuit(suit) => format!("You must follow {}", suit.name()),
            PlayRule::TrumpLead { over: None } => "Trumps were led: you must play a trump".to_string(),
            PlayRule::TrumpLead { over: Some(c) } => {
                format!("Trumps were led: you must play higher than {}", c.spoken(t))
            }
            PlayRule::MustTrump { led } => {
                format!("You cannot follow {}: you must trump", led.name())
            }
            PlayRule::MustOvertrump { over } => format!("You must overtrump {}", over.spoken(t)),
            PlayRule::NoUndertrump { partner_winning: true, .. } => {
                "Your partner is winning: you need not trump, but you may not undertrump".to_string()
            }
            PlayRule::NoUndertrump { over, .. } => format!(
                "You cannot overtrump {} and you may not undertrump: play a card of another suit",
                over.spoken(t)
            ),
            PlayRule::FollowOrTrump { led, over: None } => {
                format!("You must follow {} or play a trump", led.name())
            }
            PlayRule::FollowOrTrump { led, over: Some(c) } => {
                format!("You must follow {} or trump higher than {}", led.name(), c.spoken(t))
            }
            PlayRule::MustBeat { over } => {
                format!("You must win the trick if you can: play higher than {}", over.spoken(t))
            }
            PlayRule::MustUndertrump { over } => {
                format!("You cannot overtrump {}, but you must still play a trump", over.spoken(t))
            }
        }
    }
}

/// The cards of `hand` that the player to act on `trick` may play, and the
/// rule that narrowed them (RULES section 4).
#[inline(always)]
pub fn legal_cards(hand: CardSet, trick: &Trick, trump: Suit, following: &Following) -> (CardSet, PlayRule) {
    let Some(led) = trick.led_suit() else {
        return (hand, PlayRule::Free);
    };
    // Following suit settles most plays: check it before anything else.
    if led != trump {
        let follow = hand.of_suit(led);
        if !follow.is_empty() && !following.trump_instead_of_following {
            if following.win_if_able && trick.highest_trump().is_none() {
                let best = trick.cards()[trick.best as usize];
                let higher = follow.intersect(trick.values.higher_in_suit(best, trump));
                if !higher.is_empty() {
                    return (higher, PlayRule::MustBeat { over: best });
                }
            }
            return (follow, PlayRule::FollowSuit(led));
        }
    }
    let trumps = hand.of_suit(trump);
    if trumps.is_empty() {
        if following.trump_instead_of_following && led != trump {
            let follow = hand.of_suit(led);
            if !follow.is_empty() {
                return (follow, PlayRule::FollowSuit(led));
            }
        }
        return (hand, PlayRule::Free);
    }
    let table_trump = trick.highest_trump();
    // Trumps in hand that beat every trump on the table.
    let over = match table_trump {
        Some(t) => hand.intersect(trick.values.higher_in_suit(t, trump)),
        None => trumps,
    };
    let only_trumps = hand == trumps;
    // South African freedoms: a trump in place of the led suit, any card
    // when void; an undertrump still only from a hand of trumps.
    if led != trump && (following.trump_instead_of_following || following.free_when_void) {
        let follow = hand.of_suit(led);
        let undertrump_barred = following.undertrump == Undertrump::Forbidden && !only_trumps;
        let playable_trumps = if undertrump_barred { over } else { trumps };
        if !follow.is_empty() && playable_trumps.is_empty() {
            return (follow, PlayRule::FollowSuit(led));
        }
        if !follow.is_empty() {
            return (follow.union(playable_trumps), PlayRule::FollowOrTrump { led, over: table_trump });
        }
        if following.free_when_void {
            return match table_trump {
                Some(over_card) if undertrump_barred && playable_trumps != trumps => (
                    hand.minus(trumps).union(playable_trumps),
                    PlayRule::NoUndertrump { over: over_card, partner_winning: false },
                ),
                _ => (hand, PlayRule::Free),
            };
        }
    }
    if led == trump {
        // The jack of trumps need not be played when it is the only trump.
        if following.jack_never_forced && trumps == CardSet::EMPTY.with(Card::new(trump, Rank::Jack)) {
            return (hand, PlayRule::Free);
        }
        if following.trump_lead_overtrump && !over.is_empty() {
            return (over, PlayRule::TrumpLead { over: table_trump });
        }
        return (trumps, PlayRule::TrumpLead { over: None });
    }
    let win = trick.best as usize;
    let partner_winning = trick.players.partnerships() && trick.len() >= 2 && win == trick.len() - 2;
    if following.partner_exemption && partner_winning {
        // Undertrumping forbidden, a lower trump is legal only when every
        // card held is one (RULES section 4): a hand of trumps that can beat
        // the partner's must beat it.
        return match (following.undertrump, table_trump) {
            (Undertrump::Forbidden, Some(over_card)) if !only_trumps || !over.is_empty() => {
                (hand.minus(trumps).union(over), PlayRule::NoUndertrump { over: over_card, partner_winning: true })
            }
            _ => (hand, PlayRule::Free),
        };
    }
    let Some(over_card) = table_trump else {
        return (trumps, PlayRule::MustTrump { led });
    };
    if !over.is_empty() {
        return (over, PlayRule::MustOvertrump { over: over_card });
    }
    match following.undertrump {
        Undertrump::Forbidden if only_trumps => (hand, PlayRule::Free),
        Undertrump::Forbidden => {
            (hand.minus(trumps), PlayRule::NoUndertrump { over: over_card, partner_winning: false })
        }
        Undertrump::Allowed => (hand, PlayRule::Free),
        Undertrump::Forced => (trumps, PlayRule::MustUndertrump { over: over_card }),
    }
}

/// A card refused by the rules of play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The card is not in the hand of the seat to act.
    NotInHand { card: Card, seat: Seat },
    /// The card breaks a rule of following.
    Breaks { card: Card, rule: PlayRule, trump: Suit },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::NotInHand { card, seat } => {
                write!(f, "{} does not hold {}", seat.name(), card)
            }
            PlayError::Breaks { rule, trump, .. } => f.write_str(&rule.explain(*trump)),
        }
    }
}

impl std::error::Error for PlayError {}

/// Checks one card against the hand and the trick.
pub fn check_card(
    hand: CardSet,
    trick: &Trick,
    trump: Suit,
    following: &Following,
    card: Card,
) -> Result<(), PlayError> {
    if !hand.contains(card) {
        return Err(PlayError::NotInHand { card, seat: trick.to_act() });
    }
    let (legal, rule) = legal_cards(hand, trick, trump, following);
    if legal.contains(card) { Ok(()) } else { Err(PlayError::Breaks { card, rule, trump }) }
}

/// A trick that has four cards, as the players see it afterwards.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TrickResult {
    pub trick: Trick,
    pub winner: Seat,
    /// Card points, with the last-trick bonus on the eighth trick.
    pub points: u16,
    pub roem: TrickRoem,
}

/// The bare play of a deal once trump is known: four hands, the trick on the
/// table and the running count. No bidding, no claims, no history: this is
/// what tight loops (random playouts, perft, solvers) work on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PlayState {
    pub hands: [CardSet; 4],
    pub trick: Trick,
    pub trump: Suit,
    pub following: Following,
    pub roem_table: RoemTable,
    pub last_trick_bonus: u16,
    /// Tricks completed so far (0..=8, 0..=10 for three players).
    pub tricks_done: u8,
    /// Tricks in the deal ([`crate::Rules::tricks_per_deal`]).
    pub deal_tricks: u8,
    pub points: PerTeam<u16>,
    pub tricks_won: PerTeam<u8>,
    /// Table roem in the tricks each team won, as if all of it were called.
    pub table_roem: PerTeam<u16>,
}

impl PlayState {
    pub fn new(hands: [CardSet; 4], trump: Suit, leader: Seat, rules: &crate::Rules) -> PlayState {
        PlayState {
            hands,
            trick: Trick::for_rules(leader, trump, rules),
            trump,
            following: rules.following,
            roem_table: rules.trick_roem_table(),
            last_trick_bonus: rules.last_trick_bonus,
            tricks_done: 0,
            deal_tricks: rules.tricks_per_deal(),
            points: PerTeam::default(),
            tricks_won: PerTeam::default(),
            table_roem: PerTeam::default(),
        }
    }

    pub fn is_over(&self) -> bool {
        self.tricks_done == self.deal_tricks
    }

    /// The order and points of the cards in this deal.
    pub fn values(&self) -> CardValues {
        self.trick.values
    }

    pub fn to_act(&self) -> Seat {
        self.trick.to_act()
    }

    pub fn legal(&self) -> CardSet {
        legal_cards(self.hands[self.to_act().index()], &self.trick, self.trump, &self.following).0
    }

    pub fn check(&self, card: Card) -> Result<(), PlayError> {
        check_card(self.hands[self.to_act().index()], &self.trick, self.trump, &self.following, card)
    }

    /// Plays a card the caller knows to be legal. Returns the trick when
    /// this card completes it; the next trick is then led by its winner.
    #[inline(always)]
    pub fn play_unchecked(&mut self, card: Card) -> Option<TrickResult> {
        let seat = self.to_act();
        self.hands[seat.index()].remove(card);
        self.trick.push(card);
        if !self.trick.is_complete() {
            return None;
        }
        let trick = self.trick;
        let winner = trick.seat_of(trick.best as usize);
        let set = trick.set();
        self.tricks_done += 1;
        let bonus = if self.tricks_done == self.deal_tricks { self.last_trick_bonus } else { 0 };
        let points = self.trick.values.set_points(set, self.trump) + bonus;
        let roem = roem::trick_roem(set, self.trump, self.roem_table);
        let team: Team = winner.team();
        self.points[team] += points;
        self.tricks_won[team] += 1;
        self.table_roem[team] += roem.points;
        self.trick = self.trick.next(winner);
        Some(TrickResult { trick, winner, points, roem })
    }

    /// Checks and plays a card.
    pub fn play(&mut self, card: Card) -> Result<Option<TrickResult>, PlayError> {
        self.check(card)?;
        Ok(self.play_unchecked(card))
    }

    /// Plays the rest of the deal with uniformly random legal cards: the
    /// unit of work of Monte Carlo players, and the engine's benchmark.
    pub fn random_playout(&mut self, rng: &mut crate::Rng) {
        while self.tricks_done < self.deal_tricks {
            // Only a hand-built state with too few cards can run dry.
            let Some(card) = rng.pick(self.legal()) else {
                break;
            };
            self.play_unchecked(card);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn cards(s: &str) -> Vec<Card> {
        CardSet::parse_list(s).unwrap()
    }
    fn set(s: &str) -> CardSet {
        cards(s).into_iter().collect()
    }
    fn trick(s: &str, trump: Suit) -> Trick {
        Trick::from_cards(Seat::North, trump, &cards(s))
    }
    fn legal(rules: Rules, trump: Suit, hand: &str, on: &str) -> (String, PlayRule) {
        let (l, r) = legal_cards(set(hand), &trick(on, trump), trump, &rules.following);
        (l.to_string(), r)
    }

    #[test]
    fn a_low_trump_beats_a_led_ace() {
        assert_eq!(trick("AH 7S KH TH", Suit::Spades).winner(), Some(Seat::East));
        assert_eq!(trick("AH 7S KH TH", Suit::Clubs).winner(), Some(Seat::North));
        assert_eq!(trick("7H 7S KH TH", Suit::Clubs).winner(), Some(Seat::West));
        assert_eq!(trick("JH 9H AH", Suit::Hearts).winner(), Some(Seat::North));
        assert_eq!(trick("AH 9H", Suit::Hearts).winner(), Some(Seat::East));
        assert_eq!(trick("AH 8S 9S", Suit::Spades).highest_trump().unwrap().to_string(), "9S");
    }

    #[test]
    fn south_african_cards_rank_the_ten_in_its_place_and_count_146() {
        let sa = |leader: Seat, trump: Suit, s: &str| {
            Trick::under(leader, trump, CardValues::SouthAfrican, Direction::Clockwise).with_cards(&cards(s))
        };
        // Plain: the king beats the ten; in Dutch play the ten wins.
        assert_eq!(trick("TH KH", Suit::Clubs).winner(), Some(Seat::North));
        assert_eq!(sa(Seat::North, Suit::Clubs, "TH KH").winner(), Some(Seat::East));
        // Trumps: the queen beats the ten, the nine the ace.
        assert_eq!(sa(Seat::North, Suit::Hearts, "TH QH").winner(), Some(Seat::East));
        assert_eq!(sa(Seat::North, Suit::Hearts, "AH 9H JH").winner(), Some(Seat::South));
        // A plain jack is worth 1, the jack of trumps 20, a king 3.
        let mut rules = Rules { card_values: CardValues::SouthAfrican, last_trick_bonus: 5, ..Rules::classic() };
        assert_eq!(rules.deal_points(), 146);
        let mut state = PlayState::new(
            [set("JC KC 7C 8C"), set("JH 7H 8H 9H"), set("QC AC TC 9C"), set("7D 8D 9D TD")],
            Suit::Hearts,
            Seat::North,
            &rules,
        );
        let first = state.play(cards("JC")[0]).unwrap();
        assert!(first.is_none());
        state.play(cards("JH")[0]).unwrap();
        state.play(cards("QC")[0]).unwrap();
        let done = state.play(cards("7D")[0]).unwrap().unwrap();
        assert_eq!((done.winner, done.points), (Seat::East, 1 + 20 + 2));
        // Under a changed card order the rules of following use it too: a
        // South African queen of trumps overtrumps a ten.
        rules.following = Following::south_african();
        let t = Trick::for_rules(Seat::North, Suit::Hearts, &rules).with_cards(&cards("AC TH"));
        assert_eq!(legal_cards(set("QH 7H 8C"), &t, Suit::Hearts, &rules.following).0.to_string(), "8C QH");
    }

    #[test]
    fn anti_clockwise_play_passes_the_turn_to_the_right() {
        let t = Trick::under(Seat::North, Suit::Hearts, CardValues::Dutch, Direction::AntiClockwise)
            .with_cards(&cards("7C AC"));
        assert_eq!(t.to_act(), Seat::South);
        assert_eq!(t.seat_of(1), Seat::West);
        assert_eq!(t.winner(), Some(Seat::West));
        // The next trick keeps the direction.
        assert_eq!(t.next(Seat::East).with_cards(&cards("7D")).to_act(), Seat::North);
    }

    #[test]
    fn trump_lead_overtrump_by_option() {
        // Hearts trump, North led the 9: East holds J and 7 of trumps.
        let hand = "JH 7H AC";
        let (l, r) = legal(Rules::amsterdam(), Suit::Hearts, hand, "9H");
        assert_eq!(l, "JH");
        assert_eq!(r.explain(Suit::Hearts), "Trumps were led: you must play higher than the 9 of trumps");
        assert_eq!(legal(Rules::classic(), Suit::Hearts, hand, "9H").0, "7H JH");
        // Over the partner too: North led, East low, South must beat North's 9.
        assert_eq!(legal(Rules::rotterdam(), Suit::Hearts, hand, "9H 8H").0, "JH");
        assert_eq!(legal(Rules::amsterdam(), Suit::Hearts, hand, "9H 8H").0, "JH");
        // Unable to go higher: any trump.
        assert_eq!(legal(Rules::amsterdam(), Suit::Hearts, "7H 8H AC", "JH").0, "7H 8H");
        // No trump at all: any card.
        assert_eq!(legal(Rules::amsterdam(), Suit::Hearts, "7C AC", "JH").0, "7C AC");
    }

    #[test]
    fn follow_suit_always() {
        let (l, r) = legal(Rules::rotterdam(), Suit::Spades, "7H AH JS", "KH");
        assert_eq!(l, "7H AH");
        assert_eq!(r.explain(Suit::Spades), "You must follow hearts");
    }

    #[test]
    fn void_must_trump_against_opponent() {
        for rules in [Rules::classic(), Rules::amsterdam(), Rules::rotterdam()] {
            let (l, r) = legal(rules, Suit::Spades, "7C 8S JS", "KH");
            assert_eq!(l, "8S JS");
            assert_eq!(r.explain(Suit::Spades), "You cannot follow hearts: you must trump");
        }
    }

    #[test]
    fn must_overtrump_an_opponents_trump() {
        // North leads KH, East trumps with 9S, South (void) holds JS and QS.
        for rules in [Rules::classic(), Rules::amsterdam(), Rules::rotterdam()] {
            let (l, r) = legal(rules, Suit::Spades, "7C QS JS", "KH 9S");
            assert_eq!(l, "JS");
            assert_eq!(r.explain(Suit::Spades), "You must overtrump the 9 of trumps");
        }
    }

    #[test]
    fn undertrump_options_against_an_opponent() {
        // East trumped with JS; South holds QS and 7C.
        let on = "KH JS";
        assert_eq!(legal(Rules::classic(), Suit::Spades, "7C QS", on).0, "7C QS");
        let (l, r) = legal(Rules::amsterdam(), Suit::Spades, "7C QS", on);
        assert_eq!(l, "7C");
        assert!(matches!(r, PlayRule::NoUndertrump { partner_winning: false, .. }));
        // Amsterdam: only trumps left, so undertrumping is allowed.
        assert_eq!(legal(Rules::amsterdam(), Suit::Spades, "8S QS", on).0, "8S QS");
        let (l, r) = legal(Rules::rotterdam(), Suit::Spades, "7C QS", on);
        assert_eq!(l, "QS");
        assert_eq!(r.explain(Suit::Spades), "You cannot overtrump the jack of trumps, but you must still play a trump");
    }

    #[test]
    fn partner_winning_exemption() {
        // North leads AH and is winning; East discards; South is void.
        let on = "AH 7D";
        assert_eq!(legal(Rules::classic(), Suit::Spades, "7C QS", on).0, "7C QS");
        assert_eq!(legal(Rules::amsterdam(), Suit::Spades, "7C QS", on).0, "7C QS");
        // Rotterdam: trump over a winning partner.
        let (l, r) = legal(Rules::rotterdam(), Suit::Spades, "7C QS", on);
        assert_eq!(l, "QS");
        assert_eq!(r, PlayRule::MustTrump { led: Suit::Hearts });
        // West leads KH, North (South's partner) trumps with 9S and wins,
        // East discards: South is void in hearts.
        let t = Trick::from_cards(Seat::West, Suit::Spades, &cards("KH 9S 7D"));
        let hand = set("7C QS JS");
        let f = |r: Rules| legal_cards(hand, &t, Suit::Spades, &r.following);
        assert_eq!(f(Rules::classic()).0.to_string(), "7C JS QS");
        let (l, r) = f(Rules::amsterdam());
        assert_eq!(l.to_string(), "7C JS");
        assert_eq!(r.explain(Suit::Spades), "Your partner is winning: you need not trump, but you may not undertrump");
        let (l, r) = f(Rules::rotterdam());
        assert_eq!(l.to_string(), "JS");
        assert_eq!(r.explain(Suit::Spades), "You must overtrump the 9 of trumps");
    }

    #[test]
    fn amsterdam_a_hand_of_trumps_beats_the_partners_trump_when_it_can() {
        // North leads QH, East trumps with 9S, South plays AH: West's
        // partner East wins with a trump. West holds only trumps.
        let t = Trick::from_cards(Seat::North, Suit::Spades, &cards("QH 9S AH"));
        let f = |hand: &str, r: Rules| legal_cards(set(hand), &t, Suit::Spades, &r.following);
        let (l, r) = f("KS JS", Rules::amsterdam());
        assert_eq!(l.to_string(), "JS", "the king would undertrump while the jack can beat the 9");
        assert_eq!(r, PlayRule::NoUndertrump { over: cards("9S")[0], partner_winning: true });
        // Every card a lower trump: any of them.
        assert_eq!(f("KS 7S", Rules::amsterdam()).0.to_string(), "7S KS");
        // Undertrumping allowed: anything.
        assert_eq!(f("KS JS", Rules::classic()).0.to_string(), "JS KS");
    }

    #[test]
    fn rotterdam_trumps_over_a_winning_partner_and_undertrumps() {
        let t = Trick::from_cards(Seat::West, Suit::Spades, &cards("KH JS 7D"));
        // South's partner North holds the trick with the jack of trumps.
        let (l, r) = legal_cards(set("7C QS"), &t, Suit::Spades, &Rules::rotterdam().following);
        assert_eq!(l.to_string(), "QS");
        assert!(matches!(r, PlayRule::MustUndertrump { .. }));
    }

    #[test]
    fn a_refused_card_under_south_african_following_names_follow_or_trump() {
        let sa = Following::south_african();
        let e = check_card(set("7H 8S 9C"), &trick("AH", Suit::Spades), Suit::Spades, &sa, cards("9C")[0]);
        assert_eq!(e.unwrap_err().to_string(), "You must follow hearts or play a trump");
        let e = check_card(set("7H QS 9C"), &trick("AH 8S", Suit::Spades), Suit::Spades, &sa, cards("9C")[0]);
        assert_eq!(e.unwrap_err().to_string(), "You must follow hearts or trump higher than the 8 of trumps");
    }

    #[test]
    fn check_card_names_the_rule() {
        let e = check_card(
            set("7C QS JS"),
            &trick("KH 9S", Suit::Spades),
            Suit::Spades,
            &Rules::classic().following,
            cards("QS")[0],
        );
        assert_eq!(e.unwrap_err().to_string(), "You must overtrump the 9 of trumps");
        let e = check_card(
            set("7C"),
            &trick("KH", Suit::Spades),
            Suit::Spades,
            &Rules::classic().following,
            cards("AS")[0],
        );
        assert_eq!(e.unwrap_err().to_string(), "East does not hold AS");
    }
}
