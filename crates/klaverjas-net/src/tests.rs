use super::*;
use crate::check::{cards_named, visible};
use klaverjas::Card;
use proptest::prelude::*;

/// Plays a match of `deals` deals with random bots, checking every
/// message each seat would be sent.
fn no_seat_is_told_a_hidden_card(preset: Preset, seed: u64, deals: usize) -> Result<usize, TestCaseError> {
    let rules = preset.rules();
    let mut table = Match::new(rules, seed, Seat::North);
    let mut bots: Vec<_> = Seat::ALL.iter().map(|s| Level::Random.bot(seed ^ s.index() as u64)).collect();
    let mut checked = 0;
    let mut step = 0;
    let mut check = |table: &Match, events: &[Event], step: u64| -> Result<(), TestCaseError> {
        for &seat in table.rules().players.seats() {
            let message = for_seat(table, seat, step, events);
            let named = cards_named(&serde_json::to_value(&message).unwrap());
            let hidden = named.minus(visible(table.game(), seat));
            prop_assert!(
                hidden.is_empty(),
                "{preset:?} seed {seed} step {step}: {seat:?} was told {hidden} ({:?})",
                events
            );
            checked += 1;
        }
        Ok(())
    };
    check(&table, &[], 0)?;
    for _ in 0..deals {
        while let Some(seat) = table.game().to_act() {
            let decision = bots[seat.index()].decide(&table.game().view(seat));
            let events = table.act(seat, decision.action).unwrap();
            step += 1;
            check(&table, &events, step)?;
        }
        if table.is_over() || table.next_deal().is_err() {
            break;
        }
        step += 1;
        check(&table, &[], step)?;
    }
    Ok(checked)
}

#[test]
fn every_preset_keeps_hidden_cards_hidden() {
    for preset in Preset::ALL {
        for seed in 0..12 {
            let checked = no_seat_is_told_a_hidden_card(preset, seed, 3).unwrap();
            assert!(checked > 60, "{preset:?}: only {checked} messages");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn no_message_names_a_card_its_seat_may_not_see(preset in 0..Preset::ALL.len(), seed in any::<u64>()) {
        no_seat_is_told_a_hidden_card(Preset::ALL[preset], seed, 2)?;
    }
}

#[test]
fn the_checker_sees_a_leak() {
    // The whole game's view of another seat would name its cards.
    let table = Match::new(Preset::Classic.rules(), 5, Seat::North);
    let leak = serde_json::to_value(table.game().view(Seat::East)).unwrap();
    let named = cards_named(&leak);
    assert!(!named.minus(visible(table.game(), Seat::South)).is_empty());
}

#[test]
fn a_laid_away_card_and_a_second_deal_are_told_only_to_their_seat() {
    let card: Card = "JH".parse().unwrap();
    let laid = Event::Discarded { seat: Seat::East, card };
    assert_eq!(seen_by(&laid, Seat::South), Seen::LaidAway { seat: Seat::East });
    assert_eq!(seen_by(&laid, Seat::East), Seen::Event { event: laid });
    let hands = [
        CardSet::suit(klaverjas::Suit::Hearts),
        CardSet::EMPTY,
        CardSet::suit(klaverjas::Suit::Spades),
        CardSet::EMPTY,
    ];
    let second = Event::SecondDeal { dealt: hands, bottom: card };
    let Seen::Event { event: Event::SecondDeal { dealt, .. } } = seen_by(&second, Seat::South) else { panic!() };
    assert_eq!(dealt[Seat::South.index()], hands[Seat::South.index()]);
    assert!(dealt[Seat::North.index()].is_empty());
}

#[test]
fn codes_are_read_as_people_type_them() {
    let code: TableCode = "k7m 2qz".parse().unwrap();
    assert_eq!(code.to_string(), "K7M2QZ");
    assert_eq!("K7M2Q".parse::<TableCode>(), Err(CodeError::Length("K7M2Q".into())));
    assert_eq!("K7M2Q0".parse::<TableCode>(), Err(CodeError::Character('0')));
    for bad in ['O', 'I', 'L', '1', '0'] {
        assert!(!TableCode::ALPHABET.contains(&(bad as u8)), "{bad} looks like another");
    }
    let codes: std::collections::HashSet<_> =
        (0..1000u64).map(|i| TableCode::from_random(i.wrapping_mul(0x9E37_79B9_7F4A_7C15))).collect();
    assert_eq!(codes.len(), 1000);
    for c in &codes {
        assert_eq!(c.as_str().parse::<TableCode>().as_ref(), Ok(c));
    }
}

#[test]
fn messages_keep_their_json() {
    // The wire format is pinned: changing it needs a new protocol.
    let host = r#"{"type":"host","protocol":6,"name":"Anna","setup":{"preset":"Amsterdam","set":"","bots":"Expert","grace":30,"hints":true,"late":false}}"#;
    let message = read(host).unwrap();
    assert_eq!(serde_json::to_string(&message).unwrap(), host);
    // A setup from before the late friends' choice (a table on disk) lets them.
    let before = r#"{"type":"host","protocol":6,"name":"Anna","setup":{"preset":"Classic","bots":"Expert"}}"#;
    assert!(matches!(read(before).unwrap(), ToTable::Host { setup, .. } if setup.late));
    let act = r#"{"type":"act","action":{"Play":"JH"}}"#;
    assert_eq!(read(act).unwrap(), ToTable::Act { action: Action::Play("JH".parse().unwrap()) });
    let seated = FromTable::Seated {
        protocol: PROTOCOL,
        code: "K7M2QZ".parse().unwrap(),
        seat: Seat::South,
        token: None,
        setup: Setup {
            preset: Preset::Classic,
            set: String::new(),
            bots: Level::Heuristic,
            grace: None,
            hints: false,
            late: true,
        },
    };
    assert_eq!(
        seated.to_json(),
        r#"{"type":"seated","protocol":6,"code":"K7M2QZ","seat":"South","setup":{"preset":"Classic","set":"","bots":"Heuristic","grace":null,"hints":false,"late":true}}"#
    );
    let opened = FromTable::Opened { deal: 2, code: "abc".into(), secret: "00ff".into() };
    assert_eq!(opened.to_json(), r#"{"type":"opened","deal":2,"code":"abc","secret":"00ff"}"#);
    assert_eq!(read(r#"{"type":"remove","seat":"West"}"#).unwrap(), ToTable::Remove { seat: Seat::West });
    let turn = FromTable::refused(Refusal::NotYourTurn, "Not your turn").to_json();
    assert_eq!(turn, r#"{"type":"refused","why":"not_your_turn","message":"Not your turn"}"#);
}

#[test]
fn bad_messages_are_refused_with_what_was_wrong() {
    let refused = |text: &str| read(text).unwrap_err();
    assert_eq!(refused("not json").0, Refusal::BadMessage);
    assert_eq!(refused(r#"{"type":"start","extra":1}"#).0, Refusal::BadMessage, "unknown fields");
    let nested =
        r#"{"type":"host","protocol":6,"name":"Anna","setup":{"preset":"Classic","bots":"Expert","colour":1}}"#;
    assert!(refused(nested).1.contains("colour"));
    assert!(refused(r#"{"type":"fly"}"#).1.contains("fly"), "names the unknown type");
    let wrong = refused(r#"{"type":"join","protocol":9,"code":"K7M2QZ","name":"Anna"}"#);
    assert_eq!(wrong.0, Refusal::Protocol);
    assert!(wrong.1.contains('9'));
    assert_eq!(refused(r#"{"type":"join","protocol":6,"code":"K7M2QZ","name":""}"#).0, Refusal::BadName);
    assert_eq!(refused(r#"{"type":"join","protocol":6,"code":"K0M2QZ","name":"Anna"}"#).0, Refusal::BadMessage);
    let bad_rules =
        r#"{"type":"host","protocol":6,"name":"Anna","setup":{"preset":"Classic","set":"nonsense=3","bots":"Expert"}}"#;
    assert_eq!(refused(bad_rules).0, Refusal::BadSetup);
    assert_eq!(refused(&"x".repeat(MAX_MESSAGE + 1)).0, Refusal::TooLong);
}

#[test]
fn a_seal_is_sha256_of_the_secret_then_the_code() {
    // SHA-256 of 32 zero bytes and "abc", from Python's hashlib.
    assert_eq!(seal_of(&[0; SECRET_LEN], "abc"), "365aa7d8f7f9402c4b9434502b4cc89ddb09fe50d7cd95b493b834c62d5a5370");
    let table = Match::new(Preset::Classic.rules(), 3, Seat::North);
    let code = table.game().deal().code();
    let secret = [7u8; SECRET_LEN];
    let sealed = seal(&secret, table.game());
    assert!(opens(&sealed, &hex(&secret), &code));
    // The code alone does not open it: the hash of the code is not the
    // seal, and another secret or a secret short of 256 bits opens nothing.
    assert_ne!(sealed, sha256_hex(&code));
    assert!(!opens(&sealed, &hex(&[8u8; SECRET_LEN]), &code));
    assert!(!opens(&sealed, &hex(&secret[..31]), &code));
    assert!(!opens(&sealed, &hex(&secret).to_uppercase().replace('7', "x"), &code));
    let other = Match::new(Preset::Classic.rules(), 4, Seat::North).game().deal().code();
    assert!(!opens(&sealed, &hex(&secret), &other));
}

/// A hand thrown in is dealt again under the same deal number with a seal
/// of its own: each opening is checked against the seal it followed.
#[test]
fn a_redealt_hand_is_checked_against_its_own_seal() {
    let mut seals = Seals::default();
    let deal = |seed| Match::new(Preset::Classic.rules(), seed, Seat::North).game().deal().code();
    let (first, again) = (deal(1), deal(2));
    let (a, b) = ([1u8; SECRET_LEN], [2u8; SECRET_LEN]);
    seals.heard(1, seal_of(&a, &first));
    assert_eq!(seals.check(1, &first, &hex(&a)), SealCheck::Holds);
    seals.heard(1, seal_of(&b, &again));
    assert_eq!(seals.check(1, &again, &hex(&b)), SealCheck::Holds);
    assert_eq!(seals.check(1, &first, &hex(&a)), SealCheck::Broken);
    assert_eq!(seals.check(2, &first, &hex(&a)), SealCheck::Unheard);
}

#[test]
fn names_are_trimmed_and_refused_with_hidden_or_turning_characters() {
    assert_eq!(name_error("  Anna "), None);
    assert_eq!(name_error("Zoë"), None);
    for bad in ["Ann\u{202E}a", "An\u{200B}na", "\u{2066}Anna", "Anna\u{FEFF}", "An\u{200D}na", "An\u{7}na", " "] {
        assert!(name_error(bad).is_some(), "{bad:?} is a name");
    }
    assert!(name_error(&"x".repeat(MAX_NAME + 1)).is_some());
    assert!(same_name(" anna", "ANNA "));
    assert!(!same_name("Anna", "Hanna"));
    let refused = |text: &str| read(text).unwrap_err();
    assert_eq!(refused(r#"{"type":"join","protocol":6,"code":"K7M2QZ","name":"An\u202ena"}"#).0, Refusal::BadName);
}

#[test]
fn a_seat_that_keeps_the_last_sheet_sent_always_has_the_tables() {
    let mut table = Match::new(Preset::Classic.rules(), 7, Seat::North);
    let mut bots: Vec<_> = Seat::ALL.iter().map(|s| Level::Random.bot(7 ^ s.index() as u64)).collect();
    let mut kept: Option<ScoreSheet> = None;
    let (mut sent, mut messages) = (0, 0);
    let mut receive = |table: &Match, events: &[Event], kept: &mut Option<ScoreSheet>| {
        let FromTable::Table { sheet, .. } = for_seat(table, Seat::South, 0, events) else { unreachable!() };
        messages += 1;
        if let Some(sheet) = sheet {
            sent += 1;
            *kept = Some(sheet);
        }
        assert_eq!(kept.as_ref(), Some(table.sheet()), "after {events:?}");
    };
    receive(&table, &[], &mut kept);
    for _ in 0..3 {
        while let Some(seat) = table.game().to_act() {
            let events = table.act(seat, bots[seat.index()].decide(&table.game().view(seat)).action).unwrap();
            receive(&table, &events, &mut kept);
        }
        table.next_deal().unwrap();
        receive(&table, &[], &mut kept);
    }
    assert!(sent * 5 < messages, "the sheet came with {sent} of {messages} messages");
}

/// Plays a match of `deals` deals with random bots (and roem called out of
/// turn now and then, as a person taps Roem!), a stand-in for every seat
/// fed every message that seat is sent. Returns the views followed.
fn stand_ins_follow_the_table(preset: Preset, seed: u64, deals: usize) -> Result<usize, TestCaseError> {
    use crate::stand_in::StandIn;
    let rules = preset.rules();
    let mut table = Match::new(rules, seed, Seat::from_index(seed as usize));
    let mut bots: Vec<_> = Seat::ALL.iter().map(|s| Level::Random.bot(seed ^ s.index() as u64)).collect();
    let mut rng = klaverjas::Rng::new(seed);
    let mut stand_ins = Seat::ALL.map(|s| StandIn::new(s, seed + s.index() as u64));
    let mut followed = 0;
    let mut reviewed = 0;
    let mut step = 0;
    let mut send = |table: &Match, events: &[Event], step: u64, stand_ins: &mut [StandIn; 4]| {
        for seat in Seat::ALL {
            let FromTable::Table { deal, view, sheet, .. } = for_seat(table, seat, step, events) else {
                unreachable!()
            };
            let s = &mut stand_ins[seat.index()];
            s.table(deal, &view, sheet.as_ref())
                .map_err(|e| TestCaseError::fail(format!("{preset:?} seed {seed} step {step} {seat:?}: {e}")))?;
            prop_assert_eq!(&s.game().unwrap().view(seat), &*view);
            // The app's match: this seat at South, with its own hand, the
            // table's deal number and the sheet turned with it.
            let m = s
                .seen_from_seat()
                .map_err(|e| TestCaseError::fail(format!("{preset:?} {seed} {step} {seat:?}: {e}")))?;
            prop_assert_eq!(m.game().hand(Seat::South), view.hand);
            prop_assert_eq!(m.deal_number(), table.deal_number());
            let turned: Vec<_> = table.sheet().rows.iter().map(|r| r.seen_from(seat)).collect();
            prop_assert_eq!(&m.sheet().rows, &turned);
            prop_assert_eq!(m.game().to_act().map(|s| s.after(4 - seat.turn_to_south())), table.game().to_act());
            followed += 1;
        }
        Ok::<(), TestCaseError>(())
    };
    send(&table, &[], step, &mut stand_ins)?;
    for _ in 0..deals {
        while let Some(seat) = table.game().to_act() {
            // A roem call out of turn, from a seat whose side took it.
            let caller = Seat::ALL[rng.below(4) as usize];
            let called = if rng.below(2) == 0 { table.call_roem(caller).ok() } else { None };
            let events = match called {
                Some(events) => events,
                None => table.act(seat, bots[seat.index()].decide(&table.game().view(seat)).action).unwrap(),
            };
            step += 1;
            send(&table, &events, step, &mut stand_ins)?;
        }
        let number = table.deal_number();
        if table.game().result().is_some() {
            let code = table.game().deal().code();
            for seat in Seat::ALL {
                let s = &mut stand_ins[seat.index()];
                s.opened(number, &code).map_err(|e| TestCaseError::fail(e.to_string()))?;
                // The review's deal: the real cards, seen from the seat.
                let m = s.seen_from_seat().unwrap();
                let real = table.finished_deal(number).unwrap();
                prop_assert_eq!(*m.finished_deal(number).unwrap().deal(), real.deal().seen_from(seat));
                // The deal before, where this stand-in saw it end (not one
                // come back since).
                if let Some(kept) = m.finished_deal(number.saturating_sub(1)) {
                    let before = table.finished_deal(number - 1).unwrap();
                    prop_assert_eq!(*kept.deal(), before.deal().seen_from(seat));
                    reviewed += 1;
                }
            }
        }
        if table.is_over() || table.next_deal().is_err() {
            break;
        }
        step += 1;
        send(&table, &[], step, &mut stand_ins)?;
        // Now and then a seat comes back with nothing but the table's word
        // (a reload): a new stand-in, welcomed as the server welcomes a
        // seat taken back, then following with the others.
        if rng.below(2) == 0 {
            let seat = Seat::ALL[rng.below(4) as usize];
            stand_ins[seat.index()] = StandIn::new(seat, seed ^ 77);
            send(&table, &[], step, &mut stand_ins)?;
        }
    }
    prop_assert!(deals < 2 || reviewed > 0, "{preset:?} {seed}: no earlier deal kept for its review");
    Ok(followed)
}

#[test]
fn a_stand_in_follows_every_four_player_preset() {
    for preset in Preset::ALL.into_iter().filter(|p| p.rules().players == klaverjas::Players::Four) {
        for seed in 0..16 {
            let followed = stand_ins_follow_the_table(preset, seed, 4).unwrap();
            assert!(followed > 200, "{preset:?}: only {followed} views");
        }
    }
}

#[test]
fn a_stand_in_refuses_a_table_of_three() {
    let table = Match::new(Preset::Three.rules(), 1, Seat::East);
    let FromTable::Table { deal, view, sheet, .. } = for_seat(&table, Seat::South, 0, &[]) else { unreachable!() };
    let err = crate::stand_in::StandIn::new(Seat::South, 1).table(deal, &view, sheet.as_ref()).unwrap_err();
    assert_eq!(err.to_string(), "a table of 3 players cannot be followed here");
}
