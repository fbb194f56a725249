//! The table as the player sees it at this moment: the hands, the trick,
//! the piles, the contract, the deal's result once its last trick has
//! landed, and the cards in the air while a deal is dealt. The show
//! ([`crate::show`]) moves it on beat by beat; the card entities and the
//! panels draw it.

use klaverjas::{Card, CardSet, CardValues, Contract, DealResult, Game, Phase, PileCard, Players, Seat, Team};

/// The table as the player sees it now.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub dealer: Seat,
    /// Who sits at the table.
    pub players: Players,
    pub hands: [CardSet; 4],
    /// The trick on the table, in order of play.
    pub trick: Vec<(Seat, Card)>,
    /// The cards of the tricks won, trick by trick, on each pile by the
    /// seat it lies before ([`Shown::pile_of`]).
    pub won: [Vec<Card>; 4],
    /// At three, the talon face down in North's empty place, and there
    /// the cards the trump maker laid away until the last trick takes
    /// them.
    pub talon: CardSet,
    /// The 2-6 pile's turned cards (classic).
    pub turned: Vec<PileCard>,
    /// Klaberjass: the stock's open cards beside it, the turned card (or
    /// the seven of trumps taken for it) and, after the second deal, the
    /// bottom card; `talon` holds the stock's closed cards.
    pub stock_open: Vec<Card>,
    /// The dealer's last card, face up where it makes trump: it lies open
    /// in the dealer's hand until played.
    pub face_up: Option<Card>,
    pub contract: Option<Contract>,
    /// The order of the cards, for sorting a hand.
    pub values: CardValues,
    /// The roem's values, for the words its calls are made in.
    pub roem_table: klaverjas::RoemTable,
    /// How often the deal has been doubled (*kraken*).
    pub doubles: u8,
    pub dealing: Option<Dealing>,
    pub result: Option<DealResult>,
    /// The trick just won, pushed together before the winner while it is
    /// swept away.
    pub gathered: Option<Seat>,
    /// The last trick swept, for a second look until the next is complete.
    pub last_trick: Option<LastTrick>,
}

/// A completed trick as it was played.
#[derive(Clone, Debug, PartialEq)]
pub struct LastTrick {
    pub number: u8,
    pub plays: Vec<(Seat, Card)>,
    pub winner: Seat,
}

impl Default for Shown {
    fn default() -> Shown {
        Shown {
            dealer: Seat::West,
            players: Players::Four,
            hands: [CardSet::EMPTY; 4],
            trick: Vec::new(),
            won: Default::default(),
            talon: CardSet::EMPTY,
            turned: Vec::new(),
            stock_open: Vec::new(),
            face_up: None,
            contract: None,
            values: CardValues::Dutch,
            roem_table: klaverjas::RoemTable::Blog,
            doubles: 0,
            dealing: None,
            result: None,
            gathered: None,
            last_trick: None,
        }
    }
}

impl Shown {
    /// The deal in play as it stands, all at once (a loaded save).
    pub fn of(game: &Game) -> Shown {
        let players = game.rules().players;
        let mut won: [Vec<Card>; 4] = Default::default();
        for t in game.tricks() {
            won[pile_of(players, t.winner).index()].extend(t.played());
        }
        // The talon lies in the middle until the maker takes it; what the
        // maker laid away lies there until the last trick.
        let mut talon = match game.phase() {
            Phase::Bidding | Phase::ThrownIn => game.deal().talon(),
            _ if game.result().is_some() => CardSet::EMPTY,
            _ => game.discards(),
        };
        let mut stock_open = Vec::new();
        if let Some(turned) = game.turned_card() {
            let seven = Card::new(turned.suit(), klaverjas::Rank::Seven);
            stock_open.push(if game.swapped().is_some() { seven } else { turned });
            stock_open.extend(game.bottom_card());
            // The stock keeps what is in no hand, no trick and not open.
            let out = Seat::ALL.iter().fold(CardSet::EMPTY, |a, &s| a.union(game.hand(s)));
            talon = CardSet::ALL.minus(out).minus(game.plays().map(|(_, c)| c).collect());
            stock_open.iter().for_each(|&c| talon.remove(c));
        }
        if game.result().is_some()
            && let Some(last) = game.tricks().last()
        {
            won[pile_of(players, last.winner).index()].extend(game.discards());
        }
        Shown {
            dealer: game.dealer(),
            players,
            hands: Seat::ALL.map(|s| game.hand(s)),
            trick: game.current_trick().map(|t| t.plays().collect()).unwrap_or_default(),
            won,
            talon,
            turned: game.turned_cards(),
            stock_open,
            face_up: game.face_up(),
            contract: game.contract(),
            values: game.rules().card_values,
            roem_table: game.rules().roem_table,
            doubles: game.stakes().doubles,
            dealing: None,
            result: game.result().copied(),
            gathered: None,
            last_trick: game.tricks().last().map(|t| LastTrick {
                number: game.tricks().len() as u8,
                plays: t.plays().collect(),
                winner: t.winner,
            }),
        }
    }

    /// The piles of won tricks: one a team, or at three one a player.
    pub fn piles(&self) -> Vec<Seat> {
        match self.players {
            Players::Four => vec![Seat::South, Seat::East],
            Players::Three | Players::Two => self.players.seats().to_vec(),
        }
    }

    /// Tricks on the pile before `pile` (the cards laid away at three,
    /// added with the last trick, make no trick of their own).
    pub fn tricks_won(&self, pile: Seat) -> usize {
        self.won[pile.index()].len() / self.players.count()
    }

    /// The card points of the tricks on a pile, with the last trick's
    /// bonus once it is in.
    pub fn points(&self, pile: Seat, rules: &klaverjas::Rules) -> u16 {
        let Some(trump) = self.contract.map(|c| c.trump) else { return 0 };
        let cards = rules.card_values.set_points(self.won[pile.index()].iter().copied().collect(), trump);
        let last = self
            .last_trick
            .as_ref()
            .is_some_and(|t| t.number == rules.tricks_per_deal() && pile_of(self.players, t.winner) == pile);
        cards + if last { rules.last_trick_bonus } else { 0 }
    }
}

/// The pile a trick won by `winner` goes to: the team's, which lies before
/// South for North-South and before East for East-West; at three and two
/// the winner's own.
pub fn pile_of(players: Players, winner: Seat) -> Seat {
    match (players, winner.team()) {
        (Players::Three | Players::Two, _) => winner,
        (Players::Four, Team::NS) => Seat::South,
        (Players::Four, Team::EW) => Seat::East,
    }
}

/// A deal being dealt: the 32 cards leave the dealer in the engine's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Dealing {
    pub start: f32,
    pub seconds: f32,
    pub order: [(Seat, Card); 32],
}

/// Of the deal, the share of its time each card is in the air.
pub const IN_AIR: f32 = 0.1;

impl Dealing {
    /// When the `k`-th card of the deal leaves the dealer.
    pub fn leaves_at(&self, k: usize) -> f32 {
        self.start + k as f32 / 32.0 * (1.0 - IN_AIR) * self.seconds
    }

    pub fn flight(&self) -> f32 {
        IN_AIR * self.seconds
    }
}
