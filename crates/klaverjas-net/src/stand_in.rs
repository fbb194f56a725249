//! A match that a seat at a remote table can draw and play from, built from
//! nothing but what the seat is told: its view, the score sheet, and each
//! deal's code once the deal is opened.
//!
//! The cards the seat has not seen are dealt by the bots' own sampler
//! (`klaverjas_ai::sample`), agreeing with every card played and every void
//! shown, and the deal's public actions are said again on that deal. A
//! stand-in is kept only if it gives the seat exactly the view the table
//! sent, so everything the seat may see is the table's; what it may not see
//! is a guess that the next message may deal differently, and is drawn face
//! down. Once a deal is opened, the real deal replaces the guess, so that a
//! deal's review shows the cards as they were.
//!
//! The app keeps its own chair at South: [`StandIn::seen_from_seat`] gives
//! the match with the table turned that way ([`Deal::seen_from`]).

use klaverjas::{
    Action, Announcement, Bidding, Card, CardSet, Deal, Game, GameRecord, Match, MatchRecord, PerTeam, PileCard,
    PlayerView, Players, Rank, Rng, RoemClaim, ScoreSheet, Seat, Suit,
};
use klaverjas_ai::knowledge::Knowledge;
use klaverjas_ai::sample::sample_hands;
use std::fmt;

/// Deals tried for one view before the stand-in gives up. A view from a
/// real game always has consistent deals; the sampler knows nothing of
/// hand roem beyond the combination announced, so a hand that scored more
/// than it may take a few hundred tries (about 10 µs each).
const TRIES: usize = 4000;

/// One seat's stand-in for its table's match.
#[derive(Clone, Debug)]
pub struct StandIn {
    seat: Seat,
    /// The deal in play (1-based, the table's number), and its stand-in.
    deal: usize,
    game: Option<Game>,
    /// Finished deals with their real cards, by number, in order.
    played: Vec<(usize, GameRecord)>,
    sheet: ScoreSheet,
    rng: Rng,
}

/// Why a table's messages could not be followed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StandInError {
    /// The table plays for two or three, which a stand-in does not follow.
    Players(Players),
    /// No deal gives the view the table sent (a message from another
    /// version of the rules, or damaged).
    NoDeal { deal: usize },
    /// An opened deal's code is no deal, or does not replay the deal as it
    /// was played.
    Opened { deal: usize, why: String },
    /// No view has come yet, or the sheet lags the deal.
    NotYet,
    /// The deals kept do not make a match with the table's sheet.
    Sheet(String),
}

impl fmt::Display for StandInError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StandInError::Players(p) => write!(f, "a table of {} players cannot be followed here", p.count()),
            StandInError::NoDeal { deal } => write!(f, "deal {deal}: no deal agrees with what the table sent"),
            StandInError::Opened { deal, why } => write!(f, "deal {deal} opened: {why}"),
            StandInError::NotYet => f.write_str("the table's state has not come yet"),
            StandInError::Sheet(why) => write!(f, "the deals kept and the table's sheet disagree: {why}"),
        }
    }
}

impl std::error::Error for StandInError {}

impl StandIn {
    /// A stand-in for `seat`; `seed` draws the unseen cards.
    pub fn new(seat: Seat, seed: u64) -> StandIn {
        StandIn { seat, deal: 0, game: None, played: Vec::new(), sheet: ScoreSheet::default(), rng: Rng::new(seed) }
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The deal in play, with the table's seats; `None` before the first
    /// view.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    pub fn sheet(&self) -> &ScoreSheet {
        &self.sheet
    }

    /// Takes in the table's state: deal `deal` as the seat sees it, and the
    /// sheet when it came. The stand-in in hand is kept while it still
    /// agrees (the unseen cards then stay where they were), and dealt anew
    /// otherwise.
    pub fn table(&mut self, deal: usize, view: &PlayerView, sheet: Option<&ScoreSheet>) -> Result<(), StandInError> {
        if view.rules.players != Players::Four {
            return Err(StandInError::Players(view.rules.players));
        }
        if let Some(sheet) = sheet {
            self.sheet = sheet.clone();
        }
        // The deals count from one again: a new match at the same table.
        if deal < self.deal {
            self.played.clear();
        }
        let actions = actions_of(view);
        let kept = self.game.as_ref().filter(|_| self.deal == deal).and_then(|g| go_on(g, &actions, view));
        let game = match kept {
            Some(game) => game,
            None => (0..TRIES)
                .find_map(|_| {
                    let game = Game::new(view.rules, deal_for(view, &mut self.rng)?).ok()?.with_carry(view.carry);
                    go_on(&game, &actions, view)
                })
                .ok_or(StandInError::NoDeal { deal })?,
        };
        self.deal = deal;
        self.game = Some(game);
        Ok(())
    }

    /// Takes in deal `deal`'s code, opened at its end: the deal as played
    /// with its real cards, kept for the review. A deal this stand-in did
    /// not see end (it sat down later) is left out.
    pub fn opened(&mut self, deal: usize, code: &str) -> Result<(), StandInError> {
        let bad = |why: String| StandInError::Opened { deal, why };
        let real = Deal::from_code(code).map_err(|e| bad(e.to_string()))?;
        let Some(game) = self.game.as_ref().filter(|g| self.deal == deal && g.result().is_some()) else {
            return Ok(());
        };
        let mut replayed = Game::new(*game.rules(), real).map_err(|e| bad(e.to_string()))?.with_carry(game.carry());
        for &action in game.actions() {
            replayed.apply(action).map_err(|e| bad(format!("{action} is refused on the real cards: {e}")))?;
        }
        if replayed.result() != game.result() {
            return Err(bad("the real cards score differently from what the table said".into()));
        }
        self.played.retain(|(n, _)| *n < deal);
        self.played.push((deal, replayed.record()));
        self.game = Some(replayed);
        Ok(())
    }

    /// The match as the app plays it: the table turned so that this seat
    /// sits at South, the deal in play, the sheet, and the finished deals
    /// that came just before it with their real cards.
    pub fn seen_from_seat(&self) -> Result<Match, StandInError> {
        let game = self.game.as_ref().ok_or(StandInError::NotYet)?;
        let seat = self.seat;
        let finished = usize::from(game.result().is_some());
        // The record wants the finished deals just before the one in play,
        // with none missing between them.
        let mut played: Vec<GameRecord> = Vec::new();
        let mut next = self.deal;
        for (n, record) in self.played.iter().rev() {
            if *n == self.deal {
                continue;
            }
            if *n + 1 != next {
                break;
            }
            played.insert(0, turned(record, seat));
            next = *n;
        }
        let sheet = ScoreSheet { rows: self.sheet.rows.iter().map(|r| r.seen_from(seat)).collect() };
        // A sheet that lags the deal (a message still on its way) keeps the
        // match readable: the rows stop at the deal before this one.
        let rows = self.deal - 1 + finished;
        if sheet.rows.len() < rows {
            return Err(StandInError::NotYet);
        }
        let sheet = ScoreSheet { rows: sheet.rows[..rows].to_vec() };
        let record = MatchRecord {
            format: MatchRecord::FORMAT,
            seed: 0,
            first_dealer: played.first().map_or(game.deal().dealer.after(seat.turn_to_south()), |r| r.deal.dealer),
            given_deals: Vec::new(),
            sheet,
            game: turned(&game.record(), seat),
            practice: false,
            aids: Vec::new(),
            played,
            redeals: 0,
        };
        Match::from_record(&record).map_err(|e| StandInError::Sheet(e.to_string()))
    }
}

/// A game's record with the table turned so that `seat` sits at South.
fn turned(record: &GameRecord, seat: Seat) -> GameRecord {
    let swap = seat.turn_to_south() % 2 == 1;
    GameRecord {
        deal: record.deal.seen_from(seat),
        carry: record.carry.map(|c| if swap { PerTeam::new(c.ew, c.ns) } else { c }),
        ..record.clone()
    }
}

/// `game` with the actions of `actions` it has not taken yet, if it took
/// the others and the result gives exactly `view`.
fn go_on(game: &Game, actions: &[Action], view: &PlayerView) -> Option<Game> {
    let taken = game.actions();
    if taken.len() > actions.len() || actions[..taken.len()] != *taken {
        return None;
    }
    let mut game = game.clone();
    for &action in &actions[taken.len()..] {
        game.apply(action).ok()?;
    }
    (game.view(view.seat) == *view).then_some(game)
}

/// The deal's public actions in the order they were taken, as the view
/// shows them: the bids; each trick's cards, hand roem announced before a
/// seat's first card (the seat to play may have announced already), and a
/// roem call after the trick it was called on;
/// the last trick's roem said or let go once the deal is over.
pub fn actions_of(view: &PlayerView) -> Vec<Action> {
    let mut actions: Vec<Action> = view.bids.iter().map(|&(_, bid)| Action::Bid(bid)).collect();
    let announced = |seat: Seat| view.announcements.iter().any(|a| a.seat == seat);
    let first = |trick: usize| trick == 0;
    let manual = view.rules.roem_claim == RoemClaim::Manual;
    let tricks = view.rules.tricks_per_deal() as usize;
    for (i, trick) in view.tricks.iter().enumerate() {
        for (seat, card) in trick.plays() {
            if first(i) && announced(seat) {
                actions.push(Action::Announce);
            }
            actions.push(Action::Play(card));
        }
        if manual && trick.credited > 0 {
            actions.push(Action::ClaimRoem);
        } else if manual && i + 1 == tricks && view.result.is_some() {
            actions.push(Action::PassRoem);
        }
    }
    for &(seat, card) in &view.trick {
        if first(view.tricks.len()) && announced(seat) {
            actions.push(Action::Announce);
        }
        actions.push(Action::Play(card));
    }
    // The seat to play has announced and not yet played its card.
    if let Some(seat) = view.to_act.filter(|&s| first(view.tricks.len()) && announced(s))
        && view.trick.iter().all(|&(s, _)| s != seat)
    {
        actions.push(Action::Announce);
    }
    actions
}

/// A deal that agrees with `view`: its own cards, every card where it was
/// played from, the unseen ones drawn by the sampler.
fn deal_for(view: &PlayerView, rng: &mut Rng) -> Option<Deal> {
    let mut knowledge = Knowledge::from_view(view);
    let plays: Vec<(Seat, Card)> =
        view.tricks.iter().flat_map(|t| t.plays().collect::<Vec<_>>()).chain(view.trick.iter().copied()).collect();
    let played_by = |seat: Seat| plays.iter().filter(|&&(s, _)| s == seat).map(|&(_, c)| c).collect::<CardSet>();
    // The combination each other seat announced, placed in its hand
    // before the rest is drawn: the sampler knows nothing of roem.
    let mut placed = [CardSet::EMPTY; 4];
    for a in view.announcements.iter().filter(|a| a.seat != view.seat) {
        let (seat, i) = (a.seat, a.seat.index());
        let free = knowledge.unseen.minus(knowledge.cannot_hold[i]).union(played_by(seat));
        let (meld, next_to) = announced_cards(a, free, rng)?;
        let unplayed = meld.minus(played_by(seat));
        knowledge.unseen = knowledge.unseen.minus(unplayed);
        knowledge.hand_sizes[i] = knowledge.hand_sizes[i].checked_sub(unplayed.len())?;
        // No card that would make the run longer than announced.
        knowledge.cannot_hold[i] = knowledge.cannot_hold[i].union(next_to);
        placed[i] = unplayed;
    }
    let mut hands = sample_hands(&knowledge, view.hand, rng)?;
    for seat in Seat::ALL {
        hands[seat.index()] = hands[seat.index()].union(placed[seat.index()]).union(played_by(seat));
    }
    let deal = Deal::from_hands(view.dealer, hands, pile_for(view, rng)).ok()?;
    if view.rules.bidding != Bidding::LastCardDealt {
        return Some(deal);
    }
    // The last card dealt lies face up until the dealer plays it; after
    // that, any trump the dealer played may have been it.
    let played_trump = |c: &Card| view.trump().is_some_and(|t| c.suit() == t);
    let dealer_played = played_by(view.dealer).iter().find(played_trump);
    match view.face_up.or(dealer_played) {
        Some(card) => deal.with_last_card(card).ok(),
        None => Some(deal),
    }
}

/// Cards of `free` that make `a`'s combination, one of the suits that can
/// at random, and the cards beside a run that would lengthen it.
fn announced_cards(a: &Announcement, free: CardSet, rng: &mut Rng) -> Option<(CardSet, CardSet)> {
    if a.four_of_a_kind {
        let four: CardSet = Suit::ALL.iter().map(|&s| Card::new(s, a.top)).collect();
        return four.is_subset(free).then_some((four, CardSet::EMPTY));
    }
    let top = a.top.index();
    let low = (top + 1).checked_sub(a.length as usize)?;
    let options: Vec<(CardSet, CardSet)> = Suit::ALL
        .iter()
        .map(|&suit| {
            let run: CardSet = (low..=top).map(|r| Card::new(suit, Rank::from_index(r))).collect();
            let beside: CardSet = [low.checked_sub(1), Some(top + 1).filter(|&r| r < 8)]
                .into_iter()
                .flatten()
                .map(|r| Card::new(suit, Rank::from_index(r)))
                .collect();
            (run, beside)
        })
        .filter(|(run, _)| run.is_subset(free))
        .collect();
    (!options.is_empty()).then(|| options[rng.below(options.len() as u32) as usize])
}

/// The pile: the cards turned so far, and unturned ones drawn at random.
fn pile_for(view: &PlayerView, rng: &mut Rng) -> [PileCard; 2] {
    let turned = |i: usize| view.turned.get(i).copied();
    let first = turned(0).unwrap_or_else(|| any_pile_card(rng, None));
    let second = turned(1).unwrap_or_else(|| any_pile_card(rng, Some(first)));
    [first, second]
}

/// A pile card (a 2 to 6 of a suit) other than `not`.
fn any_pile_card(rng: &mut Rng, not: Option<PileCard>) -> PileCard {
    loop {
        let i = rng.below(20) as u8;
        let card = PileCard { suit: Suit::from_index(i as usize / 5), rank: i % 5 + 2 };
        if Some(card) != not {
            return card;
        }
    }
}
