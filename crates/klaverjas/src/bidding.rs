//! Choosing trump (RULES section 3): one state machine for every method.

use crate::card::Suit;
use crate::deal::PileCard;
use crate::rules::Bidding;
use crate::seat::{Seat, Team};
use std::fmt;

/// What a player says in the bidding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Bid {
    /// *Pas*.
    Pass,
    /// *Spelen*: play on the turned card's suit.
    Play,
    /// Name a trump suit (free-choice methods).
    Trump(Suit),
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Pass => f.write_str("pass"),
            Bid::Play => f.write_str("play"),
            Bid::Trump(s) => write!(f, "{}", s.name()),
        }
    }
}

/// Who plays, on which trump. The declarer's team is the playing team
/// (*de spelende partij*); the other team defends.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contract {
    pub trump: Suit,
    pub declarer: Seat,
    /// The declarer was made to play (everyone passed, or *verplicht*).
    pub forced: bool,
}

impl Contract {
    pub fn playing_team(&self) -> Team {
        self.declarer.team()
    }
}

/// A bid the rules do not allow now.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BidError {
    /// A suit was named where only pass or play may be said.
    TurnedCardOnly { turned: Suit },
    /// "Play" was said where there is no turned card to play on.
    NoTurnedCard,
    /// A pass where this seat must choose.
    MustChoose { seat: Seat, everyone_passed: bool },
}

impl fmt::Display for BidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BidError::TurnedCardOnly { turned } => {
                write!(f, "Say pass or play: trump can only be {}, the turned card's suit", turned.name())
            }
            BidError::NoTurnedCard => f.write_str("There is no turned card: name a suit or pass"),
            BidError::MustChoose { everyone_passed: true, .. } => {
                f.write_str("Everyone else passed: you must choose trump")
            }
            BidError::MustChoose { everyone_passed: false, .. } => {
                f.write_str("You sit left of the dealer: you must choose trump")
            }
        }
    }
}

impl std::error::Error for BidError {}

/// What a legal bid led to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BidOutcome {
    /// The next seat speaks.
    Next,
    /// Bidding is over.
    Contract(Contract),
    /// All four passed the turned card: the pile's next card is turned and
    /// its suit is trump for the team on the dealer's left.
    SecondCard { card: PileCard, contract: Contract },
}

/// The bidding of one deal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BiddingState {
    method: Bidding,
    dealer: Seat,
    pile: [PileCard; 2],
    bids: Vec<(Seat, Bid)>,
}

impl BiddingState {
    pub fn new(method: Bidding, dealer: Seat, pile: [PileCard; 2]) -> BiddingState {
        BiddingState { method, dealer, pile, bids: Vec::new() }
    }

    pub fn bids(&self) -> &[(Seat, Bid)] {
        &self.bids
    }

    /// The card turned up for pass/play, if this method turns one.
    pub fn turned(&self) -> Option<PileCard> {
        (self.method == Bidding::TurnedCard).then_some(self.pile[0])
    }

    pub fn to_act(&self) -> Seat {
        let first = if self.method == Bidding::DealerFirst { 0 } else { 1 };
        self.dealer.after(first + self.bids.len())
    }

    /// Whether the seat to act may not pass.
    fn must_choose(&self) -> bool {
        match self.method {
            Bidding::TurnedCard => false,
            Bidding::FreeChoice => self.bids.len() == 3,
            Bidding::DealerFirst => self.bids.len() == 4,
            Bidding::Mandatory => true,
        }
    }

    pub fn legal_bids(&self) -> Vec<Bid> {
        if self.method == Bidding::TurnedCard {
            return vec![Bid::Pass, Bid::Play];
        }
        let pass = (!self.must_choose()).then_some(Bid::Pass);
        pass.into_iter().chain(Suit::ALL.map(Bid::Trump)).collect()
    }

    pub fn apply(&mut self, bid: Bid) -> Result<BidOutcome, BidError> {
        let seat = self.to_act();
        let forced = self.must_choose();
        match (self.method, bid) {
            (Bidding::TurnedCard, Bid::Trump(_)) => {
                return Err(BidError::TurnedCardOnly { turned: self.pile[0].suit });
            }
            (Bidding::TurnedCard, _) => {}
            (_, Bid::Play) => return Err(BidError::NoTurnedCard),
            (_, Bid::Pass) if forced => {
                let everyone_passed = self.method != Bidding::Mandatory;
                return Err(BidError::MustChoose { seat, everyone_passed });
            }
            _ => {}
        }
        self.bids.push((seat, bid));
        Ok(match bid {
            Bid::Play => Contract { trump: self.pile[0].suit, declarer: seat, forced: false }.into(),
            Bid::Trump(trump) => Contract { trump, declarer: seat, forced }.into(),
            Bid::Pass if self.bids.len() == 4 && self.method == Bidding::TurnedCard => {
                let contract = Contract { trump: self.pile[1].suit, declarer: self.dealer.next(), forced: true };
                BidOutcome::SecondCard { card: self.pile[1], contract }
            }
            Bid::Pass => BidOutcome::Next,
        })
    }
}

impl From<Contract> for BidOutcome {
    fn from(c: Contract) -> BidOutcome {
        BidOutcome::Contract(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PILE: [PileCard; 2] = [PileCard { suit: Suit::Hearts, rank: 4 }, PileCard { suit: Suit::Clubs, rank: 6 }];

    #[test]
    fn turned_card_pass_play_then_forced_second_card() {
        let mut b = BiddingState::new(Bidding::TurnedCard, Seat::South, PILE);
        assert_eq!(b.to_act(), Seat::West);
        assert_eq!(
            b.apply(Bid::Trump(Suit::Spades)).unwrap_err().to_string(),
            "Say pass or play: trump can only be hearts, the turned card's suit"
        );
        for _ in 0..3 {
            assert_eq!(b.apply(Bid::Pass), Ok(BidOutcome::Next));
        }
        match b.apply(Bid::Pass).unwrap() {
            BidOutcome::SecondCard { card, contract } => {
                assert_eq!(card, PILE[1]);
                assert_eq!(contract, Contract { trump: Suit::Clubs, declarer: Seat::West, forced: true });
            }
            other => panic!("{other:?}"),
        }
        let mut b = BiddingState::new(Bidding::TurnedCard, Seat::South, PILE);
        b.apply(Bid::Pass).unwrap();
        let c = b.apply(Bid::Play).unwrap();
        assert_eq!(c, Contract { trump: Suit::Hearts, declarer: Seat::North, forced: false }.into());
    }

    #[test]
    fn free_choice_dealer_forced() {
        let mut b = BiddingState::new(Bidding::FreeChoice, Seat::North, PILE);
        assert_eq!(b.apply(Bid::Play), Err(BidError::NoTurnedCard));
        for seat in [Seat::East, Seat::South, Seat::West] {
            assert_eq!(b.to_act(), seat);
            b.apply(Bid::Pass).unwrap();
        }
        assert_eq!(b.to_act(), Seat::North);
        assert!(!b.legal_bids().contains(&Bid::Pass));
        assert_eq!(b.apply(Bid::Pass).unwrap_err().to_string(), "Everyone else passed: you must choose trump");
        let c = b.apply(Bid::Trump(Suit::Diamonds)).unwrap();
        assert_eq!(c, Contract { trump: Suit::Diamonds, declarer: Seat::North, forced: true }.into());
    }

    #[test]
    fn dealer_first_then_dealer_forced() {
        let mut b = BiddingState::new(Bidding::DealerFirst, Seat::East, PILE);
        for seat in [Seat::East, Seat::South, Seat::West, Seat::North] {
            assert_eq!(b.to_act(), seat);
            b.apply(Bid::Pass).unwrap();
        }
        assert_eq!(b.to_act(), Seat::East);
        assert_eq!(b.legal_bids().len(), 4);
        let c = b.apply(Bid::Trump(Suit::Spades)).unwrap();
        assert_eq!(c, Contract { trump: Suit::Spades, declarer: Seat::East, forced: true }.into());
        let mut b = BiddingState::new(Bidding::DealerFirst, Seat::East, PILE);
        let c = b.apply(Bid::Trump(Suit::Clubs)).unwrap();
        assert_eq!(c, Contract { trump: Suit::Clubs, declarer: Seat::East, forced: false }.into());
    }

    #[test]
    fn mandatory_left_of_dealer() {
        let mut b = BiddingState::new(Bidding::Mandatory, Seat::West, PILE);
        assert_eq!(b.to_act(), Seat::North);
        assert_eq!(b.apply(Bid::Pass).unwrap_err().to_string(), "You sit left of the dealer: you must choose trump");
        let c = b.apply(Bid::Trump(Suit::Hearts)).unwrap();
        assert_eq!(c, Contract { trump: Suit::Hearts, declarer: Seat::North, forced: true }.into());
    }
}
