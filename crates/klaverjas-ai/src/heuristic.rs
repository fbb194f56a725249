//! How a good club player thinks: count the cards, know who is void, draw
//! trumps when playing, never trump a partner's sure trick, fatten (*pak
//! dik*) a trick the partner will win, keep a bare 10 guarded, and read and
//! give the discard signal of seed 001 ("a 7, 8 or 9 ... indicator to his
//! partner that he has the Ace of that same suit").

use crate::knowledge::Knowledge;
use crate::{Bot, Decision, Reason};
use klaverjas::{Action, Bid, Bidding, Card, CardSet, Phase, PlayerView, Rank, Seat, Suit, Team, Trick};

/// Hand strength at or above which the heuristic plays.
pub const PLAY_THRESHOLD: i32 = 70;

pub struct HeuristicBot;

impl Bot for HeuristicBot {
    fn decide(&mut self, view: &PlayerView) -> Decision {
        match view.phase {
            Phase::Bidding => bid(view),
            Phase::Doubling => double(view),
            Phase::ClaimRoem => claim(view),
            Phase::Discarding => discard(view),
            _ => call_before_playing(view).unwrap_or_else(|| play(view)),
        }
    }
}

/// What the jack of trumps adds to a hand's strength; the hints name it.
pub const JACK_OF_TRUMPS_WORTH: i32 = 30;
/// What the nine of trumps adds.
pub const NINE_OF_TRUMPS_WORTH: i32 = 22;
/// What an ace of another suit adds.
pub const ACE_WORTH: i32 = 11;

/// How much a hand is worth with `trump` as trumps, in rough points: the
/// jack and nine of trumps above all, then trump length, aces, tens with
/// their ace, and voids once there are trumps to ruff with.
pub fn hand_strength(hand: CardSet, trump: Suit) -> i32 {
    let trumps = hand.of_suit(trump);
    let has = |r: Rank| trumps.contains(Card::new(trump, r));
    let mut score = 0;
    score += if has(Rank::Jack) { JACK_OF_TRUMPS_WORTH } else { 0 };
    score += if has(Rank::Nine) { NINE_OF_TRUMPS_WORTH } else { 0 };
    score += if has(Rank::Ace) { 14 } else { 0 };
    score += if has(Rank::Ten) { 10 } else { 0 };
    let others =
        trumps.len() as i32 - [Rank::Jack, Rank::Nine, Rank::Ace, Rank::Ten].iter().filter(|&&r| has(r)).count() as i32;
    score += 6 * others;
    if has(Rank::King) && has(Rank::Queen) {
        score += 10;
    }
    for suit in Suit::ALL.into_iter().filter(|&s| s != trump) {
        let cards = hand.of_suit(suit);
        let ace = cards.contains(Card::new(suit, Rank::Ace));
        let ten = cards.contains(Card::new(suit, Rank::Ten));
        score += if ace { ACE_WORTH } else { 0 };
        score += match (ten, ace) {
            (true, true) => 8,
            (true, false) if cards.len() >= 2 => 3,
            _ => 0,
        };
        if cards.is_empty() && trumps.len() >= 3 {
            score += 6;
        }
    }
    score
}

/// The strength a hand of this many cards needs to play: the threshold of
/// eight cards, in proportion (Klaberjass bids on six).
fn play_threshold(cards: u32) -> i32 {
    if cards < 8 { PLAY_THRESHOLD * cards as i32 / 8 } else { PLAY_THRESHOLD }
}

fn bid(view: &PlayerView) -> Decision {
    let can_pass = view.legal.contains(&Action::Bid(Bid::Pass));
    let threshold = play_threshold(view.hand.len());
    if view.legal.contains(&Action::Bid(Bid::Play)) {
        let suit = match (view.rules.bidding, view.stock) {
            (Bidding::TwoRounds, Some(stock)) => stock.turned.suit(),
            _ => view.turned.first().map(|c| c.suit).unwrap_or(Suit::Clubs),
        };
        // Holding the seven of the turned suit, the turned card is as good
        // as in hand (Klaberjass's swap).
        let mut hand = view.hand;
        if let Some(turned) = view.stock.map(|s| s.turned) {
            let seven = Card::new(turned.suit(), Rank::Seven);
            if hand.contains(seven) {
                hand.remove(seven);
                hand.insert(turned);
            }
        }
        let strength = hand_strength(hand, suit);
        return if strength >= threshold {
            Decision::new(
                Action::Bid(Bid::Play),
                Reason::BidStrong { seat: view.seat, suit, strength, needed: threshold },
            )
        } else {
            Decision::new(Action::Bid(Bid::Pass), Reason::PassTooWeak { suit, strength, needed: threshold })
        };
    }
    let nameable = |s: &Suit| view.legal.contains(&Action::Bid(Bid::Trump(*s)));
    let (best, strength) = Suit::ALL
        .into_iter()
        .filter(nameable)
        .map(|s| (s, hand_strength(view.hand, s)))
        .max_by_key(|&(s, v)| (v, std::cmp::Reverse(s)))
        .unwrap_or((Suit::Clubs, 0));
    if can_pass && strength < threshold {
        Decision::new(Action::Bid(Bid::Pass), Reason::PassNoSuit { best, strength, needed: threshold })
    } else if can_pass {
        Decision::new(Action::Bid(Bid::Trump(best)), Reason::BestSuit { suit: best, strength })
    } else {
        Decision::new(Action::Bid(Bid::Trump(best)), Reason::MustChoose { suit: best, strength })
    }
}

/// The hand strength in the trump suit at or above which the heuristic
/// doubles: to kraak, to rekraak after a kraak, to superkraak after a
/// rekraak. A defender's double pays when the contract fails about two
/// times in three (a made doubled deal hands the players everything, twice
/// over), so a kraak wants a hand that would itself play that trump with
/// some to spare; the players' answer comes after a kraak has warned them.
/// `cargo run --release -p klaverjas-ai --example double_model` prints how
/// often contracts fail by these strengths.
pub const DOUBLE_THRESHOLDS: [i32; 3] = [PLAY_THRESHOLD + 10, PLAY_THRESHOLD + 30, PLAY_THRESHOLD + 40];

/// Doubles (*kraken*) when strong enough in the trump suit for the doubles
/// so far.
fn double(view: &PlayerView) -> Decision {
    let Some(suit) = view.trump().filter(|_| view.legal.contains(&Action::Bid(Bid::Double))) else {
        return Decision::new(Action::Bid(Bid::Pass), Reason::OnlyChoice);
    };
    let strength = hand_strength(view.hand, suit);
    let threshold = DOUBLE_THRESHOLDS[(view.stakes().doubles as usize).min(DOUBLE_THRESHOLDS.len() - 1)];
    if strength >= threshold {
        Decision::new(Action::Bid(Bid::Double), Reason::Double { suit, strength, needed: threshold })
    } else {
        Decision::new(Action::Bid(Bid::Pass), Reason::NoDouble { suit, strength, needed: threshold })
    }
}

/// Lays a card away from hand and talon (three players): never a trump
/// or an ace, a card of a short plain suit before a long one (two laid
/// away from a short suit make a void to trump in), and few points, since
/// the cards laid away go to whoever wins the last trick.
pub fn discard(view: &PlayerView) -> Decision {
    let Some(trump) = view.trump() else {
        return Decision::new(view.legal[0], Reason::OnlyChoice);
    };
    let values = view.rules.card_values;
    let cost = |c: Card| {
        let suit = view.hand.of_suit(c.suit()).len() as i32;
        let guard = if c.rank() == Rank::Ace { 40 } else { 0 };
        let trump_cost = if c.is_trump(trump) { 100 } else { 0 };
        trump_cost + guard + 3 * suit + 2 * values.points(c, trump) as i32 + values.strength(c.rank(), false) as i32
    };
    let cards = view.legal.iter().filter_map(|a| if let Action::Discard(c) = a { Some(*c) } else { None });
    match cards.min_by_key(|&c| cost(c)) {
        Some(card) => Decision::new(Action::Discard(card), Reason::Discard { card, trump }),
        None => Decision::new(view.legal[0], Reason::OnlyChoice),
    }
}

/// Calls roem unless the playing team is nat whatever happens: then the
/// call would only hand the roem to the opponents. Without roem to call
/// (the last trick's pause) the word is no roem.
pub fn claim(view: &PlayerView) -> Decision {
    if !view.legal.contains(&Action::ClaimRoem) {
        return Decision::new(Action::PassRoem, Reason::OnlyChoice);
    }
    let me = view.seat.team();
    let roem = view.tricks.last().map(|t| t.roem.points).unwrap_or(0);
    if view.contract.map(|c| c.playing_team()) == Some(me) && nat_is_certain(view, me) {
        return Decision::new(Action::PassRoem, Reason::KeepRoemQuiet { roem });
    }
    Decision::new(Action::ClaimRoem, Reason::CallRoem { roem })
}

/// The call a bot makes before leading to the next trick, when the trick it
/// won holds roem and [`claim`] says to call. Keeping quiet needs no word:
/// the next card ends the chance.
pub fn call_before_playing(view: &PlayerView) -> Option<Decision> {
    // Announced first, while the hand is still the hand as dealt.
    if view.legal.contains(&Action::Announce) {
        let trump = view.trump()?;
        let points = klaverjas::roem::hand_roem_points(view.hand, trump, view.rules.roem_table);
        return Some(Decision::new(Action::Announce, Reason::Announce { points }));
    }
    // The turned card is always a better trump than the seven.
    if let (true, Some(stock), Some(trump)) = (view.legal.contains(&Action::Swap), view.stock, view.trump()) {
        return Some(Decision::new(Action::Swap, Reason::Swap { card: stock.turned, trump }));
    }
    let d = view.legal.contains(&Action::ClaimRoem).then(|| claim(view))?;
    (d.action == Action::ClaimRoem).then_some(d)
}

/// Whether `playing` cannot score more than half even by taking every
/// remaining trick (ignoring roem still to come, which both sides may get).
pub fn nat_is_certain(view: &PlayerView, playing: Team) -> bool {
    let played_points: u16 = view.tricks.iter().map(|t| t.points).sum();
    let left = view.rules.deal_points() as i32 - played_points as i32;
    let mine = (view.points[playing] + view.roem[playing]) as i32 + left;
    let theirs = (view.points[playing.other()] + view.roem[playing.other()]) as i32;
    view.rules.roem_is_called() && mine <= theirs
}

/// The play of a card: see the module docs for the thinking.
pub fn play(view: &PlayerView) -> Decision {
    let legal: CardSet =
        view.legal.iter().filter_map(|a| if let Action::Play(c) = a { Some(*c) } else { None }).collect();
    let (Some(trump), Some(trick), Some(contract)) = (view.trump(), view.current_trick(), view.contract) else {
        return Decision::new(view.legal[0], Reason::OnlyChoice);
    };
    if let Some(only) = only_card(legal, trump) {
        return only;
    }
    let ally = ally(view);
    let ctx = Ctx {
        view,
        k: Knowledge::from_view(view),
        trump,
        trick,
        legal,
        // Where nobody plays against the other (trump by the last card
        // dealt) both sides race for the points, as a playing team does.
        playing: !view.rules.has_playing_team() || contract.declarer == view.seat || Some(contract.declarer) == ally,
        ally,
    };
    let (card, reason) = if trick.is_empty() { ctx.lead() } else { ctx.follow() };
    Decision::new(Action::Play(card), reason)
}

/// The play when a single card is legal, for every bot that plays cards.
pub fn only_card(legal: CardSet, trump: Suit) -> Option<Decision> {
    let card = legal.first().filter(|_| legal.len() == 1)?;
    Some(Decision::new(Action::Play(card), Reason::OnlyCard { card, trump }))
}

/// The seat a player plays with: the partner, or at three, where each
/// scores alone, the other defender against the trump maker (who scores
/// everything with that defender if the maker fails). The maker plays
/// with nobody.
pub fn ally(view: &PlayerView) -> Option<Seat> {
    if view.rules.players.partnerships() {
        return Some(view.seat.partner());
    }
    let maker = view.contract?.declarer;
    let seats = view.rules.players.seats().iter().copied();
    seats.filter(|&s| s != maker && s != view.seat).find(|_| view.seat != maker)
}

struct Ctx<'a> {
    view: &'a PlayerView,
    k: Knowledge,
    trump: Suit,
    trick: Trick,
    legal: CardSet,
    playing: bool,
    ally: Option<Seat>,
}

impl Ctx<'_> {
    /// The seats playing against this one.
    fn opponents(&self) -> Vec<Seat> {
        let me = self.view.seat;
        self.view.rules.players.seats().iter().copied().filter(|&s| s != me && Some(s) != self.ally).collect()
    }

    fn points(&self, c: Card) -> i32 {
        self.k.values.points(c, self.trump) as i32
    }

    fn strength(&self, c: Card) -> i32 {
        let t = c.is_trump(self.trump);
        self.k.values.strength(c.rank(), t) as i32 + if t { 8 } else { 0 }
    }

    /// Unplayed trumps the opponents might still hold.
    fn opponent_trumps(&self) -> CardSet {
        self.opponents().into_iter().fold(CardSet::EMPTY, |all, s| all.union(self.k.may_hold(s))).of_suit(self.trump)
    }

    /// A 10 that is its suit's only card while the ace is still out: led or
    /// discarded carelessly, it falls to the ace.
    fn is_bare_ten(&self, c: Card) -> bool {
        let ace = Card::new(c.suit(), Rank::Ace);
        c.rank() == Rank::Ten
            && !c.is_trump(self.trump)
            && self.view.hand.of_suit(c.suit()).len() == 1
            && self.k.unseen.contains(ace)
    }

    /// Suits the partner has signalled with a low discard: an ace there.
    fn partner_signals(&self) -> Vec<Suit> {
        let Some(partner) = self.ally else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for t in &self.view.tricks {
            let led = t.cards[0].suit();
            for (seat, card) in t.plays() {
                let low = matches!(card.rank(), Rank::Seven | Rank::Eight | Rank::Nine);
                if seat == partner && card.suit() != led && !card.is_trump(self.trump) && low {
                    out.push(card.suit());
                }
            }
        }
        out
    }

    fn lead(&self) -> (Card, Reason) {
        let trumps = self.legal.of_suit(self.trump);
        let opp_trumps = self.opponent_trumps();
        let opponents = self.opponents();
        // 1. The playing team draws trumps while the opponents may have some.
        if self.playing && !trumps.is_empty() && !opp_trumps.is_empty() {
            let master =
                self.k.unseen.union(self.view.hand).of_suit(self.trump).iter().max_by_key(|&c| self.strength(c));
            if let Some(m) = master.filter(|m| trumps.contains(*m)) {
                return (m, Reason::DrawTrumpsMaster { card: m, trump: self.trump });
            }
            if trumps.len() >= 3 || self.view.contract.map(|c| c.declarer).is_some_and(|d| Some(d) == self.ally) {
                let low = trumps.iter().min_by_key(|&c| self.strength(c)).expect("has trumps");
                return (low, Reason::DrawTrumps { card: low, trump: self.trump });
            }
        }
        // 2. Cash a card nobody can beat or trump.
        let masters =
            self.legal.iter().filter(|&c| !c.is_trump(self.trump) && self.k.is_master(c, self.trump, &opponents));
        if let Some(m) = masters.max_by_key(|&c| self.points(c))
            && self.points(m) >= 10
        {
            return (m, Reason::Cash { card: m, trump: self.trump });
        }
        // 3. Lead to the partner's signalled ace.
        for suit in self.partner_signals() {
            if let Some(low) = self.legal.of_suit(suit).iter().min_by_key(|&c| self.strength(c))
                && self.k.unseen.contains(Card::new(suit, Rank::Ace))
            {
                return (low, Reason::LeadToSignal { suit, card: low, trump: self.trump });
            }
        }
        // 4. Something cheap from a suit the opponents cannot ruff.
        let ruffable = |c: Card| {
            !c.is_trump(self.trump) && !opp_trumps.is_empty() && opponents.iter().any(|&o| self.k.is_void(o, c.suit()))
        };
        let card = self
            .legal
            .iter()
            .min_by_key(|&c| {
                let trump_penalty = if c.is_trump(self.trump) && !self.playing { 40 } else { 0 };
                let bare = if self.is_bare_ten(c) { 30 } else { 0 };
                let ruff = if ruffable(c) { 20 } else { 0 };
                trump_penalty + bare + ruff + self.points(c) * 2 + self.strength(c)
            })
            .expect("a legal card");
        (card, Reason::LeadCheap { card, trump: self.trump })
    }

    fn follow(&self) -> (Card, Reason) {
        let me = self.view.seat;
        let winner = self.trick.winner().expect("a started trick");
        let winning_card = self.trick.cards()[self.trick.winning_index().expect("started")];
        let everyone = self.view.rules.players.count();
        let opponents = self.opponents();
        let after: Vec<Seat> =
            (self.trick.len() + 1..everyone).map(|i| self.trick.seat_of(i)).filter(|s| opponents.contains(s)).collect();
        let partner_winning = Some(winner) == self.ally;
        let partner_sure = partner_winning && self.k.is_master(winning_card, self.trump, &after);
        let non_trumps = self.legal.iter().filter(|c| !c.is_trump(self.trump));
        if partner_sure {
            // Pak dik: the partner has it, so add points, not trumps.
            if let Some(c) = non_trumps.max_by_key(|&c| (self.points(c), -self.strength(c))) {
                let why = if self.points(c) > 0 {
                    Reason::PakDik { card: c, trump: self.trump }
                } else {
                    Reason::PartnerWinsNothingBetter { card: c, trump: self.trump }
                };
                return (c, why);
            }
            let c = self.lowest(self.legal);
            return (c, Reason::PartnerWinsSmallest { card: c, trump: self.trump });
        }
        let winners: CardSet = self
            .legal
            .iter()
            .filter(|&c| {
                let mut t = self.trick;
                t.push(c);
                t.winner() == Some(me)
            })
            .collect();
        let trick_points: i32 = self.trick.cards().iter().map(|&c| self.points(c)).sum();
        if !winners.is_empty() && !partner_winning {
            if self.trick.len() == everyone - 1 {
                let c = winners
                    .iter()
                    .max_by_key(|&c| if c.is_trump(self.trump) { -self.strength(c) } else { 100 + self.points(c) })
                    .expect("winners");
                return (c, Reason::LastToPlay { card: c, trump: self.trump });
            }
            let sure = winners.iter().filter(|&c| self.k.is_master(c, self.trump, &after));
            if let Some(c) = sure.min_by_key(|&c| self.strength(c) - self.points(c) * 2) {
                return (c, Reason::WinSure { card: c, trump: self.trump });
            }
            if trick_points >= 10 {
                let c = winners.iter().max_by_key(|&c| self.strength(c)).expect("winners");
                return (c, Reason::TryForPoints { points: trick_points, card: c, trump: self.trump });
            }
        }
        // Not winning: give little away, and signal an ace when discarding.
        let led = self.trick.led_suit().expect("started");
        let discarding = self.legal.iter().all(|c| c.suit() != led);
        if discarding {
            let signal = self.legal.iter().filter(|&c| {
                !c.is_trump(self.trump)
                    && matches!(c.rank(), Rank::Seven | Rank::Eight | Rank::Nine)
                    && self.view.hand.contains(Card::new(c.suit(), Rank::Ace))
            });
            if let Some(c) = signal.min_by_key(|&c| self.strength(c)) {
                return (c, Reason::SignalAce { card: c, trump: self.trump });
            }
        }
        let c = self
            .legal
            .iter()
            .min_by_key(|&c| {
                let guard = if self.guards_a_ten(c) { 25 } else { 0 };
                let trump = if c.is_trump(self.trump) && discarding { 15 } else { 0 };
                self.points(c) * 3 + self.strength(c) + guard + trump
            })
            .expect("a legal card");
        let why = if partner_winning {
            Reason::PartnerMayWin { card: c, trump: self.trump }
        } else {
            Reason::CannotWin { card: c, trump: self.trump }
        };
        (c, why)
    }

    fn lowest(&self, set: CardSet) -> Card {
        set.iter().min_by_key(|&c| (self.points(c), self.strength(c))).expect("non-empty")
    }

    /// Whether playing `c` would leave a 10 bare with its ace still out.
    fn guards_a_ten(&self, c: Card) -> bool {
        let suit = self.view.hand.of_suit(c.suit());
        let ten = Card::new(c.suit(), Rank::Ten);
        c != ten && suit.len() == 2 && suit.contains(ten) && self.k.unseen.contains(Card::new(c.suit(), Rank::Ace))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::hand;
    use klaverjas::{Contract, Deal, Game, PileCard, Rules};

    #[test]
    fn strength_ranks_the_jack_and_nine_first() {
        let strong = hand_strength(hand("JH 9H AH 7H AS AC 8D 7D"), Suit::Hearts);
        let weak = hand_strength(hand("7H 8H QS KS 9C 8C 7D 8D"), Suit::Hearts);
        assert!(strong >= PLAY_THRESHOLD, "{strong}");
        assert!(weak < PLAY_THRESHOLD, "{weak}");
    }

    /// A deal with fixed hands: North deals, East leads.
    fn fixed(hands: [&str; 4], trump: Suit, declarer: Seat, rules: Rules) -> Game {
        let deal = Deal::from_hands(Seat::North, hands.map(hand), PileCard::showing(trump)).unwrap();
        Game::with_contract(rules, deal, Contract { trump, declarer, forced: false }).unwrap()
    }

    #[test]
    fn fattens_a_partners_sure_trick_and_never_trumps_it() {
        // East leads the master ace of spades; South plays; West (East's
        // partner), void in spades, holds the 10 of clubs and trumps.
        let mut g = fixed(
            [
                "7D 8D 9D TD JD QD KD AD",
                "AS 8S 9S 7C 8C 9C JC QC",
                "7S TS JS QS KS KC AC 7H",
                "TC 8H 9H TH JH QH KH AH",
            ],
            Suit::Hearts,
            Seat::East,
            Rules::classic(),
        );
        g.apply(Action::Play("AS".parse().unwrap())).unwrap();
        g.apply(Action::Play("7S".parse().unwrap())).unwrap();
        let d = HeuristicBot.decide(&g.view(Seat::West));
        assert_eq!(d.action, Action::Play("TC".parse().unwrap()), "{}", d.reason);
        assert!(d.reason.to_string().contains("pak dik"), "{}", d.reason);
    }

    #[test]
    fn the_playing_team_draws_trumps_with_the_master() {
        let g = fixed(
            [
                "7D 8D 9D TD JD QD KD AD",
                "JH 9H AS 8S 7C 8C 9C QC",
                "7S TS JS QS KS KC AC 7H",
                "TC 8H TH QH KH AH 9S JC",
            ],
            Suit::Hearts,
            Seat::East,
            Rules::classic(),
        );
        let d = HeuristicBot.decide(&g.view(Seat::East));
        assert_eq!(d.action, Action::Play("JH".parse().unwrap()), "{}", d.reason);
        assert!(d.reason.to_string().contains("Draw trumps"));
    }

    #[test]
    fn heuristic_decisions_are_always_legal() {
        for seed in 0..60u64 {
            let rules = [Rules::classic(), Rules::amsterdam(), Rules::rotterdam()][seed as usize % 3];
            let mut game = Game::new(rules, Deal::shuffled(seed, Seat::from_index(seed as usize))).unwrap();
            while let Some(seat) = game.to_act() {
                let view = game.view(seat);
                let d = HeuristicBot.decide(&view);
                assert!(view.legal.contains(&d.action), "{:?} not legal", d.action);
                assert!(!d.reason.to_string().is_empty());
                game.apply(d.action).unwrap();
            }
        }
    }
}
