//! The `kj` contract, run as a real process.

use klaverjas::*;
use serde_json::{Value, json};
use std::process::Command;

fn kj(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kj")).args(args).output().expect("kj runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn kj_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = kj(&all);
    assert_eq!(code, 0, "kj {args:?} failed: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[test]
fn legal_follows_each_preset() {
    let legal = |rules, trump, hand, trick: Option<&str>| {
        let mut args = vec!["legal", "--rules", rules, "--trump", trump, "--hand", hand];
        if let Some(t) = trick {
            args.extend(["--trick", t]);
        }
        kj_json(&args)
    };
    assert_eq!(legal("amsterdam", "H", "JH 7H AC", Some("9H")), json!({"legal": ["JH"]}));
    assert_eq!(legal("classic", "H", "JH 7H AC", Some("9H")), json!({"legal": ["JH", "7H"]}));
    assert_eq!(legal("classic", "h", "jh,7h,ac", None), json!({"legal": ["JH", "7H", "AC"]}));
    // Partner (two cards before) trumped and wins: Amsterdam forbids the
    // undertrump, Rotterdam demands the overtrump, classic allows anything.
    assert_eq!(legal("amsterdam", "S", "7C QS JS", Some("KH 9S 7D")), json!({"legal": ["7C", "JS"]}));
    assert_eq!(legal("rotterdam", "S", "7C QS JS", Some("KH 9S 7D")), json!({"legal": ["JS"]}));
    assert_eq!(legal("classic", "S", "7C QS JS", Some("KH 9S 7D")), json!({"legal": ["7C", "QS", "JS"]}));
    // Rotterdam: trump over a partner winning with a plain ace.
    assert_eq!(legal("rotterdam", "S", "7C QS", Some("AH 7D")), json!({"legal": ["QS"]}));
    assert_eq!(legal("amsterdam", "S", "7C QS", Some("AH 7D")), json!({"legal": ["7C", "QS"]}));
    // Amsterdam: the partner wins with the 9 of trumps and the hand is all
    // trumps; the jack beats it, so the king would be an undertrump.
    assert_eq!(legal("amsterdam", "S", "KS JS", Some("QH 9S AH")), json!({"legal": ["JS"]}));
    let (code, out, _) =
        kj(&["legal", "--rules", "amsterdam", "--trump", "S", "--hand", "KS JS", "--trick", "QH 9S AH"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim_end(), "legal: JS  (Your partner is winning: you need not trump, but you may not undertrump)");
    // "10" is accepted for the ten.
    assert_eq!(legal("classic", "C", "10H 7S", Some("8H")), json!({"legal": ["TH"]}));
}

/// A deal as a whole action list: the defenders kraak a contract the
/// players then lose, and kj scores it as the engine does: nat, doubled,
/// everything to the defenders. The same list without kraken is refused
/// at the double, naming it.
#[test]
fn deal_takes_a_whole_action_list_and_a_kraak_doubles_a_nat() {
    let rules = Rules { bidding: Bidding::FreeChoice, kraken: true, ..Rules::amsterdam() };
    let mut found = None;
    for seed in 0..200u64 {
        let mut game = Game::new(rules, Deal::shuffled(seed, Seat::West)).unwrap();
        // North, left of the dealer, names his best suit; East kraaks at
        // once and the players do not answer; the club player plays it out.
        let best = Suit::ALL.into_iter().max_by_key(|&s| game.hand(Seat::North).of_suit(s).len()).unwrap();
        for action in [Bid::Trump(best), Bid::Double, Bid::Pass, Bid::Pass].map(Action::Bid) {
            game.apply(action).unwrap();
        }
        while let Some(seat) = game.to_act() {
            let d = klaverjas_ai::Level::Heuristic.bot(seed).decide(&game.view(seat));
            game.apply(d.action).unwrap();
        }
        if game.result().unwrap().nat {
            found = Some(game);
            break;
        }
    }
    let game = found.expect("a kraaked nat in 200 deals");
    let list: Vec<String> = game.actions().iter().map(|a| a.to_string()).collect();
    let list = list.join(", ");
    let args =
        ["deal", "--rules", "amsterdam", "--set", "bidding=free,kraken=yes", "--dealer", "W", "--actions", &list];
    let out = kj_json(&args);
    let r = game.result().unwrap();
    assert_eq!(out["nat"], json!(true));
    assert_eq!((out["doubles"].clone(), out["multiplier"].clone()), (json!(1), json!(2)));
    let all = 162 + r.roem.ns + r.roem.ew + if r.pit.is_some() { 100 } else { 0 };
    assert_eq!(out["final"], json!({"NS": 0, "EW": 2 * all}), "{list}");
    // Without kraken the second action, a double, is refused by its rule;
    // play has begun, so the seat to act is North, who leads.
    let args = ["deal", "--rules", "amsterdam", "--set", "bidding=free", "--dealer", "W", "--actions", &list];
    let (code, _, err) = kj(&args);
    assert_eq!(code, 1);
    assert_eq!(err.trim(), "kj: action 2 (North: double): These rules play without doubling (kraken)");
    // A word that is no action is named.
    let (code, _, err) = kj(&["deal", "--dealer", "W", "--actions", "pass, frobnicate"]);
    assert_eq!((code, err.trim()), (2, "kj: --actions: unknown action 'frobnicate'"));
}

#[test]
fn trick_reports_winner_points_and_roem() {
    let trick = |rules, trump, cards| kj_json(&["trick", "--rules", rules, "--trump", trump, "--trick", cards]);
    assert_eq!(trick("classic", "H", "KH QH JH 8C"), json!({"winner": 2, "points": 27, "roem": 40}));
    assert_eq!(trick("classic", "S", "AH 7S KH TH"), json!({"winner": 1, "points": 25, "roem": 0}));
    assert_eq!(trick("classic", "S", "7C 7D 7H 7S"), json!({"winner": 3, "points": 0, "roem": 50}));
    assert_eq!(trick("amsterdam", "D", "7C 7D 7H 7S"), json!({"winner": 1, "points": 0, "roem": 100}));
    assert_eq!(trick("amsterdam", "H", "KH QH JH TH"), json!({"winner": 2, "points": 37, "roem": 70}));
    // Zonder roem: the same trick holds none.
    let none =
        kj_json(&["trick", "--rules", "amsterdam", "--set", "roem=none", "--trump", "H", "--trick", "KH QH JH TH"]);
    assert_eq!(none, json!({"winner": 2, "points": 37, "roem": 0}));
}

/// A legal 32-card play found by the engine: random legal cards.
fn engine_play(rules: Rules, seed: u64, dealer: Seat, contract: Contract) -> Game {
    let mut game = Game::with_contract(rules, Deal::shuffled(seed, dealer), contract).unwrap();
    let mut rng = Rng::new(seed);
    while game.to_act().is_some() {
        let legal = game.legal_actions();
        let action = match game.phase() {
            _ if legal.contains(&Action::ClaimRoem) => Action::ClaimRoem,
            Phase::ClaimRoem => Action::PassRoem,
            _ => Action::Play(rng.pick(game.legal_cards()).unwrap()),
        };
        game.apply(action).unwrap();
    }
    game
}

#[test]
fn deal_scores_a_whole_deal_like_the_engine() {
    for (preset, seed) in [("classic", 3u64), ("amsterdam", 4), ("rotterdam", 5), ("classic", 21)] {
        let rules: Preset = preset.parse().unwrap();
        let contract = Contract { trump: Suit::Spades, declarer: Seat::South, forced: false };
        let game = engine_play(rules.rules(), seed, Seat::East, contract);
        let cards: Vec<String> = game.tricks().iter().flat_map(|t| t.cards).map(|c| c.to_string()).collect();
        let play = cards.join(" ");
        let v =
            kj_json(&["deal", "--rules", preset, "--dealer", "E", "--trump", "S", "--playing", "S", "--play", &play]);
        let r = game.result().unwrap();
        assert_eq!(v["points"], json!({"NS": r.points.ns, "EW": r.points.ew}));
        assert_eq!(v["roem"], json!({"NS": r.roem.ns, "EW": r.roem.ew}));
        assert_eq!(v["final"], json!({"NS": r.final_score().ns, "EW": r.final_score().ew}));
        assert_eq!(v["nat"], json!(r.nat));
        assert_eq!(v["pit"], json!(r.pit.is_some()));
        let tricks = v["tricks"].as_array().unwrap();
        assert_eq!(tricks.len(), 8);
        assert_eq!(tricks[0]["leader"], json!("S"), "the player after the dealer leads");
        let sum: u64 = tricks.iter().map(|t| t["points"].as_u64().unwrap()).sum();
        assert_eq!(sum, 162);
        for (t, rec) in tricks.iter().zip(game.tricks()) {
            assert_eq!(t["winner"], json!(rec.winner.to_string()));
            assert_eq!(t["roem"], json!(rec.roem.points));
            assert_eq!(t["cards"].as_array().unwrap().len(), 4);
        }
        // With no claims, classic counts no roem at all.
        let none = kj_json(&[
            "deal",
            "--rules",
            preset,
            "--dealer",
            "E",
            "--trump",
            "S",
            "--playing",
            "S",
            "--play",
            &play,
            "--claim",
            "none",
        ]);
        if preset == "classic" {
            assert_eq!(none["roem"], json!({"NS": 0, "EW": 0}));
        } else {
            assert_eq!(none["roem"], v["roem"], "automatic presets ignore --claim");
        }
    }
}

#[test]
fn deal_names_the_broken_rule() {
    let contract = Contract { trump: Suit::Hearts, declarer: Seat::North, forced: false };
    let game = engine_play(Rules::amsterdam(), 8, Seat::West, contract);
    let mut cards: Vec<Card> = game.tricks().iter().flat_map(|t| t.cards).collect();
    // Find a follower who followed suit while holding another card of the
    // led suit later, and swap in a card of another suit: always illegal.
    let (i, j) = (0..32)
        .filter(|i| i % 4 != 0)
        .find_map(|i| {
            let led = cards[i / 4 * 4].suit();
            let seat = game.tricks()[i / 4].leader.after(i % 4);
            let later = ((i / 4 + 1) * 4..32).find(|&j| {
                let t = &game.tricks()[j / 4];
                t.leader.after(j % 4) == seat && cards[j].suit() != led
            })?;
            (cards[i].suit() == led).then_some((i, later))
        })
        .expect("a swappable pair");
    cards.swap(i, j);
    let play: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    let (code, out, err) = kj(&[
        "deal",
        "--rules",
        "amsterdam",
        "--dealer",
        "W",
        "--trump",
        "H",
        "--playing",
        "N",
        "--play",
        &play.join(","),
    ]);
    assert_ne!(code, 0);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!("trick {}", i / 4 + 1)), "{err}");
    assert!(err.contains(&cards[i].to_string()), "{err}");
    assert!(err.contains("You must follow"), "{err}");
}

#[test]
fn sim_plays_random_deals() {
    let v = kj_json(&["sim", "--rules", "rotterdam", "--deals", "200", "--seed", "4"]);
    assert_eq!(v["deals"], json!(200));
    let playing = v["playing"]["NS"].as_u64().unwrap() + v["playing"]["EW"].as_u64().unwrap();
    assert_eq!(playing, 200);
    let points = v["points"]["NS"].as_u64().unwrap() + v["points"]["EW"].as_u64().unwrap();
    assert_eq!(points, 200 * 162);
    assert_eq!(v, kj_json(&["sim", "--rules", "rotterdam", "--deals", "200", "--seed", "4"]), "seeded");
}

#[test]
fn code_round_trips() {
    let v = kj_json(&["code", "--seed", "42", "--dealer", "S"]);
    let code = v["code"].as_str().unwrap();
    assert_eq!(kj_json(&["code", "--code", code]), v);
    assert_eq!(v["hands"]["N"].as_array().unwrap().len(), 8);
}

#[test]
fn bad_input_gets_one_line_and_no_panic() {
    let cases: &[&[&str]] = &[
        &["legal", "--trump", "H", "--hand", "ZZ"],
        &["legal", "--trump", "H", "--hand", "7H 7H"],
        &["legal", "--trump", "X", "--hand", "7H"],
        &["legal", "--trump", "H"],
        &["legal", "--trump", "H", "--hand", "7H", "--trick", "7H"],
        &["legal", "--trump", "H", "--hand", "7H", "--trick", "8H 9H TH JH"],
        &["legal", "--trump", "H", "--hand", "7C 8C 9C TC JC QC KC AC 7D"],
        &["legal", "--rules", "utrecht", "--trump", "H", "--hand", "7H"],
        &["legal", "--trump", "H", "--hand", "7H", "--color"],
        &["legal", "--trump"],
        &["trick", "--trump", "H", "--trick", "7H 8H 9H"],
        &["deal", "--dealer", "Q", "--trump", "H", "--playing", "N", "--play", "7H"],
        &["deal", "--dealer", "N", "--trump", "H", "--playing", "N", "--play", "7H 8H"],
        &["deal", "--dealer", "N", "--trump", "H", "--playing", "N", "--play", "7H", "--claim", "some"],
        &["sim", "--deals", "many"],
        &["code", "--code", "2Y1Q-0JXT"],
        &["code", "--code", "2Y1Q-0JXT-1DAV-4YD!"],
        &["bench", "nothing"],
        &["solve", "--trump", "H", "--leader", "N", "--trick", "7H", "--hands", "N:AH E:KH S:QH W:JH"],
        &["frobnicate"],
        &["legal", "stray"],
        &["legal", "--trump", "H", "--hand", "7H", "--set", "undertrump=sometimes"],
        &["legal", "--trump", "H", "--hand", "7H", "--set", "undertrump"],
        &["legal", "--trump", "H", "--hand", "7H", "--set", "roemm=nku"],
        &["sim", "--ns", "expert", "--matches", "1", "--ew-without", "intuition"],
        &["bench", "bot", "--level", "grandmaster"],
    ];
    // `kj review` with one thing wrong each: a bad character in the code,
    // a dealer the code does not have, a card North does not hold, no seat.
    let review = "review --code 34FG-SHBB-PY75-4B83 --dealer W --trump H --playing N --play AC --seat N";
    let reviews: Vec<String> =
        [("4B83", "4B8!"), ("--dealer W", "--dealer N"), ("--play AC", "--play 8C"), (" --seat N", "")]
            .iter()
            .map(|(from, to)| review.replace(from, to))
            .collect();
    let reviews: Vec<Vec<&str>> = reviews.iter().map(|r| r.split(' ').collect()).collect();
    for args in cases.iter().copied().chain(reviews.iter().map(Vec::as_slice)) {
        let (code, out, err) = kj(args);
        assert_ne!(code, 0, "kj {args:?} succeeded: {out}");
        assert!(!err.contains("panicked"), "kj {args:?} panicked: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "kj {args:?}: {err}");
        assert!(err.starts_with("kj: "), "{err}");
    }
    let (_, _, err) = kj(cases[0]);
    assert!(err.contains("'ZZ'"), "the error names the token: {err}");
    let (_, _, err) = kj(&["legal", "--trump", "H", "--hand", "7H", "--seat", "Q"]);
    assert!(err.contains("--seat"), "{err}");
}

#[test]
fn help_lists_every_rule_option_with_its_values() {
    let (code, out, _) = kj(&["help"]);
    assert_eq!(code, 0);
    for option in Rules::OPTIONS {
        let line = out.lines().find(|l| l.trim_start().starts_with(&format!("{option}:")));
        let line = line.unwrap_or_else(|| panic!("{option} missing from:\n{out}"));
        assert!(line.ends_with(&Rules::accepted_values(option)), "{line}");
    }
    assert!(out.contains("pimc") && out.contains("pass-value"), "{out}");
    let presets: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
    assert!(out.contains(&format!("Presets: {}", presets.join(", "))), "{out}");
}

#[test]
fn sim_matches_reports_every_field_and_they_add_up() {
    let v = kj_json(&[
        "sim",
        "--rules",
        "classic",
        "--ns",
        "heuristic",
        "--ew",
        "random",
        "--matches",
        "3",
        "--seed",
        "5",
        "--duplicate",
    ]);
    let n =
        |path: &[&str]| path.iter().fold(&v, |v, key| &v[key]).as_u64().unwrap_or_else(|| panic!("{path:?} in {v}"));
    assert_eq!(n(&["matches"]), 3);
    assert_eq!(n(&["wins", "NS"]) + n(&["wins", "EW"]) + n(&["ties"]), 3);
    // A duplicate pair plays 2 x 16 deals, each with one playing team.
    assert_eq!(n(&["playing", "NS"]) + n(&["playing", "EW"]), 3 * 32);
    for team in ["NS", "EW"] {
        assert!(n(&["nat", team]) <= n(&["playing", team]));
        assert!(n(&["forced", team]) <= n(&["playing", team]));
        assert!(n(&["forced_nat", team]) <= n(&["forced", team]).min(n(&["nat", team])));
    }
    assert!(n(&["forced", "NS"]) + n(&["forced", "EW"]) > 0, "in 96 classic deals someone is made to play");
    let lo = v["margin_per_deal"]["ci95"][0].as_f64().unwrap();
    let hi = v["margin_per_deal"]["ci95"][1].as_f64().unwrap();
    let mean = v["margin_per_deal"]["mean"].as_f64().unwrap();
    assert!(lo <= mean && mean <= hi);
}

/// The review's arguments for `game`'s deal and cards, for `seat`.
fn review_args(game: &Game, seat: Seat) -> Vec<String> {
    let contract = game.contract().unwrap();
    let cards: Vec<String> = game
        .actions()
        .iter()
        .filter_map(|a| match a {
            Action::Play(c) => Some(c.to_string()),
            _ => None,
        })
        .collect();
    [
        "review",
        "--rules",
        "classic",
        "--code",
        &game.deal().code(),
        "--dealer",
        &game.dealer().to_string(),
        "--trump",
        &contract.trump.to_string(),
        "--playing",
        &contract.declarer.to_string(),
        "--play",
        &cards.join(" "),
        "--seat",
        &seat.to_string(),
    ]
    .map(String::from)
    .to_vec()
}

fn json_of(args: &[String]) -> Value {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    kj_json(&args)
}

#[test]
fn review_values_are_what_solve_says_at_each_position() {
    let mut checked = 0;
    for seed in 0..50u64 {
        let dealer = Seat::from_index(seed as usize % 4);
        let trump = Suit::ALL[(seed / 4) as usize % 4];
        let contract = Contract { trump, declarer: dealer.next(), forced: false };
        let game = engine_play(Preset::Classic.rules(), seed, dealer, contract);
        let seat = Seat::from_index((seed / 16) as usize % 4);
        let review = json_of(&review_args(&game, seat));
        let rows = review["cards"].as_array().unwrap();
        assert_eq!(rows.len(), 8, "seed {seed}: one row per card of the seat");
        let mut total = 0;
        for row in rows {
            let trick = row["trick"].as_u64().unwrap() as usize;
            let card: Card = row["card"].as_str().unwrap().parse().unwrap();
            let values = row["values"].as_object().unwrap();
            let loss = row["loss"].as_i64().unwrap();
            let best = values.values().map(|v| v.as_i64().unwrap()).max().unwrap();
            assert!(loss >= 0, "seed {seed}: {row}");
            assert_eq!(loss, best - values[&card.to_string()].as_i64().unwrap(), "seed {seed}: {row}");
            assert_eq!(values[row["best"].as_str().unwrap()].as_i64(), Some(best), "seed {seed}: {row}");
            total += loss;
            // The same position for kj solve: the hands before this trick,
            // less the cards played to it before the seat's.
            let record = &game.tricks()[trick - 1];
            let before: Vec<(Seat, Card)> = record.plays().take_while(|&(s, _)| s != seat).collect();
            let mut hands = game.deal().hands;
            for t in &game.tricks()[..trick - 1] {
                for (s, c) in t.plays() {
                    hands[s.index()].remove(c);
                }
            }
            for &(s, c) in &before {
                hands[s.index()].remove(c);
            }
            let hands_text: Vec<String> = Seat::ALL.iter().map(|s| format!("{s}:{}", hands[s.index()])).collect();
            let trick_text: Vec<String> = before.iter().map(|(_, c)| c.to_string()).collect();
            let mut solve = vec![
                "solve".to_string(),
                "--rules".into(),
                "classic".into(),
                "--trump".into(),
                trump.to_string(),
                "--leader".into(),
                record.leader.to_string(),
                "--hands".into(),
                hands_text.join(" "),
            ];
            if !before.is_empty() {
                solve.extend(["--trick".to_string(), trick_text.join(" ")]);
            }
            let solved = json_of(&solve);
            let sign = if seat.team() == Team::NS { 1 } else { -1 };
            let solved_cards = solved["cards"].as_object().unwrap();
            assert_eq!(solved_cards.len(), values.len(), "seed {seed} trick {trick}: the same legal cards");
            for (c, v) in values {
                assert_eq!(
                    v.as_i64().unwrap(),
                    sign * solved_cards[c].as_i64().unwrap(),
                    "seed {seed} trick {trick} {c}"
                );
                checked += 1;
            }
        }
        assert_eq!(review["total_loss"].as_i64(), Some(total), "seed {seed}");
    }
    assert!(checked > 400, "{checked} values checked");
}

#[test]
fn a_deal_played_by_the_solvers_best_cards_gives_nothing_away() {
    use klaverjas_ai::solver::Solver;
    for seed in 0..6u64 {
        let dealer = Seat::from_index(seed as usize % 4);
        let contract = Contract { trump: Suit::ALL[seed as usize % 4], declarer: dealer, forced: false };
        let mut game = Game::with_contract(Preset::Classic.rules(), Deal::shuffled(seed, dealer), contract).unwrap();
        let mut solver = Solver::default();
        while let Some(seat) = game.to_act() {
            let legal = game.legal_actions();
            let action = match game.phase() {
                _ if legal.contains(&Action::ClaimRoem) => Action::ClaimRoem,
                Phase::ClaimRoem => Action::PassRoem,
                _ => {
                    let values = klaverjas_ai::coach::exact_values(&game, &mut solver, seat).unwrap();
                    Action::Play(values.iter().max_by_key(|(_, v)| *v).unwrap().0)
                }
            };
            game.apply(action).unwrap();
        }
        for seat in Seat::ALL {
            let review = json_of(&review_args(&game, seat));
            assert_eq!(review["total_loss"].as_i64(), Some(0), "seed {seed} {seat}: {review}");
            for row in review["cards"].as_array().unwrap() {
                assert_eq!(row["card"], row["best"], "seed {seed}: {row}");
            }
        }
    }
}

#[test]
fn set_changes_options_on_top_of_a_preset() {
    // Rotterdam forces an undertrump: 7S is not legal when a spade is
    // trumped higher and the hand holds a lower trump and a plain card.
    let args = ["legal", "--rules", "rotterdam", "--trump", "S", "--hand", "7S 7C", "--trick", "AH 9S"];
    assert_eq!(kj_json(&args)["legal"], json!(["7S"]));
    let mut allowed = args.to_vec();
    allowed.extend(["--set", "undertrump=allowed"]);
    assert_eq!(kj_json(&allowed)["legal"], json!(["7S", "7C"]));
    // A bad value names the token and what is accepted.
    let (code, _, err) = kj(&["legal", "--trump", "S", "--hand", "7S", "--set", "undertrump=sometimes"]);
    assert_eq!(code, 2);
    assert!(err.contains("'sometimes'") && err.contains("forbidden, allowed, forced"), "{err}");
}

/// South African following (002, SAKBOC rules 3.2-3.4), option by option:
/// a trump in place of the led suit, the jack of trumps kept back on a
/// trump lead, and no undertrump even then.
#[test]
fn south_african_following_by_its_options() {
    let legal = |set: &str, trump: &str, hand: &str, trick: &str| {
        kj_json(&["legal", "--set", set, "--trump", trump, "--hand", hand, "--trick", trick])["legal"].clone()
    };
    // Able to follow hearts, the 8 of trumps may come instead.
    assert_eq!(legal("trump-instead-of-following=yes", "S", "7H 8S 9C", "AH"), json!(["7H", "8S"]));
    assert_eq!(legal("trump-instead-of-following=no", "S", "7H 8S 9C", "AH"), json!(["7H"]));
    // But not under the jack of trumps already played: that would undertrump.
    let sa = "trump-instead-of-following=yes,undertrump=forbidden";
    assert_eq!(legal(sa, "S", "7H 8S 9C", "AH JS"), json!(["7H"]));
    // Trumps led, the jack of trumps the only trump: it need not be played.
    assert_eq!(legal("jack-never-forced=yes", "H", "JH 7C AD", "7H"), json!(["JH", "7C", "AD"]));
    assert_eq!(legal("jack-never-forced=no", "H", "JH 7C AD", "7H"), json!(["JH"]));
    // Void in the suit led: any card, where the Dutch rule makes you trump.
    assert_eq!(legal("free-when-void=yes", "S", "8S 9C", "AH"), json!(["8S", "9C"]));
    assert_eq!(legal("free-when-void=no", "S", "8S 9C", "AH"), json!(["8S"]));
}

/// South African cards on top of any preset: the king beats the ten, the
/// queen of trumps the ten of trumps, and a trick counts 002's points.
#[test]
fn south_african_cards_change_who_wins_and_the_count() {
    let sa = ["--set", "cards=south-african"];
    let trick = |rules: &[&str], trump: &str, cards: &str| {
        let mut args = vec!["trick", "--rules", "classic", "--trump", trump, "--trick", cards];
        args.extend(rules);
        kj_json(&args)
    };
    assert_eq!(trick(&[], "C", "TH KH 7H 8H"), json!({"winner": 0, "points": 14, "roem": 0}));
    assert_eq!(trick(&sa, "C", "TH KH 7H 8H"), json!({"winner": 1, "points": 13, "roem": 0}));
    assert_eq!(trick(&sa, "H", "TH QH JC 8H"), json!({"winner": 1, "points": 13, "roem": 0}));
    // Following by that order: over the ten of trumps only the queen,
    // king, ace, nine and jack are higher.
    let legal = kj_json(&[
        "legal",
        "--rules",
        "amsterdam",
        "--set",
        "cards=south-african",
        "--trump",
        "H",
        "--hand",
        "QH 7H",
        "--trick",
        "TH",
    ]);
    assert_eq!(legal, json!({"legal": ["QH"]}));
    let (code, _, err) =
        kj(&["trick", "--rules", "classic", "--set", "cards=swiss", "--trump", "C", "--trick", "TH KH 7H 8H"]);
    assert_eq!(code, 2);
    assert!(err.contains("'swiss'") && err.contains("south-african"), "{err}");
}

/// Under hand roem `kj solve` adds what every seat's announcement and stuk
/// bring: West's five in a row (100 in Wilde Boom) beats all, so East-West
/// score both their hands (East 50 + 20, West 100) and East's stuk 20.
#[test]
fn solve_adds_the_roem_from_the_hands() {
    let hands = "N:7H 8H 9H TH KS 7C 8C 9C E:JH QH KH AH QS 7D 8D 9D S:JS AS TS 9S 8S AC KC QC \
                 W:TC JC 7S TD JD QD KD AD";
    let solve = |set: &str| {
        kj_json(&["solve", "--rules", "wilde-boom", "--set", set, "--trump", "H", "--leader", "N", "--hands", hands])
    };
    let with = solve("roem=001");
    let without = solve("roem=none");
    assert_eq!(with["hand_roem"], json!({"ns": 0, "ew": 190}));
    assert_eq!(without["hand_roem"], json!({"ns": 0, "ew": 0}));
    assert_eq!(with["value"].as_i64().unwrap(), without["value"].as_i64().unwrap() - 190);
    assert_eq!(with["cards"]["7C"].as_i64().unwrap(), without["cards"]["7C"].as_i64().unwrap() - 190);
    // After North's lead the announcements still count: North's card is
    // given back to the hand it was dealt in.
    let after = kj_json(&[
        "solve",
        "--rules",
        "wilde-boom",
        "--trump",
        "H",
        "--leader",
        "N",
        "--trick",
        "7C",
        "--hands",
        "N:7H 8H 9H TH KS 8C 9C E:JH QH KH AH QS 7D 8D 9D S:JS AS TS 9S 8S AC KC QC W:TC JC 7S TD JD QD KD AD",
    ]);
    assert_eq!(after["hand_roem"], json!({"ns": 0, "ew": 190}));
}

/// Plays `deal` under `rules` with the heuristic bot, each seat announcing
/// its roem whenever it may; the actions as `kj deal --actions` reads them.
fn played_with_announcements(rules: Rules, deal: Deal, carry: Option<PerTeam<u16>>) -> (Game, String) {
    let mut game = Game::new(rules, deal).unwrap().with_carry(carry);
    let mut bot = klaverjas_ai::Level::Heuristic.bot(1);
    while let Some(seat) = game.to_act() {
        let legal = game.legal_actions();
        let action =
            if legal.contains(&Action::Announce) { Action::Announce } else { bot.decide(&game.view(seat)).action };
        game.apply(action).unwrap();
    }
    let list: Vec<String> = game.actions().iter().map(|a| a.to_string()).collect();
    (game, list.join(", "))
}

/// Where the last card dealt makes trump: equal roem goes to the first
/// announced, and between a run in trumps and one in a plain suit with the
/// same top card the trump run wins, whoever announced first (002's
/// sizing). East deals; play goes to the right, so North leads and West
/// announces before South.
#[test]
fn sizing_settles_a_roem_tie_and_trump_beats_plain() {
    let hands = "N:7H JH QH 9C JC AC 8S 9S E:KH JD QD AD TC KC TS QS \
                 S:8D 9D TD AH KS 8C QC 7S W:8H 9H TH AS KD 7C JS 7D";
    let parsed = |h: &str| CardSet::parse(h).unwrap();
    let dealt = [
        parsed("7H JH QH 9C JC AC 8S 9S"),
        parsed("KH JD QD AD TC KC TS QS"),
        parsed("8D 9D TD AH KS 8C QC 7S"),
        parsed("8H 9H TH AS KD 7C JS 7D"),
    ];
    for (last, winner) in [("TC", "EW"), ("JD", "NS")] {
        let card: Card = last.parse().unwrap();
        let deal = Deal::from_hands(Seat::East, dealt, PileCard::showing(Suit::Clubs)).unwrap();
        let (game, list) = played_with_announcements(Rules::klawerjas(), deal.with_last_card(card).unwrap(), None);
        let args = ["deal", "--rules", "klawerjas", "--dealer", "E", "--hands", hands, "--last-card", last];
        let out = kj_json(&[&args[..], &["--actions", &list]].concat());
        let loser = if winner == "NS" { "EW" } else { "NS" };
        assert_eq!((out["roem"][winner].clone(), out["roem"][loser].clone()), (json!(20), json!(0)), "{last}: {list}");
        let result = game.result().unwrap();
        assert_eq!(out["final"], json!({"NS": result.final_score().ns, "EW": result.final_score().ew}));
    }
}

/// A boem hand ends when a side reaches 100: `kj deal` tells who went on
/// and by how many strokes, from new play and from old play's carry.
#[test]
fn deal_tells_who_goes_on_the_boem() {
    let rules = Rules::klawerjas();
    let mut seen = [false; 3];
    for seed in 0..60u64 {
        let deal = Deal::shuffled_for(&rules, seed, Seat::from_index(seed as usize));
        let carry = (seed % 2 == 1).then(|| PerTeam::new(40 + seed as u16 % 50, 30));
        let (game, list) = played_with_announcements(rules, deal, carry);
        let hands: Vec<String> = Seat::ALL.iter().map(|&s| format!("{}:{}", s.letter(), deal.hand(s))).collect();
        let hands = hands.join(" ");
        let last = deal.last_card_dealt().to_string();
        let dealer = deal.dealer.letter().to_string();
        let mut args = vec!["deal", "--rules", "klawerjas", "--dealer", &dealer, "--hands", &hands];
        args.extend(["--last-card", &last, "--actions", &list]);
        let carry_text = carry.map(|c| format!("{},{}", c.ns, c.ew));
        if let Some(c) = &carry_text {
            args.extend(["--carry", c]);
        }
        let out = kj_json(&args);
        let tally = |t: Team| json!(game.tally(t));
        assert_eq!(out["tally"], json!({"NS": tally(Team::NS), "EW": tally(Team::EW)}));
        match game.result().unwrap().going_on {
            Some(on) => {
                let expected = json!({"team": on.team.to_string(), "strokes": on.strokes, "outright": on.outright});
                assert_eq!(out["going_on"], expected, "seed {seed}");
                seen[on.strokes as usize - 1] = true;
            }
            None => {
                assert_eq!(out["going_on"], json!(null));
                seen[2] = true;
            }
        }
    }
    assert_eq!(seen, [true; 3], "one stroke, two strokes and old play each came up");
    let (code, _, err) = kj(&[
        "deal",
        "--rules",
        "klawerjas",
        "--dealer",
        "N",
        "--actions",
        "7C",
        "--last-card",
        "7C",
        "--carry",
        "100,3",
    ]);
    assert_eq!(
        (code, err.trim()),
        (2, "kj: --carry: expected the points of NS and EW, each under 100, e.g. 62,79, not '100,3'")
    );
    let (code, _, err) = kj(&["deal", "--rules", "amsterdam", "--dealer", "N", "--actions", "7C", "--last-card", "7C"]);
    assert_eq!(
        (code, err.trim()),
        (2, "kj: --last-card: in these rules the last card dealt does not make trump (bidding=last-card)")
    );
    let (code, _, err) = kj(&["deal", "--rules", "klawerjas", "--dealer", "N", "--actions", "7C"]);
    assert_eq!(
        (code, err.trim()),
        (2, "kj: --last-card: the last card dealt makes trump in these rules: name it, e.g. --last-card 7C")
    );
}

/// A seeded deal with West dealing, played out by random legal actions;
/// `None` when the cards were thrown in.
fn played_out(rules: Rules, seed: u64) -> Option<Game> {
    let mut game = Game::new(rules, Deal::shuffled_for(&rules, seed, Seat::West)).unwrap();
    let mut rng = Rng::new(seed);
    while game.to_act().is_some() {
        let legal = game.legal_actions();
        game.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
    }
    (game.phase() != Phase::ThrownIn).then_some(game)
}

/// At three the trump maker takes the talon and lays two cards away; they
/// go to whoever wins the last trick, and each player scores alone.
#[test]
fn three_players_lay_away_to_the_last_tricks_winner() {
    let rules = Rules::three();
    let mut checked = 0;
    for seed in 0..40u64 {
        let Some(game) = played_out(rules, seed) else { continue };
        let deal = *game.deal();
        let list: Vec<String> = game.actions().iter().map(|a| a.to_string()).collect();
        let list = list.join(", ");
        let hands: Vec<String> = Seat::ALL.iter().map(|&s| format!("{}:{}", s.letter(), deal.hand(s))).collect();
        let hands = hands.join(" ");
        let out = kj_json(&["deal", "--rules", "three", "--dealer", "W", "--hands", &hands, "--actions", &list]);
        let trump = game.contract().unwrap().trump;
        let laid_away: Vec<String> = game.discards().iter().map(|c| c.to_string()).collect();
        assert_eq!(out["laid_away"], json!(laid_away));
        let last = game.tricks().last().unwrap().winner;
        let won: u16 = game.tricks().iter().filter(|t| t.winner == last).map(|t| t.points).sum();
        let with_talon = won + rules.card_values.set_points(game.discards(), trump);
        assert_eq!(out["players"][last.to_string()]["points"], json!(with_talon), "seed {seed}");
        let total: u64 = ["E", "S", "W"].iter().map(|s| out["players"][s]["points"].as_u64().unwrap()).sum();
        assert_eq!(total, 162);
        checked += 1;
    }
    assert!(checked > 20, "{checked} deals played out");
    // The talon cannot be read from the play: the hands must be given.
    let (code, _, err) = kj(&["deal", "--rules", "three", "--dealer", "W", "--actions", "pass"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("talon"), "{err}");
    // A card laid away must come from hand and talon.
    let deal = Deal::shuffled_for(&rules, 3, Seat::West);
    let hands: Vec<String> = Seat::ALL.iter().map(|&s| format!("{}:{}", s.letter(), deal.hand(s))).collect();
    let foreign = deal.hand(Seat::West).first().unwrap().to_string();
    let list = format!("hearts, discard {foreign}");
    let (code, _, err) =
        kj(&["deal", "--rules", "three", "--dealer", "W", "--hands", &hands.join(" "), "--actions", &list]);
    assert_ne!(code, 0);
    assert!(err.contains("action 2 (East: discard"), "{err}");
}

/// Klaberjass (003): the second player must win the trick if able, and
/// `kj deal` names the rule; the hands carry the second deal (`+`) and
/// the turned and bottom cards at North.
#[test]
fn klaberjass_second_player_is_forced_to_win() {
    let hands = "S:AH KH QH JH 7S QS +9D +TD +JD W:7C 8C JC 9S KS AD +QC +KC +AC N:9C 7D";
    let deal = ["deal", "--rules", "klaberjass", "--dealer", "W", "--hands", hands, "--actions"];
    let (code, _, err) = kj(&[&deal[..], &["pass, play, announce, QS, 9S"]].concat());
    assert_eq!(code, 1, "a rule refused: {err}");
    assert!(err.contains("action 5 (West: 9S): You must win the trick if you can"), "{err}");
    // Void in the led suit, West must trump.
    let (code, _, err) = kj(&[&deal[..], &["pass, play, AH, AD"]].concat());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("You cannot follow hearts: you must trump"), "{err}");
    // Played out: the two players share the points of the eighteen cards
    // played and the last trick.
    let rules = Rules::klaberjass();
    let mut checked = 0;
    for seed in 0..30u64 {
        let Some(game) = played_out(rules, seed) else { continue };
        let deal = *game.deal();
        let stock = deal.stock.unwrap();
        let hand = |s: Seat| {
            let cards: Vec<String> = deal
                .hand(s)
                .iter()
                .map(|c| if stock.later.contains(c) { format!("+{c}") } else { c.to_string() })
                .collect();
            format!("{}:{}", s.letter(), cards.join(" "))
        };
        let hands = format!("{} {} N:{} {}", hand(Seat::South), hand(Seat::West), stock.turned, stock.bottom);
        let list: Vec<String> = game.actions().iter().map(|a| a.to_string()).collect();
        let out = kj_json(&[
            "deal",
            "--rules",
            "klaberjass",
            "--dealer",
            "W",
            "--hands",
            &hands,
            "--actions",
            &list.join(", "),
        ]);
        let each = game.result().unwrap().players.unwrap();
        for s in [Seat::South, Seat::West] {
            assert_eq!(out["players"][s.to_string()]["points"], json!(each.points[s.index()]), "seed {seed}");
            assert_eq!(out["players"][s.to_string()]["score"], json!(each.score[s.index()]), "seed {seed}");
        }
        checked += 1;
    }
    assert!(checked > 15, "{checked} deals played out");
    // The stock cannot be read from the play.
    let (code, _, err) = kj(&["deal", "--rules", "klaberjass", "--dealer", "W", "--actions", "pass"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("stock"), "{err}");
}

/// `kj stats` prints the profile's numbers; a missing one is no deals, a
/// damaged or newer one exits 2 naming the file.
#[test]
fn stats_reads_the_games_profile() {
    use klaverjas_ai::progress::{Kind, Profile};
    let dir = std::env::temp_dir().join(format!("kj-stats-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let (code, out, _) = kj(&["stats", "--data-dir", d]);
    assert_eq!((code, out.trim()), (0, "No deals counted yet."));
    // Two deals of one seat, and their reviews.
    let rules = Preset::Classic.rules();
    let mut profile = Profile::default();
    for seed in [3, 4] {
        let mut game = Game::new(rules, Deal::shuffled_for(&rules, seed, Seat::West)).unwrap();
        while game.result().is_none() {
            let legal = game.legal_actions();
            let pick = legal.iter().find(|a| !matches!(a, Action::ClaimRoem | Action::Bid(Bid::Double))).unwrap();
            game.apply(*pick).unwrap();
        }
        profile.note_deal(&game, Seat::South, klaverjas_ai::Level::Expert, Kind::Counted);
        let review = klaverjas_ai::coach::Reviewer::new(
            Game::new(rules, *game.deal()).unwrap(),
            game.actions().to_vec(),
            Seat::South,
            1,
        )
        .finish()
        .unwrap();
        profile.note_review(&game, &review, Kind::Counted, 1);
    }
    std::fs::write(dir.join("profile.ron"), ron::to_string(&profile).unwrap()).unwrap();
    let v = kj_json(&["stats", "--data-dir", d]);
    let t = &profile.rows[0].tally;
    assert_eq!(v["rows"][0]["preset"], "classic");
    assert_eq!(v["rows"][0]["bots"], "expert");
    assert_eq!(v["rows"][0]["tally"]["deals"], 2);
    assert_eq!(v["rows"][0]["tally"]["deals_won"], t.deals_won);
    assert_eq!(v["rows"][0]["tally"]["points"], t.points);
    assert_eq!(v["curve"]["counted"]["deals"], 2);
    let (you, expert) = profile.average(Kind::Counted, None).unwrap();
    assert_eq!(v["curve"]["counted"]["all"], json!({"you": you, "expert": expert}));
    let (code, out, _) = kj(&["stats", "--data-dir", d]);
    assert_eq!(code, 0);
    assert!(out.contains("classic against expert bots, counted:"), "{out}");
    assert!(out.contains(&format!("deals   2 (won {}, lost {})", t.deals_won, t.deals_lost)), "{out}");
    std::fs::write(dir.join("profile.ron"), "(format: 1, rows: [(pre").unwrap();
    let (code, _, err) = kj(&["stats", "--data-dir", d]);
    assert_eq!(code, 2);
    assert!(err.contains("profile.ron") && err.contains("damaged"), "{err}");
    std::fs::write(dir.join("profile.ron"), "(format: 7)").unwrap();
    let (code, _, err) = kj(&["stats", "--data-dir", d]);
    assert_eq!(code, 2);
    assert!(err.contains("newer"), "{err}");
    let (code, _, err) = kj(&["stats", "--data-dir", dir.join("nowhere").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not a folder"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kj daily`: the day's first deal is `kj code`'s for the documented
/// seed; a friend's line of the same day is read beside the expert's,
/// another day's or a damaged one is refused in one line, and so is a
/// day still to come.
#[test]
fn the_deals_of_a_day_reproduce_and_a_shared_line_reads_back() {
    let day = kj_json(&["daily", "--date", "2026-11-26", "--rules", "classic"]);
    let deals = day["deals"].as_array().unwrap();
    assert_eq!(deals.len(), 4);
    let seed = day["seed"].as_u64().unwrap();
    let first_seed = klaverjas::session::deal_seed(seed, 0).to_string();
    let code = kj_json(&["code", "--seed", &first_seed, "--dealer", "N", "--rules", "classic"]);
    assert_eq!(code["code"], deals[0]["code"]);
    let expert = day["expert"].as_u64().unwrap();
    let sum: u64 = deals.iter().map(|d| d["expert"].as_u64().unwrap()).sum();
    assert_eq!(expert, sum);

    let line = format!(
        "Klaverjas 2026-11-26 classic with heuristic bots: 300 / expert {expert}, 2 of 4 deals at least the expert's ✅❌✅❌"
    );
    let read = kj_json(&["daily", "--date", "2026-11-26", "--result", &format!("Ann: {line}")]);
    assert_eq!(read["result"]["points"], 300);
    assert_eq!(read["result"]["at_least"], 2);
    let (status, _, err) = kj(&["daily", "--date", "2026-11-25", "--result", &line]);
    assert_eq!(status, 2);
    assert_eq!(
        err.trim(),
        "kj: --result: that line is of 2026-11-26 classic with heuristic bots, not of 2026-11-25 classic with heuristic bots"
    );
    let (status, _, err) = kj(&["daily", "--date", "2026-11-26", "--result", "well played!"]);
    assert_eq!((status, err.trim()), (2, "kj: --result: not a Klaverjas result of the day"));
    let (status, _, err) = kj(&["daily", "--date", "2999-01-01"]);
    assert_eq!(status, 2);
    assert!(err.starts_with("kj: --date: 2999-01-01 is still to come"), "{err}");
}

/// `kj score`: a sheet of deals entered by hand, scored by the engine.
#[test]
fn score_adds_up_a_sheet_and_names_what_cannot_be() {
    let sheet = kj_json(&[
        "score",
        "--rules",
        "classic",
        "--deals",
        "S H 102 roem 20/0; W C 70 roem 0/50; N S 162 pit roem 40/0; E D 90 revoke NS",
    ]);
    // Made (102+20 against 60), made by EW (70+50 against 92), a pit
    // (162 + 40 + 100), a revoke by NS (162 to EW).
    assert_eq!(sheet["totals"], serde_json::json!({ "NS": 122 + 92 + 302, "EW": 60 + 120 + 162 }));
    assert_eq!(sheet["deals"][2]["pit"], "NS");
    assert_eq!(sheet["deals"][3]["revoke"], "NS");
    let nat = kj_json(&["score", "--deals", "S H 81"]);
    assert_eq!((nat["deals"][0]["nat"].as_bool(), nat["totals"]["EW"].as_u64()), (Some(true), Some(162)));
    let (code, _, err) = kj(&["score", "--deals", "S H 163"]);
    assert_eq!((code, err.trim()), (1, "kj: deal 1 (S H 163): 163 card points: a deal has 162"));
    let (code, _, err) = kj(&["score", "--deals", "S H 100; S H 1x"]);
    assert_eq!((code, err.trim()), (2, "kj: --deals, deal 2: unknown card points '1x'"));
}

/// `kj score` of a boem: each hand with what the sides bring from the
/// game's earlier hands, the strokes, who leads by them.
#[test]
fn score_keeps_a_boem_hand_by_hand() {
    let deals = "N C 70; E H 30 others 10 out EW; S D 100 others 20 out NS; W S 0 others 0 roem 0/100 outright EW";
    let sheet = kj_json(&["score", "--rules", "klawerjas", "--deals", deals]);
    // 70 against 76: nobody at 100, old play; EW 76 + 30 goes on against
    // NS's 80 (one stroke); NS 100 in a new game against 20 (two); EW's
    // outright win (two).
    assert_eq!(sheet["strokes"], serde_json::json!({ "NS": 2, "EW": 3 }));
    assert_eq!(sheet["deals"][1]["went_on"], serde_json::json!({ "team": "EW", "strokes": 1 }));
    assert_eq!(sheet["ahead"], "EW");
    assert_eq!(sheet["totals"], serde_json::json!({ "NS": 70 + 10 + 100, "EW": 76 + 30 + 20 + 100 }));
    let (code, _, err) = kj(&["score", "--rules", "klawerjas", "--deals", "N C 60 roem 0/20"]);
    assert_eq!((code, err.trim()), (1, "kj: deal 1 (N C 60 roem 0/20): EW counts 106: say who went on"));
}
