//! The engine's "no input panics" net: every preset with random valid and
//! invalid rule options, random dealers, deals from codes, from hands and
//! from the shuffle (for the right table and the wrong one), and random
//! action lists, legal and not. `Game` must refuse what it cannot play with
//! a typed error and never panic; while someone is to act, something is
//! legal; an action refused leaves the game as it was.
//!
//! `KJ_FUZZ_CASES=N` runs N cases per property instead of the default.

use klaverjas::*;
use proptest::prelude::{ProptestConfig, Strategy, any, prop, prop_assert, prop_assert_eq, prop_oneof, proptest};

fn cases(default: u32) -> u32 {
    std::env::var("KJ_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

/// The values an option accepts, in words, with garbage beside them.
fn values(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Rules::accepted_values(name)
        .split(", ")
        .map(|v| match v {
            "deals:N" => "deals:3".to_string(),
            "points:N" => "points:200".to_string(),
            "boem:STROKES" => "boem:2".to_string(),
            "0 to 100 (points)" => "10".to_string(),
            other => other.to_string(),
        })
        .collect();
    out.extend(["", "yes please", "-1", "101", "deals:0", "points:99999999999", "boem:300", "4"].map(String::from));
    out
}

/// A preset and a list of `name=value` options on top, some of them
/// invalid; what [`Rules::set_all`] accepts is the rules of the case.
fn rules() -> impl Strategy<Value = Rules> {
    let option = (0..Rules::OPTIONS.len() + 1, any::<prop::sample::Index>());
    (0..Preset::ALL.len(), prop::collection::vec(option, 0..6)).prop_map(|(preset, options)| {
        let mut rules = Preset::ALL[preset].rules();
        for (name, value) in options {
            let name = Rules::OPTIONS.get(name).copied().unwrap_or("no-such-option");
            let choices = values(name);
            // A refused option leaves the rules as they were.
            let before = rules;
            if rules.set(name, value.get::<String>(&choices)).is_err() {
                assert_eq!(rules, before, "a refused option changed the rules");
            }
        }
        rules
    })
}

/// Where a case's deal comes from.
#[derive(Clone, Debug)]
enum DealFrom {
    /// Shuffled for the rules' table.
    Table(u64, usize),
    /// Shuffled for four, whatever the rules seat.
    Four(u64, usize),
    /// Shuffled for another preset's table.
    Other(u64, usize, usize),
    /// A deal code, a valid one with some characters changed.
    Code(u64, usize, Vec<(prop::sample::Index, char)>),
    /// Any string as a code.
    Garbage(String),
    /// Hands made of random cards, with a random dealer and pile.
    Hands([u32; 4], usize, u8, u8),
}

fn deal_from() -> impl Strategy<Value = DealFrom> {
    prop_oneof![
        (any::<u64>(), 0..4usize).prop_map(|(s, d)| DealFrom::Table(s, d)),
        (any::<u64>(), 0..4usize).prop_map(|(s, d)| DealFrom::Four(s, d)),
        (any::<u64>(), 0..4usize, 0..Preset::ALL.len()).prop_map(|(s, d, p)| DealFrom::Other(s, d, p)),
        (any::<u64>(), 0..4usize, prop::collection::vec((any::<prop::sample::Index>(), any::<char>()), 0..3))
            .prop_map(|(s, d, edits)| DealFrom::Code(s, d, edits)),
        "[0-9A-Za-z+\\-]{0,30}".prop_map(DealFrom::Garbage),
        (any::<[u32; 4]>(), 0..4usize, 0..32u8, 0..32u8).prop_map(|(h, d, a, b)| DealFrom::Hands(h, d, a, b)),
    ]
}

fn make_deal(rules: &Rules, from: &DealFrom) -> Option<Deal> {
    let dealer = |d: usize| Seat::from_index(d);
    match from {
        DealFrom::Table(seed, d) => {
            Some(Deal::shuffled_for(rules, *seed, rules.players.seated(rules.direction, dealer(*d))))
        }
        DealFrom::Four(seed, d) => Some(Deal::shuffled(*seed, dealer(*d))),
        DealFrom::Other(seed, d, p) => Some(Deal::shuffled_for(&Preset::ALL[*p].rules(), *seed, dealer(*d))),
        DealFrom::Code(seed, d, edits) => {
            let mut code: Vec<char> = Deal::shuffled_for(rules, *seed, dealer(*d)).code().chars().collect();
            for (at, c) in edits {
                let i = at.index(code.len());
                code[i] = *c;
            }
            Deal::from_code(&code.into_iter().collect::<String>()).ok()
        }
        DealFrom::Garbage(text) => Deal::from_code(text).ok(),
        DealFrom::Hands(bits, d, a, b) => {
            let hands = bits.map(|b| CardSet::ALL.iter().filter(|c| b & (1 << c.index()) != 0).collect());
            if rules.players == Players::Two {
                // Hands for two need a stock; the bits name the later six.
                let later: CardSet = hands[0];
                let stock =
                    Stock { later, turned: Card::from_index(*a as usize)?, bottom: Card::from_index(*b as usize)? };
                return Deal::for_two(dealer(*d), hands[2], hands[3], stock).ok();
            }
            // Ranks outside the pile's 2 to 6 too: the fields are public.
            let pile = [*a, *b].map(|i| PileCard { suit: Suit::from_index(i as usize % 4), rank: i / 4 });
            Deal::from_hands(dealer(*d), hands, pile).ok()
        }
    }
}

/// Every action the engine knows, legal or not.
fn any_action() -> impl Strategy<Value = Action> {
    let card = (0..32usize).prop_filter_map("a card", Card::from_index);
    let suit = (0..4usize).prop_map(Suit::from_index);
    prop_oneof![
        prop_oneof![
            proptest::strategy::Just(Bid::Pass),
            proptest::strategy::Just(Bid::Play),
            proptest::strategy::Just(Bid::Double),
            suit.prop_map(Bid::Trump),
        ]
        .prop_map(Action::Bid),
        card.clone().prop_map(Action::Play),
        card.prop_map(Action::Discard),
        proptest::strategy::Just(Action::ClaimRoem),
        proptest::strategy::Just(Action::PassRoem),
        proptest::strategy::Just(Action::Announce),
        proptest::strategy::Just(Action::Swap),
    ]
}

/// A step of a case: a legal action picked by index, or any action.
#[derive(Clone, Debug)]
enum Step {
    Legal(prop::sample::Index),
    Any(Action),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![
        4 => any::<prop::sample::Index>().prop_map(Step::Legal),
        1 => any_action().prop_map(Step::Any),
    ];
    prop::collection::vec(step, 0..90)
}

/// Checks the game's promises in its present state.
fn check(game: &Game) -> Result<(), proptest::test_runner::TestCaseError> {
    let legal = game.legal_actions();
    if let Some(seat) = game.to_act() {
        prop_assert!(!legal.is_empty(), "{seat} is to act in {:?} and nothing is legal", game.phase());
        prop_assert!(game.rules().players.seats_at(seat), "{seat} is to act from an empty chair");
        prop_assert_eq!(&game.view(seat).legal, &legal);
    } else {
        prop_assert!(legal.is_empty(), "nobody is to act, yet {legal:?} is legal");
    }
    for seat in game.rules().players.seats() {
        let _ = game.view(*seat);
    }
    let _ = game.points();
    let _ = game.result().map(|r| r.final_score());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(20_000), ..ProptestConfig::default() })]

    /// A game is built or refused, then played by a mix of legal and any
    /// actions to its end, or as far as the list goes.
    #[test]
    fn no_game_panics(rules in rules(), from in deal_from(), steps in steps(), carry in any::<Option<(u8, u8)>>()) {
        let Some(deal) = make_deal(&rules, &from) else { return Ok(()) };
        let game = match Game::new(rules, deal) {
            Ok(game) => game,
            Err(e) => {
                // Refused only for a reason the deal shows.
                prop_assert!(deal.validate().is_err() || deal.players() != rules.players, "{e}");
                prop_assert!(!e.to_string().is_empty());
                return Ok(());
            }
        };
        prop_assert!(deal.validate().is_ok() && deal.players() == rules.players);
        let mut game = game.with_carry(carry.map(|(ns, ew)| PerTeam::new(ns as u16 % 100, ew as u16 % 100)));
        check(&game)?;
        for step in steps {
            let legal = game.legal_actions();
            let action = match step {
                Step::Legal(i) if !legal.is_empty() => legal[i.index(legal.len())],
                Step::Legal(_) => break,
                Step::Any(action) => action,
            };
            let before = game.clone();
            match game.apply(action) {
                // "No roem" while a call is open in play is taken, though
                // never waited for: the next card says it as well.
                Ok(_) => prop_assert!(
                    legal.contains(&action) || action == Action::PassRoem,
                    "{action} was applied but not listed as legal"
                ),
                Err(e) => {
                    prop_assert!(!legal.contains(&action), "the legal {action} was refused: {e}");
                    prop_assert_eq!(&game, &before, "a refused {} changed the game", action);
                }
            }
            check(&game)?;
        }
        // What was played replays to the same game.
        prop_assert_eq!(Game::from_record(&game.record()).ok(), Some(game));
    }

    /// A game with its contract given: any trump, any declarer (an empty
    /// chair included), played out by legal actions.
    #[test]
    fn no_given_contract_panics(rules in rules(), seed in any::<u64>(), dealer in 0..4usize, trump in 0..4usize,
                                declarer in 0..4usize, picks in prop::collection::vec(any::<prop::sample::Index>(), 40)) {
        let deal = Deal::shuffled_for(&rules, seed, rules.players.seated(rules.direction, Seat::from_index(dealer)));
        let contract = Contract { trump: Suit::from_index(trump), declarer: Seat::from_index(declarer), forced: false };
        let mut game = match Game::with_contract(rules, deal, contract) {
            Ok(game) => game,
            Err(e) => {
                prop_assert_eq!(e, NewGameError::EmptyDeclarer(contract.declarer));
                return Ok(());
            }
        };
        for pick in picks {
            check(&game)?;
            let legal = game.legal_actions();
            if legal.is_empty() {
                break;
            }
            let action = legal[pick.index(legal.len())];
            prop_assert!(game.apply(action).is_ok(), "legal {action} refused");
        }
    }

    /// A match from any seed and first dealer, the empty chairs included,
    /// plays deal after deal by legal actions.
    #[test]
    fn no_match_panics(rules in rules(), seed in any::<u64>(), dealer in 0..4usize,
                       picks in prop::collection::vec(any::<prop::sample::Index>(), 120)) {
        let mut m = Match::new(rules, seed, Seat::from_index(dealer));
        for pick in picks {
            check(m.game())?;
            let legal = m.game().legal_actions();
            if legal.is_empty() {
                if m.is_over() {
                    break;
                }
                prop_assert!(m.next_deal().is_ok(), "a finished deal did not lead to the next");
                continue;
            }
            let action = legal[pick.index(legal.len())];
            prop_assert!(m.apply(action).is_ok(), "legal {action} refused");
        }
        prop_assert_eq!(Match::from_record(&m.record()).ok().map(|r| r.record()), Some(m.record()));
    }
}
