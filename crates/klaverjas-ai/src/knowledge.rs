//! What one seat can deduce about the hidden hands from its view alone:
//! which cards are still out, how many each player holds, and which cards a
//! player cannot hold because of how they followed (a void shown by not
//! following or not trumping, a failed overtrump, an undertrump that shows
//! a hand of only trumps).

use klaverjas::{Card, CardSet, CardValues, PlayerView, Players, Seat, Suit, Trick, legal_cards};

#[derive(Clone, Debug)]
pub struct Knowledge {
    pub seat: Seat,
    pub trump: Option<Suit>,
    /// The order of the cards, for which card beats which.
    pub values: CardValues,
    /// Cards this seat cannot see: in the other hands, or in a talon or
    /// stock (and the turned card the other player of Klaberjass took).
    pub unseen: CardSet,
    /// Cards each seat still holds, by [`Seat::index`].
    pub hand_sizes: [u32; 4],
    /// Unseen cards each seat is known not to hold.
    pub cannot_hold: [CardSet; 4],
}

impl Knowledge {
    pub fn from_view(view: &PlayerView) -> Knowledge {
        let mut unseen = view.unseen();
        // The turned card the other player of Klaberjass took for the
        // seven: seen, but still in that hand until played.
        let taken = view.stock.and_then(|s| Some((s.swapped.filter(|&s| s != view.seat)?, s.turned)));
        let taken = taken.filter(|&(_, card)| !view.played().contains(card));
        if let Some((_, card)) = taken {
            unseen.insert(card);
        }
        let mut played_by = [0u32; 4];
        let mut cannot_hold = [CardSet::EMPTY; 4];
        let following = view.rules.following;
        // Replay every trick card by card. A card `c` played on trick `t`
        // was legal from the hand of the moment; if holding another card `x`
        // would have made `c` illegal (tested on the two-card hand {c, x},
        // which is sound for these rules: a card legal from a hand stays
        // legal from any part of that hand containing it), the player did
        // not hold `x` then, and so does not hold it now.
        let completed = view.tricks.iter().map(|t| t.plays().collect::<Vec<_>>());
        let current = std::iter::once(view.trick.clone());
        if let Some(trump) = view.trump() {
            for plays in completed.chain(current) {
                let Some(&(leader, _)) = plays.first() else { continue };
                let mut trick = Trick::for_rules(leader, trump, &view.rules);
                for (seat, card) in plays {
                    played_by[seat.index()] += 1;
                    if seat != view.seat {
                        for x in unseen.minus(cannot_hold[seat.index()]) {
                            let pair = CardSet::EMPTY.with(card).with(x);
                            if !legal_cards(pair, &trick, trump, &following).0.contains(card) {
                                cannot_hold[seat.index()].insert(x);
                            }
                        }
                    }
                    trick.push(card);
                }
            }
        }
        // The last card dealt lies face up in the dealer's hand until played.
        if let Some(card) = view.face_up.filter(|&c| unseen.contains(c)) {
            for s in Seat::ALL.into_iter().filter(|&s| s != view.dealer) {
                cannot_hold[s.index()].insert(card);
            }
        }
        if let Some((holder, card)) = taken {
            for s in Seat::ALL.into_iter().filter(|&s| s != holder) {
                cannot_hold[s.index()].insert(card);
            }
        }
        let mut hand_sizes = [0; 4];
        let players = view.rules.players;
        for s in Seat::ALL {
            // At three the empty chair stands for the talon, or the cards
            // laid away from it, which only the trump maker has seen; at
            // two for the stock, which holds what no hand does. Before the
            // second deal at two, each hand holds as many as this one.
            let dealt = match players {
                Players::Two if players.seats_at(s) => view.hand.len() + played_by[view.seat.index()],
                _ if players.seats_at(s) => view.rules.hand_size(),
                Players::Two => 0,
                _ => klaverjas::deal::TALON - view.discards.len(),
            };
            hand_sizes[s.index()] = dealt.saturating_sub(played_by[s.index()]);
            if s == view.seat {
                cannot_hold[s.index()] = CardSet::EMPTY;
            }
        }
        if players == Players::Two {
            let held: u32 = Seat::ALL.iter().filter(|&&s| s != view.seat).map(|s| hand_sizes[s.index()]).sum();
            hand_sizes[Seat::North.index()] = unseen.len().saturating_sub(held);
        }
        Knowledge {
            seat: view.seat,
            trump: view.trump(),
            values: view.rules.card_values,
            unseen,
            hand_sizes,
            cannot_hold,
        }
    }

    /// Whether `seat` is known to hold no card of `suit`.
    pub fn is_void(&self, seat: Seat, suit: Suit) -> bool {
        self.unseen.of_suit(suit).is_subset(self.cannot_hold[seat.index()])
    }

    /// Unseen cards that `seat` might hold.
    pub fn may_hold(&self, seat: Seat) -> CardSet {
        self.unseen.minus(self.cannot_hold[seat.index()])
    }

    /// Whether `card` cannot be beaten by what the players after the
    /// current position might hold, given only suit and trump order.
    pub fn is_master(&self, card: Card, trump: Suit, opponents: &[Seat]) -> bool {
        let higher = self.values.higher_in_suit(card, trump);
        let beaten_in_suit = opponents.iter().any(|&s| !self.may_hold(s).intersect(higher).is_empty());
        let trumped = !card.is_trump(trump)
            && opponents.iter().any(|&s| self.is_void(s, card.suit()) && !self.may_hold(s).of_suit(trump).is_empty());
        !beaten_in_suit && !trumped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use klaverjas::{Action, Contract, Deal, Game, PileCard, Rules};

    #[test]
    fn deductions_are_sound_in_random_games() {
        // Whatever is deduced must be true of the real hands.
        for seed in 0..300u64 {
            let rules =
                [Rules::classic(), Rules::amsterdam(), Rules::rotterdam(), Rules::klawerjas()][seed as usize % 4];
            let mut game = Game::new(rules, Deal::shuffled_for(&rules, seed, Seat::from_index(seed as usize))).unwrap();
            let mut rng = klaverjas::Rng::new(seed);
            while game.to_act().is_some() {
                for seat in Seat::ALL {
                    let k = Knowledge::from_view(&game.view(seat));
                    let mut out = CardSet::EMPTY;
                    for other in Seat::ALL {
                        if other == seat {
                            continue;
                        }
                        let hand = game.hand(other);
                        out = out.union(hand);
                        assert!(hand.intersect(k.cannot_hold[other.index()]).is_empty(), "seed {seed}");
                        assert_eq!(k.hand_sizes[other.index()], hand.len());
                        // The face-up last card dealt is placed with the
                        // dealer while the dealer holds it.
                        if let Some(card) = game.face_up().filter(|&c| game.hand(game.dealer()).contains(c)) {
                            assert_eq!(k.may_hold(other).contains(card), other == game.dealer(), "seed {seed}");
                        }
                    }
                    assert_eq!(k.unseen, out);
                }
                let legal = game.legal_actions();
                game.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            }
        }
    }

    /// Klaberjass: the other hand is sized right, what is deduced holds,
    /// and the turned card taken for the seven is placed with its taker.
    #[test]
    fn deductions_are_sound_at_two() {
        let rules = Rules::klaberjass();
        let mut swaps = 0;
        for seed in 0..200u64 {
            let mut game = Game::new(rules, Deal::shuffled_for(&rules, seed, Seat::West)).unwrap();
            let mut rng = klaverjas::Rng::new(seed);
            while game.to_act().is_some() {
                for (seat, other) in [(Seat::South, Seat::West), (Seat::West, Seat::South)] {
                    let k = Knowledge::from_view(&game.view(seat));
                    let hand = game.hand(other);
                    assert!(hand.intersect(k.cannot_hold[other.index()]).is_empty(), "seed {seed}");
                    assert_eq!(k.hand_sizes[other.index()], hand.len(), "seed {seed}");
                    assert!(hand.is_subset(k.unseen), "seed {seed}");
                    let held: u32 = Seat::ALL.iter().filter(|&&s| s != seat).map(|s| k.hand_sizes[s.index()]).sum();
                    assert_eq!(held, k.unseen.len(), "seed {seed}: every unseen card has a place");
                    if let Some(turned) =
                        game.turned_card().filter(|&c| game.swapped() == Some(other) && hand.contains(c))
                    {
                        assert!(k.may_hold(other).contains(turned) && !k.may_hold(Seat::North).contains(turned));
                        swaps += 1;
                    }
                }
                let legal = game.legal_actions();
                game.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            }
        }
        assert!(swaps > 0, "a swap seen");
    }

    #[test]
    fn a_discard_shows_a_void_and_a_failed_overtrump_shows_no_higher_trump() {
        let hand = |s: &str| CardSet::parse(s).unwrap();
        let hands = [
            hand("7D 8D 9D TD JD QD KD AD"),
            hand("AS 8S 9S TS JS QS KS 7S"),
            hand("7C 8C 9C TC JC QC KC AC"),
            hand("7H 8H 9H TH JH QH KH AH"),
        ];
        let deal = Deal::from_hands(Seat::North, hands, PileCard::showing(Suit::Hearts)).unwrap();
        let mut g = Game::with_contract(
            Rules::amsterdam(),
            deal,
            Contract { trump: Suit::Hearts, declarer: Seat::East, forced: false },
        )
        .unwrap();
        // East leads the ace of spades; South (clubs only) discards; West
        // trumps low over the partner; North cannot overtrump and discards.
        for c in CardSet::parse_list("AS 7C 7H 7D").unwrap() {
            g.apply(Action::Play(c)).unwrap();
        }
        let k = Knowledge::from_view(&g.view(Seat::South));
        assert!(k.is_void(Seat::West, Suit::Spades));
        assert!(k.is_void(Seat::North, Suit::Spades));
        // North would have had to overtrump with any heart above the 7.
        assert!(k.is_void(Seat::North, Suit::Hearts));
        // West's trump over a winning partner says nothing about diamonds.
        assert!(!k.is_void(Seat::West, Suit::Diamonds));
        assert_eq!(k.hand_sizes, [7, 7, 7, 7]);
    }
}
