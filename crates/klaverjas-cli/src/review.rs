//! `kj review`: the coach's review of one seat's cards in a deal, as data.

use crate::args::Args;
use crate::{Failure, four_players, output, percentiles, play_cards};
use klaverjas::{Action, Contract, Deal, Game, Seat, Suit};
use klaverjas_ai::Bot;
use klaverjas_ai::coach::Reviewer;
use klaverjas_ai::heuristic::HeuristicBot;
use serde_json::{Value, json};
use std::time::Instant;

pub fn review(args: &Args) -> Result<(), Failure> {
    let rules = four_players(args.rules()?, "kj review")?;
    let deal = Deal::from_code(args.req("code")?).map_err(|e| format!("--code: {e}"))?;
    let dealer = args.seat("dealer")?;
    if dealer != deal.dealer {
        return Err(format!("--dealer: the code's dealer is {}, not {}", deal.dealer, dealer).into());
    }
    let trump = args.suit("trump")?;
    let declarer = args.seat("playing")?;
    let seat = args.seat("seat")?;
    let cards = args.cards("play")?;
    let seed = args.number("seed", 1)?;
    let start =
        Game::with_contract(rules, deal, Contract { trump, declarer, forced: false }).map_err(|e| e.to_string())?;
    let mut played = start.clone();
    // A card that breaks a rule is bad input here, not a finding.
    play_cards(&mut played, &cards, true).map_err(|f| match f {
        Failure::Rule(m) => Failure::Usage(format!("--play: {m}")),
        usage => usage,
    })?;
    let reviewer = Reviewer::new(start, played.actions().to_vec(), seat, seed);
    let review = reviewer.finish().map_err(|e| Failure::Rule(e.to_string()))?;
    let mut rows = Vec::new();
    let mut human = String::new();
    for c in &review.cards {
        let values: serde_json::Map<String, Value> = c.values.iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
        let expert = match c.expert.action {
            Action::Play(card) => card.to_string(),
            other => other.to_string(),
        };
        rows.push(json!({
            "trick": c.trick,
            "card": c.card.to_string(),
            "best": c.best.to_string(),
            "values": values,
            "loss": c.loss,
            "expert": expert,
        }));
        let all: Vec<String> = c.values.iter().map(|(k, v)| format!("{k} {v:+}")).collect();
        human += &format!(
            "trick {}: {} played {}, best {}, loss {}; expert {expert}  ({})\n",
            c.trick,
            seat.name(),
            c.card,
            c.best,
            c.loss,
            all.join(", ")
        );
    }
    let total = review.total_loss();
    human += &format!("total loss: {total}");
    output(args, json!({ "seat": seat.to_string(), "cards": rows, "total_loss": total }), human);
    Ok(())
}

/// Whole-deal reviews of one seat, as the app makes them after a deal: the
/// deal is played by club players (the heuristic bot), then South's eight
/// cards are reviewed, every legal card solved and the expert asked. Only
/// the review is timed.
pub fn bench_review(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let rules = four_players(rules, "kj bench review")?;
    let deals = args.at_least_one("deals", 30)?;
    let seed = args.number("seed", 1)?;
    let mut times = Vec::new();
    let mut given_away = 0;
    for i in 0..deals {
        let dealer = Seat::from_index(i as usize);
        let contract =
            Contract { trump: Suit::from_index(i as usize / 4), declarer: rules.direction.next(dealer), forced: false };
        let start = Game::with_contract(rules, Deal::shuffled(seed.wrapping_add(i), dealer), contract)
            .map_err(|e| Failure::Rule(e.to_string()))?;
        let mut game = start.clone();
        while let Some(seat) = game.to_act() {
            let d = HeuristicBot.decide(&game.view(seat));
            game.apply(d.action).map_err(|e| Failure::Rule(e.to_string()))?;
        }
        let clock = Instant::now();
        let review = Reviewer::new(start, game.actions().to_vec(), Seat::South, seed.wrapping_add(i))
            .finish()
            .map_err(|e| Failure::Rule(e.to_string()))?;
        times.push(clock.elapsed().as_secs_f64() * 1000.0);
        given_away += review.total_loss() as i64;
    }
    let (median, p95) = percentiles(&mut times);
    let mean_loss = given_away as f64 / deals as f64;
    output(
        args,
        json!({ "deals": deals, "median_ms": median, "p95_ms": p95, "mean_total_loss": mean_loss }),
        format!(
            "{deals} whole-deal reviews of South: median {median:.0} ms, p95 {p95:.0} ms on one thread; the club player gave away {mean_loss:.1} points a deal"
        ),
    );
    Ok(())
}
