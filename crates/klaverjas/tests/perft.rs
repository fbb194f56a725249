//! Perft: the number of legal play sequences to a given depth from fixed
//! seeded deals, per preset, kept in `perft.txt` as a regression net for the
//! move generator (as chess engines do). A second, deliberately plain
//! implementation of RULES section 4 checks the fast generator on random
//! positions, so the counts rest on more than the generator itself.
//!
//! After an intended change of the rules, rewrite the file with
//! `KJ_PERFT_BLESS=1 cargo test -p klaverjas --test perft` and review the diff.

use klaverjas::*;

/// The starting position of a perft line: a seeded deal, North deals
/// (West at three and two, where North's chair holds the talon or the
/// stock, which stays aside), trump by the seed, the first seat after
/// North leads (East, or South at two).
fn start(preset: Preset, seed: u64) -> PlayState {
    let rules = preset.rules();
    let mut hands = match rules.players {
        Players::Four => Deal::shuffled(seed, Seat::North).hands,
        Players::Three | Players::Two => Deal::shuffled_for(&rules, seed, Seat::West).hands,
    };
    if !rules.players.seats_at(Seat::North) {
        hands[Seat::North.index()] = CardSet::EMPTY;
    }
    let leader = rules.players.next(Direction::Clockwise, Seat::North);
    PlayState::new(hands, Suit::from_index(seed as usize), leader, &rules)
}

fn perft(state: &PlayState, depth: u32) -> u64 {
    if depth == 0 || state.is_over() {
        return 1;
    }
    let legal = state.legal();
    if depth == 1 {
        return legal.len() as u64;
    }
    legal
        .iter()
        .map(|card| {
            let mut next = *state;
            next.play_unchecked(card);
            perft(&next, depth - 1)
        })
        .sum()
}

/// The same count through the full `Game` state machine.
fn perft_game(game: &Game, depth: u32) -> u64 {
    if depth == 0 || game.to_act().is_none() {
        return 1;
    }
    game.legal_actions()
        .into_iter()
        .map(|action| {
            let mut next = game.clone();
            next.apply(action).unwrap();
            // Roem calls are not plays: automatic presets have none.
            perft_game(&next, depth - 1)
        })
        .sum()
}

/// The regression file, compiled in so that a build cached from a checkout
/// elsewhere still reads this one's.
const EXPECTED: &str = include_str!("perft.txt");
const MAX_DEPTH: u32 = 12;

#[test]
fn perft_counts_match_the_regression_file() {
    let mut lines = Vec::new();
    for preset in Preset::ALL {
        for seed in [1u64, 2, 3, 4] {
            let state = start(preset, seed);
            for depth in 1..=MAX_DEPTH {
                lines.push(format!("{} {seed} {depth} {}", preset.name(), perft(&state, depth)));
            }
        }
    }
    if std::env::var_os("KJ_PERFT_BLESS").is_some() {
        let header = "# preset seed depth count: legal card sequences from Deal::shuffled(seed, North)\n\
                      # (three, klaberjass: Deal::shuffled_for(preset, seed, West), talon or stock aside),\n\
                      # trump Suit::from_index(seed), East (South at two) leading. Written by KJ_PERFT_BLESS=1.\n";
        let crate_dir = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo test sets CARGO_MANIFEST_DIR");
        let file = std::path::Path::new(&crate_dir).join("tests/perft.txt");
        std::fs::write(file, header.to_string() + &lines.join("\n") + "\n").unwrap();
        return;
    }
    let expected: Vec<&str> = EXPECTED.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    assert_eq!(expected, lines, "perft counts changed");
}

#[test]
fn game_and_play_state_count_the_same() {
    for preset in [Preset::Amsterdam, Preset::Rotterdam, Preset::Three] {
        for seed in [1u64, 2] {
            let dealer = if preset == Preset::Three { Seat::West } else { Seat::North };
            let deal = Deal::shuffled_for(&preset.rules(), seed, dealer);
            let trump = Suit::from_index(seed as usize);
            // These presets count roem automatically: no claims.
            let game =
                Game::with_contract(preset.rules(), deal, Contract { trump, declarer: Seat::East, forced: false })
                    .unwrap();
            assert_eq!(perft_game(&game, 5), perft(&start(preset, seed), 5), "{preset} seed {seed}");
        }
    }
}

/// RULES section 4 written out plainly, card by card, with the rank orders
/// spelled as strings. Slow and obvious on purpose.
fn reference_legal(hand: &[Card], trick: &[Card], trump: Suit, f: &Following) -> Vec<Card> {
    const PLAIN: &str = "789JQKTA"; // low to high
    const TRUMP: &str = "78QKTA9J";
    let strength = |c: &Card, led: Suit| -> i32 {
        let letter = c.to_string().chars().next().unwrap();
        if c.suit() == trump {
            100 + TRUMP.find(letter).unwrap() as i32
        } else if c.suit() == led {
            PLAIN.find(letter).unwrap() as i32
        } else {
            -1
        }
    };
    let Some(first) = trick.first() else { return hand.to_vec() };
    let led = first.suit();
    let winner = (0..trick.len()).max_by_key(|&i| strength(&trick[i], led)).unwrap();
    let highest_trump = trick.iter().filter(|c| c.suit() == trump).max_by_key(|c| strength(c, led));
    let beats_table = |c: &Card| highest_trump.is_none_or(|h| strength(c, led) > strength(h, led));
    let of = |pred: &dyn Fn(&Card) -> bool| hand.iter().copied().filter(|c| pred(c)).collect::<Vec<_>>();
    let same = of(&|c| c.suit() == led);
    let trumps = of(&|c| c.suit() == trump);
    // An undertrump: a trump that does not beat the table's, from a hand
    // that holds something else.
    let undertrump = |c: &Card| c.suit() == trump && !beats_table(c) && trumps.len() < hand.len();
    if led == trump {
        if same.is_empty() {
            return hand.to_vec();
        }
        // South Africa: the jack of trumps, alone, need not come out.
        if f.jack_never_forced && same.len() == 1 && same[0] == Card::new(trump, Rank::Jack) {
            return hand.to_vec();
        }
        let higher = of(&|c| c.suit() == trump && beats_table(c));
        if f.trump_lead_overtrump && !higher.is_empty() {
            return higher;
        }
        return same;
    }
    let no_undertrump = f.undertrump == Undertrump::Forbidden && highest_trump.is_some();
    // South Africa: follow suit or trump, as the player likes.
    if f.trump_instead_of_following && !same.is_empty() {
        return of(&|c| c.suit() == led || (c.suit() == trump && !(no_undertrump && undertrump(c))));
    }
    if !same.is_empty() {
        return same;
    }
    // South Africa: void, any card but an undertrump.
    if f.free_when_void {
        return of(&|c| !(no_undertrump && undertrump(c)));
    }
    if trumps.is_empty() {
        return hand.to_vec();
    }
    // The player to act sits trick.len() places after the leader; the
    // partner played two cards before.
    let partner_winning = trick.len() >= 2 && winner == trick.len() - 2;
    if f.partner_exemption && partner_winning {
        // No undertrumping: a lower trump only from a hand of lower trumps.
        let no_lower_trump = of(&|c| c.suit() != trump || beats_table(c));
        if f.undertrump == Undertrump::Forbidden && highest_trump.is_some() && !no_lower_trump.is_empty() {
            return no_lower_trump;
        }
        return hand.to_vec();
    }
    if highest_trump.is_none() {
        return trumps;
    }
    let higher = of(&|c| c.suit() == trump && beats_table(c));
    if !higher.is_empty() {
        return higher;
    }
    match f.undertrump {
        Undertrump::Forbidden if trumps.len() == hand.len() => hand.to_vec(),
        Undertrump::Forbidden => of(&|c| c.suit() != trump),
        Undertrump::Allowed => hand.to_vec(),
        Undertrump::Forced => trumps,
    }
}

#[test]
fn fast_generator_agrees_with_the_plain_reading() {
    let mut checked = 0;
    let mut followings = Vec::new();
    for exemption in [false, true] {
        for undertrump in [Undertrump::Forbidden, Undertrump::Allowed, Undertrump::Forced] {
            for trump_lead_overtrump in [false, true] {
                let dutch = Following::dutch(exemption, undertrump, trump_lead_overtrump);
                followings.push(dutch);
                // Each South African freedom on a Dutch base.
                followings.push(Following { trump_instead_of_following: true, ..dutch });
                followings.push(Following { free_when_void: true, ..dutch });
                followings.push(Following { jack_never_forced: true, ..dutch });
            }
        }
    }
    followings.push(Following::south_african());
    let configurations = followings.len();
    for following in followings {
        let rules = Rules { following, ..Rules::classic() };
        let mut rng = Rng::new(checked as u64 + 11);
        for seed in 0..300u64 {
            let deal = Deal::shuffled(seed, Seat::West);
            let trump = Suit::from_index(rng.below(4) as usize);
            let mut state = PlayState::new(deal.hands, trump, Seat::North, &rules);
            while !state.is_over() {
                let seat = state.to_act();
                let hand: Vec<Card> = state.hands[seat.index()].iter().collect();
                let expected: CardSet =
                    reference_legal(&hand, state.trick.cards(), trump, &rules.following).into_iter().collect();
                assert_eq!(
                    state.legal(),
                    expected,
                    "hand {} on {:?}, trump {trump}, {:?}",
                    state.hands[seat.index()],
                    state.trick.cards(),
                    rules.following
                );
                checked += 1;
                state.play_unchecked(rng.pick(expected).unwrap());
            }
        }
    }
    assert_eq!(checked, configurations * 300 * 32);
}

/// Positions the rules text settles, with the legal cards it allows: both
/// generators must agree with it. North leads; the hand is the next
/// player's to act.
const SETTLED: &[(Preset, Suit, &str, &str, &str)] = &[
    // RULES section 4 (001 line 11): the partner wins with a trump, the
    // hand is all trumps and one beats the table: only that one.
    (Preset::Amsterdam, Suit::Spades, "KS JS", "QH 9S AH", "JS"),
    (Preset::Amsterdam, Suit::Spades, "KS 7S", "QH 9S AH", "7S KS"),
    (Preset::Amsterdam, Suit::Spades, "7C QS JS", "KH 9S 7D", "7C JS"),
    (Preset::Classic, Suit::Spades, "KS JS", "QH 9S AH", "JS KS"),
    (Preset::Rotterdam, Suit::Spades, "KS JS", "QH 9S AH", "JS"),
    (Preset::Amsterdam, Suit::Hearts, "JH 7H AC", "9H", "JH"),
    (Preset::Classic, Suit::Hearts, "JH 7H AC", "9H", "7H JH"),
];

#[test]
fn settled_positions_follow_the_rules_text() {
    let set = |s: &str| CardSet::parse(s).unwrap();
    for &(preset, trump, hand, trick, legal) in SETTLED {
        let following = preset.rules().following;
        let on = CardSet::parse_list(trick).unwrap();
        let fast = legal_cards(set(hand), &Trick::from_cards(Seat::North, trump, &on), trump, &following).0;
        let hand_cards = CardSet::parse_list(hand).unwrap();
        let plain: CardSet = reference_legal(&hand_cards, &on, trump, &following).into_iter().collect();
        assert_eq!(fast.to_string(), legal, "{preset}: {hand} on {trick}");
        assert_eq!(plain.to_string(), legal, "plain reading, {preset}: {hand} on {trick}");
    }
}
