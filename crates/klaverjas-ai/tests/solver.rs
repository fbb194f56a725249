//! The solver is exact: it equals plain minimax on endgames, and its value
//! does not depend on move ordering or table state.

use klaverjas::{Deal, PlayState, Preset, Rng, Seat, Suit};
use klaverjas_ai::solver::{MoveOrder, Solver, minimax};

/// A position with `tricks_left` tricks to go (and maybe a trick under
/// way), reached by random legal play.
fn endgame(preset: Preset, seed: u64, tricks_left: u8, extra_cards: u8) -> PlayState {
    let mut rng = Rng::new(seed);
    let deal = Deal::shuffled(seed, Seat::from_index(seed as usize));
    let mut s =
        PlayState::new(deal.hands, Suit::from_index(rng.below(4) as usize), deal.dealer.next(), &preset.rules());
    let cards = (8 - tricks_left as u32) * 4 + extra_cards as u32;
    for _ in 0..cards {
        let card = rng.pick(s.legal()).unwrap();
        s.play_unchecked(card);
    }
    s
}

#[test]
fn solver_equals_minimax_on_thousands_of_endgames() {
    // The plain search takes the last tricks by default; a solver that
    // goes plain only in the last trick runs its ordering, merging, twins
    // and bounds on these small endgames too.
    let mut solvers = [Solver::new(1 << 16), Solver::new(1 << 16).with_plain_tricks(1)];
    let mut checked = 0;
    // The solver knows the four-player game.
    let presets: Vec<Preset> = Preset::ALL.into_iter().filter(|p| p.rules().players.partnerships()).collect();
    for &preset in &presets {
        for seed in 0..1000u64 {
            let tricks_left = 2 + (seed % 3) as u8; // 2, 3 or 4 tricks
            let extra = (seed / 3 % 4) as u8; // at a boundary or mid-trick
            let s = endgame(preset, seed, tricks_left, extra);
            let exact = minimax(&s);
            for (k, solver) in solvers.iter_mut().enumerate() {
                if seed % 2 == 0 {
                    solver.clear();
                }
                assert_eq!(solver.value(&s), exact, "{preset} seed {seed} solver {k}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 1000 * presets.len());
}

#[test]
fn card_values_agree_with_minimax_per_card() {
    let mut solver = Solver::default();
    for seed in 0..300u64 {
        let s = endgame(Preset::Classic, seed, 3, 0);
        for (card, v) in solver.card_values(&s) {
            let mut next = s;
            let done = next.play_unchecked(card);
            let _ = done;
            // minimax of the child plus what this card's trick already gave
            // is the same as the solver's per-card value; recompute via a
            // fresh state to avoid sharing code with the solver.
            let before = s.points.ns as i32 - s.points.ew as i32 + s.table_roem.ns as i32 - s.table_roem.ew as i32;
            let after =
                next.points.ns as i32 - next.points.ew as i32 + next.table_roem.ns as i32 - next.table_roem.ew as i32;
            assert_eq!(v, after - before + minimax(&next), "seed {seed} card {card}");
        }
    }
}

#[test]
fn null_window_tests_agree_with_the_value() {
    let mut solver = Solver::default().with_plain_tricks(1);
    for seed in 0..200u64 {
        let s = endgame(Preset::Amsterdam, seed, 4, (seed % 4) as u8);
        let v = minimax(&s);
        assert!(solver.at_least(&s, v));
        assert!(!solver.at_least(&s, v + 1));
    }
}

#[test]
fn full_deals_are_the_same_cold_and_warm() {
    // A warm table (left by other searches) must not change a value.
    let mut warm = Solver::default();
    for seed in 0..6u64 {
        let s = endgame(Preset::Rotterdam, seed, 8, 0);
        let mut cold = Solver::default();
        let a = cold.value(&s);
        let b = warm.value(&s);
        assert_eq!(a, b, "seed {seed}");
        // And again after the table has seen this deal.
        assert_eq!(warm.value(&s), a);
    }
}

#[test]
fn move_order_does_not_change_values() {
    let orders = [MoveOrder::Guided, MoveOrder::Reversed, MoveOrder::Index];
    let mut solvers: Vec<Solver> =
        orders.iter().map(|&o| Solver::new(1 << 16).with_order(o).with_plain_tricks(1)).collect();
    for seed in 0..300u64 {
        // Deeper positions too: five tricks left.
        let s = endgame(Preset::ALL[seed as usize % 3], seed, 3 + (seed % 3) as u8, (seed % 4) as u8);
        let values: Vec<i32> = solvers.iter_mut().map(|solver| solver.value(&s)).collect();
        assert!(values.windows(2).all(|w| w[0] == w[1]), "seed {seed}: {values:?}");
        if seed % 50 == 0 {
            assert_eq!(values[0], minimax(&s));
        }
    }
    // Two whole deals, searched in opposite orders.
    for seed in 0..2u64 {
        let s = endgame(Preset::Classic, 100 + seed, 8, 0);
        let a = Solver::default().value(&s);
        let b = Solver::default().with_order(MoveOrder::Reversed).value(&s);
        assert_eq!(a, b);
    }
}
