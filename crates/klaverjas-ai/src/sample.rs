//! Dealing the unseen cards to the other three players at random, in a way
//! that agrees with everything the seat knows (a *determinization*).

use crate::knowledge::Knowledge;
use klaverjas::{Card, CardSet, Rng, Seat};

/// One consistent guess at all four hands, with the seat's own hand as it
/// is. `None` if the constraints could not be met in a bounded number of
/// tries (they always can be when they come from a real game, but a
/// random search may still miss; callers fall back).
pub fn sample_hands(k: &Knowledge, own: CardSet, rng: &mut Rng) -> Option<[CardSet; 4]> {
    sample_with(k, own, rng, |_| true)
}

/// As [`sample_hands`], keeping only deals that `accept` likes (used for
/// soft inferences such as the bidding). Falls back to any consistent
/// deal when few pass.
pub fn sample_with(
    k: &Knowledge,
    own: CardSet,
    rng: &mut Rng,
    accept: impl Fn(&[CardSet; 4]) -> bool,
) -> Option<[CardSet; 4]> {
    let mut fallback = None;
    for attempt in 0..200 {
        let Some(hands) = try_deal(k, own, rng) else { continue };
        if accept(&hands) {
            return Some(hands);
        }
        if fallback.is_none() {
            fallback = Some(hands);
        }
        if attempt >= 40 && fallback.is_some() {
            break;
        }
    }
    fallback
}

/// Deals the most constrained cards first, each to a random seat that may
/// hold it and has room; gives up on a dead end (the caller retries).
fn try_deal(k: &Knowledge, own: CardSet, rng: &mut Rng) -> Option<[CardSet; 4]> {
    let others: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| s != k.seat).collect();
    let mut room = k.hand_sizes;
    let mut hands = [CardSet::EMPTY; 4];
    hands[k.seat.index()] = own;
    let mut cards: Vec<(usize, u32, Card)> = k
        .unseen
        .iter()
        .map(|c| {
            let options = others.iter().filter(|s| !k.cannot_hold[s.index()].contains(c)).count();
            (options, rng.below(1 << 16), c)
        })
        .collect();
    cards.sort_unstable();
    for (_, _, card) in cards {
        let mut choices = [Seat::North; 3];
        let mut n = 0;
        for &s in &others {
            if room[s.index()] > 0 && !k.cannot_hold[s.index()].contains(card) {
                choices[n] = s;
                n += 1;
            }
        }
        if n == 0 {
            return None;
        }
        // Weight by room left, so hands fill evenly.
        let total: u32 = choices[..n].iter().map(|s| room[s.index()]).sum();
        let mut pick = rng.below(total);
        let mut chosen = choices[0];
        for &s in &choices[..n] {
            if pick < room[s.index()] {
                chosen = s;
                break;
            }
            pick -= room[s.index()];
        }
        hands[chosen.index()].insert(card);
        room[chosen.index()] -= 1;
    }
    Some(hands)
}

#[cfg(test)]
mod tests {
    use super::*;
    use klaverjas::{Deal, Game, Rules};

    #[test]
    fn samples_respect_every_constraint() {
        for seed in 0..100u64 {
            let mut game = Game::new(Rules::rotterdam(), Deal::shuffled(seed, Seat::East)).unwrap();
            let mut rng = Rng::new(seed);
            while game.to_act().is_some() {
                let seat = game.to_act().unwrap();
                let view = game.view(seat);
                let k = Knowledge::from_view(&view);
                let hands = sample_hands(&k, view.hand, &mut rng).expect("a real game is consistent");
                assert_eq!(hands[seat.index()], view.hand);
                let mut union = CardSet::EMPTY;
                for s in Seat::ALL {
                    assert_eq!(hands[s.index()].len(), game.hand(s).len());
                    assert!(hands[s.index()].intersect(k.cannot_hold[s.index()]).is_empty());
                    union = union.union(hands[s.index()]);
                }
                assert_eq!(union, view.hand.union(k.unseen));
                let legal = game.legal_actions();
                game.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            }
        }
    }
}
