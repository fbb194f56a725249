//! Reading the play: how likely the cards the other seats played are in a
//! sampled deal, under a model of how they play. A player who had the ace
//! of spades behind a partner's winning trick would have fattened it; one
//! who signalled with the 7 of clubs holds the ace there. Deals in which
//! the cards seen are what a club player would have played from the
//! sampled hands are more likely than deals in which every card seen was
//! an odd choice.
//!
//! The model is the heuristic player, softened: in a deal where a seat had
//! `n` legal cards, the card the heuristic would have chosen from that
//! seat's view is played with probability [`agreement`]`(n)`, and any
//! other legal card shares the rest evenly. The agreement was fitted on
//! self-play of the `pimc` level (`cargo run --release -p klaverjas-ai
//! --example play_model` prints it), so the model says how often a strong
//! player does what the heuristic would, not how often the heuristic
//! would like it to.

use crate::expert::original_hand;
use crate::heuristic;
use klaverjas::{Action, CardSet, Phase, PlayerView, Rng, Seat, Trick, legal_cards};

/// How often a strong player plays the heuristic's card when `legal`
/// cards are allowed: from 2 to 6 or more.
const AGREEMENT: [f64; 5] = [0.66, 0.54, 0.45, 0.37, 0.33];

/// The probability that a strong player with `legal` allowed cards plays
/// the heuristic's choice.
pub fn agreement(legal: usize) -> f64 {
    match legal {
        0 | 1 => 1.0,
        n => AGREEMENT[(n - 2).min(AGREEMENT.len() - 1)],
    }
}

/// The likelihood of every card the other seats played so far, had they
/// held `hands` (the hands of now, one per seat, the view's own included)
/// and played as the model says: a product of probabilities, never a sum
/// of logarithms, so that it is the same to the last bit on every machine
/// (the smallest possible, about 3e-17, is far from underflowing). Cards
/// forced by the rules count 1; the view's own cards are the same in every
/// deal and are skipped.
pub fn likelihood(view: &PlayerView, hands: &[CardSet; 4]) -> f64 {
    let Some(trump) = view.trump() else { return 1.0 };
    // Each seat's hand at the start of the play.
    let mut held = Seat::ALL.map(|s| original_hand(view, s, hands[s.index()]));
    // The view a seat had at each of its plays: this view turned to that
    // seat, with the history cut where it played. Its points, roem and
    // result stay those of now: the model's play never reads them.
    let mut then = PlayerView {
        tricks: Vec::with_capacity(view.tricks.len()),
        trick: Vec::with_capacity(4),
        phase: Phase::Playing,
        result: None,
        ..view.clone()
    };
    let current = view.trick.first().map(|&(leader, _)| (leader, view.trick.iter().map(|&(_, c)| c).collect()));
    let tricks = view.tricks.iter().map(|t| (t.leader, t.cards.to_vec())).chain(current);
    let mut total = 1.0;
    for (i, (leader, cards)) in tricks.enumerate() {
        let mut trick = Trick::for_rules(leader, trump, &view.rules);
        then.trick.clear();
        for card in cards {
            let seat = trick.seat_of(trick.len());
            let hand = held[seat.index()];
            let (legal, _) = legal_cards(hand, &trick, trump, &view.rules.following);
            if seat != view.seat && legal.len() > 1 {
                then.seat = seat;
                then.to_act = Some(seat);
                then.hand = hand;
                then.legal = legal.iter().map(Action::Play).collect();
                let model = heuristic::play(&then).action;
                let n = legal.len() as usize;
                let a = agreement(n);
                total *= if model == Action::Play(card) { a } else { (1.0 - a) / (n - 1) as f64 };
            }
            held[seat.index()].remove(card);
            then.trick.push((seat, card));
            trick.push(card);
        }
        if let Some(done) = view.tricks.get(i) {
            then.tricks.push(*done);
        }
    }
    total
}

/// Picks `draws` of the worlds at random in proportion to their
/// `weights` (systematic resampling: one random offset, evenly spaced
/// draws) and returns how often each was drawn. A weight that is not a
/// finite positive number counts as 0; if none is, every world weighs the
/// same.
pub fn resample(weights: &[f64], draws: usize, rng: &mut Rng) -> Vec<usize> {
    let mut counts = vec![0; weights.len()];
    let usable = |w: f64| if w.is_finite() && w > 0.0 { w } else { 0.0 };
    let mut scaled: Vec<f64> = weights.iter().map(|&w| usable(w)).collect();
    if scaled.iter().all(|&w| w == 0.0) {
        scaled.iter_mut().for_each(|w| *w = 1.0);
    }
    let sum: f64 = scaled.iter().sum();
    if draws == 0 || weights.is_empty() || !sum.is_finite() {
        return counts;
    }
    let step = sum / draws as f64;
    let mut point = step * (rng.below(1 << 20) as f64 / (1u64 << 20) as f64);
    let (mut reached, mut drawn) = (0.0, 0);
    for (i, w) in scaled.iter().enumerate() {
        reached += w;
        while point < reached && drawn < draws {
            counts[i] += 1;
            drawn += 1;
            point += step;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::hand;
    use klaverjas::{Contract, Deal, Game, PileCard, Rules, Suit};

    #[test]
    fn resampling_follows_the_weights() {
        let mut rng = Rng::new(3);
        let counts = resample(&[1.0, 1.0, 3.0, 0.0, f64::NAN], 50, &mut rng);
        assert_eq!(counts.iter().sum::<usize>(), 50);
        assert_eq!((counts[3], counts[4]), (0, 0));
        assert!((29..=31).contains(&counts[2]), "{counts:?}");
        assert!((9..=11).contains(&counts[0]), "{counts:?}");
        // Nothing usable: every world alike.
        assert_eq!(resample(&[0.0, f64::INFINITY], 4, &mut rng), vec![2, 2]);
        assert!(resample(&[], 4, &mut rng).is_empty());
    }

    #[test]
    fn a_card_the_model_would_not_play_makes_the_deal_less_likely() {
        // East leads the ace of spades, which nobody can beat, and West,
        // East's partner and void in spades, adds the 10 of clubs. A club
        // player fattens a sure trick with the most it has: had West held
        // the ace of diamonds too, it would have added that instead.
        let hands = [
            "7D 8D 9D TD JD QD KD AD",
            "AS 8S 9S 7C 8C 9C JC QC",
            "7S TS JS QS KS KC AC 7H",
            "TC 8H 9H TH JH QH KH AH",
        ]
        .map(hand);
        let deal = Deal::from_hands(Seat::North, hands, PileCard::showing(Suit::Hearts)).unwrap();
        let contract = Contract { trump: Suit::Hearts, declarer: Seat::East, forced: false };
        let mut g = Game::with_contract(Rules::classic(), deal, contract).unwrap();
        for c in ["AS", "7S", "TC"] {
            g.apply(Action::Play(c.parse().unwrap())).unwrap();
        }
        let view = g.view(Seat::South);
        let real = Seat::ALL.map(|s| g.hand(s));
        let (ad, h8) = ("AD".parse().unwrap(), "8H".parse().unwrap());
        let mut other = real;
        other[Seat::West.index()].remove(h8);
        other[Seat::West.index()].insert(ad);
        other[Seat::North.index()].remove(ad);
        other[Seat::North.index()].insert(h8);
        let (likely, odd) = (likelihood(&view, &real), likelihood(&view, &other));
        // East's lead is the club player's in both deals; West's card
        // makes the difference.
        let expected = agreement(8) / ((1.0 - agreement(8)) / 7.0);
        assert!((likely / odd - expected).abs() < 1e-9, "{likely} {odd}");
    }
}
