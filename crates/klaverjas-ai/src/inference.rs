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

use crate::heuristic;
use klaverjas::{Action, CardSet, Phase, PlayerView, Rng, Trick, legal_cards};

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

/// The log-likelihood of every card the other seats played so far, had
/// they held `hands` (the hands of now, one per seat, the view's own
/// included) and played as the model says. Cards forced by the rules add
/// nothing; the view's own cards are the same in every deal and are
/// skipped.
pub fn log_likelihood(view: &PlayerView, hands: &[CardSet; 4]) -> f64 {
    let Some(trump) = view.trump() else { return 0.0 };
    // Each seat's hand at the start of the play: what it holds now and
    // what it has played since.
    let mut held = *hands;
    let completed = view.tricks.iter().flat_map(|t| t.plays().collect::<Vec<_>>());
    for (seat, card) in completed.chain(view.trick.iter().copied()) {
        held[seat.index()].insert(card);
    }
    // The view a seat had at each of its plays: this view turned to that
    // seat, with the history cut where it played.
    let mut then = PlayerView {
        tricks: Vec::with_capacity(view.tricks.len()),
        trick: Vec::with_capacity(4),
        phase: Phase::Playing,
        result: None,
        ..view.clone()
    };
    let current = view.trick.first().map(|&(leader, _)| (leader, view.trick.iter().map(|&(_, c)| c).collect()));
    let tricks = view.tricks.iter().map(|t| (t.leader, t.cards.to_vec())).chain(current);
    let mut total = 0.0;
    for (i, (leader, cards)) in tricks.enumerate() {
        let mut trick = Trick::new(leader, trump);
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
                total += if model == Action::Play(card) { a.ln() } else { ((1.0 - a) / (n - 1) as f64).ln() };
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

/// Picks `draws` of `worlds` at random in proportion to `exp(weight)`
/// (systematic resampling: one random offset, evenly spaced draws) and
/// returns how often each was drawn. Heavier worlds are drawn more often;
/// with equal weights each is drawn about equally.
pub fn resample(weights: &[f64], draws: usize, rng: &mut Rng) -> Vec<usize> {
    let mut counts = vec![0; weights.len()];
    let Some(top) = weights.iter().copied().reduce(f64::max) else { return counts };
    let scaled: Vec<f64> = weights.iter().map(|w| (w - top).exp()).collect();
    let sum: f64 = scaled.iter().sum();
    if draws == 0 || sum <= 0.0 || !sum.is_finite() {
        return counts;
    }
    let step = sum / draws as f64;
    let mut point = step * (rng.below(1 << 20) as f64 / (1u64 << 20) as f64);
    let mut reached = 0.0;
    for (i, w) in scaled.iter().enumerate() {
        reached += w;
        while point < reached && counts.iter().sum::<usize>() < draws {
            counts[i] += 1;
            point += step;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::hand;
    use klaverjas::{Contract, Deal, Game, PileCard, Rules, Seat, Suit};

    #[test]
    fn resampling_follows_the_weights() {
        let mut rng = Rng::new(3);
        let counts = resample(&[0.0, 0.0, (3.0f64).ln(), f64::NEG_INFINITY], 50, &mut rng);
        assert_eq!(counts.iter().sum::<usize>(), 50);
        assert_eq!(counts[3], 0);
        assert!((28..=32).contains(&counts[2]), "{counts:?}");
        assert!((8..=12).contains(&counts[0]), "{counts:?}");
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
        let mut g = Game::with_contract(Rules::classic(), deal, contract);
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
        let (likely, odd) = (log_likelihood(&view, &real), log_likelihood(&view, &other));
        // East's lead is the club player's in both deals; West's card
        // makes the difference.
        let expected = agreement(8).ln() - ((1.0 - agreement(8)) / 7.0).ln();
        assert!((likely - odd - expected).abs() < 1e-9, "{likely} {odd}");
    }
}
