//! Fits the play model of `inference`: how often a strong player (the
//! `pimc` level, in self-play over the three Dutch presets) plays the card
//! the heuristic would choose, by how many cards were legal. Prints one
//! line per count, ready for `inference::AGREEMENT`.

use klaverjas::{Action, Deal, Game, Rules, Seat};
use klaverjas_ai::{Level, heuristic};

fn main() {
    let deals = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(300u64);
    let mut bots: Vec<_> = (0..4).map(|i| Level::Pimc.bot(i)).collect();
    // Agreements and decisions, for 2, 3, 4, 5 and 6 or more legal cards.
    let mut tally = [(0u32, 0u32); 5];
    for seed in 0..deals {
        let rules = [Rules::classic(), Rules::amsterdam(), Rules::rotterdam()][seed as usize % 3];
        let mut game = Game::new(rules, Deal::shuffled(seed, Seat::from_index(seed as usize % 4))).unwrap();
        while let Some(seat) = game.to_act() {
            let view = game.view(seat);
            let decision = bots[seat.index()].decide(&view);
            let choice = matches!(decision.action, Action::Play(_)) && game.legal_cards().len() > 1;
            if choice && !view.legal.contains(&Action::ClaimRoem) {
                let n = game.legal_cards().len() as usize;
                let t = &mut tally[(n - 2).min(4)];
                t.0 += (heuristic::play(&view).action == decision.action) as u32;
                t.1 += 1;
            }
            game.apply(decision.action).expect("a bot's choice is legal");
        }
    }
    for (i, (agreed, all)) in tally.iter().enumerate() {
        let more = if i == 4 { " or more" } else { "" };
        println!("{} legal cards{more}: {agreed} of {all}, {:.2}", i + 2, *agreed as f64 / (*all).max(1) as f64);
    }
}
