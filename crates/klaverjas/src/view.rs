//! [`PlayerView`]: exactly what one seat may know. It is the only input a
//! bot ever gets, so it holds no other seat's unplayed card.

use crate::bidding::{Bid, Contract};
use crate::card::{Card, CardSet, Suit};
use crate::deal::PileCard;
use crate::game::{Action, Announcement, Phase, TrickRecord};
use crate::play::Trick;
use crate::rules::{Bidding, Rules};
use crate::score::{DealResult, Stakes};
use crate::seat::{PerTeam, Seat};

/// A bid with the seat that said it.
pub type Said = (Seat, Bid);

#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerView {
    pub seat: Seat,
    pub rules: Rules,
    pub dealer: Seat,
    /// This seat's own unplayed cards.
    pub hand: CardSet,
    /// Pile cards turned face up for all to see.
    pub turned: Vec<PileCard>,
    pub bids: Vec<(Seat, Bid)>,
    pub contract: Option<Contract>,
    /// Completed tricks, face up as they were played, with their claims.
    pub tricks: Vec<TrickRecord>,
    /// The cards on the table in the trick being played.
    pub trick: Vec<(Seat, Card)>,
    pub phase: Phase,
    pub to_act: Option<Seat>,
    /// This seat's legal actions when it is to act; empty otherwise.
    pub legal: Vec<Action>,
    pub points: PerTeam<u16>,
    pub roem: PerTeam<u16>,
    /// Hand roem announced so far.
    #[cfg_attr(feature = "serde", serde(default))]
    pub announcements: Vec<Announcement>,
    pub result: Option<DealResult>,
    /// The dealer's last card, dealt face up, where it makes trump: all
    /// know the dealer holds it until it is played.
    #[cfg_attr(feature = "serde", serde(default))]
    pub face_up: Option<Card>,
    /// In old play of a boem, what each side brought from the game's
    /// earlier hands.
    #[cfg_attr(feature = "serde", serde(default))]
    pub carry: Option<PerTeam<u16>>,
    /// The cards this seat laid away from the talon (three players, the
    /// trump maker only).
    #[cfg_attr(feature = "serde", serde(default))]
    pub discards: CardSet,
    /// Klaberjass: what the stock shows both players.
    #[cfg_attr(feature = "serde", serde(default))]
    pub stock: Option<StockShown>,
}

/// What the stock of Klaberjass shows: the turned card (which, once taken
/// for the seven of trumps, the swapper holds, and the seven lies in the
/// stock), and the bottom card after the second deal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StockShown {
    pub turned: Card,
    pub bottom: Option<Card>,
    pub swapped: Option<Seat>,
}

impl StockShown {
    /// The cards every player knows lie in the stock, never to be played.
    pub fn dead(&self) -> CardSet {
        let mut dead: CardSet = self.bottom.into_iter().collect();
        match self.swapped {
            Some(_) => dead.insert(Card::new(self.turned.suit(), crate::Rank::Seven)),
            None => dead.insert(self.turned),
        }
        dead
    }
}

impl PlayerView {
    pub fn trump(&self) -> Option<Suit> {
        self.contract.map(|c| c.trump)
    }

    /// The bids that chose trump, and the doubling calls (*kraken*) said
    /// after them.
    pub fn bids_and_doubles(&self) -> (&[Said], &[Said]) {
        let chosen = self.bids.iter().position(|(_, b)| matches!(b, Bid::Play | Bid::Trump(_))).map(|i| i + 1);
        let everyone = self.rules.players.count();
        let all_passed = (self.rules.bidding == Bidding::TurnedCard && self.bids.len() >= everyone).then_some(everyone);
        self.bids.split_at(chosen.or(all_passed).unwrap_or(self.bids.len()))
    }

    /// What the deal is played for, as the bids so far set it.
    pub fn stakes(&self) -> Stakes {
        self.trump().map(|t| Stakes::of(&self.rules, t, &self.bids)).unwrap_or_default()
    }

    /// Every card played so far with the seat that played it, in order,
    /// the current trick last.
    pub fn plays(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        self.tricks.iter().flat_map(|t| t.plays()).chain(self.trick.iter().copied())
    }

    /// Every card played so far, the current trick included.
    pub fn played(&self) -> CardSet {
        let done = self.tricks.iter().flat_map(|t| t.played().iter().copied());
        done.chain(self.trick.iter().map(|&(_, c)| c)).collect()
    }

    /// Cards this seat has not seen: held by the others, or (three
    /// players) in the talon or laid away by another, or (two) in the
    /// stock. The turned card that the other player took for the seven
    /// is seen, though still held.
    pub fn unseen(&self) -> CardSet {
        let shown = self.stock.map(|s| s.dead().with(s.turned)).unwrap_or_default();
        CardSet::ALL.minus(self.hand).minus(self.played()).minus(self.discards).minus(shown)
    }

    /// The current trick as a [`Trick`], for the rules functions; `None`
    /// before trump is known.
    pub fn current_trick(&self) -> Option<Trick> {
        let trump = self.trump()?;
        let leader = match (self.trick.first(), self.tricks.last()) {
            (Some(&(seat, _)), _) => seat,
            (None, Some(last)) => last.winner,
            (None, None) => self.rules.players.next(self.rules.direction, self.dealer),
        };
        let cards: Vec<Card> = self.trick.iter().map(|&(_, c)| c).collect();
        Some(Trick::for_rules(leader, trump, &self.rules).with_cards(&cards))
    }
}
