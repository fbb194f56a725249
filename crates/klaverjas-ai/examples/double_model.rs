//! Grounds the heuristic's doubling thresholds (`heuristic::DOUBLE_THRESHOLDS`):
//! in club players' self-play under Wilde Boom without doubling, how often
//! a contract fails by the strength in trumps of the defender who speaks
//! first and of the declarer. A defender's kraak pays once failures pass
//! about two in three; a rekraak once the contract is made as often.

use klaverjas::{Deal, Game, Preset, Rules, Seat};
use klaverjas_ai::Bot;
use klaverjas_ai::heuristic::{HeuristicBot, hand_strength};

fn main() {
    let deals = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(20_000u64);
    let rules = Rules { kraken: false, ..Preset::WildeBoom.rules() };
    // Failures and deals, by strength bucket of 10 (0-9 ... 150+).
    let (mut defender, mut declarer) = ([(0u32, 0u32); 16], [(0u32, 0u32); 16]);
    for seed in 0..deals {
        let mut game = Game::new(rules, Deal::shuffled(seed, Seat::from_index(seed as usize % 4))).unwrap();
        while let Some(seat) = game.to_act() {
            let action = HeuristicBot.decide(&game.view(seat)).action;
            game.apply(action).expect("a bot's choice is legal");
        }
        let (Some(r), Some(c)) = (game.result(), game.contract()) else { continue };
        // A declarer made to choose says little of its hand.
        if c.forced {
            continue;
        }
        let strength = |s: Seat| hand_strength(game.deal().hand(s), c.trump);
        let bucket = |s: Seat| (strength(s).max(0) / 10).min(15) as usize;
        let first = c.declarer.next();
        for (tally, seat) in [(&mut defender, first), (&mut declarer, c.declarer)] {
            tally[bucket(seat)].0 += r.nat as u32;
            tally[bucket(seat)].1 += 1;
        }
    }
    println!("strength  first defender: failed/deals        declarer: failed/deals");
    for b in 0..16 {
        let line = |(failed, all): (u32, u32)| format!("{failed:>5}/{all:<6} {:.2}", failed as f64 / all.max(1) as f64);
        println!("{:>3}-{:<4}  {}        {}", b * 10, b * 10 + 9, line(defender[b]), line(declarer[b]));
    }
}
