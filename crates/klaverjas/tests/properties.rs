//! Properties that must hold for every deal: random seeded deals played out
//! by random legal players under every preset and option combination.

use klaverjas::*;
use proptest::prelude::{Just, ProptestConfig, Strategy, any, prop, prop_assert, prop_assert_eq, prop_oneof, proptest};

/// Every combination of the following options, and of the roem options,
/// on top of each preset.
fn all_rules() -> Vec<Rules> {
    let mut out: Vec<Rules> = Preset::ALL.iter().map(|p| p.rules()).collect();
    // South African following, and each of its freedoms alone.
    let sa = Following::south_african();
    for following in [
        sa,
        Following { trump_instead_of_following: true, ..Rules::classic().following },
        Following { free_when_void: true, ..Rules::amsterdam().following },
        Following { jack_never_forced: true, ..Rules::rotterdam().following },
    ] {
        out.extend(Preset::ALL.iter().map(|p| Rules { following, ..p.rules() }));
    }
    for roem_table in RoemTable::ALL {
        for roem_claim in [RoemClaim::Manual, RoemClaim::Automatic] {
            out.extend(Preset::ALL.iter().map(|p| Rules { roem_table, roem_claim, ..p.rules() }));
        }
    }
    // Roem from the hands, under every table.
    for roem_table in RoemTable::ALL {
        out.extend(Preset::ALL.iter().map(|p| Rules { roem_source: RoemSource::Hand, roem_table, ..p.rules() }));
    }
    // South African cards and play going anti-clockwise, each alone and
    // together, with a last trick of 5.
    for (card_values, direction) in [
        (CardValues::SouthAfrican, Direction::Clockwise),
        (CardValues::Dutch, Direction::AntiClockwise),
        (CardValues::SouthAfrican, Direction::AntiClockwise),
    ] {
        out.extend(Preset::ALL.iter().map(|p| Rules {
            card_values,
            direction,
            last_trick_bonus: 5,
            following: sa,
            ..p.rules()
        }));
        out.extend(Preset::ALL.iter().map(|p| Rules { card_values, direction, ..p.rules() }));
    }
    // Trump by the last card dealt, and the boem's race, on top of every
    // preset.
    for p in Preset::ALL {
        out.push(Rules { bidding: Bidding::LastCardDealt, ..p.rules() });
        out.push(Rules { match_length: MatchLength::STANDARD_BOEM, ..p.rules() });
    }
    // Kraken, with spades counting double, under every way of bidding.
    for bidding in Bidding::ALL {
        out.extend(Preset::ALL.iter().map(|p| Rules { bidding, kraken: true, spades_double: true, ..p.rules() }));
    }
    for exemption in [false, true] {
        for undertrump in [Undertrump::Forbidden, Undertrump::Allowed, Undertrump::Forced] {
            for trump_lead_overtrump in [false, true] {
                for bidding in [Bidding::TurnedCard, Bidding::FreeChoice, Bidding::DealerFirst, Bidding::Mandatory] {
                    out.push(Rules {
                        bidding,
                        following: Following::dutch(exemption, undertrump, trump_lead_overtrump),
                        ..Rules::classic()
                    });
                }
            }
        }
    }
    out
}

/// A seated dealer, by the seed.
fn dealer(rules: &Rules, seed: u64) -> Seat {
    let seats = rules.players.seats();
    seats[seed as usize % seats.len()]
}

/// A seeded deal for `rules`.
fn deal(rules: &Rules, seed: u64) -> Deal {
    Deal::shuffled_for(rules, seed, dealer(rules, seed))
}

/// Plays a whole deal with random legal actions, checking the invariants
/// after every step. Returns the finished game; a hand thrown in is dealt
/// again from the next seed.
fn play_random(rules: Rules, seed: u64) -> Game {
    let game = play_random_once(rules, seed);
    if game.phase() == Phase::ThrownIn { play_random(rules, seed + 1_000_003) } else { game }
}

fn play_random_once(rules: Rules, seed: u64) -> Game {
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut game = Game::new(rules, deal(&rules, seed)).unwrap();
    let mut steps = 0;
    while let Some(seat) = game.to_act() {
        let legal = game.legal_actions();
        assert!(!legal.is_empty(), "no legal action for {seat} in {:?}", game.phase());
        assert_view_hides_other_hands(&game);
        let action = legal[rng.below(legal.len() as u32) as usize];
        game.apply(action).unwrap_or_else(|e| panic!("legal action {action} refused: {e}"));
        steps += 1;
        assert!(steps < 100, "deal does not end");
    }
    game
}

/// A view's serialised form names no card that its seat may not know:
/// only its own hand and cards already played.
fn assert_view_hides_other_hands(game: &Game) {
    for seat in Seat::ALL {
        let view = game.view(seat);
        assert_eq!(view.hand, game.hand(seat));
        let face_up = view.face_up.into_iter().collect::<CardSet>();
        // Klaberjass: the turned card, the bottom card once dealt, and the
        // seven of trumps laid under the stock for the turned card.
        let mut shown: CardSet = game.turned_card().into_iter().chain(game.bottom_card()).collect();
        if let (Some(turned), Some(_)) = (game.turned_card(), game.swapped()) {
            shown.insert(Card::new(turned.suit(), Rank::Seven));
        }
        let allowed = view.hand.union(view.played()).union(face_up).union(view.discards).union(shown);
        let json = serde_json::to_value(&view).unwrap();
        let mut named = CardSet::EMPTY;
        collect_cards(&json, &mut named);
        assert!(named.is_subset(allowed), "{seat}'s view names {} that it cannot know", named.minus(allowed));
        // Cards still out are exactly the other hands together, and at
        // three the talon still lying there or another's discards.
        let others: CardSet =
            Seat::ALL.iter().filter(|&&s| s != seat).map(|&s| game.hand(s)).fold(CardSet::EMPTY, CardSet::union);
        let talon =
            if matches!(game.phase(), Phase::Bidding | Phase::ThrownIn) { game.deal().talon() } else { CardSet::EMPTY };
        let maker = game.contract().is_some_and(|c| c.declarer == seat);
        let laid_away = if maker { CardSet::EMPTY } else { game.discards() };
        if game.deal().stock.is_some() {
            // Two players: the other hand and the stock, but what it shows.
            assert_eq!(view.unseen(), CardSet::ALL.minus(view.hand).minus(view.played()).minus(shown));
            let stock = game.deal().first_hands()[Seat::North.index()].union(game.deal().hand(Seat::North));
            assert!(view.unseen().is_subset(others.union(stock)));
            continue;
        }
        assert_eq!(view.unseen(), others.union(talon).union(laid_away));
        if !maker {
            assert!(view.discards.is_empty());
        }
    }
}

fn collect_cards(v: &serde_json::Value, out: &mut CardSet) {
    match v {
        serde_json::Value::String(s) => {
            if let Ok(c) = s.parse::<Card>() {
                out.insert(c);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect_cards(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| collect_cards(x, out)),
        _ => {}
    }
}

#[test]
fn every_deal_ends_after_eight_tricks_with_all_its_points() {
    for (i, rules) in all_rules().into_iter().enumerate() {
        for seed in 0..20u64 {
            let game = play_random(rules, seed * 97 + i as u64);
            let r = game.result().unwrap();
            let played: Vec<Card> = game.tricks().iter().flat_map(|t| t.played().iter().copied()).collect();
            let set: CardSet = played.iter().copied().collect();
            assert_eq!(set.len() as usize, played.len(), "each card at most once");
            let trick_points: u16 = game.tricks().iter().map(|t| t.points).sum();
            // The cards laid away go with the last trick, if it is played.
            let last_played = game.tricks().len() == rules.tricks_per_deal() as usize;
            let laid_away = match game.contract() {
                Some(c) if last_played => rules.card_values.set_points(game.discards(), c.trump),
                _ => 0,
            };
            assert_eq!(r.points.ns + r.points.ew, trick_points + laid_away, "{rules:?}");
            assert_eq!((r.tricks.ns + r.tricks.ew) as usize, game.tricks().len());
            if let Some(on) = r.going_on {
                // A side went on the boem: the hand ended there.
                assert!(rules.races_to_the_boem());
                assert!(on.outright || game.tally(on.team) >= BOEM_TARGET);
                assert!(game.tricks().len() <= rules.tricks_per_deal() as usize);
                continue;
            }
            assert_eq!(game.tricks().len(), rules.tricks_per_deal() as usize);
            let all = if rules.players == Players::Two {
                // The stock's fourteen are never played: the deal is worth
                // the cards played and the last trick.
                assert_eq!(set.len(), 18);
                let trump = r.contract.trump;
                assert!(!set.contains(game.bottom_card().unwrap()), "the bottom card stays in the stock");
                rules.card_values.set_points(set, trump) + rules.last_trick_bonus
            } else {
                assert_eq!(set.union(game.discards()), CardSet::ALL, "each card exactly once");
                rules.deal_points()
            };
            assert_eq!(trick_points + laid_away, all);
            if let Some(each) = r.players {
                // Everyone alone: all points are someone's, and the sheet
                // gives each what they won, or the maker nothing and each
                // other player everything.
                let roem: u16 = each.roem.iter().sum();
                assert_eq!(each.points.iter().sum::<u16>(), all);
                let on_sheet: u16 = each.score.iter().sum();
                let everything = (all + roem) * r.stakes.multiplier;
                let others = rules.players.count() as u16 - 1;
                assert_eq!(on_sheet, if r.nat { others * everything } else { everything });
                assert_eq!(r.nat, each.score[r.contract.declarer.index()] == 0);
                continue;
            }
            // What a team scores is either what it won or nothing / all.
            let all_roem = r.roem.ns + r.roem.ew;
            let total = r.final_score().ns + r.final_score().ew;
            let pit = if r.pit_bonus.is_some() { 100 } else { 0 };
            assert_eq!(total, (all + all_roem + pit) * r.stakes.multiplier);
            assert_eq!(r.stakes, game.stakes());
            // Every card's player held it in the deal.
            for t in game.tricks() {
                for (seat, card) in t.plays() {
                    let swapped = game.swapped() == Some(seat) && game.turned_card() == Some(card);
                    assert!(game.deal().hand(seat).contains(card) || swapped);
                }
            }
            assert!(game.discards().is_empty());
        }
    }
}

#[test]
fn serialised_games_replay_to_the_same_state() {
    let kraken = Rules { kraken: true, ..Rules::classic() };
    for rules in Preset::ALL.map(|p| p.rules()).into_iter().chain([kraken]) {
        for seed in 0..30u64 {
            let finished = play_random(rules, seed);
            // Cut the game at every point and round-trip it.
            let actions = finished.actions().to_vec();
            let mut game = Game::new(rules, *finished.deal()).unwrap();
            for action in actions {
                let json = serde_json::to_string(&game).unwrap();
                let back: Game = serde_json::from_str(&json).unwrap();
                assert_eq!(back, game);
                assert_eq!(back.view(Seat::South), game.view(Seat::South));
                game.apply(action).unwrap();
            }
            assert_eq!(&game, &finished);
        }
    }
}

#[test]
fn newer_or_tampered_records_are_refused() {
    let game = play_random(Rules::classic(), 3);
    let mut record = game.record();
    record.format = GameRecord::FORMAT + 1;
    let json = serde_json::to_string(&record).unwrap();
    let err = serde_json::from_str::<Game>(&json).unwrap_err().to_string();
    assert!(err.contains("newer version"), "{err}");
    let mut record = game.record();
    // Swap two plays: the replay meets a card out of turn or against a rule.
    let n = record.actions.len();
    record.actions.swap(n - 1, n - 6);
    assert!(Game::from_record(&record).is_err());
}

#[test]
fn the_legal_set_is_what_check_accepts() {
    // For every card of the seat to act, `check` agrees with the legal set
    // and refuses with a message.
    for seed in 0..40u64 {
        let rules = all_rules()[seed as usize % 10];
        let mut rng = Rng::new(seed);
        let mut game = Game::new(rules, deal(&rules, seed)).unwrap();
        while let Some(seat) = game.to_act() {
            if game.phase() == Phase::Playing {
                let legal = game.legal_cards();
                for card in game.hand(seat) {
                    let ok = game.check(Action::Play(card));
                    assert_eq!(ok.is_ok(), legal.contains(card), "{card}: {ok:?}");
                    if let Err(e) = ok {
                        assert!(!e.to_string().is_empty());
                    }
                }
            }
            let legal = game.legal_actions();
            game.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
    }
}

/// Every action of every kind, for the checks below.
fn every_action() -> Vec<Action> {
    let mut all = vec![Action::ClaimRoem, Action::PassRoem, Action::Announce, Action::Swap];
    all.extend([Bid::Pass, Bid::Play, Bid::Double].map(Action::Bid));
    all.extend(Suit::ALL.map(|s| Action::Bid(Bid::Trump(s))));
    all.extend(CardSet::ALL.iter().map(Action::Play));
    all.extend(CardSet::ALL.iter().map(Action::Discard));
    all
}

/// Whatever the rules, `legal_actions` is exactly what `apply` accepts:
/// every bid, double, announcement, call and card, at every step (but a
/// "no roem" mid-deal, see below).
#[test]
fn legal_actions_are_exactly_what_apply_accepts() {
    let rules = all_rules();
    for seed in 0..60u64 {
        let rules = rules[(seed as usize * 7) % rules.len()];
        let mut rng = Rng::new(seed);
        let mut game = Game::new(rules, deal(&rules, seed)).unwrap();
        while game.to_act().is_some() {
            let legal = game.legal_actions();
            for action in every_action() {
                // "No roem" said aloud mid-deal is accepted but not offered:
                // the next card closes the call just the same.
                if action == Action::PassRoem && game.phase() == Phase::Playing {
                    continue;
                }
                let ok = game.check(action);
                assert_eq!(ok.is_ok(), legal.contains(&action), "{action} in {:?}: {ok:?}", game.phase());
            }
            game.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
    }
}

fn any_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (0u8..4).prop_map(|s| Action::Bid(Bid::Trump(Suit::from_index(s as usize)))),
        Just(Action::Bid(Bid::Pass)),
        Just(Action::Bid(Bid::Play)),
        Just(Action::Bid(Bid::Double)),
        Just(Action::Announce),
        Just(Action::Swap),
        (0usize..32).prop_map(|i| Action::Play(Card::from_index(i).unwrap())),
        (0usize..32).prop_map(|i| Action::Discard(Card::from_index(i).unwrap())),
        Just(Action::ClaimRoem),
        Just(Action::PassRoem),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Arbitrary action sequences never panic, and a refused action leaves
    /// the game exactly as it was.
    #[test]
    fn apply_never_panics(seed in any::<u64>(), preset in 0usize..Preset::ALL.len(), kraken in any::<bool>(), actions in prop::collection::vec(any_action(), 0..200)) {
        let roem_source = if seed % 2 == 0 { RoemSource::Table } else { RoemSource::Hand };
        let rules = Rules { kraken, roem_source, ..Preset::ALL[preset].rules() };
        let mut game = Game::new(rules, deal(&rules, seed)).unwrap();
        for action in actions {
            let before = game.clone();
            match game.apply(action) {
                Ok(events) => prop_assert!(!events.is_empty()),
                Err(e) => {
                    prop_assert_eq!(&game, &before);
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }

    /// Mostly-legal play with random mistakes mixed in still ends properly.
    #[test]
    fn mixed_play_reaches_the_score(seed in any::<u64>(), noise in prop::collection::vec(any_action(), 64)) {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(Rules::classic(), Deal::shuffled(seed, Seat::East)).unwrap();
        let mut i = 0;
        while game.to_act().is_some() && i < 400 {
            let _ = game.apply(noise[i % noise.len()]);
            let legal = game.legal_actions();
            if !legal.is_empty() {
                game.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            }
            i += 1;
        }
        prop_assert!(game.result().is_some());
    }
}

/// *Zonder roem*: nothing is ever called or counted as roem, whatever the
/// tricks hold, and the last trick ends the deal at once.
#[test]
fn without_roem_no_roem_is_called_or_counted() {
    for preset in Preset::ALL {
        let rules = Rules { roem_table: RoemTable::None, roem_claim: RoemClaim::Manual, ..preset.rules() };
        for seed in 0..200 {
            let mut rng = Rng::new(seed);
            let mut game = Game::new(rules, deal(&rules, seed)).unwrap();
            while game.to_act().is_some() {
                let legal = game.legal_actions();
                assert!(!legal.contains(&Action::ClaimRoem), "{preset} seed {seed}: a roem call offered");
                game.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            }
            if game.phase() == Phase::ThrownIn {
                continue;
            }
            assert_eq!(game.phase(), Phase::Done);
            assert_eq!(game.roem(), PerTeam::default(), "{preset} seed {seed}");
            assert!(game.tricks().iter().all(|t| t.roem.is_empty()));
        }
    }
}

/// Whether `text` names a card as the engine writes cards ("JH").
fn names_a_card(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w.parse::<Card>().is_ok_and(|c| c.to_string() == w))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// A seat acts only at its own turn. At any moment of any deal under
    /// any rules, every action of every kind from a seat not to act is
    /// refused, changes nothing, and is told with one refusal whatever the
    /// action and the hands: a refusal that named a rule for a card held
    /// and "does not hold" for one not held gave another seat's hand away.
    /// A roem call is the exception the rules make (either partner of the
    /// trick's winner): refused, it names no card.
    #[test]
    fn only_the_seat_to_act_acts(seed in any::<u64>(), pick in any::<usize>(), steps in 0usize..80) {
        let rules = all_rules();
        let rules = rules[pick % rules.len()];
        let mut rng = Rng::new(seed);
        let mut m = Match::new(rules, seed, dealer(&rules, seed));
        for _ in 0..steps {
            let Some(seat) = m.game().to_act() else { break };
            let legal = m.game().legal_actions();
            m.act(seat, legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
        let to_act = m.game().to_act();
        for &seat in rules.players.seats().iter().filter(|&&s| Some(s) != to_act) {
            for action in every_action() {
                let before = m.clone();
                let refused = m.act(seat, action);
                if refused.is_err() {
                    prop_assert_eq!(&m, &before, "a refused {} {} changed the table", seat, action);
                }
                match (action, refused) {
                    (Action::ClaimRoem, Ok(_)) => {
                        prop_assert!(before.game().may_call_roem(seat));
                        m = before;
                    }
                    (Action::ClaimRoem, Err(e)) => prop_assert!(!names_a_card(&e.to_string()), "{}: {}", seat, e),
                    (_, refused) => prop_assert_eq!(refused, Err(ActionError::NotYourTurn), "{} {}", seat, action),
                }
            }
        }
    }
}
