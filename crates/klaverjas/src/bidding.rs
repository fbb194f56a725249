//! Choosing trump (RULES section 3): one state machine for every method.

use crate::card::Suit;
use crate::deal::PileCard;
use crate::rules::{Bidding, Rules};
use crate::seat::{Players, Seat, Team};
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
    /// Double the deal once trump is chosen, where the rules play *kraken*:
    /// the defenders' *kraak*, the playing team's *rekraak*, the
    /// defenders' *superkraak*.
    Double,
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Pass => f.write_str("pass"),
            Bid::Play => f.write_str("play"),
            Bid::Trump(s) => write!(f, "{}", s.name()),
            Bid::Double => f.write_str("double"),
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
    /// Trump is chosen and the deal may be doubled: only pass or double.
    DoubleOrPass,
    /// A double before trump is chosen.
    NothingToDouble,
    /// A double under rules that play no *kraken*.
    NoDoubling,
    /// Everything is said: play has begun.
    Over,
    /// The last card dealt makes trump: nobody bids.
    NoBidding,
    /// The second round of Klaberjass: the turned suit was refused, so
    /// another suit is named, or pass.
    NameAnother { refused: Suit },
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
            BidError::DoubleOrPass => f.write_str("Trump is chosen: say pass, or double the deal"),
            BidError::NothingToDouble => f.write_str("Trump has not been chosen yet: there is nothing to double"),
            BidError::NoDoubling => f.write_str("These rules play without doubling (kraken)"),
            BidError::Over => f.write_str("The bidding is over"),
            BidError::NoBidding => f.write_str("Nobody bids: the last card dealt makes trump"),
            BidError::NameAnother { refused } => {
                write!(f, "{} was refused: name another suit, or pass", refused.name())
            }
        }
    }
}

impl std::error::Error for BidError {}

/// What a legal bid led to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BidOutcome {
    /// Nothing new is settled: the next seat speaks, or, after the last
    /// double or pass of the doubling, play begins.
    Next,
    /// Trump and the playing team are settled; where the rules play
    /// *kraken* the doubling follows.
    Contract(Contract),
    /// All four passed the turned card: the pile's next card is turned and
    /// its suit is trump for the team on the dealer's left.
    SecondCard { card: PileCard, contract: Contract },
    /// Everyone passed where the rules throw the cards in
    /// ([`Rules::redeal_on_all_pass`]): the same dealer deals again.
    ThrownIn,
}

/// The bidding of one deal, and the doubling that follows it where the
/// rules play *kraken*.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BiddingState {
    method: Bidding,
    kraken: bool,
    direction: crate::seat::Direction,
    players: Players,
    redeal_on_all_pass: bool,
    dealer: Seat,
    pile: [PileCard; 2],
    bids: Vec<(Seat, Bid)>,
    /// The contract once settled, and how many bids led to it.
    contract: Option<(Contract, usize)>,
}

/// How many times a deal may be doubled: kraak, rekraak, superkraak.
pub const MOST_DOUBLES: u8 = 3;

impl BiddingState {
    pub fn new(rules: &Rules, dealer: Seat, pile: [PileCard; 2]) -> BiddingState {
        BiddingState {
            method: rules.bidding,
            // Doubling is the partnerships' game (001's Wilde Boom is for
            // "four players in two partnerships").
            kraken: rules.kraken && rules.players.partnerships(),
            direction: rules.direction,
            players: rules.players,
            redeal_on_all_pass: rules.redeal_on_all_pass,
            dealer,
            pile,
            bids: Vec::new(),
            contract: None,
        }
    }

    /// Trump by the last card dealt, `card` ([`Bidding::LastCardDealt`]):
    /// settled before anyone speaks. The dealer stands as declarer, though
    /// no team plays against the other; where the rules play *kraken* the
    /// doubling follows.
    pub fn turn_last_card(&mut self, card: crate::Card) -> Contract {
        let contract = Contract { trump: card.suit(), declarer: self.dealer, forced: true };
        self.contract = Some((contract, 0));
        contract
    }

    /// The contract, once trump and the playing team are settled.
    pub fn contract(&self) -> Option<Contract> {
        self.contract.map(|(c, _)| c)
    }

    /// Whether nothing more is said: the contract is settled and, where
    /// the rules play *kraken*, both seats of the team to speak passed or
    /// the deal was doubled three times.
    pub fn is_over(&self) -> bool {
        self.contract.is_some() && (!self.kraken || self.doubling_seat().is_none())
    }

    /// The seat to say pass or double, while the doubling goes on. The
    /// defenders speak first, the one on the declarer's left first (seed
    /// 001: "The opponent to the immediate left of the trumpmaker has the
    /// first opportunity ... followed by the opponent to his right"); after
    /// a double the other team answers, the declarer first.
    fn doubling_seat(&self) -> Option<Seat> {
        let (contract, settled) = self.contract?;
        let calls = &self.bids[settled..];
        let doubles = calls.iter().filter(|(_, b)| *b == Bid::Double).count() as u8;
        let passes = calls.iter().rev().take_while(|(_, b)| *b == Bid::Pass).count();
        if doubles == MOST_DOUBLES || passes == 2 {
            return None;
        }
        let first = if doubles.is_multiple_of(2) { self.next(contract.declarer) } else { contract.declarer };
        Some(if passes == 0 { first } else { first.partner() })
    }

    fn next(&self, seat: Seat) -> Seat {
        self.players.next(self.direction, seat)
    }

    /// Whether everyone has passed and the cards are thrown in.
    pub fn thrown_in(&self) -> bool {
        self.contract.is_none()
            && match self.method {
                Bidding::FreeChoice | Bidding::DealerFirst => {
                    self.redeal_on_all_pass && self.bids.len() == self.players.count()
                }
                Bidding::TwoRounds => self.bids.len() == 2 * self.players.count(),
                _ => false,
            }
    }

    /// Whether the first round of [`Bidding::TwoRounds`] is over, so that
    /// a suit other than the turned card's is named.
    fn second_round(&self) -> bool {
        self.method == Bidding::TwoRounds && self.bids.len() >= self.players.count()
    }

    pub fn bids(&self) -> &[(Seat, Bid)] {
        &self.bids
    }

    /// The card turned up for pass/play, if this method turns one: the
    /// pile's, or for [`Bidding::TwoRounds`] a card naming the turned
    /// suit (the game for two shows its real turned card instead).
    pub fn turned(&self) -> Option<PileCard> {
        matches!(self.method, Bidding::TurnedCard | Bidding::TwoRounds).then_some(self.pile[0])
    }

    pub fn to_act(&self) -> Seat {
        if let Some(seat) = self.doubling_seat() {
            return seat;
        }
        let first = if self.method == Bidding::DealerFirst { 0 } else { 1 };
        self.players.step(self.direction, self.dealer, first + self.bids.len())
    }

    /// Whether the seat to act may not pass.
    fn must_choose(&self) -> bool {
        let everyone = self.players.count();
        match self.method {
            _ if self.redeal_on_all_pass && self.method != Bidding::Mandatory => false,
            Bidding::TurnedCard => false,
            Bidding::FreeChoice => self.bids.len() == everyone - 1,
            Bidding::DealerFirst => self.bids.len() == everyone,
            Bidding::Mandatory => true,
            Bidding::LastCardDealt | Bidding::TwoRounds => false,
        }
    }

    pub fn legal_bids(&self) -> Vec<Bid> {
        if self.thrown_in() {
            return Vec::new();
        }
        if self.contract.is_some() {
            return if self.is_over() { Vec::new() } else { vec![Bid::Pass, Bid::Double] };
        }
        match self.method {
            Bidding::TwoRounds if self.second_round() => {
                let refused = self.pile[0].suit;
                return [Bid::Pass]
                    .into_iter()
                    .chain(Suit::ALL.into_iter().filter(|&s| s != refused).map(Bid::Trump))
                    .collect();
            }
            Bidding::TurnedCard | Bidding::TwoRounds => return vec![Bid::Pass, Bid::Play],
            Bidding::LastCardDealt => return Vec::new(),
            _ => {}
        }
        let pass = (!self.must_choose()).then_some(Bid::Pass);
        pass.into_iter().chain(Suit::ALL.map(Bid::Trump)).collect()
    }

    pub fn apply(&mut self, bid: Bid) -> Result<BidOutcome, BidError> {
        let seat = self.to_act();
        if bid == Bid::Double && !self.kraken {
            return Err(BidError::NoDoubling);
        }
        if self.is_over() || self.thrown_in() {
            return Err(BidError::Over);
        }
        if self.contract.is_some() {
            return match bid {
                Bid::Pass | Bid::Double => {
                    self.bids.push((seat, bid));
                    Ok(BidOutcome::Next)
                }
                _ => Err(BidError::DoubleOrPass),
            };
        }
        let forced = self.must_choose();
        match (self.method, bid) {
            (Bidding::LastCardDealt, _) => return Err(BidError::NoBidding),
            (_, Bid::Double) => return Err(BidError::NothingToDouble),
            (Bidding::TurnedCard, Bid::Trump(_)) => {
                return Err(BidError::TurnedCardOnly { turned: self.pile[0].suit });
            }
            (Bidding::TurnedCard, _) => {}
            (Bidding::TwoRounds, Bid::Play | Bid::Trump(_)) if self.second_round() => {
                let refused = self.pile[0].suit;
                if bid == Bid::Play || bid == Bid::Trump(refused) {
                    return Err(BidError::NameAnother { refused });
                }
            }
            (Bidding::TwoRounds, Bid::Trump(_)) => {
                return Err(BidError::TurnedCardOnly { turned: self.pile[0].suit });
            }
            (Bidding::TwoRounds, _) => {}
            (_, Bid::Play) => return Err(BidError::NoTurnedCard),
            (_, Bid::Pass) if forced => {
                let everyone_passed = self.method != Bidding::Mandatory;
                return Err(BidError::MustChoose { seat, everyone_passed });
            }
            _ => {}
        }
        self.bids.push((seat, bid));
        let outcome = match bid {
            Bid::Play => Contract { trump: self.pile[0].suit, declarer: seat, forced: false }.into(),
            Bid::Trump(trump) => Contract { trump, declarer: seat, forced }.into(),
            Bid::Pass if self.bids.len() == self.players.count() && self.method == Bidding::TurnedCard => {
                let contract = Contract { trump: self.pile[1].suit, declarer: self.next(self.dealer), forced: true };
                BidOutcome::SecondCard { card: self.pile[1], contract }
            }
            Bid::Pass if self.thrown_in() => BidOutcome::ThrownIn,
            Bid::Pass | Bid::Double => BidOutcome::Next,
        };
        if let BidOutcome::Contract(c) | BidOutcome::SecondCard { contract: c, .. } = outcome {
            self.contract = Some((c, self.bids.len()));
        }
        Ok(outcome)
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

    fn by(method: Bidding) -> Rules {
        Rules { bidding: method, ..Rules::classic() }
    }

    const PILE: [PileCard; 2] = [PileCard { suit: Suit::Hearts, rank: 4 }, PileCard { suit: Suit::Clubs, rank: 6 }];

    #[test]
    fn turned_card_pass_play_then_forced_second_card() {
        let mut b = BiddingState::new(&by(Bidding::TurnedCard), Seat::South, PILE);
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
        let mut b = BiddingState::new(&by(Bidding::TurnedCard), Seat::South, PILE);
        b.apply(Bid::Pass).unwrap();
        let c = b.apply(Bid::Play).unwrap();
        assert_eq!(c, Contract { trump: Suit::Hearts, declarer: Seat::North, forced: false }.into());
    }

    #[test]
    fn free_choice_dealer_forced() {
        let mut b = BiddingState::new(&by(Bidding::FreeChoice), Seat::North, PILE);
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
        let mut b = BiddingState::new(&by(Bidding::DealerFirst), Seat::East, PILE);
        for seat in [Seat::East, Seat::South, Seat::West, Seat::North] {
            assert_eq!(b.to_act(), seat);
            b.apply(Bid::Pass).unwrap();
        }
        assert_eq!(b.to_act(), Seat::East);
        assert_eq!(b.legal_bids().len(), 4);
        let c = b.apply(Bid::Trump(Suit::Spades)).unwrap();
        assert_eq!(c, Contract { trump: Suit::Spades, declarer: Seat::East, forced: true }.into());
        let mut b = BiddingState::new(&by(Bidding::DealerFirst), Seat::East, PILE);
        let c = b.apply(Bid::Trump(Suit::Clubs)).unwrap();
        assert_eq!(c, Contract { trump: Suit::Clubs, declarer: Seat::East, forced: false }.into());
    }

    #[test]
    fn three_players_name_trump_in_turn_and_all_passing_throws_the_cards_in() {
        let three = Rules::three();
        let mut b = BiddingState::new(&three, Seat::West, PILE);
        for seat in [Seat::East, Seat::South] {
            assert_eq!(b.to_act(), seat);
            assert!(b.legal_bids().contains(&Bid::Pass));
            assert_eq!(b.apply(Bid::Pass), Ok(BidOutcome::Next));
        }
        assert_eq!(b.to_act(), Seat::West);
        assert!(b.legal_bids().contains(&Bid::Pass), "the dealer may pass too");
        assert_eq!(b.apply(Bid::Pass), Ok(BidOutcome::ThrownIn));
        assert!(b.thrown_in() && b.legal_bids().is_empty());
        assert_eq!(b.apply(Bid::Trump(Suit::Hearts)), Err(BidError::Over));
        let mut b = BiddingState::new(&three, Seat::West, PILE);
        b.apply(Bid::Pass).unwrap();
        let c = b.apply(Bid::Trump(Suit::Clubs)).unwrap();
        assert_eq!(c, Contract { trump: Suit::Clubs, declarer: Seat::South, forced: false }.into());
        assert!(b.is_over(), "no doubling at three");
    }

    #[test]
    fn mandatory_left_of_dealer() {
        let mut b = BiddingState::new(&by(Bidding::Mandatory), Seat::West, PILE);
        assert_eq!(b.to_act(), Seat::North);
        assert_eq!(b.apply(Bid::Pass).unwrap_err().to_string(), "You sit left of the dealer: you must choose trump");
        let c = b.apply(Bid::Trump(Suit::Hearts)).unwrap();
        assert_eq!(c, Contract { trump: Suit::Hearts, declarer: Seat::North, forced: true }.into());
    }

    #[test]
    fn kraken_defenders_then_players_then_defenders() {
        let kraken = Rules { kraken: true, ..by(Bidding::FreeChoice) };
        // North deals; East names hearts, so South (left of East) and then
        // North may kraak.
        let mut b = BiddingState::new(&kraken, Seat::North, PILE);
        assert_eq!(b.apply(Bid::Double), Err(BidError::NothingToDouble));
        b.apply(Bid::Trump(Suit::Hearts)).unwrap();
        assert!(!b.is_over());
        assert_eq!((b.to_act(), b.legal_bids()), (Seat::South, vec![Bid::Pass, Bid::Double]));
        assert_eq!(b.apply(Bid::Trump(Suit::Spades)), Err(BidError::DoubleOrPass));
        b.apply(Bid::Pass).unwrap();
        assert_eq!(b.to_act(), Seat::North);
        b.apply(Bid::Double).unwrap();
        // The playing team answers, the declarer first.
        assert_eq!(b.to_act(), Seat::East);
        b.apply(Bid::Pass).unwrap();
        assert_eq!(b.to_act(), Seat::West);
        b.apply(Bid::Double).unwrap();
        assert_eq!(b.to_act(), Seat::South);
        b.apply(Bid::Double).unwrap();
        assert!(b.is_over(), "three doubles are the most");
        assert!(b.legal_bids().is_empty());
        assert_eq!(b.apply(Bid::Pass), Err(BidError::Over));
        assert_eq!(b.contract(), Some(Contract { trump: Suit::Hearts, declarer: Seat::East, forced: false }));
        // Both defenders pass: no double, and play begins.
        let mut b = BiddingState::new(&kraken, Seat::North, PILE);
        b.apply(Bid::Trump(Suit::Hearts)).unwrap();
        b.apply(Bid::Pass).unwrap();
        b.apply(Bid::Pass).unwrap();
        assert!(b.is_over());
        // Without kraken a double is refused by name, and a contract ends
        // the bidding at once.
        let mut b = BiddingState::new(&by(Bidding::FreeChoice), Seat::North, PILE);
        assert_eq!(b.apply(Bid::Double).unwrap_err().to_string(), "These rules play without doubling (kraken)");
        b.apply(Bid::Trump(Suit::Hearts)).unwrap();
        assert!(b.is_over());
        assert_eq!(b.apply(Bid::Pass), Err(BidError::Over));
    }
}
