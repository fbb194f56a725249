//! `kj review`: the coach's review of one seat's cards in a deal, as data.

use crate::args::Args;
use crate::{Failure, output, play_cards};
use klaverjas::{Action, Contract, Deal, Game};
use klaverjas_ai::review::Reviewer;
use serde_json::{Value, json};

pub fn review(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
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
    let start = Game::with_contract(rules, deal, Contract { trump, declarer, forced: false });
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
