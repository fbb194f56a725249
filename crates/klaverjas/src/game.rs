//! [`Game`]: one deal from the shuffle to the score, as a state machine
//! driven by [`Game::apply`]. It is the single source of truth: the app
//! renders its events and the bots see it through [`Game::view`].

use crate::bidding::{Bid, BidError, BidOutcome, BiddingState, Contract};
use crate::card::{Card, CardSet, ParseError, Rank, Suit};
use crate::deal::{Deal, DealCodeError, PileCard};
use crate::play::{PlayError, PlayState, Trick, TrickResult};
use crate::roem::{Meld, TrickRoem, hand_melds, settle_hand_roem};
use crate::rules::{RoemClaim, RoemSource, RoemTable, Rules};
use crate::score::{BOEM_TARGET, DealResult, GoingOn, Stakes, score_alone, score_deal};
use crate::seat::{Direction, PerTeam, Players, Seat, Team};
use crate::view::PlayerView;
use std::fmt;

/// Everything a seat can do. [`Game::apply`] takes it for the seat
/// [`Game::to_act`] names; [`Game::act`] takes it from a given seat and
/// refuses it out of turn, which is what a table of people needs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Action {
    Bid(Bid),
    Play(Card),
    /// Call the roem of the trick just won (*roem!*), manual presets only.
    ClaimRoem,
    /// Let the roem of the trick just won go uncalled.
    PassRoem,
    /// Announce the roem in one's hand before one's first card, where roem
    /// comes from the hands.
    Announce,
    /// Lay a card away after taking the talon (three players): the trump
    /// maker lays two away, one at a time, face down.
    Discard(Card),
    /// Klaberjass: the holder of the seven of trumps takes the turned card
    /// for it, before its first card.
    Swap,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Bid(b) => write!(f, "{b}"),
            Action::Play(c) => write!(f, "{c}"),
            Action::ClaimRoem => f.write_str("roem"),
            Action::PassRoem => f.write_str("no roem"),
            Action::Announce => f.write_str("announce"),
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::Swap => f.write_str("swap"),
        }
    }
}

/// The game's notation of an action, as [`Action`] displays it: `pass`,
/// `play`, `double` (or `kraak`), trump named (`hearts`, `trump hearts`,
/// `trump H`), a card (`JH`), `roem`, `no roem`, `announce`, a card laid
/// away from the talon (`discard 7C`), the seven of trumps taken in for
/// the turned card (`swap`). Case is ignored; an unknown word is named in
/// the error.
impl std::str::FromStr for Action {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Action, ParseError> {
        let t = s.trim();
        let word = t.to_ascii_lowercase();
        Ok(match word.as_str() {
            "pass" => Action::Bid(Bid::Pass),
            "play" => Action::Bid(Bid::Play),
            "double" | "kraak" => Action::Bid(Bid::Double),
            "roem" => Action::ClaimRoem,
            "no roem" | "no-roem" => Action::PassRoem,
            "announce" => Action::Announce,
            "swap" => Action::Swap,
            _ => {
                if let Some(card) = word.strip_prefix("discard ") {
                    return card.parse::<Card>().map(Action::Discard).map_err(|_| ParseError::new("action", t));
                }
                if let Some(suit) = word.strip_prefix("trump ") {
                    return suit
                        .parse::<Suit>()
                        .map(|s| Action::Bid(Bid::Trump(s)))
                        .map_err(|_| ParseError::new("action", t));
                }
                match (Suit::ALL.into_iter().find(|s| s.name() == word), t.parse::<Card>()) {
                    (Some(suit), _) => Action::Bid(Bid::Trump(suit)),
                    (None, Ok(card)) => Action::Play(card),
                    (None, Err(_)) => return Err(ParseError::new("action", t)),
                }
            }
        })
    }
}

/// Where a deal is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Phase {
    Bidding,
    /// Trump is chosen and the deal may still be doubled: the seat to act
    /// says pass or double (*kraken*).
    Doubling,
    /// The trump maker of the game for three has taken the talon and lays
    /// two cards away.
    Discarding,
    Playing,
    /// The last trick is won and the deal waits for its winner to call its
    /// roem or not (manual presets only). Earlier tricks need no such pause:
    /// their call window closes with the next card. The pause comes after
    /// every last trick, roem in it or not, so that it gives nothing away.
    ClaimRoem,
    /// Everyone passed and the cards are thrown in: the same dealer deals
    /// a new hand, and nothing is scored.
    ThrownIn,
    Done,
}

/// What happened, in order, for the app to show.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Event {
    Bid {
        seat: Seat,
        bid: Bid,
    },
    /// Everyone passed the turned card: the pile's next card is turned.
    SecondCardTurned {
        card: PileCard,
    },
    /// Everyone passed: the cards are thrown in.
    ThrownIn,
    /// Klaberjass: trump is fixed, three more cards go to each player
    /// (`dealt`, by [`Seat::index`]) and the stock's bottom card is shown.
    SecondDeal {
        dealt: [CardSet; 4],
        bottom: Card,
    },
    /// Klaberjass: `seat` took the turned card for the seven of trumps.
    Swapped {
        seat: Seat,
        turned: Card,
        seven: Card,
    },
    /// The trump maker laid a card away from hand and talon. The card is
    /// for the maker's own eyes: the others see only that one went.
    Discarded {
        seat: Seat,
        card: Card,
    },
    Contract(Contract),
    CardPlayed {
        seat: Seat,
        card: Card,
    },
    /// `number` counts from 1; `points` holds the last-trick bonus.
    TrickWon {
        number: u8,
        winner: Seat,
        points: u16,
        roem: TrickRoem,
    },
    RoemClaimed {
        seat: Seat,
        points: u16,
    },
    RoemPassed {
        seat: Seat,
    },
    /// A seat announced the roem in its hand.
    Announced(Announcement),
    /// The first trick is over: the team with the best announced
    /// combination scores all it announced.
    HandRoem {
        team: Team,
        points: u16,
    },
    /// Stuk: the seat held king and queen of trumps and has played the
    /// first of them.
    Stuk {
        seat: Seat,
    },
    /// A side reached the boem's target, or won outright: the hand ends.
    WentOn(GoingOn),
    DealOver(DealResult),
}

/// A seat's announcement of the roem in its hand (hand roem), as the table
/// hears it: its best combination's kind, value and highest card, which
/// decide. Its suit and the seat's other combinations stay unsaid (seed
/// 002: "a player should not be forced to give any more information than
/// necessary"); the team that scores shows its total after the first trick.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Announcement {
    pub seat: Seat,
    /// Cards in the best run, 4 for four of a kind.
    pub length: u8,
    pub four_of_a_kind: bool,
    /// The best combination's highest card in sequence order, or the
    /// rank of the four.
    pub top: Rank,
    pub points: u16,
}

impl Announcement {
    fn of(seat: Seat, best: &Meld) -> Announcement {
        Announcement {
            seat,
            length: best.length,
            four_of_a_kind: best.suit.is_none(),
            top: best.top,
            points: best.points,
        }
    }
}

/// A trick once played, with what became of its roem.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TrickRecord {
    pub leader: Seat,
    pub cards: [Card; 4],
    pub winner: Seat,
    pub points: u16,
    pub roem: TrickRoem,
    /// Roem that counts for the winner: all of it when claimed or in
    /// automatic presets, nothing when passed.
    pub credited: u16,
    /// Which way the turn passed.
    #[cfg_attr(feature = "serde", serde(default))]
    pub direction: Direction,
    /// Who sat at the table: a trick has a card of each.
    #[cfg_attr(feature = "serde", serde(default))]
    pub players: Players,
}

impl TrickRecord {
    /// The trick's cards in order of play.
    pub fn played(&self) -> &[Card] {
        &self.cards[..self.players.count()]
    }

    /// Each card with the seat that played it.
    pub fn plays(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        self.played().iter().enumerate().map(|(i, &c)| (self.players.step(self.direction, self.leader, i), c))
    }
}

/// Why an action was refused. Each message is fit to show a player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ActionError {
    /// Another seat is to act. Said before anything else is looked at, so
    /// that a refusal out of turn is the same whatever the hands hold.
    NotYourTurn,
    /// The action belongs to another phase: bidding while playing, say.
    WrongPhase {
        phase: Phase,
    },
    Bid(BidError),
    Play(PlayError),
    Claim(ClaimError),
    Announce(AnnounceError),
    Swap(SwapError),
}

/// A swap of the seven of trumps the rules refuse (Klaberjass).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SwapError {
    /// No turned card of the trump suit to take: another game, or trump
    /// named in the second round.
    NoTurnedTrump,
    /// Only before one's first card, and once a deal.
    TooLate,
    /// The seven of trumps is not in this hand.
    NoSeven { seven: Card },
}

impl fmt::Display for SwapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwapError::NoTurnedTrump => f.write_str("There is no turned trump card to take for the seven of trumps"),
            SwapError::TooLate => f.write_str("Too late: the seven is swapped before your first card"),
            SwapError::NoSeven { seven } => write!(f, "You do not hold the seven of trumps ({seven})"),
        }
    }
}

impl std::error::Error for SwapError {}

impl From<SwapError> for ActionError {
    fn from(e: SwapError) -> Self {
        ActionError::Swap(e)
    }
}

/// An announcement of hand roem the rules refuse.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AnnounceError {
    /// Roem comes from the tricks in these rules, or there is none.
    NoHandRoem,
    /// Only before one's first card.
    TooLate,
    AlreadyAnnounced,
    /// The hand holds no combination.
    NothingToAnnounce,
}

impl fmt::Display for AnnounceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AnnounceError::NoHandRoem => "These rules have no roem from the hand to announce",
            AnnounceError::TooLate => "Too late: roem in the hand is announced before your first card",
            AnnounceError::AlreadyAnnounced => "You have announced your roem already",
            AnnounceError::NothingToAnnounce => "Your hand holds no roem to announce",
        })
    }
}

impl std::error::Error for AnnounceError {}

impl From<AnnounceError> for ActionError {
    fn from(e: AnnounceError) -> Self {
        ActionError::Announce(e)
    }
}

/// A roem call the rules refuse.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ClaimError {
    /// In automatic presets roem is never called.
    Automatic,
    /// These rules play without roem.
    NoRoemPlayed,
    /// Roem comes from the hands: it is announced, not called.
    FromTheHands,
    /// The last trick holds no roem.
    NoRoem { trick: u8 },
    /// No trick has been completed yet.
    NoTrick,
    /// The next trick has begun: roem is called before its first card.
    TooLate,
    /// The other team won the last trick: only its winners may call.
    NotYourTrick,
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::NotYourTurn => f.write_str("Not your turn"),
            ActionError::WrongPhase { phase } => f.write_str(match phase {
                Phase::Bidding => "Trump has not been chosen yet: it is time to bid",
                Phase::Doubling => "First say whether you double the deal",
                Phase::Discarding => "First lay two cards away from your hand and the talon",
                Phase::ThrownIn => "Everyone passed: the cards are thrown in and dealt again",
                Phase::Playing => "It is time to play a card",
                Phase::ClaimRoem => "First say whether you call roem in the last trick",
                Phase::Done => "The deal is over",
            }),
            ActionError::Bid(e) => e.fmt(f),
            ActionError::Play(e) => e.fmt(f),
            ActionError::Claim(e) => e.fmt(f),
            ActionError::Announce(e) => e.fmt(f),
            ActionError::Swap(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimError::Automatic => f.write_str("Roem counts by itself in these rules: there is nothing to call"),
            ClaimError::NoRoemPlayed => f.write_str("These rules play without roem: there is nothing to call"),
            ClaimError::FromTheHands => {
                f.write_str("Roem comes from the hands in these rules: announce it before your first card")
            }
            ClaimError::NoRoem { trick } => write!(f, "There is no roem in trick {trick}"),
            ClaimError::NoTrick => f.write_str("No trick has been won yet"),
            ClaimError::TooLate => f.write_str("Too late: roem is called before the next card is played"),
            ClaimError::NotYourTrick => f.write_str("Only the team that won the trick may call its roem"),
        }
    }
}

impl std::error::Error for ActionError {}
impl std::error::Error for ClaimError {}

impl From<BidError> for ActionError {
    fn from(e: BidError) -> Self {
        ActionError::Bid(e)
    }
}
impl From<PlayError> for ActionError {
    fn from(e: PlayError) -> Self {
        ActionError::Play(e)
    }
}
impl From<ClaimError> for ActionError {
    fn from(e: ClaimError) -> Self {
        ActionError::Claim(e)
    }
}

/// Why a deal cannot be played under the rules given: the constructors
/// refuse it, so no game exists in which someone is to act and nothing is
/// legal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NewGameError {
    /// The deal itself is not whole: a card twice or missing, a hand of the
    /// wrong size, a dealer in an empty chair.
    Deal(DealCodeError),
    /// The deal is dealt for another table than the rules seat.
    OtherTable { rules: Players, deal: Players },
    /// The given contract's trump maker sits in an empty chair.
    EmptyDeclarer(Seat),
}

impl fmt::Display for NewGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NewGameError::Deal(e) => e.fmt(f),
            NewGameError::OtherTable { rules, deal } => {
                write!(f, "the deal is for a table of {}, the rules for a table of {}", deal.count(), rules.count())
            }
            NewGameError::EmptyDeclarer(seat) => write!(f, "nobody sits at {} to play the contract", seat.name()),
        }
    }
}

impl std::error::Error for NewGameError {}

impl From<DealCodeError> for NewGameError {
    fn from(e: DealCodeError) -> Self {
        NewGameError::Deal(e)
    }
}

/// One deal of Klaverjas.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    rules: Rules,
    deal: Deal,
    /// Set when the game started with trump already fixed (analysis).
    fixed_contract: Option<Contract>,
    actions: Vec<Action>,
    bidding: BiddingState,
    second_card: Option<PileCard>,
    contract: Option<Contract>,
    play: Option<PlayState>,
    tricks: Vec<TrickRecord>,
    roem: PerTeam<u16>,
    /// Hand roem announced in the first trick: each seat's best
    /// combination, as only the game knows it.
    announced: Vec<(Seat, Meld)>,
    /// The team that scored the hand roem, and how much, once the first
    /// trick is over.
    hand_roem: Option<(Team, u16)>,
    /// The team that won the last trick may still call its roem: from the
    /// trick's last card until the next card (manual presets).
    call_open: bool,
    result: Option<DealResult>,
    /// The dealer's last card, face up, where it makes trump.
    face_up: Option<Card>,
    /// In a boem, the points each side brings from the earlier hands of
    /// the game (*old play*); `None` in a game's first hand (*new play*).
    carry: Option<PerTeam<u16>>,
    /// The cards the trump maker laid away from hand and talon (three
    /// players).
    discards: CardSet,
    /// Klaberjass: who took the turned card for the seven of trumps.
    swapped: Option<Seat>,
}

impl Game {
    /// A deal ready for bidding; a deal that is not whole, or is dealt for
    /// another table than `rules` seat, is refused.
    pub fn new(rules: Rules, deal: Deal) -> Result<Game, NewGameError> {
        deal.validate()?;
        if deal.players() != rules.players {
            return Err(NewGameError::OtherTable { rules: rules.players, deal: deal.players() });
        }
        Ok(Game::of_whole_deal(rules, deal))
    }

    /// A deal shuffled with `seed` for `rules`' table, ready for bidding.
    /// An empty chair as `dealer` (North at three and two) passes the deal
    /// to the next seat, as a table does.
    pub fn dealt(rules: Rules, seed: u64, dealer: Seat) -> Game {
        let dealer = rules.players.seated(rules.direction, dealer);
        Game::of_whole_deal(rules, Deal::shuffled_for(&rules, seed, dealer))
    }

    /// [`Game::new`] for a deal known to be whole and for `rules`' table.
    fn of_whole_deal(rules: Rules, deal: Deal) -> Game {
        let mut game = Game {
            rules,
            deal,
            fixed_contract: None,
            actions: Vec::new(),
            bidding: BiddingState::new(&rules, deal.dealer, deal.pile),
            second_card: None,
            contract: None,
            play: None,
            tricks: Vec::new(),
            roem: PerTeam::default(),
            announced: Vec::new(),
            hand_roem: None,
            call_open: false,
            result: None,
            face_up: None,
            carry: None,
            discards: CardSet::EMPTY,
            swapped: None,
        };
        if rules.bidding == crate::Bidding::LastCardDealt {
            let card = deal.last_card_dealt();
            game.face_up = Some(card);
            game.contract = Some(game.bidding.turn_last_card(card));
            if let Some(c) = game.contract.filter(|_| game.bidding.is_over() && !game.takes_talon()) {
                game.start_play(c);
            }
        }
        game
    }

    /// The same game in old play of a boem: the sides bring `carry` from
    /// the game's earlier hands (`None`: a game's first hand). Given before
    /// the first action.
    pub fn with_carry(mut self, carry: Option<PerTeam<u16>>) -> Game {
        self.carry = carry;
        self
    }

    /// What the sides bring from the game's earlier hands, in old play.
    pub fn carry(&self) -> Option<PerTeam<u16>> {
        self.carry
    }

    /// The dealer's last card, dealt face up, where its suit makes trump.
    pub fn face_up(&self) -> Option<Card> {
        self.face_up
    }

    /// A side's count in the race to the boem's target: what it brings
    /// from old play, and this hand's trick points and roem.
    pub fn tally(&self, team: Team) -> u16 {
        self.carry.map_or(0, |c| c[team]).saturating_add(self.points()[team]).saturating_add(self.roem[team])
    }

    /// A deal whose trump and playing team are already settled: play starts
    /// at once with the player on the dealer's left.
    pub fn with_contract(rules: Rules, deal: Deal, contract: Contract) -> Result<Game, NewGameError> {
        if !rules.players.seats_at(contract.declarer) {
            return Err(NewGameError::EmptyDeclarer(contract.declarer));
        }
        let mut game = Game::new(rules, deal)?;
        game.fixed_contract = Some(contract);
        game.start_play(contract);
        Ok(game)
    }

    fn start_play(&mut self, contract: Contract) {
        self.contract = Some(contract);
        let mut hands = self.deal.hands;
        if self.takes_talon() {
            let maker = contract.declarer.index();
            hands[maker] = self.deal.hands[maker].union(self.deal.talon()).minus(self.discards);
        }
        // The talon, once taken, and the stock are never played from.
        if self.takes_talon() || self.deal.stock.is_some() {
            hands[Seat::North.index()] = CardSet::EMPTY;
        }
        let leader = self.rules.players.next(self.rules.direction, self.deal.dealer);
        self.play = Some(PlayState::new(hands, contract.trump, leader, &self.rules));
    }

    /// Whether the trump maker takes a talon before play: the game for
    /// three, unless the contract was given.
    fn takes_talon(&self) -> bool {
        self.rules.players == Players::Three && self.fixed_contract.is_none()
    }

    /// The cards the trump maker laid away, as only that seat (and the
    /// game) knows them.
    pub fn discards(&self) -> CardSet {
        self.discards
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    pub fn dealer(&self) -> Seat {
        self.deal.dealer
    }

    /// Trump and the playing team, once settled (where the rules play
    /// *kraken*, before the doubling that follows).
    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }

    /// What the deal is played for: its doubles so far, and spades.
    pub fn stakes(&self) -> Stakes {
        self.contract.map(|c| Stakes::of(&self.rules, c.trump, self.bids())).unwrap_or_default()
    }

    /// The actions applied so far, in order: with the rules and the deal
    /// they replay the game exactly.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    pub fn bids(&self) -> &[(Seat, Bid)] {
        self.bidding.bids()
    }

    /// The pile cards the table has seen: the proposed trump, and the second
    /// card if everyone passed.
    pub fn turned_cards(&self) -> Vec<PileCard> {
        if self.deal.stock.is_some() {
            // The stock's own turned card proposes trump ([`Game::turned_card`]).
            return Vec::new();
        }
        self.bidding.turned().into_iter().chain(self.second_card).collect()
    }

    pub fn tricks(&self) -> &[TrickRecord] {
        &self.tricks
    }

    /// Every card played so far with the seat that played it, in order,
    /// the trick on the table last.
    pub fn plays(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        let now = self.current_trick().into_iter().flat_map(|t| t.plays());
        self.tricks.iter().flat_map(|t| t.plays()).chain(now)
    }

    /// The trick on the table (empty between tricks and before play).
    pub fn current_trick(&self) -> Option<&Trick> {
        self.play.as_ref().map(|p| &p.trick)
    }

    pub fn hand(&self, seat: Seat) -> CardSet {
        match &self.play {
            Some(p) => p.hands[seat.index()],
            None if self.phase() == Phase::Discarding && self.contract.is_some_and(|c| c.declarer == seat) => {
                self.deal.hands[seat.index()].union(self.deal.talon()).minus(self.discards)
            }
            None if !self.rules.players.seats_at(seat) => CardSet::EMPTY,
            None if self.deal.stock.is_some() => self.deal.first_hands()[seat.index()],
            None => self.deal.hands[seat.index()],
        }
    }

    /// Trick points so far, last-trick bonus included.
    pub fn points(&self) -> PerTeam<u16> {
        self.play.map(|p| p.points).unwrap_or_default()
    }

    /// Whether `seat` may call roem (*roem!*) now: the rules want roem
    /// called ([`Rules::roem_is_called`]), `seat`'s team won the last trick and
    /// nobody has played to the next one or answered for it. This holds
    /// after every trick the team wins, roem in it or not: a player should
    /// be offered the call every time, since offering it only when the trick
    /// holds roem would tell the player there is roem, and seeing it is the
    /// player's own task. A call on a trick without roem is refused
    /// ([`ClaimError::NoRoem`]).
    pub fn may_call_roem(&self, seat: Seat) -> bool {
        self.call_open && self.tricks.last().is_some_and(|t| t.winner.team() == seat.team())
    }

    /// `seat` calls the roem of the last trick, whether or not it is the seat
    /// to act: the winner's partner may call too (000: "the team winning
    /// that round can call Roem").
    pub fn call_roem(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        if !self.may_call_roem(seat) {
            return Err(self.false_claim().into());
        }
        let events = self.claim(seat)?;
        self.actions.push(Action::ClaimRoem);
        Ok(events)
    }

    /// Roem that counts so far.
    pub fn roem(&self) -> PerTeam<u16> {
        self.roem
    }

    /// Hand roem announced so far, as the table heard it.
    pub fn announcements(&self) -> Vec<Announcement> {
        self.announced.iter().map(|(seat, best)| Announcement::of(*seat, best)).collect()
    }

    /// The team that scored the hand roem and how much, once the first
    /// trick is over.
    pub fn hand_roem(&self) -> Option<(Team, u16)> {
        self.hand_roem
    }

    /// Why `seat` may not announce hand roem now, if it may not.
    fn announce_error(&self, seat: Seat) -> Option<AnnounceError> {
        let trump = self.contract?.trump;
        if self.rules.roem_source != RoemSource::Hand || self.rules.roem_table == RoemTable::None {
            return Some(AnnounceError::NoHandRoem);
        }
        if !self.tricks.is_empty() || self.hand(seat).len() < self.rules.hand_size() {
            return Some(AnnounceError::TooLate);
        }
        if self.announced.iter().any(|&(s, _)| s == seat) {
            return Some(AnnounceError::AlreadyAnnounced);
        }
        if hand_melds(self.deal.hand(seat), trump, self.rules.roem_table).is_empty() {
            return Some(AnnounceError::NothingToAnnounce);
        }
        None
    }

    /// Whether playing `card` shows stuk: roem from the hands, the seat
    /// held king and queen of trumps, and this is the first of them (the
    /// second, for Klaberjass's Bella).
    fn shows_stuk(&self, seat: Seat, card: Card) -> bool {
        let Some(trump) = self.contract.map(|c| c.trump) else {
            return false;
        };
        let (king, queen) = (Card::new(trump, Rank::King), Card::new(trump, Rank::Queen));
        let other = if card == king { queen } else { king };
        let held = if self.rules.roem_table.stuk_on_the_second() {
            self.plays().any(|play| play == (seat, other))
        } else {
            self.hand(seat).contains(other)
        };
        self.rules.roem_source == RoemSource::Hand
            && self.rules.roem_table != RoemTable::None
            && (card == king || card == queen)
            && held
    }

    /// The turned card of Klaberjass, while it proposes trump or lies
    /// under the stock to be taken for the seven of trumps.
    pub fn turned_card(&self) -> Option<Card> {
        self.deal.stock.map(|s| s.turned)
    }

    /// Klaberjass: who took the turned card for the seven of trumps.
    pub fn swapped(&self) -> Option<Seat> {
        self.swapped
    }

    /// The stock's bottom card, shown once the second deal is made.
    pub fn bottom_card(&self) -> Option<Card> {
        self.deal.stock.filter(|_| self.play.is_some()).map(|s| s.bottom)
    }

    /// Why the seat to act may not take the turned card for its seven of
    /// trumps now, if it may not: the turned card must be a trump, and
    /// the swap is made once, before the seat's first card.
    fn swap_error(&self, seat: Seat) -> Option<SwapError> {
        let (Some(turned), Some(trump)) = (self.turned_card(), self.contract.map(|c| c.trump)) else {
            return Some(SwapError::NoTurnedTrump);
        };
        let seven = Card::new(trump, Rank::Seven);
        if turned.suit() != trump || turned == seven {
            return Some(SwapError::NoTurnedTrump);
        }
        if self.swapped.is_some() || self.play.is_none() || self.hand(seat).len() < self.rules.hand_size() {
            return Some(SwapError::TooLate);
        }
        if !self.hand(seat).contains(seven) {
            return Some(SwapError::NoSeven { seven });
        }
        None
    }

    pub fn result(&self) -> Option<&DealResult> {
        self.result.as_ref()
    }

    pub fn phase(&self) -> Phase {
        if self.result.is_some() {
            Phase::Done
        } else if self.bidding.thrown_in() {
            Phase::ThrownIn
        } else if self.call_open && self.tricks.len() == self.rules.tricks_per_deal() as usize {
            Phase::ClaimRoem
        } else if self.play.is_some() {
            Phase::Playing
        } else if self.contract.is_some() && self.bidding.is_over() && self.takes_talon() {
            Phase::Discarding
        } else if self.contract.is_some() {
            Phase::Doubling
        } else {
            Phase::Bidding
        }
    }

    /// The seat whose decision the game waits for; `None` once scored.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase() {
            Phase::Bidding | Phase::Doubling => Some(self.bidding.to_act()),
            Phase::Playing => self.play.map(|p| p.to_act()),
            Phase::Discarding => self.contract.map(|c| c.declarer),
            Phase::ClaimRoem => self.tricks.last().map(|t| t.winner),
            Phase::ThrownIn | Phase::Done => None,
        }
    }

    /// Cards the seat to act may play (empty outside play).
    pub fn legal_cards(&self) -> CardSet {
        match (self.phase(), &self.play) {
            (Phase::Playing, Some(p)) => p.legal(),
            _ => CardSet::EMPTY,
        }
    }

    /// Every action the seat to act may take. Never empty before the end.
    /// "No roem" while a call is open in play is also taken, but not
    /// listed: the next card says it as well.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.phase() {
            Phase::Bidding | Phase::Doubling => self.bidding.legal_bids().into_iter().map(Action::Bid).collect(),
            Phase::Playing => {
                let seat = self.to_act();
                let announce = seat.filter(|&s| self.announce_error(s).is_none()).map(|_| Action::Announce);
                let swap = seat.filter(|&s| self.swap_error(s).is_none()).map(|_| Action::Swap);
                let call = self.roem_to_call().then_some(Action::ClaimRoem);
                let cards = self.legal_cards().iter().map(Action::Play);
                announce.into_iter().chain(swap).chain(call).chain(cards).collect()
            }
            Phase::Discarding => {
                self.to_act().map(|maker| self.hand(maker).iter().map(Action::Discard).collect()).unwrap_or_default()
            }
            Phase::ClaimRoem => {
                self.roem_to_call().then_some(Action::ClaimRoem).into_iter().chain([Action::PassRoem]).collect()
            }
            Phase::ThrownIn | Phase::Done => Vec::new(),
        }
    }

    /// `seat` takes `action`: a roem call in turn or not, from a seat of
    /// the team that may call ([`Game::call_roem`]); anything else only at
    /// the seat's own turn. Out of turn the one refusal is
    /// [`ActionError::NotYourTurn`], whatever the action and whatever any
    /// hand holds: a refusal that named a rule or a missing card would
    /// tell another seat's cards. At its turn a refusal names the rule, as
    /// [`Game::apply`]'s.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, ActionError> {
        if action == Action::ClaimRoem {
            return self.call_roem(seat);
        }
        if self.to_act() != Some(seat) {
            return Err(ActionError::NotYourTurn);
        }
        self.apply(action)
    }

    /// Whether `action` would be accepted now, and if not, why.
    pub fn check(&self, action: Action) -> Result<(), ActionError> {
        self.clone().apply(action).map(|_| ())
    }

    /// Applies the action of the seat to act. On error nothing changes.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        let phase = self.phase();
        let mut events = Vec::new();
        match (phase, action) {
            (Phase::Bidding | Phase::Doubling, Action::Bid(bid)) => {
                let seat = self.bidding.to_act();
                let outcome = self.bidding.apply(bid)?;
                events.push(Event::Bid { seat, bid });
                let contract = match outcome {
                    BidOutcome::Next => None,
                    BidOutcome::ThrownIn => {
                        events.push(Event::ThrownIn);
                        None
                    }
                    BidOutcome::Contract(c) => Some(c),
                    BidOutcome::SecondCard { card, contract } => {
                        self.second_card = Some(card);
                        events.push(Event::SecondCardTurned { card });
                        Some(contract)
                    }
                };
                if let Some(c) = contract {
                    self.contract = Some(c);
                    events.push(Event::Contract(c));
                }
                if let Some(c) = self.contract.filter(|_| self.bidding.is_over() && !self.takes_talon()) {
                    self.start_play(c);
                    if let (Some(bottom), Some(stock)) = (self.bottom_card(), self.deal.stock) {
                        let dealt = self.deal.hands.map(|h| h.intersect(stock.later));
                        events.push(Event::SecondDeal { dealt, bottom });
                    }
                }
            }
            (Phase::Discarding, Action::Discard(card)) => {
                let seat = self.to_act().ok_or(ActionError::WrongPhase { phase })?;
                if !self.hand(seat).contains(card) {
                    return Err(PlayError::NotInHand { card, seat }.into());
                }
                self.discards.insert(card);
                events.push(Event::Discarded { seat, card });
                if let Some(c) = self.contract.filter(|_| self.discards.len() == crate::deal::TALON) {
                    self.start_play(c);
                }
            }
            (Phase::Playing, Action::Swap) => {
                let seat = self.to_act().ok_or(ActionError::WrongPhase { phase })?;
                if let Some(e) = self.swap_error(seat) {
                    return Err(e.into());
                }
                let (Some(turned), Some(play)) = (self.turned_card(), self.play.as_mut()) else {
                    return Err(SwapError::NoTurnedTrump.into());
                };
                let seven = Card::new(turned.suit(), Rank::Seven);
                play.hands[seat.index()].remove(seven);
                play.hands[seat.index()].insert(turned);
                self.swapped = Some(seat);
                events.push(Event::Swapped { seat, turned, seven });
            }
            (Phase::Playing, Action::Announce) => {
                let seat = self.to_act().ok_or(ActionError::WrongPhase { phase })?;
                if let Some(e) = self.announce_error(seat) {
                    return Err(e.into());
                }
                let trump = self.contract.map_or(Suit::Clubs, |c| c.trump);
                let best = hand_melds(self.deal.hand(seat), trump, self.rules.roem_table)[0];
                self.announced.push((seat, best));
                events.push(Event::Announced(Announcement::of(seat, &best)));
            }
            (Phase::Playing, Action::Play(card)) => {
                let stuk = self.play.map(|p| p.to_act()).is_some_and(|seat| self.shows_stuk(seat, card));
                let play = self.play.as_mut().ok_or(ActionError::WrongPhase { phase })?;
                let seat = play.to_act();
                let done = play.play(card)?;
                self.call_open = false;
                events.push(Event::CardPlayed { seat, card });
                // Sturk is roemed as the card is played, before its trick
                // is picked up: it puts a side on at once in new play; in
                // old play only once the side has picked up a trick or
                // scored its roemte (SAKBOC 8.12).
                let mut sturk_on = None;
                if stuk {
                    let team = seat.team();
                    self.roem[team] += crate::roem::STUK;
                    events.push(Event::Stuk { seat });
                    let earned = self.tricks.iter().any(|t| t.winner.team() == team)
                        || self.hand_roem.is_some_and(|(t, _)| t == team);
                    let this_trick = done.filter(|d| d.winner.team() == team).map_or(0, |d| d.points);
                    let before = self.tally(team).saturating_sub(this_trick);
                    if (self.carry.is_none() || earned) && before >= BOEM_TARGET {
                        sturk_on = Some(team);
                    }
                }
                match done {
                    Some(done) => self.finish_trick(done, &mut events, sturk_on),
                    None => {
                        if let Some(team) = sturk_on {
                            self.go_on_if_there(team, &mut events);
                        }
                    }
                }
            }
            (_, Action::ClaimRoem) => {
                let seat = match self.to_act() {
                    Some(seat) if self.may_call_roem(seat) => seat,
                    _ => return Err(self.false_claim().into()),
                };
                events = self.claim(seat)?;
            }
            (Phase::Playing | Phase::ClaimRoem, Action::PassRoem) if self.call_open => {
                let seat = self.to_act().ok_or(ActionError::WrongPhase { phase })?;
                self.call_open = false;
                events.push(Event::RoemPassed { seat });
                self.finish_if_over(&mut events);
            }
            // Said out of its time, a double is told the rule that has none.
            (_, Action::Bid(Bid::Double)) if !self.rules.kraken => return Err(BidError::NoDoubling.into()),
            _ => return Err(ActionError::WrongPhase { phase }),
        }
        self.actions.push(action);
        Ok(events)
    }

    /// Whether the last trick holds roem its team may still call.
    fn roem_to_call(&self) -> bool {
        self.call_open && self.tricks.last().is_some_and(|t| !t.roem.is_empty())
    }

    /// Credits the last trick's roem to `seat`'s team, which may call it.
    fn claim(&mut self, seat: Seat) -> Result<Vec<Event>, ClaimError> {
        let trick = self.tricks.len() as u8;
        let last = self.tricks.last_mut().ok_or(ClaimError::NoTrick)?;
        if last.roem.is_empty() {
            return Err(ClaimError::NoRoem { trick });
        }
        last.credited = last.roem.points;
        self.roem[seat.team()] += last.roem.points;
        self.call_open = false;
        let mut events = vec![Event::RoemClaimed { seat, points: last.roem.points }];
        // Roem called on a trick the side picked up may put it on.
        self.go_on_if_there(seat.team(), &mut events);
        self.finish_if_over(&mut events);
        Ok(events)
    }

    /// Why a roem call is refused when the call window is not open to the
    /// caller.
    fn false_claim(&self) -> ClaimError {
        if self.rules.roem_table == RoemTable::None {
            return ClaimError::NoRoemPlayed;
        }
        if self.rules.roem_source == RoemSource::Hand {
            return ClaimError::FromTheHands;
        }
        if self.rules.roem_claim == RoemClaim::Automatic {
            return ClaimError::Automatic;
        }
        match self.tricks.last() {
            None => ClaimError::NoTrick,
            Some(_) if self.call_open => ClaimError::NotYourTrick,
            Some(_) => ClaimError::TooLate,
        }
    }

    /// `first`: a side whose sturk, roemed with the trick's last card,
    /// puts it on before the trick is picked up.
    fn finish_trick(&mut self, done: TrickResult, events: &mut Vec<Event>, first: Option<Team>) {
        let mut cards = [done.trick.cards()[0]; 4];
        cards[..done.trick.len()].copy_from_slice(done.trick.cards());
        let automatic = self.rules.roem_claim == RoemClaim::Automatic;
        let credited = if automatic { done.roem.points } else { 0 };
        self.roem[done.winner.team()] += credited;
        self.tricks.push(TrickRecord {
            leader: done.trick.leader(),
            cards,
            winner: done.winner,
            points: done.points,
            roem: done.roem,
            credited,
            direction: done.trick.direction(),
            players: done.trick.players(),
        });
        events.push(Event::TrickWon {
            number: self.tricks.len() as u8,
            winner: done.winner,
            points: done.points,
            roem: done.roem,
        });
        if self.tricks.len() == 1 {
            self.settle_hand_roem(events);
        }
        // In old play roemte that is good puts its side on before the
        // trick is closed (SAKBOC 8.24); otherwise a side goes on as it
        // picks up a trick (8.19). In new play 8.21 asks a trick only of
        // two fifties; that roemte alone can reach 100 in new play only so
        // (or with sturk), and our reading asks the trick of all of it.
        if let Some(team) = first {
            self.go_on_if_there(team, events);
        }
        if let Some((team, _)) = self.hand_roem.filter(|_| self.tricks.len() == 1 && self.carry.is_some()) {
            self.go_on_if_there(team, events);
        }
        self.go_on_if_there(done.winner.team(), events);
        if self.result.is_some() {
            return;
        }
        self.call_open = self.rules.roem_is_called();
        if !self.call_open {
            self.finish_if_over(events);
        }
    }

    /// After the first trick, hand roem is settled by
    /// [`settle_hand_roem`](crate::roem::settle_hand_roem).
    fn settle_hand_roem(&mut self, events: &mut Vec<Event>) {
        let Some(trump) = self.contract.map(|c| c.trump) else {
            return;
        };
        let announced = self.announced.iter().copied();
        let Some(settled) = settle_hand_roem(announced, self.deal.hands, trump, self.rules.roem_table) else {
            return;
        };
        let (team, points) = (settled.team, settled.points);
        self.roem[team] += points;
        self.hand_roem = Some((team, points));
        events.push(Event::HandRoem { team, points });
        if self.rules.races_to_the_boem() && settled.best.wins_outright(self.rules.roem_table) {
            // Four jacks and vyf-eenderse go on two strokes even in old
            // play; four aces, kings or queens only one there if the
            // others count 50 (SAKBOC 8.17).
            // Roemed in turn, before the first trick was picked up: the
            // others count what they brought and their sturk, not that
            // trick.
            let other = team.other();
            let others = self.carry.map_or(0, |c| c[other]).saturating_add(self.roem[other]);
            let strong = settled.best.suit.is_some() || settled.best.top == Rank::Jack;
            let strokes = if strong || self.carry.is_none() { 2 } else { GoingOn::strokes_against(others) };
            self.go_on(GoingOn { team, strokes, outright: true }, events);
        }
    }

    /// Ends the hand with `team` going on the boem if the rules race to
    /// it and the team has reached the target.
    fn go_on_if_there(&mut self, team: Team, events: &mut Vec<Event>) {
        if self.result.is_some() || !self.rules.races_to_the_boem() || self.tally(team) < BOEM_TARGET {
            return;
        }
        let strokes = GoingOn::strokes_against(self.tally(team.other()));
        self.go_on(GoingOn { team, strokes, outright: false }, events);
    }

    fn go_on(&mut self, on: GoingOn, events: &mut Vec<Event>) {
        let (Some(play), Some(contract)) = (self.play, self.contract) else {
            return;
        };
        // Going on with the last trick, the cards laid away go with it.
        let mut points = play.points;
        if let Some(last) = self.tricks.last().filter(|_| self.tricks.len() == self.rules.tricks_per_deal() as usize) {
            points[last.winner.team()] += self.rules.card_values.set_points(self.discards, contract.trump);
        }
        let mut result = score_deal(&self.rules, contract, self.stakes(), points, self.roem, play.tricks_won);
        result.going_on = Some(on);
        self.result = Some(result);
        self.call_open = false;
        events.push(Event::WentOn(on));
        events.push(Event::DealOver(result));
    }

    fn finish_if_over(&mut self, events: &mut Vec<Event>) {
        let (Some(play), Some(contract)) = (self.play, self.contract) else {
            return;
        };
        if self.tricks.len() < self.rules.tricks_per_deal() as usize || self.result.is_some() {
            return;
        }
        let result = if self.rules.players.partnerships() {
            score_deal(&self.rules, contract, self.stakes(), play.points, self.roem, play.tricks_won)
        } else {
            let (points, roem, tricks) = self.by_player();
            score_alone(&self.rules, contract, self.stakes(), points, roem, tricks)
        };
        self.result = Some(result);
        events.push(Event::DealOver(result));
    }

    /// Each player's trick points (the last trick's winner with the
    /// cards laid away: 001, "The winner of the last trick is entitled to
    /// also take the two discarded cards"), credited roem and tricks, by
    /// [`Seat::index`]: the count where everyone plays alone.
    pub fn by_player(&self) -> ([u16; 4], [u16; 4], [u8; 4]) {
        let (mut points, mut roem, mut tricks) = ([0u16; 4], [0u16; 4], [0u8; 4]);
        for t in &self.tricks {
            points[t.winner.index()] += t.points;
            roem[t.winner.index()] += t.credited;
            tricks[t.winner.index()] += 1;
        }
        if self.rules.players == Players::Two {
            // Each team is one player: its roem, hand roem and Bella
            // included, is that player's.
            for seat in self.rules.players.seats() {
                roem[seat.index()] = self.roem[seat.team()];
            }
        }
        if let (Some(last), Some(c)) = (self.tricks.last(), self.contract)
            && self.tricks.len() == self.rules.tricks_per_deal() as usize
        {
            points[last.winner.index()] += self.rules.card_values.set_points(self.discards, c.trump);
        }
        (points, roem, tricks)
    }

    /// What `seat` may know, and nothing more.
    pub fn view(&self, seat: Seat) -> PlayerView {
        PlayerView {
            seat,
            rules: self.rules,
            dealer: self.deal.dealer,
            hand: self.hand(seat),
            turned: self.turned_cards(),
            bids: self.bids().to_vec(),
            contract: self.contract,
            tricks: self.tricks.clone(),
            trick: self.current_trick().map(|t| t.plays().collect()).unwrap_or_default(),
            phase: self.phase(),
            to_act: self.to_act(),
            legal: if self.to_act() == Some(seat) { self.legal_actions() } else { Vec::new() },
            points: self.points(),
            roem: self.roem,
            announcements: self.announcements(),
            result: self.result,
            face_up: self.face_up,
            carry: self.carry,
            discards: if self.contract.is_some_and(|c| c.declarer == seat) { self.discards } else { CardSet::EMPTY },
            stock: self.turned_card().map(|turned| crate::view::StockShown {
                turned,
                bottom: self.bottom_card(),
                swapped: self.swapped,
            }),
        }
    }

    /// The serialisable record: rules, deal and actions.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            format: GameRecord::format_for(&self.rules),
            rules: self.rules,
            deal: self.deal,
            contract: self.fixed_contract,
            actions: self.actions.clone(),
            carry: self.carry,
        }
    }

    /// Rebuilds a game by replaying a record; every action is checked again.
    pub fn from_record(record: &GameRecord) -> Result<Game, ReplayError> {
        if record.format > GameRecord::FORMAT {
            return Err(ReplayError::NewerFormat(record.format));
        }
        let mut game = match record.contract {
            Some(c) => Game::with_contract(record.rules, record.deal, c),
            None => Game::new(record.rules, record.deal),
        }
        .map_err(ReplayError::BadDeal)?
        .with_carry(record.carry);
        for (index, &action) in record.actions.iter().enumerate() {
            game.apply(action).map_err(|error| ReplayError::Action { index, action, error })?;
        }
        // Format 1 ended a deal at once when its last trick held no roem;
        // since format 2 the deal waits for the winner's word after every
        // last trick. Such an old deal was over: say the word it never had.
        if record.format < 2 && game.phase() == Phase::ClaimRoem && !game.roem_to_call() {
            game.apply(Action::PassRoem).map_err(|error| ReplayError::Action {
                index: record.actions.len(),
                action: Action::PassRoem,
                error,
            })?;
        }
        Ok(game)
    }
}

/// A game as stored: enough to rebuild it exactly, with a format version so
/// that a newer file is recognised and refused rather than misread.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameRecord {
    pub format: u32,
    pub rules: Rules,
    pub deal: Deal,
    pub contract: Option<Contract>,
    pub actions: Vec<Action>,
    /// What the sides brought from old play ([`Game::with_carry`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub carry: Option<PerTeam<u16>>,
}

impl GameRecord {
    /// 2: roem may be called after every trick until the next card, and
    /// the last trick always waits for its winner's call. 3: the deal may
    /// be doubled (*kraken*) or count double in spades, and roem may come
    /// from the hands. 4: South African cards, play to the right, trump by
    /// the last card dealt, South African roemtes and following, the boem.
    /// 5: three players, the talon and hands thrown in.
    pub const FORMAT: u32 = 6;

    /// The oldest format that holds a game under `rules`: a version that
    /// reads no doubling must refuse a game that has it rather than play
    /// it without.
    pub fn format_for(rules: &Rules) -> u32 {
        let south_african = rules.card_values != crate::CardValues::Dutch
            || rules.direction != Direction::Clockwise
            || !rules.has_playing_team()
            || rules.races_to_the_boem()
            || rules.roem_table == RoemTable::SouthAfrican
            || rules.following.trump_instead_of_following
            || rules.following.free_when_void
            || rules.following.jack_never_forced;
        if rules.players == Players::Two
            || rules.bidding == crate::Bidding::TwoRounds
            || rules.roem_table == RoemTable::Klaberjass
            || rules.following.win_if_able
        {
            6
        } else if rules.players != Players::Four || rules.redeal_on_all_pass {
            5
        } else if south_african {
            4
        } else if rules.multiplies_stakes() || matches!(rules.roem_source, RoemSource::Hand) {
            3
        } else {
            2
        }
    }
}

/// Why a stored game cannot be rebuilt.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ReplayError {
    NewerFormat(u32),
    BadDeal(NewGameError),
    /// Row `deal` (1-based) of a match's score sheet is not what its deal
    /// as played scored, or cannot be.
    Sheet {
        deal: usize,
    },
    /// Deal `deal` (1-based) of a match, as kept, does not replay.
    PlayedDeal {
        deal: usize,
    },
    Action {
        index: usize,
        action: Action,
        error: ActionError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::NewerFormat(v) => {
                // Games and matches have their own newest formats: name the
                // one found, which this version cannot read.
                write!(f, "saved by a newer version (format {v}, which this version cannot read)")
            }
            ReplayError::BadDeal(e) => write!(f, "the saved deal cannot be played: {e}"),
            ReplayError::Sheet { deal } => write!(f, "the score sheet's deal {deal} does not add up"),
            ReplayError::PlayedDeal { deal } => write!(f, "the saved deal {deal} does not replay"),
            ReplayError::Action { index, action, error } => {
                write!(f, "saved action {} ({action}) is not legal: {error}", index + 1)
            }
        }
    }
}

impl std::error::Error for ReplayError {}

impl From<Game> for GameRecord {
    fn from(g: Game) -> GameRecord {
        g.record()
    }
}

impl TryFrom<GameRecord> for Game {
    type Error = ReplayError;
    fn try_from(r: GameRecord) -> Result<Game, ReplayError> {
        Game::from_record(&r)
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use super::*;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Game {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.record().serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for Game {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
            let record = GameRecord::deserialize(d)?;
            Game::from_record(&record).map_err(serde::de::Error::custom)
        }
    }
}
