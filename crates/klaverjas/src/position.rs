//! [`Position`]: a position in the play of a deal set up by hand (a puzzle,
//! an analysis, `kj solve`), checked card by card before a solver or a
//! playout is given it as a [`PlayState`].

use crate::card::{Card, CardSet, Rank, Suit};
use crate::play::{PlayError, PlayState, Trick, check_card};
use crate::roem;
use crate::rules::{RoemSource, RoemTable, Rules};
use crate::seat::{PerTeam, Seat, Team};
use std::fmt;

/// A mid-deal play position: trump, the hands, the trick on the table and
/// the count so far. Only [`Position::new`] makes one, so every position
/// could have arisen in a deal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    state: PlayState,
}

/// Why the given cards and counts are not a position of a deal. Each
/// names the field at fault; the Display line is fit to show a player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// The same card is in two hands.
    CardInTwoHands { card: Card, seats: [Seat; 2] },
    /// A card of the trick is still in a hand.
    TrickCardInHand { card: Card, seat: Seat },
    /// The trick names a card twice.
    TrickCardTwice { card: Card },
    /// A trick holds at most three cards before the next is played.
    TrickTooLong { cards: usize },
    /// The seat to act (the leader, counted on by the trick's cards) holds
    /// nothing: the deal is over.
    NothingToPlay { seat: Seat },
    /// A hand's size does not fit the trick: the seats that played to it
    /// hold one card fewer than the seat to act, the others as many.
    HandSize { seat: Seat, cards: u32, expected: u32 },
    /// A card of the trick broke a rule of following (*bekennen*,
    /// *troeven*) from the hand its player then held.
    IllegalTrickCard { seat: Seat, error: PlayError },
    /// Another seat was said to act than the leader and trick give.
    NotToAct { seat: Seat, to_act: Seat },
    /// The tricks won do not add up to the tricks played.
    TricksWon { counted: u8, played: u8 },
    /// The points do not add up to those of the cards already played.
    Points { counted: u16, played: u16 },
    /// A team that won no trick cannot have points.
    PointsWithoutTricks { team: Team },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::CardInTwoHands { card, seats: [a, b] } => {
                write!(f, "{card} is in two hands: {} and {}", a.name(), b.name())
            }
            PositionError::TrickCardInHand { card, seat } => {
                write!(f, "{card} is on the table and in {}'s hand", seat.name())
            }
            PositionError::TrickCardTwice { card } => write!(f, "{card} is in the trick twice"),
            PositionError::TrickTooLong { cards } => {
                write!(f, "a trick has at most 3 cards before the next play, not {cards}")
            }
            PositionError::NothingToPlay { seat } => write!(f, "{} is to play but holds no card", seat.name()),
            PositionError::HandSize { seat, cards, expected } => {
                write!(f, "{} holds {cards} cards where the trick on the table says {expected}", seat.name())
            }
            PositionError::IllegalTrickCard { seat, error } => {
                let card = match error {
                    PlayError::Breaks { card, .. } | PlayError::NotInHand { card, .. } => card,
                };
                write!(f, "{} could not have played {card} to the trick: {error}", seat.name())
            }
            PositionError::NotToAct { seat, to_act } => {
                write!(f, "{} cannot be to play: the trick says {} is", seat.name(), to_act.name())
            }
            PositionError::TricksWon { counted, played } => {
                write!(f, "the tricks won add up to {counted}, but {played} have been played")
            }
            PositionError::Points { counted, played } => {
                write!(f, "the points add up to {counted}, but the cards played are worth {played}")
            }
            PositionError::PointsWithoutTricks { team } => write!(f, "{team} has points but won no trick"),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The position with `leader` having led the cards of `trick` (none
    /// between tricks) and `hands` (by [`Seat::index`]) held: the seat to
    /// act holds one card for each trick left, those who played to the
    /// trick one fewer. Points and tricks so far start at nothing; see
    /// [`Position::with_score`].
    pub fn new(
        rules: &Rules,
        trump: Suit,
        leader: Seat,
        hands: [CardSet; 4],
        trick: &[Card],
    ) -> Result<Position, PositionError> {
        let mut seen: [Option<Seat>; 32] = [None; 32];
        for seat in Seat::ALL {
            for card in hands[seat.index()] {
                if let Some(other) = seen[card.index()] {
                    return Err(PositionError::CardInTwoHands { card, seats: [other, seat] });
                }
                seen[card.index()] = Some(seat);
            }
        }
        if trick.len() > 3 {
            return Err(PositionError::TrickTooLong { cards: trick.len() });
        }
        let mut on_table = CardSet::EMPTY;
        for &card in trick {
            if let Some(seat) = seen[card.index()] {
                return Err(PositionError::TrickCardInHand { card, seat });
            }
            if on_table.contains(card) {
                return Err(PositionError::TrickCardTwice { card });
            }
            on_table.insert(card);
        }
        let to_act = rules.direction.step(leader, trick.len());
        let left = hands[to_act.index()].len();
        if left == 0 {
            return Err(PositionError::NothingToPlay { seat: to_act });
        }
        if left > 8 {
            return Err(PositionError::HandSize { seat: to_act, cards: left, expected: 8 });
        }
        for (i, seat) in (0..4).map(|i| (i, rules.direction.step(leader, i))) {
            let expected = if i < trick.len() { left - 1 } else { left };
            let cards = hands[seat.index()].len();
            if cards != expected {
                return Err(PositionError::HandSize { seat, cards, expected });
            }
        }
        let mut state = PlayState::new(hands, trump, leader, rules);
        state.tricks_done = 8 - left as u8;
        for &card in trick {
            let seat = state.trick.to_act();
            // The hand of the moment the card was played: what is left, and
            // the card.
            let then = hands[seat.index()].with(card);
            check_card(then, &state.trick, trump, &rules.following, card)
                .map_err(|error| PositionError::IllegalTrickCard { seat, error })?;
            state.trick.push(card);
        }
        Ok(Position { state })
    }

    /// The same position with the count of the tricks already played: the
    /// card points each team took (the last-trick bonus cannot be among
    /// them, as a trick is still to come) and the tricks each won. They
    /// must add up to the cards no longer in the hands or on the table.
    /// Roem of earlier tricks is not part of a position: it is scored
    /// beside the play.
    pub fn with_score(self, points: PerTeam<u16>, tricks_won: PerTeam<u8>) -> Result<Position, PositionError> {
        let s = self.state;
        let counted = tricks_won.ns + tricks_won.ew;
        if counted != s.tricks_done {
            return Err(PositionError::TricksWon { counted, played: s.tricks_done });
        }
        let held = s.hands.iter().fold(s.trick.set(), |all, h| all.union(*h));
        let played = s.trick.values().set_points(CardSet::ALL.minus(held), s.trump);
        if points.ns + points.ew != played {
            return Err(PositionError::Points { counted: points.ns + points.ew, played });
        }
        if let Some(team) = Team::BOTH.into_iter().find(|&t| tricks_won[t] == 0 && points[t] > 0) {
            return Err(PositionError::PointsWithoutTricks { team });
        }
        Ok(Position { state: PlayState { points, tricks_won, ..s } })
    }

    /// Checks that `seat` is the one to act, for a caller that names it as
    /// well as the leader.
    pub fn expect_to_act(self, seat: Seat) -> Result<Position, PositionError> {
        let to_act = self.to_act();
        if seat == to_act { Ok(self) } else { Err(PositionError::NotToAct { seat, to_act }) }
    }

    pub fn to_act(&self) -> Seat {
        self.state.to_act()
    }

    pub fn trump(&self) -> Suit {
        self.state.trump
    }

    pub fn hand(&self, seat: Seat) -> CardSet {
        self.state.hands[seat.index()]
    }

    pub fn trick(&self) -> &Trick {
        &self.state.trick
    }

    /// Tricks completed before this one.
    pub fn tricks_done(&self) -> u8 {
        self.state.tricks_done
    }

    /// The position as the bare play state that solvers and playouts take.
    pub fn play_state(&self) -> PlayState {
        self.state
    }

    /// The roem from the hands (RULES section 5) that the rest of the deal
    /// brings each team when every seat announces its best combination:
    /// in the first trick, the settling of all announcements (the hands as
    /// dealt are the hands here with the trick's cards given back); and
    /// stuk, where king and queen of trumps are both still in one hand.
    /// The play cannot change either, so a solver adds them to the value of
    /// the cards. Nothing under table roem, whose roem lies in the tricks.
    pub fn hand_roem_to_come(&self, rules: &Rules) -> PerTeam<u16> {
        let mut out = PerTeam::default();
        if rules.roem_source != RoemSource::Hand || rules.roem_table == RoemTable::None {
            return out;
        }
        let (s, trump) = (&self.state, self.state.trump);
        if s.tricks_done == 0 {
            let mut dealt = s.hands;
            for (seat, card) in s.trick.plays() {
                dealt[seat.index()].insert(card);
            }
            let order = (0..4).map(|i| s.trick.seat_of(i));
            let announced = order.filter_map(|seat| {
                roem::hand_melds(dealt[seat.index()], trump, rules.roem_table).first().map(|&m| (seat, m))
            });
            if let Some(settled) = roem::settle_hand_roem(announced, dealt, trump, rules.roem_table) {
                out[settled.team] += settled.points;
            }
        }
        let stuk = CardSet::EMPTY.with(Card::new(trump, Rank::King)).with(Card::new(trump, Rank::Queen));
        if let Some(seat) = Seat::ALL.into_iter().find(|seat| stuk.is_subset(s.hands[seat.index()])) {
            out[seat.team()] += roem::STUK;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardValues;

    fn set(s: &str) -> CardSet {
        CardSet::parse(s).unwrap()
    }
    fn cards(s: &str) -> Vec<Card> {
        CardSet::parse_list(s).unwrap()
    }
    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }
    /// Two tricks left; North led 7C to this trick.
    fn hands() -> [CardSet; 4] {
        [set("AH"), set("8C KD"), set("9C QD"), set("TC JD")]
    }
    fn classic(hands: [CardSet; 4], trick: &str) -> Result<Position, PositionError> {
        Position::new(&Rules::classic(), Suit::Spades, Seat::North, hands, &cards(trick))
    }

    #[test]
    fn a_position_mid_trick_yields_the_play_state() {
        let p = classic(hands(), "7C").unwrap();
        assert_eq!(p.to_act(), Seat::East);
        assert_eq!(p.tricks_done(), 6);
        let s = p.play_state();
        assert_eq!(s.trick.cards(), &cards("7C")[..]);
        assert_eq!(s.legal(), set("8C"));
        assert_eq!(s.hands, hands());
        assert_eq!(p.expect_to_act(Seat::East), Ok(p));
        assert_eq!(
            p.expect_to_act(Seat::South).unwrap_err().to_string(),
            "South cannot be to play: the trick says East is"
        );
    }

    #[test]
    fn bad_cards_are_named() {
        let mut h = hands();
        h[2].insert(card("AH"));
        h[2].remove(card("9C"));
        assert_eq!(
            classic(h, "7C"),
            Err(PositionError::CardInTwoHands { card: card("AH"), seats: [Seat::North, Seat::South] })
        );
        assert_eq!(classic(h, "7C").unwrap_err().to_string(), "AH is in two hands: North and South");
        assert_eq!(
            classic(hands(), "AH").unwrap_err(),
            PositionError::TrickCardInHand { card: card("AH"), seat: Seat::North }
        );
        let four = [set("AH"), set("8C"), set("9C"), set("TC")];
        assert_eq!(classic(four, "7D 8D 9D JD"), Err(PositionError::TrickTooLong { cards: 4 }));
        // A repeated trick card comes in through a slice.
        let twice = [card("7C"), card("7C")];
        let err = Position::new(&Rules::classic(), Suit::Spades, Seat::North, hands(), &twice).unwrap_err();
        assert_eq!(err, PositionError::TrickCardTwice { card: card("7C") });
    }

    #[test]
    fn hand_sizes_must_fit_the_trick() {
        // East has played too, in the trick's view: East should hold one.
        let err = classic(hands(), "7C 7D").unwrap_err();
        assert_eq!(err, PositionError::HandSize { seat: Seat::East, cards: 2, expected: 1 });
        assert_eq!(err.to_string(), "East holds 2 cards where the trick on the table says 1");
        // Between tricks all hands are alike.
        let err = classic(hands(), "").unwrap_err();
        assert_eq!(err, PositionError::HandSize { seat: Seat::East, cards: 2, expected: 1 });
        let none = [CardSet::EMPTY; 4];
        assert_eq!(classic(none, ""), Err(PositionError::NothingToPlay { seat: Seat::North }));
        let nine = [set("7C 8C 9C TC JC QC KC AC 7D"), set("8D"), set("9D"), set("TD")];
        assert_eq!(
            classic(nine, "").unwrap_err(),
            PositionError::HandSize { seat: Seat::North, cards: 9, expected: 8 }
        );
    }

    #[test]
    fn the_trick_must_have_been_legal() {
        // East played a diamond on the club lead while holding a club.
        let h = [set("AH"), set("8C"), set("9C QD"), set("TC JD")];
        let err = classic(h, "7C KD").unwrap_err();
        let rule = crate::PlayRule::FollowSuit(Suit::Clubs);
        let error = PlayError::Breaks { card: card("KD"), rule, trump: Suit::Spades };
        assert_eq!(err, PositionError::IllegalTrickCard { seat: Seat::East, error });
        assert_eq!(err.to_string(), "East could not have played KD to the trick: You must follow clubs");
    }

    #[test]
    fn the_score_must_add_up() {
        let p = classic(hands(), "7C").unwrap();
        // Played: everything but the hands and 7C, with spades trump.
        let played = CardValues::Dutch.set_points(CardSet::ALL.minus(set("AH 8C KD 9C QD TC JD 7C")), Suit::Spades);
        let ok = p.with_score(PerTeam { ns: played - 20, ew: 20 }, PerTeam { ns: 4, ew: 2 }).unwrap();
        assert_eq!(ok.play_state().points, PerTeam { ns: played - 20, ew: 20 });
        assert_eq!(ok.play_state().tricks_won, PerTeam { ns: 4, ew: 2 });
        assert_eq!(
            p.with_score(PerTeam { ns: played, ew: 0 }, PerTeam { ns: 4, ew: 1 }),
            Err(PositionError::TricksWon { counted: 5, played: 6 })
        );
        assert_eq!(
            p.with_score(PerTeam { ns: played, ew: 1 }, PerTeam { ns: 4, ew: 2 }),
            Err(PositionError::Points { counted: played + 1, played })
        );
        let err = p.with_score(PerTeam { ns: played - 20, ew: 20 }, PerTeam { ns: 6, ew: 0 }).unwrap_err();
        assert_eq!(err, PositionError::PointsWithoutTricks { team: Team::EW });
        assert_eq!(err.to_string(), "EW has points but won no trick");
    }
}
