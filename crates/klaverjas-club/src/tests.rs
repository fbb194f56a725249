use crate::draw::{Met, draw};
use crate::*;
use klaverjas::{EnteredDeal, Preset, Rng, Seat, score_entered};
use std::collections::HashMap;

/// Whether the players could each get a partner they never had: by an
/// exhaustive search over subsets where there are few, by Dirac's theorem
/// where there are many (every player with fresh partners among at least
/// half the others: the graph of fresh pairs has a Hamiltonian cycle, and
/// an even cycle a perfect matching). `None`: neither decides.
fn fresh_draw_exists(players: &[PlayerId], met: &Met) -> Option<bool> {
    let n = players.len();
    if n <= 20 {
        fn matchable(mask: u32, players: &[PlayerId], met: &Met, memo: &mut HashMap<u32, bool>) -> bool {
            if mask == 0 {
                return true;
            }
            if let Some(&known) = memo.get(&mask) {
                return known;
            }
            let i = mask.trailing_zeros() as usize;
            let rest = mask & !(1 << i);
            let found = (0..players.len()).any(|j| {
                rest & (1 << j) != 0
                    && met.partnered(players[i], players[j]) == 0
                    && matchable(rest & !(1 << j), players, met, memo)
            });
            memo.insert(mask, found);
            found
        }
        return Some(matchable((1u32 << n) - 1, players, met, &mut HashMap::new()));
    }
    let fresh = |a: PlayerId| players.iter().filter(|b| **b != a && met.partnered(a, **b) == 0).count();
    if players.iter().all(|a| 2 * fresh(*a) >= n) { Some(true) } else { None }
}

#[test]
fn the_draw_gives_no_partner_twice_where_it_can_and_sit_outs_in_turn() {
    let (mut rounds, mut by_search, mut by_dirac, mut none_possible, mut opponents_again) = (0, 0, 0, 0, 0u32);
    for n in 8..=64u16 {
        for evening_rounds in 2..=6usize {
            for seed in 0..2u64 {
                let present: Vec<PlayerId> = (0..n).collect();
                let mut before: Vec<Draw> = Vec::new();
                for r in 0..evening_rounds {
                    let seed = klaverjas::deal_seed(seed * 1000 + u64::from(n), r as u64);
                    let drawn = draw(seed, &present, &before, evening_rounds - r - 1, Leftover::SitOut).unwrap();
                    assert_eq!(drawn, draw(seed, &present, &before, evening_rounds - r - 1, Leftover::SitOut).unwrap());
                    let met = Met::of(&before);
                    let playing: Vec<PlayerId> = drawn.tables.iter().flat_map(|t| t.players()).collect();
                    // Everyone once: at a table or sitting out.
                    let mut all: Vec<PlayerId> = playing.iter().chain(&drawn.sitting_out).copied().collect();
                    all.sort_unstable();
                    assert_eq!(all, present, "n {n}");
                    assert_eq!(drawn.sitting_out.len(), usize::from(n) % 4);
                    let repeated = drawn
                        .tables
                        .iter()
                        .flat_map(|t| [(t.chairs[0], t.chairs[2]), (t.chairs[1], t.chairs[3])])
                        .filter(|(a, b)| met.partnered(a.unwrap(), b.unwrap()) > 0)
                        .count();
                    match fresh_draw_exists(&playing, &met) {
                        Some(true) => {
                            if playing.len() <= 20 {
                                by_search += 1
                            } else {
                                by_dirac += 1
                            }
                            assert_eq!(
                                repeated, 0,
                                "n {n}, round {r} of {evening_rounds}, seed {seed}: a partner again"
                            );
                        }
                        Some(false) => none_possible += 1,
                        None => panic!("n {n} round {r}: undecided"),
                    }
                    for t in &drawn.tables {
                        for (a, b) in [(0, 1), (1, 2), (2, 3), (3, 0)] {
                            opponents_again += met.faced(t.chairs[a].unwrap(), t.chairs[b].unwrap()).min(1);
                        }
                    }
                    before.push(drawn);
                    rounds += 1;
                }
                let met = Met::of(&before);
                let outs: Vec<u32> = present.iter().map(|p| met.sat_out(*p)).collect();
                assert!(outs.iter().max().unwrap() - outs.iter().min().unwrap() <= 1, "n {n}: sit-outs {outs:?}");
            }
        }
    }
    println!(
        "{rounds} rounds drawn: a draw without a repeated partner existed in {} ({by_search} shown by search, {by_dirac} by Dirac) and was found in each; none existed in {none_possible}; {opponents_again} pairs of opponents met again",
        by_search + by_dirac
    );
    assert_eq!(none_possible, 0);
}

#[test]
fn a_draw_with_bots_seats_everyone() {
    for n in 2..=13u16 {
        let present: Vec<PlayerId> = (0..n).collect();
        let drawn = draw(n.into(), &present, &[], 1, Leftover::Bots).unwrap();
        assert!(drawn.sitting_out.is_empty());
        assert_eq!(drawn.tables.iter().map(|t| t.players().count()).sum::<usize>(), usize::from(n));
        assert_eq!(drawn.tables.len(), usize::from(n).div_ceil(4));
    }
    assert_eq!(draw(1, &[0, 1, 2], &[], 0, Leftover::SitOut), Err(DrawError::TooFew { present: 3, needed: 4 }));
}

/// Random deals as a table writes them: who played, trump, their points
/// and each side's roem; a pit now and then.
fn random_deal(rng: &mut Rng) -> EnteredDeal {
    let seat = ["N", "E", "S", "W"][rng.below(4) as usize];
    let suit = ["C", "D", "H", "S"][rng.below(4) as usize];
    let line = match rng.below(12) {
        0 => format!("{seat} {suit} 162 roem 0/0 pit"),
        _ => format!("{seat} {suit} {} roem {}/{}", rng.below(163), 20 * rng.below(3), 20 * rng.below(2)),
    };
    line.parse().unwrap()
}

fn setup(cards: Cards, rounds: u8, deals: u8) -> EveningSetup {
    EveningSetup { rounds, deals, ..EveningSetup::club_evening("Dinsdag", Preset::Classic, cards) }
}

#[test]
fn an_evening_of_ten_with_real_cards_ranks_what_its_tables_entered() {
    let mut e = Evening::new(setup(Cards::Real, 2, 8), 7).unwrap();
    for name in ["Anne", "Bas", "Cor", "Dirk", "Els", "Fem", "Gert", "Hans", "Ina"] {
        e.apply(Who::Newcomer, EveningAction::CheckIn { name: name.into() }).unwrap();
    }
    assert_eq!(
        e.apply(Who::Newcomer, EveningAction::CheckIn { name: " anne ".into() }),
        Err(EveningError::NameTaken("anne".into()))
    );
    assert_eq!(e.apply(Who::Player(0), EveningAction::Add { name: "Jan".into() }), Err(EveningError::NotOrganiser));
    e.apply(Who::Organiser, EveningAction::Add { name: "Jan".into() }).unwrap();
    let mut rng = Rng::new(3);
    let mut entered: Vec<(u8, u16, Vec<EnteredDeal>)> = Vec::new();
    for round in 0..2u8 {
        assert_eq!(e.apply(Who::Player(1), EveningAction::Draw), Err(EveningError::NotOrganiser));
        e.apply(Who::Organiser, EveningAction::Draw).unwrap();
        let first = e.round().unwrap().1.draw.clone();
        // Redone before it starts: the next seed's draw.
        e.apply(Who::Organiser, EveningAction::Draw).unwrap();
        assert_ne!(first, e.round().unwrap().1.draw);
        e.apply(Who::Organiser, EveningAction::Start).unwrap();
        assert_eq!(
            e.apply(Who::Organiser, EveningAction::Draw),
            Err(EveningError::RoundNotOver { round: round + 1, left: 16 })
        );
        let draw = e.round().unwrap().1.draw.clone();
        assert_eq!(draw.sitting_out.len(), 2);
        for (t, table) in draw.tables.iter().enumerate() {
            let t = t as u16;
            let keeper = table.chairs[0].unwrap();
            let other_table = draw.tables[1 - usize::from(t)].chairs[0].unwrap();
            let deal = random_deal(&mut rng);
            assert_eq!(
                e.apply(Who::Player(other_table), EveningAction::Enter { table: t, deal }),
                Err(EveningError::NotAtTable)
            );
            assert_eq!(
                e.apply(Who::Player(draw.sitting_out[0]), EveningAction::Enter { table: t, deal }),
                Err(EveningError::NotAtTable)
            );
            let mut deals = Vec::new();
            for _ in 0..8 {
                let deal = random_deal(&mut rng);
                e.apply(Who::Player(keeper), EveningAction::Enter { table: t, deal }).unwrap();
                deals.push(deal);
            }
            assert_eq!(
                e.apply(Who::Player(keeper), EveningAction::Enter { table: t, deal }),
                Err(EveningError::TableDone(t))
            );
            // The other pair disputes the third line; the organiser
            // corrects it, and the correction is kept with who made it.
            let opponent = table.chairs[1].unwrap();
            e.apply(Who::Player(opponent), EveningAction::Dispute { round, table: t, line: 2 }).unwrap();
            assert_eq!(
                e.apply(Who::Player(other_table), EveningAction::Dispute { round, table: t, line: 2 }),
                Err(EveningError::NotAtTable)
            );
            let fixed = random_deal(&mut rng);
            e.apply(Who::Organiser, EveningAction::Correct { round, table: t, line: 2, deal: fixed }).unwrap();
            deals[2] = fixed;
            let notes = &e.rounds[usize::from(round)].tables[usize::from(t)].notes[2];
            assert_eq!(
                notes,
                &[
                    LineNote::Entered { by: Who::Player(keeper) },
                    LineNote::Disputed { by: opponent },
                    LineNote::Corrected { by: Who::Organiser }
                ]
            );
            // A line that does not score is refused and changes nothing.
            let bad: EnteredDeal = "N H 170".parse().unwrap();
            assert!(matches!(
                e.apply(Who::Organiser, EveningAction::Correct { round, table: t, line: 0, deal: bad }),
                Err(EveningError::Sheet(_))
            ));
            entered.push((round, t, deals));
        }
        // Nobody may report an online deal at a real-cards evening.
        assert!(
            e.apply(
                Who::Player(0),
                EveningAction::Played { round, table: 0, line: 8, result: e.rounds[0].tables[0].results[0] }
            )
            .is_err()
        );
    }
    assert!(e.is_over());
    assert_eq!(e.apply(Who::Organiser, EveningAction::Draw), Err(EveningError::Over));

    // The standings worked out again, another way: each deal scored on its
    // own, its points to the four who sat there; the sit-outs the round's
    // average of those who played.
    let rules = e.rules();
    let mut points: HashMap<PlayerId, u32> = HashMap::new();
    for round in 0..2u8 {
        let draw = &e.rounds[usize::from(round)].draw;
        let mut round_points: HashMap<PlayerId, u32> = HashMap::new();
        for (_, t, deals) in entered.iter().filter(|(r, ..)| *r == round) {
            for deal in deals {
                let result = score_entered(&rules, deal).unwrap();
                for seat in Seat::ALL {
                    let p = draw.tables[usize::from(*t)].chairs[seat.index()].unwrap();
                    *round_points.entry(p).or_default() +=
                        u32::from(result.sheet_points[seat.team()] + result.sheet_roem[seat.team()]);
                }
            }
        }
        let average = (round_points.values().sum::<u32>() + 4) / 8;
        for out in &draw.sitting_out {
            round_points.insert(*out, average);
        }
        for (p, v) in round_points {
            *points.entry(p).or_default() += v;
        }
    }
    let standings = e.standings();
    assert_eq!(standings.len(), 10);
    for row in &standings {
        assert_eq!(row.points, points[&row.player], "{}", row.name);
    }
    assert!(standings.windows(2).all(|w| w[0].points >= w[1].points && w[0].place <= w[1].place));
    assert_eq!(standings.iter().map(|r| r.sat_out).sum::<u32>(), 4);
}

#[test]
fn an_online_table_keeps_each_deal_once() {
    let mut e = Evening::new(setup(Cards::Online, 1, 8), 1).unwrap();
    for name in ["A", "B", "C", "D"] {
        e.apply(Who::Newcomer, EveningAction::CheckIn { name: name.into() }).unwrap();
    }
    e.apply(Who::Organiser, EveningAction::Draw).unwrap();
    e.apply(Who::Organiser, EveningAction::Start).unwrap();
    let result = score_entered(&e.rules(), &"N H 100".parse().unwrap()).unwrap();
    let played = EveningAction::Played { round: 0, table: 0, line: 0, result };
    assert_eq!(e.apply(Who::Player(0), played.clone()), Err(EveningError::NotAtTable));
    assert_eq!(e.apply(Who::Server, played.clone()), Ok(Change::Line { round: 0, table: 0, line: 0 }));
    assert_eq!(e.apply(Who::Server, played), Ok(Change::Nothing));
    assert_eq!(
        e.apply(Who::Player(0), EveningAction::Enter { table: 0, deal: "N H 100".parse().unwrap() }),
        Err(EveningError::Online)
    );
    assert_eq!(e.left(), 7);
}

#[test]
fn the_organiser_chooses_how_each_table_plays() {
    let mut e = Evening::new(EveningSetup { leftover: Leftover::Bots, ..setup(Cards::Online, 1, 8) }, 1).unwrap();
    for name in ["A", "B", "C", "D", "E", "F"] {
        e.apply(Who::Newcomer, EveningAction::CheckIn { name: name.into() }).unwrap();
    }
    e.apply(Who::Organiser, EveningAction::Draw).unwrap();
    let bots = e.round().unwrap().1.draw.tables.iter().position(|t| t.chairs.contains(&None)).unwrap() as u16;
    let people = 1 - bots;
    assert_eq!(
        e.apply(Who::Organiser, EveningAction::TableCards { table: bots, cards: Cards::Real }),
        Err(EveningError::BotsOnline(bots))
    );
    assert_eq!(
        e.apply(Who::Player(0), EveningAction::TableCards { table: people, cards: Cards::Real }),
        Err(EveningError::NotOrganiser)
    );
    e.apply(Who::Organiser, EveningAction::TableCards { table: people, cards: Cards::Real }).unwrap();
    e.apply(Who::Organiser, EveningAction::Start).unwrap();
    let keeper = e.round().unwrap().1.draw.tables[usize::from(people)].chairs[0].unwrap();
    e.apply(Who::Player(keeper), EveningAction::Enter { table: people, deal: "N H 100".parse().unwrap() }).unwrap();
    let result = score_entered(&e.rules(), &"N H 100".parse().unwrap()).unwrap();
    assert_eq!(
        e.apply(Who::Server, EveningAction::Played { round: 0, table: people, line: 1, result }),
        Err(EveningError::RealCards)
    );
    e.apply(Who::Server, EveningAction::Played { round: 0, table: bots, line: 0, result }).unwrap();
    assert_eq!(e.left(), 14);
}

#[test]
fn an_evening_replays_from_its_record() {
    let actions = vec![
        (Who::Newcomer, EveningAction::CheckIn { name: "A".into() }),
        (Who::Newcomer, EveningAction::CheckIn { name: "B".into() }),
        (Who::Organiser, EveningAction::Add { name: "C".into() }),
        (Who::Newcomer, EveningAction::CheckIn { name: "D".into() }),
        (Who::Newcomer, EveningAction::CheckIn { name: "E".into() }),
        (Who::Organiser, EveningAction::Remove { player: 4 }),
        (Who::Organiser, EveningAction::Draw),
        (Who::Organiser, EveningAction::Start),
        (Who::Player(0), EveningAction::Enter { table: 0, deal: "N H 100 roem 20/0".parse().unwrap() }),
    ];
    let e = Evening::replay(setup(Cards::Real, 3, 16), 9, &actions).unwrap();
    let json = serde_json::to_string(&actions).unwrap();
    let back: Vec<(Who, EveningAction)> = serde_json::from_str(&json).unwrap();
    assert_eq!(Evening::replay(setup(Cards::Real, 3, 16), 9, &back).unwrap(), e);
    assert_eq!(e.standings()[0].points, 120);
    assert!(!e.players[4].present);
    let mut broken = actions.clone();
    broken.insert(1, (Who::Player(0), EveningAction::Draw));
    assert_eq!(Evening::replay(setup(Cards::Real, 3, 16), 9, &broken).err(), Some((1, EveningError::NotOrganiser)));
}

#[test]
fn setups_that_do_not_add_up_are_refused() {
    let s = |f: &dyn Fn(&mut EveningSetup)| {
        let mut s = setup(Cards::Real, 3, 16);
        f(&mut s);
        Evening::new(s, 0).err()
    };
    assert_eq!(s(&|s| s.preset = Preset::Klawerjas), Some(EveningError::Preset(Preset::Klawerjas)));
    assert_eq!(s(&|s| s.preset = Preset::Three), Some(EveningError::Preset(Preset::Three)));
    assert_eq!(s(&|s| s.deals = 17), Some(EveningError::Deals(17)));
    assert_eq!(s(&|s| s.deals = 0), Some(EveningError::Deals(0)));
    assert_eq!(s(&|s| s.rounds = 0), Some(EveningError::Rounds(0)));
    assert_eq!(s(&|s| s.leftover = Leftover::Bots), Some(EveningError::BotsAtRealCards));
    assert!(matches!(s(&|s| s.set = "nonsense=1".into()), Some(EveningError::HouseRules(_))));
    assert_eq!(s(&|s| s.deals = 12), None);
}

#[test]
fn the_csv_and_the_season() {
    let rows = vec![
        Standing { name: "=cmd".into(), points: 3, place: 1, ..Standing::default() },
        Standing { name: "de Vries, \"Jo\"".into(), points: 2, place: 2, ..Standing::default() },
    ];
    let text = csv(&rows);
    assert!(text.contains("1,'=cmd,3,"), "{text}");
    assert!(text.contains("2,\"de Vries, \"\"Jo\"\"\",2,"), "{text}");
    let a = |name: &str, points| Attended { name: name.into(), points };
    let evenings =
        vec![vec![a("Anne", 3000), a("Bas", 2000)], vec![a("anne ", 1000), a("Bas", 2500)], vec![a("Cor", 4000)]];
    let all = season(&evenings, None);
    assert_eq!((all[0].name.as_str(), all[0].points, all[0].evenings), ("Bas", 4500, 2));
    assert_eq!((all[1].name.as_str(), all[1].points), ("Anne", 4000));
    let best = season(&evenings, Some(1));
    assert_eq!(
        best.iter().map(|r| (r.name.as_str(), r.points, r.place)).collect::<Vec<_>>(),
        [("Cor", 4000, 1), ("Anne", 3000, 2), ("Bas", 2500, 3)]
    );
}
