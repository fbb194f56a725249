//! The game state machine: bidding flows, roem claims, scoring through
//! play, deal codes and matches.

use klaverjas::*;

fn random_action(game: &Game, rng: &mut Rng) -> Action {
    let legal = game.legal_actions();
    legal[rng.below(legal.len() as u32) as usize]
}

/// Plays on with random legal actions until `stop` says so or the deal ends.
fn play_until(game: &mut Game, rng: &mut Rng, stop: impl Fn(&Game) -> bool) {
    while game.to_act().is_some() && !stop(game) {
        game.apply(random_action(game, rng)).unwrap();
    }
}

#[test]
fn all_pass_turns_the_second_card_and_forces_left_of_dealer() {
    let deal = Deal::shuffled(5, Seat::South);
    let mut game = Game::new(Rules::classic(), deal).unwrap();
    assert_eq!(game.turned_cards(), vec![deal.pile[0]]);
    let mut events = Vec::new();
    for seat in [Seat::West, Seat::North, Seat::East, Seat::South] {
        assert_eq!(game.to_act(), Some(seat));
        assert_eq!(game.legal_actions(), vec![Action::Bid(Bid::Pass), Action::Bid(Bid::Play)]);
        events = game.apply(Action::Bid(Bid::Pass)).unwrap();
    }
    assert_eq!(events[1], Event::SecondCardTurned { card: deal.pile[1] });
    let contract = Contract { trump: deal.pile[1].suit, declarer: Seat::West, forced: true };
    assert_eq!(events[2], Event::Contract(contract));
    assert_eq!(game.contract(), Some(contract));
    assert_eq!(game.turned_cards(), deal.pile.to_vec());
    // Play begins left of the dealer, whoever plays.
    assert_eq!(game.phase(), Phase::Playing);
    assert_eq!(game.to_act(), Some(Seat::West));
    for seat in Seat::ALL {
        assert_eq!(game.view(seat).turned, deal.pile.to_vec());
    }
}

#[test]
fn a_play_bid_makes_the_bidders_team_play() {
    let mut game = Game::new(Rules::classic(), Deal::shuffled(6, Seat::West)).unwrap();
    game.apply(Action::Bid(Bid::Pass)).unwrap(); // North
    let events = game.apply(Action::Bid(Bid::Play)).unwrap(); // East
    assert_eq!(events[0], Event::Bid { seat: Seat::East, bid: Bid::Play });
    let contract = game.contract().unwrap();
    assert_eq!(contract.playing_team(), Team::EW);
    assert!(!contract.forced);
    assert_eq!(game.to_act(), Some(Seat::North), "the player after the dealer leads");
    let err = game.apply(Action::Bid(Bid::Pass)).unwrap_err();
    assert_eq!(err.to_string(), "It is time to play a card");
}

/// Wilde Boom's *kraken* (seed 001): once trump is named the defenders may
/// kraak, the players answer, and play begins left of the dealer when the
/// team to speak has passed; a save keeps the doubles and is refused by a
/// reader that knows no doubling.
#[test]
fn a_kraak_doubles_the_deal_before_play_begins() {
    let rules = Rules { bidding: Bidding::FreeChoice, kraken: true, spades_double: true, ..Rules::amsterdam() };
    let mut game = Game::new(rules, Deal::shuffled(6, Seat::West)).unwrap();
    game.apply(Action::Bid(Bid::Pass)).unwrap(); // North
    let events = game.apply(Action::Bid(Bid::Trump(Suit::Spades))).unwrap(); // East
    let contract = Contract { trump: Suit::Spades, declarer: Seat::East, forced: false };
    assert_eq!(events[1], Event::Contract(contract));
    assert_eq!((game.phase(), game.to_act()), (Phase::Doubling, Some(Seat::South)));
    assert_eq!(game.legal_actions(), vec![Action::Bid(Bid::Pass), Action::Bid(Bid::Double)]);
    assert_eq!(game.stakes().multiplier, 2, "spades count double");
    let err = game.apply(Action::Play(game.hand(Seat::South).iter().next().unwrap())).unwrap_err();
    assert_eq!(err.to_string(), "First say whether you double the deal");
    game.apply(Action::Bid(Bid::Double)).unwrap(); // South: kraak
    assert_eq!(game.to_act(), Some(Seat::East));
    game.apply(Action::Bid(Bid::Pass)).unwrap(); // East
    game.apply(Action::Bid(Bid::Pass)).unwrap(); // West
    assert_eq!((game.phase(), game.to_act()), (Phase::Playing, Some(Seat::North)));
    let stakes = game.stakes();
    assert_eq!((stakes.doubles, stakes.challenger, stakes.multiplier), (1, Some(Team::NS), 4));
    assert_eq!(game.view(Seat::West).stakes(), stakes);
    let record = game.record();
    assert_eq!(record.format, 3);
    assert_eq!(Game::from_record(&record).unwrap(), game);
    let mut rng = Rng::new(1);
    play_until(&mut game, &mut rng, |_| false);
    let r = game.result().unwrap();
    assert_eq!(r.stakes, stakes);
    let winner = if r.nat { Team::NS } else { Team::EW };
    assert_eq!(r.final_score()[winner.other()], 0, "the winner of a doubled deal takes everything");
    let m = Match::new(rules, 1, Seat::West);
    assert_eq!(m.record().format, 4);
}

/// Hand roem (seed 001's Wilde Boom): each seat may announce the roem in
/// its hand before its first card; after the first trick the team with the
/// best single combination scores all it announced, the other nothing.
#[test]
fn hand_roem_goes_to_the_team_with_the_best_combination() {
    let rules = Rules { roem_source: RoemSource::Hand, roem_table: RoemTable::Cards001, ..Rules::amsterdam() };
    let mut checked = 0;
    for seed in 0..400u64 {
        let deal = Deal::shuffled(seed, Seat::West);
        let contract = Contract { trump: Suit::Hearts, declarer: Seat::West, forced: false };
        let mut game = Game::with_contract(rules, deal, contract).unwrap();
        let melds = |seat: Seat| roem::hand_melds(deal.hand(seat), Suit::Hearts, RoemTable::Cards001);
        let holders: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| !melds(s).is_empty()).collect();
        if !holders.iter().any(|s| s.team() == Team::NS) || !holders.iter().any(|s| s.team() == Team::EW) {
            continue;
        }
        let mut rng = Rng::new(seed);
        for _ in 0..4 {
            let seat = game.to_act().unwrap();
            if holders.contains(&seat) {
                assert_eq!(game.legal_actions()[0], Action::Announce);
                game.apply(Action::Announce).unwrap();
                let again = game.apply(Action::Announce).unwrap_err();
                assert_eq!(again, ActionError::Announce(AnnounceError::AlreadyAnnounced));
            } else {
                let e = game.apply(Action::Announce).unwrap_err();
                assert_eq!(e.to_string(), "Your hand holds no roem to announce");
            }
            let cards: Vec<Card> = game.legal_cards().iter().collect();
            game.apply(Action::Play(cards[rng.below(cards.len() as u32) as usize])).unwrap();
        }
        assert_eq!(game.check(Action::Announce), Err(AnnounceError::TooLate.into()), "the second trick");
        // Every seat's view shows every announcement.
        assert_eq!(game.view(Seat::South).announcements.len(), holders.len());
        let best = |team: Team| {
            holders
                .iter()
                .filter(|s| s.team() == team)
                .map(|&s| melds(s)[0])
                .reduce(|a, b| if b.beats(&a, Suit::Hearts, rules.roem_table) { b } else { a })
        };
        let (ns, ew) = (best(Team::NS).unwrap(), best(Team::EW).unwrap());
        let first = game.announcements()[0].seat.team();
        let winner = if ns.beats(&ew, Suit::Hearts, rules.roem_table) {
            Team::NS
        } else if ew.beats(&ns, Suit::Hearts, rules.roem_table) {
            Team::EW
        } else {
            first
        };
        let all: u16 = holders.iter().filter(|s| s.team() == winner).flat_map(|&s| melds(s)).map(|m| m.points).sum();
        assert_eq!(game.hand_roem(), Some((winner, all)), "seed {seed}");
        let stuk = |team: Team| {
            if game.tricks()[0].plays().any(|(s, c)| {
                s.team() == team
                    && c.suit() == Suit::Hearts
                    && matches!(c.rank(), Rank::King | Rank::Queen)
                    && deal.hand(s).contains(Card::new(Suit::Hearts, Rank::King))
                    && deal.hand(s).contains(Card::new(Suit::Hearts, Rank::Queen))
            }) {
                20
            } else {
                0
            }
        };
        assert_eq!(game.roem()[winner], all + stuk(winner));
        assert_eq!(game.roem()[winner.other()], stuk(winner.other()), "the other team scores no hand roem");
        assert!(game.tricks()[0].roem.is_empty(), "no table roem");
        checked += 1;
        if checked == 20 {
            return;
        }
    }
    panic!("only {checked} deals with hand roem on both sides");
}

/// Stuk under hand roem counts for its holder as the first of king and
/// queen of trumps is played, and only then.
#[test]
fn stuk_counts_when_the_first_of_king_and_queen_is_played() {
    let rules = Rules { roem_source: RoemSource::Hand, ..Rules::amsterdam() };
    for seed in 0..400u64 {
        let deal = Deal::shuffled(seed, Seat::West);
        let trump = Suit::Spades;
        let (king, queen) = (Card::new(trump, Rank::King), Card::new(trump, Rank::Queen));
        let Some(holder) = Seat::ALL.into_iter().find(|&s| deal.hand(s).contains(king) && deal.hand(s).contains(queen))
        else {
            continue;
        };
        let mut game =
            Game::with_contract(rules, deal, Contract { trump, declarer: Seat::North, forced: false }).unwrap();
        let mut rng = Rng::new(seed);
        let mut stuks = 0;
        while let Some(seat) = game.to_act() {
            let cards: Vec<Card> = game.legal_cards().iter().collect();
            let events = game.apply(Action::Play(cards[rng.below(cards.len() as u32) as usize])).unwrap();
            for e in events {
                if let Event::Stuk { seat: s } = e {
                    assert_eq!((s, seat), (holder, holder));
                    stuks += 1;
                }
            }
        }
        assert_eq!(stuks, 1);
        assert!(game.result().unwrap().roem[holder.team()] >= 20);
        return;
    }
    panic!("no stuk in 400 deals");
}

/// The notation of actions reads back what an action displays, and names
/// what it cannot read.
#[test]
fn actions_read_back_as_they_are_written() {
    let mut all = vec![Action::ClaimRoem, Action::PassRoem, Action::Announce];
    all.extend([Bid::Pass, Bid::Play, Bid::Double].map(Action::Bid));
    all.extend(Suit::ALL.map(|s| Action::Bid(Bid::Trump(s))));
    all.extend(CardSet::ALL.iter().map(Action::Play));
    for action in all {
        assert_eq!(action.to_string().parse::<Action>(), Ok(action), "{action}");
    }
    for (words, action) in
        [("Trump H", Bid::Trump(Suit::Hearts)), ("trump spades", Bid::Trump(Suit::Spades)), ("KRAAK", Bid::Double)]
    {
        assert_eq!(words.parse::<Action>(), Ok(Action::Bid(action)));
    }
    assert_eq!("no-roem".parse::<Action>(), Ok(Action::PassRoem));
    for bad in ["trump X", "hearts!", "1H", ""] {
        let e = bad.parse::<Action>().unwrap_err().to_string();
        assert_eq!(e, format!("unknown action '{bad}'"));
    }
}

#[test]
fn events_come_in_the_order_of_the_table() {
    let mut rng = Rng::new(1);
    let mut game = Game::new(Rules::amsterdam(), Deal::shuffled(8, Seat::North)).unwrap();
    play_until(&mut game, &mut rng, |g| g.phase() == Phase::Playing);
    let mut all = Vec::new();
    while game.to_act().is_some() {
        let events = game.apply(random_action(&game, &mut rng)).unwrap();
        assert!(matches!(events[0], Event::CardPlayed { .. }));
        all.extend(events);
    }
    let tricks = all.iter().filter(|e| matches!(e, Event::TrickWon { .. })).count();
    assert_eq!(tricks, 8);
    assert!(matches!(all.last(), Some(Event::DealOver(_))));
    assert_eq!(all.iter().filter(|e| matches!(e, Event::CardPlayed { .. })).count(), 32);
}

/// Finds a classic deal, played randomly with a fixed seed, that reaches the
/// moment after a trick (not the last) with (or without) roem, before the
/// next card, and returns the game at that moment.
fn classic_game_at_trick(with_roem: bool) -> Game {
    for seed in 0..500 {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(Rules::classic(), Deal::shuffled(seed, Seat::North)).unwrap();
        play_until(&mut game, &mut rng, |g| {
            let last_roem = g.tricks().last().map(|t| !t.roem.is_empty());
            g.current_trick().is_some_and(|t| t.is_empty()) && last_roem == Some(with_roem)
        });
        if game.phase() == Phase::Playing && game.tricks().len() < 8 {
            return game;
        }
    }
    panic!("no such deal in 500 seeds");
}

#[test]
fn roem_is_called_by_the_tricks_team_before_the_next_card() {
    let mut game = classic_game_at_trick(true);
    let last = *game.tricks().last().unwrap();
    // Play goes on at once: the winner leads, and may call first.
    assert_eq!(game.phase(), Phase::Playing);
    assert_eq!(game.to_act(), Some(last.winner));
    assert_eq!(game.legal_actions()[0], Action::ClaimRoem);
    assert_eq!(game.legal_actions().len(), 1 + game.legal_cards().len() as usize);
    let before = game.roem()[last.winner.team()];
    let events = game.apply(Action::ClaimRoem).unwrap();
    assert_eq!(events, vec![Event::RoemClaimed { seat: last.winner, points: last.roem.points }]);
    assert_eq!(game.roem()[last.winner.team()], before + last.roem.points);
    assert_eq!(game.tricks().last().unwrap().credited, last.roem.points);
    // Called once: the window is shut.
    assert!(!game.may_call_roem(last.winner));
    assert!(!game.legal_actions().contains(&Action::ClaimRoem));
    assert_eq!(game.apply(Action::ClaimRoem).unwrap_err(), ActionError::Claim(ClaimError::TooLate));
}

#[test]
fn the_winners_partner_may_call_and_the_next_card_ends_the_window() {
    let game = classic_game_at_trick(true);
    let last = *game.tricks().last().unwrap();
    let partner = last.winner.partner();
    let mut called = game.clone();
    let events = called.call_roem(partner).unwrap();
    assert_eq!(events, vec![Event::RoemClaimed { seat: partner, points: last.roem.points }]);
    assert_eq!(called.roem()[partner.team()], game.roem()[partner.team()] + last.roem.points);
    assert_eq!(called.to_act(), Some(last.winner), "the call does not take the lead");
    // The other team may not; the record replays the call.
    let mut other = game.clone();
    assert_eq!(other.call_roem(partner.next()).unwrap_err(), ActionError::Claim(ClaimError::NotYourTrick));
    let replayed = Game::from_record(&called.record()).unwrap();
    assert_eq!(replayed.roem(), called.roem());
    // Leading without a word lets the roem go.
    let mut silent = game.clone();
    let card = silent.legal_cards().first().unwrap();
    silent.apply(Action::Play(card)).unwrap();
    assert_eq!(silent.call_roem(partner).unwrap_err(), ActionError::Claim(ClaimError::TooLate));
    assert_eq!(silent.tricks().last().unwrap().credited, 0);
}

#[test]
fn a_false_claim_is_refused_with_the_reason() {
    let mut game = classic_game_at_trick(false);
    let n = game.tricks().len();
    assert!(!game.legal_actions().contains(&Action::ClaimRoem));
    let before = game.clone();
    let err = game.apply(Action::ClaimRoem).unwrap_err();
    assert_eq!(err, ActionError::Claim(ClaimError::NoRoem { trick: n as u8 }));
    assert_eq!(err.to_string(), format!("There is no roem in trick {n}"));
    assert_eq!(game, before, "a refused call changes nothing");
    // Before any trick, and in automatic presets.
    let mut fresh = Game::new(Rules::classic(), Deal::shuffled(1, Seat::North)).unwrap();
    assert_eq!(fresh.apply(Action::ClaimRoem).unwrap_err().to_string(), "No trick has been won yet");
    let mut auto = Game::new(Rules::amsterdam(), Deal::shuffled(1, Seat::North)).unwrap();
    assert_eq!(
        auto.apply(Action::ClaimRoem).unwrap_err().to_string(),
        "Roem counts by itself in these rules: there is nothing to call"
    );
}

/// The last trick always waits for its winner's word, so that the pause
/// says nothing about roem.
#[test]
fn the_last_trick_always_waits_for_its_winner() {
    let mut seen = [false; 2];
    for seed in 0..300 {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(Rules::classic(), Deal::shuffled(seed, Seat::North)).unwrap();
        play_until(&mut game, &mut rng, |g| g.tricks().len() == 8);
        assert_eq!(game.phase(), Phase::ClaimRoem);
        let last = *game.tricks().last().unwrap();
        assert_eq!(game.to_act(), Some(last.winner));
        let roem = !last.roem.is_empty();
        seen[roem as usize] = true;
        let expected = if roem { vec![Action::ClaimRoem, Action::PassRoem] } else { vec![Action::PassRoem] };
        assert_eq!(game.legal_actions(), expected);
        assert!(game.may_call_roem(last.winner) && game.may_call_roem(last.winner.partner()));
        let events = game.apply(Action::PassRoem).unwrap();
        assert_eq!(events[0], Event::RoemPassed { seat: last.winner });
        assert!(matches!(events.last(), Some(Event::DealOver(_))));
        assert!(game.result().is_some());
    }
    assert_eq!(seen, [true, true], "last tricks with and without roem");
}

/// A game saved in format 1, whose last trick held no roem, ended without a
/// word: it is read as over.
#[test]
fn a_format_1_game_over_without_a_word_replays_as_over() {
    for seed in 0..300 {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(Rules::classic(), Deal::shuffled(seed, Seat::North)).unwrap();
        play_until(&mut game, &mut rng, |g| g.tricks().len() == 8);
        if !game.tricks()[7].roem.is_empty() {
            continue;
        }
        let mut record = game.record();
        record.format = 1;
        let old = Game::from_record(&record).unwrap();
        assert!(old.result().is_some());
        record.format = GameRecord::FORMAT;
        assert_eq!(Game::from_record(&record).unwrap().phase(), Phase::ClaimRoem);
        return;
    }
    panic!("no last trick without roem in 300 seeds");
}

#[test]
fn automatic_presets_count_all_roem_and_never_ask() {
    for seed in 0..100 {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(Rules::rotterdam(), Deal::shuffled(seed, Seat::East)).unwrap();
        while game.to_act().is_some() {
            assert_ne!(game.phase(), Phase::ClaimRoem);
            game.apply(random_action(&game, &mut rng)).unwrap();
        }
        let r = game.result().unwrap();
        for team in Team::BOTH {
            let table: u16 = game.tricks().iter().filter(|t| t.winner.team() == team).map(|t| t.roem.points).sum();
            assert_eq!(r.roem[team], table);
        }
    }
}

/// Seed 000/004: a playing team that will be nat may leave its roem
/// uncalled, since called roem goes to the opponents with the 162.
#[test]
fn uncalled_roem_limits_what_a_nat_team_gives_away() {
    let mut found = 0;
    for seed in 0..3000 {
        // Random cards, every roem claimed.
        let mut rng = Rng::new(seed);
        let mut claimed = Game::new(Rules::classic(), Deal::shuffled(seed, Seat::South)).unwrap();
        while claimed.to_act().is_some() {
            let legal = claimed.legal_actions();
            let action =
                if legal.contains(&Action::ClaimRoem) { Action::ClaimRoem } else { random_action(&claimed, &mut rng) };
            claimed.apply(action).unwrap();
        }
        let r = *claimed.result().unwrap();
        let playing = r.contract.playing_team();
        if !r.nat || r.roem[playing] == 0 {
            continue;
        }
        // The same cards, with the playing team keeping quiet.
        let mut quiet = Game::new(Rules::classic(), *claimed.deal()).unwrap();
        for &action in claimed.actions() {
            let keep_quiet = action == Action::ClaimRoem && quiet.to_act().map(|s| s.team()) == Some(playing);
            if !keep_quiet {
                quiet.apply(action).unwrap();
            } else if quiet.phase() == Phase::ClaimRoem {
                quiet.apply(Action::PassRoem).unwrap();
            }
        }
        let q = quiet.result().unwrap();
        assert!(q.nat);
        assert_eq!(q.roem[playing], 0);
        let defending = playing.other();
        assert_eq!(r.final_score()[defending] - q.final_score()[defending], r.roem[playing]);
        found += 1;
    }
    assert!(found > 0, "no nat deal with the playing team's roem in 3000 seeds");
}

#[test]
fn manual_scores_count_only_called_roem() {
    for seed in 0..200 {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(Rules::classic(), Deal::shuffled(seed, Seat::West)).unwrap();
        let mut offered = 0;
        while game.to_act().is_some() {
            if game.legal_actions().contains(&Action::ClaimRoem) {
                offered += 1;
            }
            game.apply(random_action(&game, &mut rng)).unwrap();
        }
        let with_roem = game.tricks().iter().filter(|t| !t.roem.is_empty()).count();
        assert_eq!(offered, with_roem, "a call is legal exactly after tricks with roem");
        let r = game.result().unwrap();
        for team in Team::BOTH {
            let credited: u16 = game.tricks().iter().filter(|t| t.winner.team() == team).map(|t| t.credited).sum();
            assert_eq!(r.roem[team], credited);
        }
        let expected =
            klaverjas::score::score_deal(game.rules(), r.contract, game.stakes(), r.points, r.roem, r.tricks);
        assert_eq!(*r, expected);
    }
}

#[test]
fn a_deal_code_reproduces_a_game_exactly() {
    let mut rng = Rng::new(77);
    let mut game = Game::new(Rules::rotterdam(), Deal::shuffled(77, Seat::West)).unwrap();
    play_until(&mut game, &mut rng, |_| false);
    let code = game.deal().code();
    let mut again = Game::new(Rules::rotterdam(), Deal::from_code(&code).unwrap()).unwrap();
    for &a in game.actions() {
        again.apply(a).unwrap();
    }
    assert_eq!(again.result(), game.result());
    assert_eq!(again, game);
}

#[test]
fn a_match_of_16_deals_rotates_the_dealer() {
    let mut m = Match::new(Rules::amsterdam(), 99, Seat::North);
    let mut rng = Rng::new(99);
    let mut dealers = Vec::new();
    loop {
        dealers.push(m.game().dealer());
        assert_eq!(m.deal_number(), dealers.len());
        assert_eq!(m.next_deal(), Err(klaverjas::session::MatchError::DealInProgress));
        while m.game().to_act().is_some() {
            let action = random_action(m.game(), &mut rng);
            m.apply(action).unwrap();
        }
        if m.is_over() {
            break;
        }
        m.next_deal().unwrap();
    }
    assert_eq!(dealers.len(), 16);
    let expected: Vec<Seat> = (0..16).map(Seat::from_index).collect();
    assert_eq!(dealers, expected);
    assert_eq!(m.next_deal(), Err(klaverjas::session::MatchError::MatchOver));
    let t = m.sheet().totals();
    let winner = m.winner();
    assert_eq!(winner.is_none(), t.ns == t.ew);
    if let Some(w) = winner {
        assert!(t[w] > t[w.other()]);
    }
    // The deals differ from one another.
    let codes: std::collections::HashSet<_> = m.sheet().rows.iter().map(|r| r.points).collect();
    assert!(codes.len() > 8);
    // The sheet renders one row a deal plus headers and totals.
    assert_eq!(m.sheet().render(PerTeam::new("Wij", "Zij")).lines().count(), 16 + 7);
}

#[test]
fn a_match_to_points_ends_when_a_team_passes_the_target() {
    let rules = Rules { match_length: MatchLength::Points(1000), ..Rules::rotterdam() };
    let mut m = Match::new(rules, 5, Seat::East);
    let mut rng = Rng::new(5);
    let mut deals = 0;
    loop {
        while m.game().to_act().is_some() {
            let action = random_action(m.game(), &mut rng);
            m.apply(action).unwrap();
        }
        deals += 1;
        let t = m.sheet().totals();
        if m.is_over() {
            assert!(t.ns.max(t.ew) >= 1000);
            assert!(m.winner().is_some());
            break;
        }
        assert!(t.ns.max(t.ew) < 1000 || t.ns == t.ew);
        m.next_deal().unwrap();
        assert!(deals < 100);
    }
    assert!(deals >= 6, "1000 points take several deals of at most 162 + roem");
}

#[test]
fn a_match_round_trips_mid_trick() {
    let mut m = Match::new(Rules::classic(), 12, Seat::South);
    let mut rng = Rng::new(12);
    while m.game().to_act().is_some() {
        let action = random_action(m.game(), &mut rng);
        m.apply(action).unwrap();
    }
    m.next_deal().unwrap();
    for _ in 0..10 {
        let action = random_action(m.game(), &mut rng);
        m.apply(action).unwrap();
    }
    let json = serde_json::to_string(&m.record()).unwrap();
    let back = Match::from_record(&serde_json::from_str(&json).unwrap()).unwrap();
    assert_eq!(back, m);
}

/// Plays the current deal of a match to its end with random legal actions.
fn finish_deal(m: &mut Match, rng: &mut Rng) {
    while m.game().to_act().is_some() {
        let action = random_action(m.game(), rng);
        m.apply(action).unwrap();
    }
}

#[test]
fn a_match_from_given_deals_plays_them_first_then_the_seeds_deals() {
    let given = vec![Deal::shuffled(500, Seat::South), Deal::shuffled(501, Seat::South)];
    let mut m = Match::from_deals(Rules::classic(), given.clone(), 7).unwrap();
    let seeded = Match::new(Rules::classic(), 7, Seat::North);
    let mut rng = Rng::new(7);
    let mut deals = Vec::new();
    for _ in 0..4 {
        deals.push(*m.game().deal());
        finish_deal(&mut m, &mut rng);
        m.next_deal().unwrap();
    }
    assert_eq!(&deals[..2], &given[..], "the given deals come first, each with its own dealer");
    // Then the dealer moves on from the last given dealer (South), and the
    // deals are those the seed gives at the same numbers.
    assert_eq!(deals[2].dealer, Seat::West);
    assert_eq!(deals[3].dealer, Seat::North);
    assert_eq!(deals[2].hands, Deal::shuffled(session::deal_seed(7, 2), Seat::West).hands);
    assert_ne!(deals[2].hands, seeded.game().deal().hands);
    assert_eq!(m.given_deals(), &given[..]);
}

#[test]
fn a_match_from_given_deals_checks_them() {
    assert_eq!(Match::from_deals(Rules::classic(), Vec::new(), 1).unwrap_err(), MatchDealsError::NoDeals);
    let mut bad = Deal::shuffled(3, Seat::East);
    let card = bad.hands[1].first().unwrap();
    bad.hands[1].remove(card);
    bad.hands[2].insert(card);
    let err = Match::from_deals(Rules::classic(), vec![Deal::shuffled(2, Seat::North), bad], 1).unwrap_err();
    assert_eq!(
        err,
        MatchDealsError::BadDeal {
            number: 2,
            error: DealCodeError::HandSize { seat: Seat::East, cards: 7, expected: 8 }
        }
    );
    assert_eq!(err.to_string(), "given deal 2: deal: East has 7 cards, not 8");
}

#[test]
fn a_match_from_given_deals_round_trips_and_older_saves_still_load() {
    let given = vec![Deal::shuffled(9, Seat::East), Deal::shuffled(10, Seat::South)];
    let mut m = Match::from_deals(Rules::amsterdam(), given.clone(), 3).unwrap();
    let mut rng = Rng::new(3);
    finish_deal(&mut m, &mut rng);
    m.next_deal().unwrap();
    let record = m.record();
    assert_eq!(record.format, 3, "a reader that would drop the given deals must refuse them");
    let json = serde_json::to_string(&record).unwrap();
    let mut back = Match::from_record(&serde_json::from_str(&json).unwrap()).unwrap();
    assert_eq!(back, m);
    // The rest of the match follows from the record alone.
    finish_deal(&mut back, &mut rng.clone());
    finish_deal(&mut m, &mut rng);
    back.next_deal().unwrap();
    m.next_deal().unwrap();
    assert_eq!(back.game().deal(), m.game().deal());
    // A plain match keeps the old format and writes no given deals, and a
    // save from before given deals (no such field) still loads.
    let plain = Match::new(Rules::classic(), 4, Seat::North);
    let record = plain.record();
    assert_eq!(record.format, 2, "the format of its game");
    let json = serde_json::to_string(&record).unwrap();
    assert!(!json.contains("given_deals"), "{json}");
    assert_eq!(Match::from_record(&serde_json::from_str(&json).unwrap()).unwrap(), plain);
    let newer = MatchRecord { format: MatchRecord::FORMAT + 1, ..record };
    assert_eq!(Match::from_record(&newer).unwrap_err(), ReplayError::NewerFormat(MatchRecord::FORMAT + 1));
}

#[test]
fn deals_from_hands_are_checked() {
    let deal = Deal::shuffled(11, Seat::West);
    assert_eq!(Deal::from_hands(Seat::West, deal.hands, deal.pile).unwrap(), deal);
    let mut hands = deal.hands;
    let card = hands[3].first().unwrap();
    hands[0].insert(card);
    assert_eq!(
        Deal::from_hands(Seat::West, hands, deal.pile).unwrap_err(),
        DealCodeError::HandSize { seat: Seat::North, cards: 9, expected: 8 }
    );
    let same = [deal.pile[0]; 2];
    assert_eq!(Deal::from_hands(Seat::West, deal.hands, same).unwrap_err(), DealCodeError::Overlap);
}

#[test]
fn roem_may_be_called_after_any_won_trick_until_the_next_card() {
    for with_roem in [true, false] {
        let mut game = classic_game_at_trick(with_roem);
        let winner = game.tricks().last().unwrap().winner;
        // Offered whether or not the trick holds roem, to the winning team only.
        assert!(game.may_call_roem(winner) && game.may_call_roem(winner.partner()), "roem: {with_roem}");
        assert!(!game.may_call_roem(winner.next()) && !game.may_call_roem(winner.next().partner()));
        let card = game.legal_cards().first().unwrap();
        game.apply(Action::Play(card)).unwrap();
        assert!(!game.may_call_roem(winner), "too late once the next trick has a card");
    }
    // Not before the first trick, not once the deal is over, never in
    // automatic presets.
    let fresh = Game::new(Rules::classic(), Deal::shuffled(1, Seat::North)).unwrap();
    assert!(Seat::ALL.iter().all(|&s| !fresh.may_call_roem(s)));
    let mut over = fresh.clone();
    play_until(&mut over, &mut Rng::new(1), |_| false);
    assert!(over.result().is_some());
    assert!(Seat::ALL.iter().all(|&s| !over.may_call_roem(s)));
    let mut auto = Game::new(Rules::amsterdam(), Deal::shuffled(1, Seat::North)).unwrap();
    play_until(&mut auto, &mut Rng::new(1), |g| g.tricks().len() == 1);
    assert_eq!(auto.tricks().len(), 1);
    assert!(Seat::ALL.iter().all(|&s| !auto.may_call_roem(s)));
}

#[test]
fn standard_match_lengths_are_16_deals_and_1500_points() {
    assert_eq!(MatchLength::STANDARD_DEALS, MatchLength::Deals(16));
    assert_eq!(MatchLength::STANDARD_POINTS, MatchLength::Points(1500));
    assert_eq!(MatchLength::standard(false), MatchLength::STANDARD_DEALS);
    assert_eq!(MatchLength::standard(true), MatchLength::STANDARD_POINTS);
    assert!(MatchLength::Points(700).is_by_points() && !MatchLength::Deals(3).is_by_points());
    for preset in Preset::ALL {
        let standard = match preset {
            Preset::Klawerjas => MatchLength::STANDARD_BOEM,
            // 003: "Be the first player to score 500 points".
            Preset::Klaberjass => MatchLength::Points(500),
            _ => MatchLength::STANDARD_DEALS,
        };
        assert_eq!(preset.rules().match_length, standard, "{preset}");
    }
    assert_eq!(MatchLength::STANDARD_BOEM, MatchLength::Boem(5));
}

#[test]
fn a_counting_match_allows_no_help() {
    let mut m = Match::new(Rules::classic(), 21, Seat::North);
    let mut rng = Rng::new(21);
    play_until_seat_played(&mut m, &mut rng, Seat::South);
    let before = m.clone();
    assert_eq!(m.note_hint(), Err(AidError::CountingMatch));
    assert_eq!(m.undo(Seat::South), Err(AidError::CountingMatch));
    assert_eq!(m, before, "nothing changed");
}

/// Plays random actions until `seat` has played a card and one more action
/// was taken after it.
fn play_until_seat_played(m: &mut Match, rng: &mut Rng, seat: Seat) {
    let mut played = false;
    while !played {
        let mover = m.game().to_act();
        let action = random_action(m.game(), rng);
        played = matches!(action, Action::Play(_)) && mover == Some(seat);
        m.apply(action).unwrap();
    }
    let action = random_action(m.game(), rng);
    m.apply(action).unwrap();
}

#[test]
fn undo_in_practice_restores_the_exact_state_before_the_card() {
    for seed in 0..40u64 {
        let mut m = Match::new(Rules::classic(), seed, Seat::from_index(seed as usize)).with_practice(true);
        let mut rng = Rng::new(seed);
        assert_eq!(m.undo(Seat::South), Err(AidError::NothingToUndo), "seed {seed}: no card yet");
        // Play a few tricks, keeping each state just before South's cards.
        let mut before_south = Vec::new();
        let stop = 4 + seed as usize % 20;
        while m.game().to_act().is_some() && m.game().tricks().len() * 4 < stop {
            if m.game().to_act() == Some(Seat::South) && m.game().phase() == Phase::Playing {
                before_south.push(m.game().clone());
            }
            let action = random_action(m.game(), &mut rng);
            m.apply(action).unwrap();
        }
        let Some(expected) = before_south.last() else { continue };
        let taken = m.undo(Seat::South).unwrap();
        assert!(taken >= 1, "seed {seed}");
        assert_eq!(m.game(), expected, "seed {seed}: the state before South's last card");
        assert_eq!(m.game().to_act(), Some(Seat::South));
        assert_eq!(m.aids(m.deal_number()), Aids { hints: 0, undos: 1 });
        // The save holds it exactly.
        let record = m.record();
        assert_eq!(record.format, 3, "an older reader must not drop the practice");
        let json = serde_json::to_string(&record).unwrap();
        assert_eq!(Match::from_record(&serde_json::from_str(&json).unwrap()).unwrap(), m, "seed {seed}");
    }
}

#[test]
fn hints_and_undos_are_kept_by_deal_and_the_score_stands_once_a_deal_is_over() {
    let mut m = Match::new(Rules::amsterdam(), 5, Seat::West).with_practice(true);
    let mut rng = Rng::new(5);
    m.note_hint().unwrap();
    m.note_hint().unwrap();
    finish_deal(&mut m, &mut rng);
    assert_eq!(m.note_hint(), Err(AidError::DealOver));
    assert_eq!(m.undo(Seat::South), Err(AidError::DealOver));
    m.next_deal().unwrap();
    assert_eq!(m.aids(1), Aids { hints: 2, undos: 0 });
    assert_eq!(m.aids(2), Aids::default());
    assert!(m.aids(1).any() && !m.aids(2).any());
    let json = serde_json::to_string(&m.record()).unwrap();
    let back = Match::from_record(&serde_json::from_str(&json).unwrap()).unwrap();
    assert!(back.is_practice());
    assert_eq!(back.aids(1), m.aids(1));
}

#[test]
fn every_finished_deal_of_a_match_can_be_replayed_after_a_save() {
    let mut m = Match::new(Rules::classic(), 8, Seat::North);
    let mut rng = Rng::new(8);
    let mut finished = Vec::new();
    for _ in 0..3 {
        finish_deal(&mut m, &mut rng);
        assert_eq!(m.finished_deal(m.deal_number()).as_ref(), Some(m.game()), "the deal just ended");
        finished.push(m.game().clone());
        m.next_deal().unwrap();
    }
    assert_eq!(m.finished_deal(4), None, "the deal in play is not finished");
    assert_eq!(m.deals_finished(), 3);
    let record = m.record();
    assert_eq!(record.format, 3, "an older reader must not drop the deals played");
    let json = serde_json::to_string(&record).unwrap();
    let back = Match::from_record(&serde_json::from_str(&json).unwrap()).unwrap();
    for (i, game) in finished.iter().enumerate() {
        assert_eq!(back.finished_deal(i + 1).as_ref(), Some(game), "deal {}", i + 1);
    }
}

#[test]
fn a_match_saved_before_deals_were_kept_reviews_only_the_later_ones() {
    let mut m = Match::new(Rules::classic(), 9, Seat::East);
    let mut rng = Rng::new(9);
    for _ in 0..2 {
        finish_deal(&mut m, &mut rng);
        m.next_deal().unwrap();
    }
    // As an older version saved it: no deals kept.
    let old = MatchRecord { played: Vec::new(), ..m.record() };
    let mut back = Match::from_record(&old).unwrap();
    finish_deal(&mut back, &mut rng);
    let third = back.game().clone();
    back.next_deal().unwrap();
    assert_eq!(back.finished_deal(1), None);
    assert_eq!(back.finished_deal(2), None);
    assert_eq!(back.finished_deal(3), Some(third), "deal 3 under its own number");
    assert_eq!((1..=4).map(|n| back.has_finished_deal(n)).collect::<Vec<_>>(), [false, false, true, false]);
}

#[test]
fn anti_clockwise_the_player_on_the_dealers_right_speaks_and_leads() {
    let rules = Rules { direction: Direction::AntiClockwise, bidding: Bidding::Mandatory, ..Rules::amsterdam() };
    let deal = Deal::shuffled(11, Seat::North);
    let mut game = Game::new(rules, deal).unwrap();
    // 002: "Player to the right of dealer plays first": West of North.
    assert_eq!(game.to_act(), Some(Seat::West));
    game.apply(Action::Bid(Bid::Trump(Suit::Hearts))).unwrap();
    assert_eq!(game.to_act(), Some(Seat::West));
    let lead = game.view(Seat::West).legal[0];
    game.apply(lead).unwrap();
    assert_eq!(game.to_act(), Some(Seat::South));
    // Whole games replay from their records and the next dealer is on
    // the right as well.
    let mut m = Match::new(rules, 5, Seat::East);
    let first = m.game().dealer();
    while m.game().to_act().is_some() {
        let seat = m.game().to_act().unwrap();
        let a = m.game().view(seat).legal[0];
        m.apply(a).unwrap();
    }
    m.next_deal().unwrap();
    assert_eq!(m.game().dealer(), Direction::AntiClockwise.next(first));
}

/// South African Klawerjas (002): the dealer's last card is dealt face up
/// and makes trump; nobody bids; the player on the dealer's right leads;
/// every seat sees the card; a deal code keeps which card it was.
#[test]
fn the_last_card_dealt_makes_trump_and_play_begins_at_once() {
    let rules = Rules::klawerjas();
    for seed in 0..20u64 {
        let dealer = Seat::from_index(seed as usize);
        let deal = Deal::shuffled_for(&rules, seed, dealer);
        let last = deal.dealing_order()[31];
        assert_eq!((last.0, last.1), (dealer, deal.last_card_dealt()), "the dealer gets the last card");
        let copy = Deal::from_code(&deal.code()).unwrap();
        assert_eq!(copy.last_card_dealt(), deal.last_card_dealt());
        let game = Game::new(rules, deal).unwrap();
        let contract = game.contract().unwrap();
        assert_eq!(contract.trump, deal.last_card_dealt().suit());
        assert_eq!(game.phase(), Phase::Playing);
        assert!(game.bids().is_empty());
        assert_eq!(game.to_act(), Some(Direction::AntiClockwise.next(dealer)));
        for seat in Seat::ALL {
            assert_eq!(game.view(seat).face_up, Some(deal.last_card_dealt()));
        }
    }
    let deal = Deal::shuffled_for(&rules, 1, Seat::North);
    let mut game = Game::new(rules, deal).unwrap();
    let err = game.apply(Action::Bid(Bid::Pass)).unwrap_err();
    assert_eq!(err.to_string(), "It is time to play a card");
    let not_dealers = deal.hand(Seat::East).first().unwrap();
    assert_eq!(
        deal.with_last_card(not_dealers).unwrap_err().to_string(),
        format!("deal: {not_dealers} is not in the dealer's hand, so it cannot be the last card dealt")
    );
}

/// The boem's race (002): a hand ends as soon as a side reaches 100, and
/// it goes on two strokes if the others have under 50, else one; a hand
/// in which nobody gets there is followed by old play with the points
/// carried; five strokes win the boem.
#[test]
fn a_boem_is_a_race_to_100_and_five_strokes() {
    let rules = Rules::klawerjas();
    let mut went_on = 0;
    let mut old_play = 0;
    for seed in 0..40u64 {
        let mut m = Match::new(rules, seed, Seat::South);
        let mut rng = Rng::new(seed);
        loop {
            let carry = m.game().carry();
            let dealer = m.game().dealer();
            finish_deal(&mut m, &mut rng);
            let game = m.game();
            let result = *game.result().unwrap();
            let tally = |t: Team| game.tally(t);
            assert_eq!(tally(Team::NS), carry.map_or(0, |c| c.ns) + result.final_score().ns);
            match result.going_on {
                Some(on) if on.outright => assert_eq!(game.tricks().len(), 1, "seed {seed}"),
                Some(on) => {
                    went_on += 1;
                    assert!(tally(on.team) >= BOEM_TARGET, "seed {seed}");
                    assert_eq!(on.strokes == 2, tally(on.team.other()) < TWO_STROKES_UNDER, "seed {seed}");
                    // The hand ended the moment the side got there.
                    let before = game.tricks().len() < 8 || tally(on.team.other()) < BOEM_TARGET;
                    assert!(before, "seed {seed}");
                }
                None => {
                    old_play += 1;
                    assert_eq!(game.tricks().len(), 8);
                    assert!(Team::BOTH.iter().all(|&t| tally(t) < BOEM_TARGET), "seed {seed}");
                    assert_eq!(m.sheet().carry(), Some(PerTeam::new(tally(Team::NS), tally(Team::EW))));
                }
            }
            if m.is_over() {
                let strokes = m.sheet().strokes();
                let winner = m.winner().unwrap();
                assert!(strokes[winner] >= 5 && strokes[winner.other()] < 5, "seed {seed}");
                break;
            }
            let last_winner = game.tricks().last().unwrap().winner;
            let next_carry = m.sheet().carry();
            m.next_deal().unwrap();
            assert_eq!(m.game().carry(), next_carry);
            let next_dealer = if next_carry.is_some() { last_winner } else { Direction::AntiClockwise.next(dealer) };
            assert_eq!(m.game().dealer(), next_dealer, "old play is dealt by the last trick's winner");
        }
        let record = m.record();
        assert_eq!(record.format, 5, "the South African game's match format");
        assert_eq!(Match::from_record(&record).unwrap(), m);
    }
    assert!(went_on > 40 && old_play > 0, "{went_on} games won, {old_play} hands into old play");
}

/// Four jacks win outright (002): two strokes at the end of the first
/// round, in new play and in old play alike; four aces in old play give
/// one stroke if the others count 50.
#[test]
fn four_of_a_kind_wins_the_game_outright() {
    let hand = |s: &str| CardSet::parse(s).unwrap();
    let deal = |hands: [&str; 4]| {
        let deal = Deal::from_hands(Seat::North, hands.map(hand), PileCard::showing(Suit::Clubs)).unwrap();
        deal.with_last_card(CardSet::parse("7C").unwrap().first().unwrap()).unwrap()
    };
    // North deals and holds the four; West holds the other four of a kind
    // or nothing that wins outright.
    let jacks =
        ["JC JD JH JS 7C 8C 7D 8D", "9C TC 9D TD 7H 8H 9H TH", "QC KC QD KD QH KH 7S 8S", "AC AD AH AS 9S TS QS KS"];
    let aces =
        ["AC AD AH AS 7C 8C 7D 8D", "9C TC 9D TD 7H 8H JH JS", "QC KC QD KD QH KH 7S 8S", "JC JD 9H TH 9S TS QS KS"];
    let play_first_round = |game: &mut Game| {
        while game.tricks().is_empty() {
            let legal = game.legal_actions();
            let action = if legal.contains(&Action::Announce) { Action::Announce } else { legal[0] };
            game.apply(action).unwrap();
        }
    };
    let rules = Rules::klawerjas();
    let mut game = Game::new(rules, deal(jacks)).unwrap();
    play_first_round(&mut game);
    let on = game.result().unwrap().going_on.unwrap();
    assert_eq!(on, GoingOn { team: Team::NS, strokes: 2, outright: true });
    let mut game = Game::new(rules, deal(jacks)).unwrap().with_carry(Some(PerTeam::new(10, 90)));
    play_first_round(&mut game);
    assert_eq!(game.result().unwrap().going_on.unwrap().strokes, 2, "four jacks go on two in old play too");
    let mut game = Game::new(rules, deal(aces)).unwrap().with_carry(Some(PerTeam::new(10, 90)));
    play_first_round(&mut game);
    assert_eq!(game.result().unwrap().going_on.unwrap().strokes, 1, "four aces in old play against 50");
    let mut game = Game::new(rules, deal(aces)).unwrap();
    play_first_round(&mut game);
    assert_eq!(game.result().unwrap().going_on.unwrap().strokes, 2);
}

/// South African roemte counts only as roemed (002: a player who does not
/// roem in the first round "forfeits the chance to roem"): the partner's
/// unannounced fifty is not scored with the announced twenty.
#[test]
fn unannounced_roemte_does_not_count() {
    let hand = |s: &str| CardSet::parse(s).unwrap();
    // East deals; play goes to the right, so North leads. North holds a
    // twenty, South a fifty.
    let hands = [
        hand("7H 8H 9H AC KS 7D JD QC"),
        hand("KH AH 7C 8C TC 9D 8D KD"),
        hand("7S 8S 9S TS QH AD TD JC"),
        hand("TH JH AS JS QS 9C QD KC"),
    ];
    let deal = Deal::from_hands(Seat::East, hands, PileCard::showing(Suit::Clubs)).unwrap();
    let deal = deal.with_last_card(CardSet::parse("TC").unwrap().first().unwrap()).unwrap();
    for south_announces in [false, true] {
        let mut game = Game::new(Rules::klawerjas(), deal).unwrap();
        while game.tricks().is_empty() {
            let seat = game.to_act().unwrap();
            let legal = game.legal_actions();
            let speaks = seat == Seat::North || (seat == Seat::South && south_announces);
            let action = if speaks && legal.contains(&Action::Announce) {
                Action::Announce
            } else {
                *legal.iter().find(|a| matches!(a, Action::Play(_))).unwrap()
            };
            game.apply(action).unwrap();
        }
        let expected = if south_announces { 70 } else { 20 };
        assert_eq!(game.hand_roem(), Some((Team::NS, expected)), "South announced: {south_announces}");
    }
}

/// Three players (001): ten cards each and a talon of two; the trump
/// maker takes the talon and lays two cards away, hidden from the others.
#[test]
fn three_players_take_the_talon_and_lay_two_away() {
    let rules = Rules::three();
    let deal = Deal::shuffled_for(&rules, 11, Seat::West);
    assert_eq!(deal.players(), Players::Three);
    deal.validate().unwrap();
    for seat in [Seat::East, Seat::South, Seat::West] {
        assert_eq!(deal.hand(seat).len(), 10);
    }
    assert_eq!(deal.talon().len(), 2);
    assert_eq!(Deal::from_code(&deal.code()).unwrap(), deal, "a deal code holds the talon");
    let mut game = Game::new(rules, deal).unwrap();
    assert_eq!(game.to_act(), Some(Seat::East), "the dealer's left speaks first");
    assert_eq!(game.hand(Seat::North), CardSet::EMPTY, "nobody sits North");
    game.apply(Action::Bid(Bid::Pass)).unwrap();
    game.apply(Action::Bid(Bid::Trump(Suit::Hearts))).unwrap();
    assert_eq!(game.phase(), Phase::Discarding);
    assert_eq!(game.to_act(), Some(Seat::South));
    let twelve = deal.hand(Seat::South).union(deal.talon());
    assert_eq!(game.hand(Seat::South), twelve);
    assert_eq!(game.view(Seat::West).hand, deal.hand(Seat::West));
    assert!(deal.talon().is_subset(game.view(Seat::West).unseen()), "the talon stays hidden from the others");
    let foreign = deal.hand(Seat::West).first().unwrap();
    assert!(matches!(game.apply(Action::Discard(foreign)), Err(ActionError::Play(PlayError::NotInHand { .. }))));
    assert_eq!(game.apply(Action::Bid(Bid::Pass)), Err(ActionError::WrongPhase { phase: Phase::Discarding }));
    let mut laid = twelve.iter().take(2);
    let (a, b) = (laid.next().unwrap(), laid.next().unwrap());
    assert_eq!(game.apply(Action::Discard(a)).unwrap(), vec![Event::Discarded { seat: Seat::South, card: a }]);
    assert_eq!(game.phase(), Phase::Discarding);
    game.apply(Action::Discard(b)).unwrap();
    assert_eq!(game.phase(), Phase::Playing);
    assert_eq!(game.to_act(), Some(Seat::East), "the dealer's left leads");
    assert_eq!(game.hand(Seat::South), twelve.minus(CardSet::EMPTY.with(a).with(b)));
    assert_eq!(game.view(Seat::South).discards, CardSet::EMPTY.with(a).with(b));
    assert_eq!(game.view(Seat::East).discards, CardSet::EMPTY);
    assert!(game.view(Seat::East).unseen().contains(a), "the others never see what was laid away");
    let mut rng = Rng::new(4);
    play_until(&mut game, &mut rng, |_| false);
    assert_eq!(game.tricks().len(), 10);
    assert!(game.tricks().iter().all(|t| t.plays().count() == 3));
}

/// Each plays alone: made, everyone scores their own points; nat, the
/// maker scores nothing and each other player everything.
#[test]
fn three_players_score_alone() {
    let rules = Rules::three();
    let contract = Contract { trump: Suit::Spades, declarer: Seat::South, forced: false };
    let made = score::score_alone(&rules, contract, Stakes::default(), [0, 40, 82, 40], [0, 0, 20, 0], [0, 2, 6, 2]);
    assert!(!made.nat);
    assert_eq!(made.players.unwrap().score, [0, 40, 102, 40]);
    // 81 + 0 of 162 + 20: not more than half.
    let nat = score::score_alone(&rules, contract, Stakes::default(), [0, 61, 81, 20], [0, 20, 0, 0], [0, 3, 5, 2]);
    assert!(nat.nat);
    assert_eq!(nat.players.unwrap().score, [0, 182, 0, 182]);
    // Exactly half is nat too.
    let half = score::score_alone(&rules, contract, Stakes::default(), [0, 41, 81, 40], [0, 0, 0, 0], [0, 3, 5, 2]);
    assert!(half.nat);
}

/// Everyone passing throws the cards in: the same dealer deals a new
/// hand, and no row is written.
#[test]
fn three_players_all_passing_throws_the_cards_in() {
    let rules = Rules::three();
    let mut m = Match::new(rules, 5, Seat::North);
    assert_eq!(m.game().dealer(), Seat::East, "the empty chair passes the first deal on");
    let first = *m.game().deal();
    for _ in 0..3 {
        m.apply(Action::Bid(Bid::Pass)).unwrap();
    }
    assert_eq!(m.game().phase(), Phase::ThrownIn);
    assert_eq!(m.game().to_act(), None);
    assert!(!m.is_over());
    m.next_deal().unwrap();
    assert_eq!(m.game().dealer(), Seat::East, "the same dealer deals again");
    assert_ne!(m.game().deal(), &first, "a new shuffle");
    assert_eq!(m.sheet().rows.len(), 0);
    let record = m.record();
    assert_eq!(record.format, 6, "the game for three is format 6 of a match");
    assert_eq!(Match::from_record(&record).unwrap(), m);
    // A whole match: sixteen deals, each player's total adds up.
    let mut rng = Rng::new(9);
    while !m.is_over() {
        while m.game().to_act().is_some() {
            let legal = m.game().legal_actions();
            m.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
        if !m.is_over() {
            m.next_deal().unwrap();
        }
    }
    assert_eq!(m.sheet().rows.len(), 16);
    let totals = m.sheet().player_totals();
    assert_eq!(totals[Seat::North.index()], 0);
    let sum: u32 = m.sheet().rows.iter().map(|r| r.players.unwrap().score.iter().map(|&s| s as u32).sum::<u32>()).sum();
    assert_eq!(totals.iter().sum::<u32>(), sum);
    let top = m.winning_player();
    assert!(top.is_none_or(|s| rules.players.seats_at(s)));
}

/// A deal of Klaberjass with West dealing: South's hearts and West's
/// clubs each run four to the ace, West holds the seven of the turned
/// clubs, and South's queen of spades is led into West's nine and king.
fn klaberjass_deal() -> Deal {
    let set = |s: &str| CardSet::parse(s).unwrap();
    let stock = Stock { later: set("9D TD JD QC KC AC"), turned: "9C".parse().unwrap(), bottom: "7D".parse().unwrap() };
    Deal::for_two(Seat::West, set("AH KH QH JH 7S QS 9D TD JD"), set("7C 8C JC 9S KS AD QC KC AC"), stock).unwrap()
}

/// Klaberjass (003): six cards each and a turned card; the non-dealer
/// then the dealer accept its suit or pass, then each may name another;
/// four passes throw the cards in.
#[test]
fn klaberjass_bids_in_two_rounds_and_four_passes_throw_in() {
    let deal = klaberjass_deal();
    assert_eq!(deal.players(), Players::Two);
    assert_eq!(Deal::from_code(&deal.code()).unwrap(), deal, "a deal code holds the stock");
    assert_eq!(deal.code().replace('-', "").len(), 21);
    let mut game = Game::new(Rules::klaberjass(), deal).unwrap();
    assert_eq!(game.to_act(), Some(Seat::South), "the non-dealer speaks first");
    assert_eq!(game.hand(Seat::South).len(), 6, "three cards each wait for trump");
    let view = game.view(Seat::South);
    assert_eq!(view.stock.map(|s| s.turned), Some("9C".parse().unwrap()));
    assert!(!view.unseen().contains("9C".parse().unwrap()), "the turned card is seen");
    assert_eq!(game.legal_actions(), vec![Action::Bid(Bid::Pass), Action::Bid(Bid::Play)]);
    let err = game.apply(Action::Bid(Bid::Trump(Suit::Hearts))).unwrap_err();
    assert!(err.to_string().contains("trump can only be clubs"), "{err}");
    game.apply(Action::Bid(Bid::Pass)).unwrap();
    assert_eq!(game.to_act(), Some(Seat::West));
    game.apply(Action::Bid(Bid::Pass)).unwrap();
    // The second round: another suit, or pass.
    assert_eq!(game.to_act(), Some(Seat::South));
    let legal = game.legal_actions();
    assert_eq!(legal.len(), 4, "pass and the three other suits: {legal:?}");
    let err = game.apply(Action::Bid(Bid::Trump(Suit::Clubs))).unwrap_err();
    assert_eq!(err.to_string(), "clubs was refused: name another suit, or pass");
    assert!(game.apply(Action::Bid(Bid::Play)).is_err());
    game.apply(Action::Bid(Bid::Pass)).unwrap();
    let events = game.apply(Action::Bid(Bid::Pass)).unwrap();
    assert!(events.contains(&Event::ThrownIn));
    assert_eq!(game.phase(), Phase::ThrownIn);
    // Named in the second round, trump is not the turned suit: no swap.
    let mut named = Game::new(Rules::klaberjass(), klaberjass_deal()).unwrap();
    for bid in [Bid::Pass, Bid::Pass, Bid::Trump(Suit::Spades)] {
        named.apply(Action::Bid(bid)).unwrap();
    }
    assert_eq!(named.contract().map(|c| (c.trump, c.declarer)), Some((Suit::Spades, Seat::South)));
    assert_eq!(named.hand(Seat::South).len(), 9);
    assert!(!named.legal_actions().contains(&Action::Swap));
}

/// Klaberjass (003): the second deal and the bottom card once trump is
/// fixed; the seven of trumps swapped for the turned card; the second
/// player made to win the trick; only the best run scoring, a trump run
/// beating an equal plain one; Bella as the second of king and queen is
/// played; the maker must score more than the other or gives all.
#[test]
fn klaberjass_second_deal_swap_must_win_best_run_and_bella() {
    let mut game = Game::new(Rules::klaberjass(), klaberjass_deal()).unwrap();
    game.apply(Action::Bid(Bid::Pass)).unwrap();
    let events = game.apply(Action::Bid(Bid::Play)).unwrap();
    let mut dealt = [CardSet::EMPTY; 4];
    dealt[Seat::South.index()] = CardSet::parse("9D TD JD").unwrap();
    dealt[Seat::West.index()] = CardSet::parse("QC KC AC").unwrap();
    assert!(events.contains(&Event::SecondDeal { dealt, bottom: "7D".parse().unwrap() }), "{events:?}");
    assert_eq!(game.contract().map(|c| (c.trump, c.declarer)), Some((Suit::Clubs, Seat::West)));
    assert_eq!(game.hand(Seat::South).len(), 9);
    assert_eq!(game.view(Seat::South).stock.unwrap().bottom, Some("7D".parse().unwrap()));
    assert!(!game.legal_actions().contains(&Action::Swap), "South has no seven of clubs");
    assert_eq!(game.apply(Action::Swap).unwrap_err().to_string(), "You do not hold the seven of trumps (7C)");
    game.apply(Action::Announce).unwrap();
    game.apply(Action::Play("QS".parse().unwrap())).unwrap();
    // West must win: the king, not the nine.
    let err = game.apply(Action::Play("9S".parse().unwrap())).unwrap_err();
    assert_eq!(err.to_string(), "You must win the trick if you can: play higher than the queen of spades");
    assert!(game.legal_actions().contains(&Action::Swap));
    let events = game.apply(Action::Swap).unwrap();
    assert!(events.contains(&Event::Swapped {
        seat: Seat::West,
        turned: "9C".parse().unwrap(),
        seven: "7C".parse().unwrap()
    }));
    assert!(game.hand(Seat::West).contains("9C".parse().unwrap()));
    assert!(!game.hand(Seat::West).contains("7C".parse().unwrap()));
    assert!(game.apply(Action::Swap).is_err(), "once a deal");
    let south = game.view(Seat::South);
    assert!(!south.unseen().contains("7C".parse().unwrap()), "the seven lies in the stock, seen");
    game.apply(Action::Announce).unwrap();
    let events = game.apply(Action::Play("KS".parse().unwrap())).unwrap();
    // Both announced a run of four to the ace: West's in trumps wins, and
    // scores it alone (50, not South's three diamonds as well).
    assert!(events.contains(&Event::HandRoem { team: Team::EW, points: 50 }), "{events:?}");
    // West leads clubs down: Bella comes with the second of king and queen.
    let mut bella = Vec::new();
    while let Some(seat) = game.to_act() {
        let action = game.legal_actions().into_iter().rfind(|a| matches!(a, Action::Play(_))).unwrap();
        let events = game.apply(action).unwrap();
        if events.contains(&Event::Stuk { seat }) {
            bella.push((seat, action));
        }
    }
    assert_eq!(bella.len(), 1, "{bella:?}");
    let (seat, Action::Play(card)) = bella[0] else { unreachable!() };
    assert_eq!(seat, Seat::West);
    let first = if card.rank() == Rank::King { "QC" } else { "KC" };
    let earlier: Vec<_> = game.plays().collect();
    let at = |c: Card| earlier.iter().position(|&p| p == (Seat::West, c)).unwrap();
    assert!(at(first.parse().unwrap()) < at(card), "Bella shown on the second card");
    let r = game.result().unwrap();
    let each = r.players.unwrap();
    assert_eq!(each.tricks.iter().sum::<u8>(), 9);
    assert_eq!(each.roem[Seat::West.index()], 50 + 20);
    let played: CardSet = earlier.iter().map(|&(_, c)| c).collect();
    let all = Rules::klaberjass().card_values.set_points(played, Suit::Clubs) + 10;
    assert_eq!(each.points.iter().sum::<u16>(), all);
    let (west, south) = (each.points[3] + each.roem[3], each.points[2] + each.roem[2]);
    assert_eq!(r.nat, west <= south, "the maker must score more than the other");
    let expected = if r.nat { [0, 0, west + south, 0] } else { [0, 0, south, west] };
    assert_eq!(each.score, expected);
}

/// A match of Klaberjass goes to 500 and the winner of each deal deals
/// the next.
#[test]
fn klaberjass_plays_to_500_and_the_winner_deals() {
    let mut m = Match::new(Rules::klaberjass(), 3, Seat::North);
    assert!(Players::Two.seats_at(m.game().dealer()), "an empty chair passes the deal on");
    let mut rng = Rng::new(4);
    let mut deals = 0;
    while !m.is_over() {
        while m.game().to_act().is_some() {
            let legal = m.game().legal_actions();
            m.apply(legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
        let winner = m.game().result().and_then(|r| r.players).map(|p| {
            if p.score[Seat::South.index()] >= p.score[Seat::West.index()] { Seat::South } else { Seat::West }
        });
        if m.is_over() {
            break;
        }
        let thrown_in = m.game().phase() == Phase::ThrownIn;
        let dealer = m.game().dealer();
        m.next_deal().unwrap();
        deals += 1;
        match winner {
            Some(w) => assert_eq!(m.game().dealer(), w),
            None => assert!(thrown_in && m.game().dealer() == dealer),
        }
        assert!(deals < 100);
    }
    let totals = m.sheet().player_totals();
    assert!(totals.iter().any(|&t| t >= 500), "{totals:?}");
    let record = m.record();
    assert_eq!(record.format, MatchRecord::FORMAT);
    assert_eq!(Match::from_record(&record).unwrap(), m);
}
