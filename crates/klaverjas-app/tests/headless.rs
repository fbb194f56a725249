//! The app without a window or GPU: `MinimalPlugins` + `StatesPlugin`, an
//! asset server, the logic and the table's card entities, driven by
//! `app.update()` with a fixed step of game time.

use bevy::input::touch::{TouchInput, TouchPhase};
use bevy::prelude::*;
use klaverjas::{Action, Bid, Card, Match, Phase, Preset, Seat, Suit, Team};
use klaverjas_app::cli::Options;
use klaverjas_app::drawn::Drawn;
use klaverjas_app::pictures::CardImages;
use klaverjas_app::seats::{Controller, GameEvent, HUMAN, PlayerAction, Refusal, Seats, TableCommand};
use klaverjas_app::settings::{Language, Skin, Speed};
use klaverjas_app::show::Show;
use klaverjas_app::sound::{Speaker, mixer::Command};
use klaverjas_app::state::{PlayerSettings, Screen, Texts, TitleMessage};
use klaverjas_app::table::cards::{Look, Place, TableCard, Target, Tween};
use klaverjas_app::table::layout::Table;
use klaverjas_app::words;
use klaverjas_cards::Sound;
use std::collections::VecDeque;
use std::time::Duration;

mod common;
use common::{headless_app, headless_app_with, temp_dir};

fn seats(app: &App) -> &Seats {
    app.world().resource::<Seats>()
}

fn now(app: &App) -> f32 {
    app.world().resource::<Time>().elapsed_secs()
}

/// Runs frames until `stop` holds: 20,000 frames, and on a machine busy
/// with other tests as many more as 60 s allow (a bot thinks on a thread
/// of its own, and a loaded machine ran out of frames before it answered).
fn run_until(app: &mut App, what: &str, stop: impl Fn(&App) -> bool) {
    let started = std::time::Instant::now();
    for frame in 0.. {
        if stop(app) {
            return;
        }
        if frame >= 20_000 && started.elapsed() > Duration::from_secs(60) {
            break;
        }
        app.update();
    }
    panic!("never reached: {what}");
}

/// Whether a seat may act: the show has taken in and shown everything.
fn idle(app: &App) -> bool {
    let show = app.world().resource::<Show>();
    app.world().get_resource::<Seats>().is_none_or(|s| s.ready(show.stage(now(app))))
}

/// Sits the player down at a new match and shows the table.
fn sit_down(app: &mut App, seats: Seats) {
    let number = seats.m.deal_number();
    app.world_mut().insert_resource(seats);
    app.world_mut().write_message(GameEvent::Dealt { number });
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Table);
    app.update();
}

fn player_seats(preset: Preset, seed: u64) -> Seats {
    let m = klaverjas_app::seats::new_match(preset.rules(), Some(seed));
    Seats::new(m, false, klaverjas_ai::Level::Heuristic)
}

fn act(app: &mut App, action: Action) {
    app.world_mut().write_message(PlayerAction { seat: HUMAN, action });
    app.update();
}

/// Plays the player's turns with the first legal action (passing where
/// allowed) until `stop` holds.
fn play_until(app: &mut App, what: &str, stop: impl Fn(&Seats) -> bool) {
    for _ in 0..20_000 {
        app.update();
        let s = seats(app);
        if stop(s) {
            return;
        }
        let g = s.game();
        let show = app.world().resource::<Show>();
        if s.waiting_for(show.stage(now(app))) == Some(HUMAN) {
            let legal = g.legal_actions();
            let pass = Action::Bid(Bid::Pass);
            let action = if legal.contains(&pass) { pass } else { legal[0] };
            act(app, action);
        }
    }
    panic!("never reached: {what}");
}

/// Plays until the player is to play a card, and the show has caught up.
fn play_to_the_players_card(app: &mut App) {
    play_until(app, "the player's card", |s| s.game().phase() == Phase::Playing && s.game().to_act() == Some(HUMAN));
    run_until(app, "the show to catch up", idle);
}

fn cards(app: &mut App) -> Vec<(Card, Place, Look, Target, Option<Tween>)> {
    let mut q = app.world_mut().query::<(&TableCard, &Place, &Look, &Target, Option<&Tween>)>();
    q.iter(app.world()).map(|(c, p, l, t, tw)| (c.0, *p, *l, *t, tw.copied())).collect()
}

#[test]
fn bots_play_a_full_deal_to_the_score() {
    let dir = temp_dir("demo");
    let mut app = headless_app(
        Options { demo: true, seed: Some(4), data_dir: Some(dir.clone()), ..Options::default() },
        Speed::Instant,
    );
    run_until(&mut app, "the score", |app| app.world().resource::<Show>().shown.result.is_some());
    assert_eq!(app.world().resource::<State<Screen>>().get(), &Screen::Table);
    let m = seats(&app).m.clone();
    let s = &m;
    let result = s.game().result().copied().expect("the deal was scored");
    assert!(!dir.join("save.ron").exists(), "a demo leaves the player's save alone");
    assert_eq!(result.points.ns + result.points.ew, 162);
    assert_eq!(s.sheet().rows.len(), 1);
    let shown = &app.world().resource::<Show>().shown;
    assert_eq!(shown.tricks_won(Seat::South) + shown.tricks_won(Seat::East), 8, "the table showed every trick");
    // Every card lies in the pile of the team that won its trick: ours
    // before South, theirs before East.
    app.update();
    for (card, place, ..) in cards(&mut app) {
        let trick = s.game().tricks().iter().find(|t| t.cards.contains(&card)).expect("played");
        let pile = if trick.winner.team() == Team::NS { Seat::South } else { Seat::East };
        assert!(matches!(place, Place::Won { pile: p, .. } if p == pile), "{card}: {place:?}");
    }
}

/// The last trick's word, roem or not, is said while the trick still lies
/// on the table, as at a real table: the deal is over before the trick is
/// gathered. Game time stands still while a bot thinks: its answer may wait
/// behind other tests' work on the shared task pool.
#[test]
fn the_last_trick_is_passed_while_it_lies_there() {
    let dir = temp_dir("last-word");
    let mut app =
        headless_app(Options { demo: true, seed: Some(4), data_dir: Some(dir), ..Options::default() }, Speed::Fast);
    run_until(&mut app, "the last trick", |app| seats(app).game().phase() == Phase::ClaimRoem);
    for _ in 0..20_000 {
        if seats(&app).game().result().is_some() {
            break;
        }
        let step = if seats(&app).thinking().is_some() { Duration::ZERO } else { common::STEP };
        app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(step));
        app.update();
    }
    let shown = &app.world().resource::<Show>().shown;
    assert!(seats(&app).game().result().is_some(), "the deal ended");
    assert_eq!((shown.trick.len(), shown.gathered, shown.result), (4, None, None), "the last trick lies there");
}

/// At three, bots play a deal to the score: every trick lies on its
/// winner's own pile, and the two cards laid away lie with the last one.
#[test]
fn three_players_play_a_deal_and_the_last_trick_takes_what_was_laid_away() {
    let dir = temp_dir("three");
    let mut app = headless_app(
        Options { demo: true, seed: Some(6), rules: Some(Preset::Three), data_dir: Some(dir), ..Options::default() },
        Speed::Instant,
    );
    run_until(&mut app, "the score", |app| app.world().resource::<Show>().shown.result.is_some());
    let m = seats(&app).m.clone();
    let game = m.game();
    assert!(game.result().and_then(|r| r.players).is_some(), "each player scored alone");
    let last = game.tricks().last().expect("ten tricks").winner;
    let shown = &app.world().resource::<Show>().shown;
    assert!(shown.talon.is_empty(), "nothing lies in North's place after the last trick");
    let tricks: usize = [Seat::East, Seat::South, Seat::West].iter().map(|&s| shown.tricks_won(s)).sum();
    assert_eq!(tricks, 10);
    app.update();
    for (card, place, ..) in cards(&mut app) {
        let pile = match game.tricks().iter().find(|t| t.played().contains(&card)) {
            Some(t) => t.winner,
            None => {
                assert!(game.discards().contains(card), "{card} was neither played nor laid away");
                last
            }
        };
        assert!(matches!(place, Place::Won { pile: p, .. } if p == pile), "{card}: {place:?}");
    }
}

/// At two (Klaberjass), bots play a deal to the score: the stock's
/// fourteen cards stay in North's place, the open ones face up; every
/// trick lies on its winner's pile.
#[test]
fn two_players_play_a_deal_and_the_stock_stays_in_norths_place() {
    let dir = temp_dir("two");
    let mut app = headless_app(
        Options {
            demo: true,
            seed: Some(3),
            rules: Some(Preset::Klaberjass),
            data_dir: Some(dir),
            ..Options::default()
        },
        Speed::Instant,
    );
    run_until(&mut app, "the score", |app| app.world().resource::<Show>().shown.result.is_some());
    let m = seats(&app).m.clone();
    let game = m.game();
    assert_eq!(game.tricks().len(), 9);
    let shown = &app.world().resource::<Show>().shown;
    assert_eq!(shown.talon.len() as usize + shown.stock_open.len(), 14, "the stock keeps fourteen");
    assert_eq!(shown.stock_open.len(), 2, "the turned (or swapped) card and the bottom card lie open");
    app.update();
    for (card, place, _, target, _) in cards(&mut app) {
        match game.tricks().iter().find(|t| t.played().contains(&card)) {
            Some(t) => assert!(matches!(place, Place::Won { pile, .. } if pile == t.winner), "{card}: {place:?}"),
            None => {
                assert!(matches!(place, Place::Talon { .. } | Place::StockOpen { .. }), "{card}: {place:?}");
                assert_eq!(target.0.face_up, matches!(place, Place::StockOpen { .. }), "{card}");
            }
        }
    }
}

#[test]
fn a_deal_puts_32_card_entities_in_the_hands_in_packet_order() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("deal")), ..Options::default() }, Speed::Normal);
    sit_down(&mut app, player_seats(Preset::Classic, 3));
    let game = seats(&app).game().clone();
    let order = game.deal().dealing_order();
    let on_table = cards(&mut app);
    assert_eq!(on_table.len(), 32);
    // Each card is on its way to its seat's hand, leaving the dealer in
    // the engine's order: packets of 3, 2 and 3 from the dealer's left.
    let mut starts = Vec::new();
    for (k, &(seat, card)) in order.iter().enumerate() {
        let packet = if k < 12 {
            k / 3
        } else if k < 20 {
            (k - 12) / 2
        } else {
            (k - 20) / 3
        };
        assert_eq!(seat, game.dealer().after(packet + 1), "card {k} goes to the next seat in its round");
        let (_, place, _, _, tween) = on_table.iter().find(|c| c.0 == card).copied().expect("an entity per card");
        assert!(matches!(place, Place::Hand { seat: s, .. } if s == seat), "{card}: {place:?}");
        assert!(game.hand(seat).contains(card));
        starts.push(tween.expect("dealt with a tween").start);
    }
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "cards leave one by one in order: {starts:?}");
    // The first card leaves at once, the last near the end of the deal.
    let dealing = app.world().resource::<Show>().shown.dealing.clone().expect("a deal under way");
    assert_eq!(starts[0], dealing.start);
    let last_lands = starts[31] + dealing.flight();
    assert!(last_lands <= dealing.start + dealing.seconds + 1e-3 && last_lands > dealing.start + dealing.seconds * 0.9);
    run_until(&mut app, "the deal's end", cards_resting);
    for (card, place, look, target, _) in cards(&mut app) {
        assert_eq!(look, target.0, "{card} rests where it was sent");
        let Place::Hand { seat, .. } = place else { panic!("{card} in {place:?}") };
        assert!(game.hand(seat).contains(card));
    }
}

fn cards_resting(app: &App) -> bool {
    let world = app.world();
    let mut tweens = 0;
    for entity in world.iter_entities() {
        if entity.contains::<Tween>() {
            tweens += 1;
        }
    }
    tweens == 0
}

#[test]
fn a_played_card_flies_to_its_trick_slot_and_stays_there() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("fly")), ..Options::default() }, Speed::Normal);
    sit_down(&mut app, player_seats(Preset::Rotterdam, 8));
    play_to_the_players_card(&mut app);
    let card = seats(&app).game().legal_cards().first().expect("a legal card");
    act(&mut app, Action::Play(card));
    let (_, place, _, target, tween) = cards(&mut app).into_iter().find(|c| c.0 == card).unwrap();
    let table = *app.world().resource::<Table>();
    let slot = table.layout().trick_slot(HUMAN);
    assert!(matches!(place, Place::Trick { seat: HUMAN, .. }), "{place:?}");
    assert_eq!(target.0.at, slot);
    let tween = tween.expect("the card flies");
    assert!(tween.seconds > 0.0);
    run_until(&mut app, "the flight's end", |app| {
        let mut q = app.world().try_query::<(&TableCard, Option<&Tween>)>().unwrap();
        q.iter(app.world()).any(|(c, t)| c.0 == card && t.is_none())
    });
    let (_, _, look, ..) = cards(&mut app).into_iter().find(|c| c.0 == card).unwrap();
    assert_eq!(look.at, slot, "the tween ends on the slot");
    assert!(look.face_up);
}

#[test]
fn a_skin_change_swaps_every_picture() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("skin")), ..Options::default() }, Speed::Instant);
    sit_down(&mut app, player_seats(Preset::Classic, 2));
    app.update();
    let sprites = |app: &mut App| {
        let mut q = app.world_mut().query::<(&TableCard, &Sprite)>();
        q.iter(app.world()).map(|(c, s)| (c.0, s.image.clone())).collect::<Vec<_>>()
    };
    let before = sprites(&mut app);
    assert_eq!(app.world().resource::<CardImages>().skin, Skin::French);
    app.world_mut().resource_mut::<PlayerSettings>().0.skin = Skin::Swiss;
    app.update();
    app.update();
    let images = app.world().resource::<CardImages>();
    assert_eq!(images.skin, Skin::Swiss);
    let after = sprites(&mut app);
    assert_eq!(after.len(), 32);
    for ((card, old), (_, new)) in before.iter().zip(&after) {
        assert_ne!(old, new, "{card} still shows the old skin");
        let path = new.path().map(|p| p.to_string()).unwrap_or_default();
        assert!(path.starts_with("cards/swiss/"), "{card}: {path}");
    }
}

/// A touch at the centre of the visible strip of `card`, as the window
/// reports it.
fn touch(app: &mut App, card: Card) {
    let (_, _, look, ..) = cards(app).into_iter().find(|c| c.0 == card).unwrap();
    // Later cards overlap the right part: touch the left edge's strip.
    touch_at(app, look.at - Vec2::new(look.size.x * 0.4, 0.0));
}

/// A touch at `point` of the layout, as the window reports it.
fn touch_at(app: &mut App, point: Vec2) {
    let table = *app.world().resource::<Table>();
    let world = table.world(point, 0.0);
    let position = Vec2::new(world.x + table.window.x / 2.0, table.window.y / 2.0 - world.y);
    let window = Entity::PLACEHOLDER;
    app.world_mut().write_message(TouchInput { phase: TouchPhase::Started, position, window, force: None, id: 1 });
    app.update();
    app.world_mut().write_message(TouchInput { phase: TouchPhase::Ended, position, window, force: None, id: 1 });
}

#[test]
fn a_touch_on_a_card_plays_it_and_on_a_dimmed_card_names_the_rule() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("touch")), ..Options::default() }, Speed::Instant);
    sit_down(&mut app, player_seats(Preset::Rotterdam, 11));
    // On until South must follow and holds a card the rules forbid.
    play_until(&mut app, "a forbidden card", |s| {
        let g = s.game();
        g.to_act() == Some(HUMAN) && g.phase() == Phase::Playing && !g.hand(HUMAN).minus(g.legal_cards()).is_empty()
    });
    run_until(&mut app, "the show to catch up", idle);
    app.update();
    let (bad, rule) = {
        let g = seats(&app).game();
        let bad = g.hand(HUMAN).minus(g.legal_cards()).first().unwrap();
        (bad, g.check(Action::Play(bad)).unwrap_err())
    };
    let dimmed = cards(&mut app).into_iter().find(|c| c.0 == bad).unwrap().2.dim;
    assert!(dimmed, "a card that may not be played is dimmed");
    let before = seats(&app).m.clone();
    touch(&mut app, bad);
    app.update();
    let show = app.world().resource::<Show>();
    let texts = &app.world().resource::<Texts>().0;
    let trump = seats(&app).game().contract().map(|c| c.trump);
    let shown: Vec<String> =
        show.notices.iter().filter(|n| n.warning).map(|n| words::notice(n, texts, trump, None)).collect();
    let expected = words::explain(&rule, texts, trump);
    assert!(shown.contains(&expected), "the refusal names the rule: {shown:?} (wanted {expected})");
    assert_eq!(heard(&app).last(), Some(&Sound::Refused), "and is heard");
    assert!(!expected.is_empty() && !expected.contains("rule."), "translated: {expected}");
    assert_eq!(seats(&app).m, before, "nothing changed");
    // A legal card is played by a touch.
    let good = seats(&app).game().legal_cards().first().unwrap();
    touch(&mut app, good);
    app.update();
    let g = seats(&app).game();
    let played = g.current_trick().is_some_and(|t| t.cards().contains(&good))
        || g.tricks().last().is_some_and(|t| t.cards.contains(&good));
    assert!(played, "{good} was played");
}

#[test]
fn a_script_seat_plays_the_given_cards() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("script")), ..Options::default() }, Speed::Instant);
    // Amsterdam: West deals and names trump; North leads. Both are scripted.
    let m = Match::new(Preset::Amsterdam.rules(), 21, Seat::West);
    let trump = Suit::Hearts;
    let lead = m.game().hand(Seat::North).first().unwrap();
    let west = Controller::Script(VecDeque::from([Action::Bid(Bid::Trump(trump))]));
    let north = Controller::Script(VecDeque::from([Action::Play(lead)]));
    let east = Controller::bot(klaverjas_ai::Level::Heuristic, 1);
    sit_down(
        &mut app,
        Seats::with_controllers(m, klaverjas_app::seats::Kind::Match, [north, east, Controller::Human, west]),
    );
    play_until(&mut app, "the scripted lead", |s| s.game().current_trick().is_some_and(|t| !t.is_empty()));
    let g = seats(&app).game();
    assert_eq!(g.contract().map(|c| c.trump), Some(trump), "West's scripted bid");
    assert_eq!(g.current_trick().unwrap().cards()[0], lead, "North's scripted lead");
    // West's script is spent: it waits for its next card.
    play_until(&mut app, "West's turn", |s| s.game().to_act() == Some(Seat::West));
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(seats(&app).game().to_act(), Some(Seat::West), "an empty script waits");
    assert_eq!(seats(&app).game().current_trick().unwrap().len(), 3);
}

/// Under kraken the table waits for the player's pass or double once trump
/// is chosen, and the double sets the stakes the sheet will count.
#[test]
fn the_player_may_kraak_a_contract() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("kraak")), ..Options::default() }, Speed::Instant);
    let rules = klaverjas::Rules { kraken: true, ..Preset::Amsterdam.rules() };
    // West deals and names hearts; North, on West's left, speaks first and
    // passes; then the player.
    let m = Match::new(rules, 21, Seat::West);
    let west = Controller::Script(VecDeque::from([Action::Bid(Bid::Trump(Suit::Hearts)), Action::Bid(Bid::Pass)]));
    let north = Controller::Script(VecDeque::from([Action::Bid(Bid::Pass)]));
    let east = Controller::Script(VecDeque::from([Action::Bid(Bid::Pass)]));
    sit_down(
        &mut app,
        Seats::with_controllers(m, klaverjas_app::seats::Kind::Match, [north, east, Controller::Human, west]),
    );
    run_until(&mut app, "the player's double", |app| {
        idle(app) && seats(app).game().phase() == Phase::Doubling && seats(app).game().to_act() == Some(HUMAN)
    });
    assert_eq!(seats(&app).game().legal_actions(), vec![Action::Bid(Bid::Pass), Action::Bid(Bid::Double)]);
    act(&mut app, Action::Bid(Bid::Double));
    run_until(&mut app, "play", |app| seats(app).game().phase() == Phase::Playing);
    let stakes = seats(&app).game().stakes();
    assert_eq!((stakes.doubles, stakes.challenger, stakes.multiplier), (1, Some(Team::NS), 2));
    let texts = &app.world().resource::<Texts>().0;
    assert_eq!(words::double_name(texts, 1), "Double (kraak)");
}

#[test]
fn save_and_continue_mid_trick() {
    let dir = temp_dir("continue");
    let options = Options { seed: Some(5), data_dir: Some(dir.clone()), ..Options::default() };
    let mut app = headless_app(options.clone(), Speed::Instant);
    sit_down(&mut app, player_seats(Preset::Classic, 5));
    play_until(&mut app, "mid-trick", |s| {
        s.game().tricks().len() >= 2 && s.game().current_trick().is_some_and(|t| t.len() == 2)
    });
    let saved = seats(&app).m.clone();
    // A new app on the same data directory continues the same match.
    let again = headless_app(options, Speed::Instant);
    let back = &seats(&again).m;
    assert_eq!(back, &saved);
    assert_eq!(back.game().current_trick().unwrap().len(), 2, "mid-trick");
}

#[test]
fn a_damaged_save_and_settings_are_set_aside_and_told_in_the_players_language() {
    let dir = temp_dir("corrupt");
    std::fs::write(dir.join("save.ron"), "(format: 1, demo: false, record: (garbage").unwrap();
    std::fs::write(dir.join("settings.ron"), "(format: 1, skin: Fren").unwrap();
    let mut app = headless_app(Options { data_dir: Some(dir.clone()), ..Options::default() }, Speed::Instant);
    let notes = app.world().resource::<TitleMessage>().0.clone();
    assert_eq!(notes.len(), 2, "both are told: {notes:?}");
    for (language, expected) in [(Language::English, "damaged"), (Language::Dutch, "beschadigd")] {
        let t = klaverjas_app::i18n::Texts::load(language, Skin::French);
        for note in &notes {
            let message = words::title_note(note, &t);
            assert!(message.contains(expected), "{message}");
            assert!(message.contains(".unreadable-1"), "where it was kept: {message}");
            // No parser words, and no promise of a game that does not start.
            for word in ["Expected", "struct", "`", "FormatProbe", "new game starts", "nieuw spel"] {
                assert!(!message.contains(word), "{word} in {message}");
            }
        }
    }
    for file in ["save.ron", "settings.ron"] {
        assert!(dir.join(format!("{file}.unreadable-1")).exists(), "{file} is kept aside");
        assert!(!dir.join(file).exists());
    }
    assert!(app.world().get_resource::<Seats>().is_none(), "nothing to continue");
    // The warnings leave once a new game starts.
    sit_down(&mut app, player_seats(Preset::Classic, 4));
    app.world_mut().write_message(TableCommand::NewMatch);
    app.update();
    assert!(app.world().resource::<TitleMessage>().0.is_empty());
}

/// Roem as at a real table: after any trick the player's team won, the
/// player may call until the next card, roem in the trick or not; the bots
/// wait a moment for the call; a call is answered truthfully.
#[test]
fn the_player_may_call_roem_after_any_trick_their_team_won() {
    use klaverjas_app::show::NoticeText;
    let mut seen = [false; 2];
    for seed in 0..60 {
        let dir = temp_dir(&format!("call-{seed}"));
        let mut app = headless_app(Options { data_dir: Some(dir.clone()), ..Options::default() }, Speed::Instant);
        sit_down(&mut app, player_seats(Preset::Classic, seed));
        play_until(&mut app, "a trick our team won, or the end", |s| {
            s.game().result().is_some() || (s.game().may_call_roem(HUMAN) && s.game().tricks().len() < 8)
        });
        let game = seats(&app).game().clone();
        let Some(last) = game.tricks().last().copied().filter(|_| game.result().is_none()) else { continue };
        let roem = !last.roem.is_empty();
        if seen[roem as usize] {
            continue;
        }
        seen[roem as usize] = true;
        let n = game.tricks().len() as u8;
        run_until(&mut app, "the trick seen won", |app| app.world().resource::<Show>().tricks_seen == n);
        // Nobody plays on while the player may still call.
        let until = app.world().resource::<Show>().call_until;
        while now(&app) < until - 0.05 {
            app.update();
            assert_eq!(seats(&app).game().actions().len(), game.actions().len(), "a card before the call window ended");
        }
        assert!(seats(&app).game().may_call_roem(HUMAN));
        act(&mut app, Action::ClaimRoem);
        let after = seats(&app).game();
        let show = app.world().resource::<Show>();
        let answer = show.notices.iter().find(|n| n.seat == Some(HUMAN)).map(|n| n.text.clone());
        if roem {
            assert_eq!(after.roem()[Team::NS], game.roem()[Team::NS] + last.roem.points);
            assert_eq!(after.tricks().last().unwrap().credited, last.roem.points);
            assert_eq!(answer, Some(NoticeText::RoemClaimed(last.roem.points)));
            // The call is on disk in the frame it was made: a kill now
            // loses nothing.
            match klaverjas_app::save::Store::new(Some(dir.clone())).load_game(klaverjas_app::save::Slot::Match) {
                klaverjas_app::save::Loaded::Found((_, saved)) => assert_eq!(saved.game().roem(), after.roem()),
                other => panic!("no save after the call: {other:?}"),
            }
        } else {
            assert_eq!(after.roem(), game.roem(), "a call without roem counts nothing");
            assert_eq!(show.false_call, Some(n), "the call button goes");
            assert_eq!(answer, Some(NoticeText::NoRoemInTrick));
        }
        if seen == [true, true] {
            return;
        }
    }
    panic!("tricks with and without roem not both found: {seen:?}");
}

#[test]
fn a_refusal_is_typed_for_the_lesson_hook() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("gate")), ..Options::default() }, Speed::Instant);
    sit_down(&mut app, player_seats(Preset::Classic, 9));
    play_until(&mut app, "the player's card", |s| {
        s.game().phase() == Phase::Playing && s.game().to_act() == Some(HUMAN) && s.game().legal_cards().len() > 1
    });
    run_until(&mut app, "the show to catch up", idle);
    let legal = seats(&app).game().legal_cards();
    let wanted = legal.first().unwrap();
    let other = legal.iter().nth(1).unwrap();
    app.world_mut().resource_mut::<klaverjas_app::seats::ActionGate>().0 =
        Some(Box::new(
            move |_, _, a| if a == Action::Play(wanted) { Ok(()) } else { Err("lesson.play_the_ace".to_string()) },
        ));
    app.world_mut().write_message(PlayerAction { seat: HUMAN, action: Action::Play(other) });
    app.update();
    let refused: Vec<_> = app
        .world()
        .resource::<Messages<GameEvent>>()
        .iter_current_update_messages()
        .filter_map(|e| match e {
            GameEvent::Refused { refusal, .. } => Some(refusal.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(refused, vec![Refusal::Lesson("lesson.play_the_ace".to_string())]);
    assert!(seats(&app).game().hand(HUMAN).contains(other), "the gate kept the card in hand");
    act(&mut app, Action::Play(wanted));
    assert!(!seats(&app).game().hand(HUMAN).contains(wanted), "the wanted card was played");
}

#[test]
fn the_skins_pictures_arrive_and_are_halved_for_the_screen() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("pictures")), ..Options::default() }, Speed::Instant);
    let halvings = app.world().resource::<CardImages>().halvings;
    assert!(halvings >= 1, "a 720p table needs smaller pictures than the files");
    // Each picture is decoded and halved by the loader, one at a time on
    // a machine as busy as CI's: up to a minute.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        app.update();
        let world = app.world();
        if world.resource::<CardImages>().ready(world.resource::<AssetServer>()) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let world = app.world();
    let images = world.resource::<CardImages>();
    let server = world.resource::<AssetServer>();
    assert!(images.ready(server), "the pictures never got ready: {:?}", server.load_state(&images.back()));
    let back = world.resource::<Assets<Image>>().get(&images.back()).expect("the back is loaded");
    assert_eq!(back.height(), klaverjas_cards::CARD_HEIGHT >> halvings);
}

/// With a window, a game that opens at the title loads the card pictures
/// once the title is on the window, or once the player leaves it, not
/// before: on a slow phone their requests held the title's frames back.
#[test]
fn at_the_title_the_pictures_wait_until_it_is_drawn_or_left() {
    let waiting = |name: &str| {
        let options = Options { data_dir: Some(temp_dir(name)), ..Options::default() };
        headless_app_with(options, Speed::Normal, |app| {
            app.insert_resource(Drawn::default());
        })
    };
    let asked = |app: &App| {
        let world = app.world();
        let state = world.resource::<AssetServer>().load_state(&world.resource::<CardImages>().back());
        !matches!(state, bevy::asset::LoadState::NotLoaded)
    };
    let mut app = waiting("drawn-title");
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Title);
    for _ in 0..3 {
        app.update();
    }
    assert!(!asked(&app), "the pictures were asked for before the title was drawn");
    assert!(!app.world().resource::<CardImages>().ready(app.world().resource::<AssetServer>()));
    app.world_mut().resource_mut::<Drawn>().yes = true;
    app.update();
    assert!(asked(&app), "the pictures were not asked for once the title was drawn");

    let mut app = waiting("drawn-left");
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Settings);
    app.update();
    assert!(asked(&app), "the pictures were not asked for once the title was left");
}

#[test]
fn the_match_waits_while_the_menus_show_and_the_cards_come_back_in_place() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("menus")), ..Options::default() }, Speed::Normal);
    sit_down(&mut app, player_seats(Preset::Classic, 6));
    play_until(&mut app, "a bot's turn in play", |s| {
        s.game().phase() == Phase::Playing && s.game().to_act().is_some_and(|seat| seat != HUMAN)
    });
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Title);
    app.update();
    let before = seats(&app).game().actions().len();
    for _ in 0..300 {
        app.update();
    }
    assert_eq!(seats(&app).game().actions().len(), before, "no bot plays while the player is away");
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Table);
    app.update();
    app.update();
    for (card, _, look, target, tween) in cards(&mut app) {
        let resting = tween.is_none_or(|t| t.seconds == 0.0);
        assert!(resting, "{card} flies in on entering the table again");
        assert!(tween.is_some() || look == target.0, "{card}");
    }
    run_until(&mut app, "the bots to play on", |app| seats(app).game().actions().len() > before);
}

/// A process killed right after the player's card loses nothing: the save
/// on disk holds the card from the frame the engine took it.
#[test]
fn the_players_card_is_on_disk_in_the_frame_it_is_played() {
    let dir = temp_dir("kill");
    let options = Options { seed: Some(12), data_dir: Some(dir.clone()), ..Options::default() };
    let mut app = headless_app(options.clone(), Speed::Normal);
    sit_down(&mut app, player_seats(Preset::Classic, 12));
    play_to_the_players_card(&mut app);
    let card = seats(&app).game().legal_cards().first().unwrap();
    act(&mut app, Action::Play(card));
    assert!(!seats(&app).game().hand(HUMAN).contains(card), "played");
    // What a new process would find, without another frame of this one.
    let store = klaverjas_app::save::Store::new(Some(dir));
    let klaverjas_app::save::Loaded::Found((_, m)) = store.load_game(klaverjas_app::save::Slot::Match) else {
        panic!("no save")
    };
    assert_eq!(m, seats(&app).m, "the save is the match as played");
    assert!(!m.game().hand(HUMAN).contains(card));
}

fn tutorial(app: &App) -> &klaverjas_app::tutorial::teacher::Tutorial {
    app.world().resource::<klaverjas_app::tutorial::teacher::Tutorial>()
}

/// Every lesson plays itself to its end with its expected actions, each
/// legal, and is then marked finished in the progress on disk.
#[test]
fn every_lesson_plays_to_its_end() {
    let lessons = klaverjas_app::tutorial::lesson::all().expect("the lessons load");
    for lesson in &lessons {
        let dir = temp_dir(&format!("lesson-{}", lesson.id));
        let options =
            Options { demo: true, lesson: Some(lesson.id.clone()), data_dir: Some(dir.clone()), ..Options::default() };
        let mut app = headless_app(options, Speed::Instant);
        run_until(&mut app, &format!("lesson {} to start", lesson.id), |app| {
            app.world().get_resource::<klaverjas_app::tutorial::teacher::Tutorial>().is_some()
        });
        run_until(&mut app, &format!("lesson {} to end", lesson.id), |app| tutorial(app).step == lesson.steps.len());
        // Nothing was refused on the way, and the player's save is untouched.
        assert!(tutorial(&app).wrong.is_none(), "{}: {:?}", lesson.id, tutorial(&app).wrong);
        assert!(!dir.join("save.ron").exists());
        let progress = std::fs::read_to_string(dir.join("tutorial.ron")).expect("progress on disk");
        assert!(progress.contains(&format!("\"{}\"", lesson.id)), "{progress}");
    }
}

/// A wrong card does not advance: a legal one gets the step's own words,
/// an illegal one the rule; the right one moves the lesson on. A lesson
/// left at a step resumes there.
#[test]
fn a_wrong_action_is_refused_with_the_lessons_words() {
    use klaverjas_app::tutorial::lesson::Step;
    use klaverjas_app::tutorial::teacher::TutorialCommand;
    let dir = temp_dir("lesson-wrong");
    let mut app = headless_app(Options { data_dir: Some(dir.clone()), ..Options::default() }, Speed::Instant);
    app.world_mut().write_message(TutorialCommand::Start { id: "table".into(), step: 0 });
    app.update();
    let expect = |app: &App| matches!(tutorial(app).lesson.steps.get(tutorial(app).step), Some(Step::Expect { .. }));
    for _ in 0..20 {
        if expect(&app) {
            break;
        }
        app.world_mut().write_message(TutorialCommand::Next);
        for _ in 0..200 {
            app.update();
            if expect(&app) || matches!(tutorial(&app).lesson.steps[tutorial(&app).step], Step::Say { .. }) {
                break;
            }
        }
    }
    assert!(expect(&app), "an expected action");
    run_until(&mut app, "the table ready", idle);
    let step = tutorial(&app).step;
    let texts = app.world().resource::<Texts>().0.clone();
    // A legal card that is not the lesson's: the step's words.
    act(&mut app, Action::Play("QH".parse().unwrap()));
    assert_eq!(tutorial(&app).step, step);
    assert_eq!(tutorial(&app).wrong.as_deref(), Some(texts.get("lesson.table.wrong_winner").as_str()));
    // An illegal one: the rule.
    act(&mut app, Action::Play("KD".parse().unwrap()));
    assert_eq!(tutorial(&app).step, step);
    let rule = tutorial(&app).wrong.clone().unwrap();
    assert!(rule.contains("hearts"), "{rule}");
    // The right one.
    act(&mut app, Action::Play("AH".parse().unwrap()));
    run_until(&mut app, "the next step", |app| tutorial(app).step > step);
    app.update();
    // A new app on the same data resumes the lesson at the step it was at.
    let left_at = tutorial(&app).step;
    let again = headless_app(Options { data_dir: Some(dir), ..Options::default() }, Speed::Instant);
    let progress = &again.world().resource::<klaverjas_app::tutorial::teacher::LessonProgress>().0;
    assert_eq!(klaverjas_app::tutorial::teacher::resume_step(progress, "table"), left_at);
}

/// A lesson that ends with words is finished by the learner's Next, and
/// gets its tick.
#[test]
fn the_last_next_finishes_a_lesson() {
    use klaverjas_app::tutorial::teacher::{LessonProgress, TutorialCommand};
    let dir = temp_dir("lesson-next");
    let mut app = headless_app(Options { data_dir: Some(dir), ..Options::default() }, Speed::Instant);
    // Opened at its last step, words: the deal is brought there first.
    app.world_mut().write_message(TutorialCommand::Start { id: "trumps".into(), step: 10 });
    app.update();
    let steps = tutorial(&app).lesson.steps.len();
    assert_eq!((tutorial(&app).step, steps), (10, 11));
    assert!(seats(&app).game().contract().is_some(), "the bidding before it replayed");
    app.world_mut().write_message(TutorialCommand::Next);
    app.update();
    assert_eq!(tutorial(&app).step, steps);
    let progress = &app.world().resource::<LessonProgress>().0;
    assert_eq!(progress.finished, vec!["trumps".to_string()]);
    assert_eq!(progress.current, None);
}

fn practice_seats(seed: u64) -> Seats {
    let m = klaverjas_app::seats::new_match(Preset::Classic.rules(), Some(seed)).with_practice(true);
    Seats::new(m, false, klaverjas_ai::Level::Heuristic)
}

fn coach(app: &mut App, command: klaverjas_app::coach::CoachCommand) {
    app.world_mut().write_message(command);
    app.update();
}

/// Taking a card back puts the match, the table and the save exactly where
/// they were before the card, and the sheet's deal is marked.
#[test]
fn undo_restores_the_exact_state_and_the_save() {
    use klaverjas_app::coach::CoachCommand;
    let dir = temp_dir("undo");
    let options = Options { seed: Some(31), data_dir: Some(dir.clone()), ..Options::default() };
    let mut app = headless_app(options, Speed::Instant);
    sit_down(&mut app, practice_seats(31));
    play_to_the_players_card(&mut app);
    let before = seats(&app).m.game().clone();
    let shown_before = app.world().resource::<Show>().shown.clone();
    let card = seats(&app).game().legal_cards().first().unwrap();
    act(&mut app, Action::Play(card));
    // The bots answer; then the card comes back.
    run_until(&mut app, "a bot's card after the player's", |app| {
        seats(app).game().actions().len() > before.actions().len() + 1
    });
    coach(&mut app, CoachCommand::Undo);
    assert_eq!(seats(&app).m.game(), &before, "the deal as it was before the card");
    run_until(&mut app, "the show to catch up", idle);
    assert_eq!(app.world().resource::<Show>().shown.hands, shown_before.hands, "the cards back in the hands");
    assert_eq!(seats(&app).m.aids(1).undos, 1);
    let store = klaverjas_app::save::Store::new(Some(dir));
    let klaverjas_app::save::Loaded::Found((_, m)) = store.load_game(klaverjas_app::save::Slot::Match) else {
        panic!("no save")
    };
    assert_eq!(m, seats(&app).m, "the save is the match after the undo");
    // The player plays on from there.
    act(&mut app, Action::Play(card));
    assert!(!seats(&app).game().hand(HUMAN).contains(card));
}

/// In a match that counts, neither a hint nor taking back is allowed, and
/// the match is unchanged.
#[test]
fn a_counting_match_has_no_coach() {
    use klaverjas_app::coach::CoachCommand;
    let mut app = headless_app(Options { seed: Some(32), ..Options::default() }, Speed::Instant);
    sit_down(&mut app, player_seats(Preset::Classic, 32));
    play_until(&mut app, "the player's second card", |s| {
        s.game().phase() == Phase::Playing && s.game().to_act() == Some(HUMAN) && s.game().hand(HUMAN).len() == 7
    });
    let before = seats(&app).m.clone();
    coach(&mut app, CoachCommand::Undo);
    coach(&mut app, CoachCommand::Hint);
    assert_eq!(seats(&app).m, before);
    assert!(!app.world().resource::<klaverjas_app::coach::Hint>().working());
}

/// The hint is the expert's choice for the player's view, counted on the
/// match, and gone once the player acts.
#[test]
fn a_hint_is_the_experts_card_and_is_counted() {
    use klaverjas_app::coach::{CoachCommand, Hint};
    let mut app = headless_app(Options { seed: Some(33), ..Options::default() }, Speed::Instant);
    sit_down(&mut app, practice_seats(33));
    play_to_the_players_card(&mut app);
    let view = seats(&app).game().view(HUMAN);
    coach(&mut app, CoachCommand::Hint);
    run_until(&mut app, "the hint", |app| app.world().resource::<Hint>().shown(seats(app).moment()).is_some());
    let moment = seats(&app).moment();
    let seed = seats(&app).m.seed() ^ moment.actions as u64;
    let hint = app.world().resource::<Hint>().shown(moment).unwrap().clone();
    assert_eq!(hint.decision.action, klaverjas_ai::coach::hint(&view, seed).decision.action);
    assert_eq!(seats(&app).m.aids(1).hints, 1);
    // Asking again for the same turn counts nothing more.
    coach(&mut app, CoachCommand::Hint);
    assert_eq!(seats(&app).m.aids(1).hints, 1);
    act(&mut app, hint.decision.action);
    assert!(app.world().resource::<Hint>().shown(seats(&app).moment()).is_none(), "gone with the turn");
}

/// What was said of a trick's roem goes with the next trick's first card
/// (it stayed beside the next trick, as if said of it).
#[test]
fn a_tricks_roem_words_go_with_the_next_card() {
    let mut said = 0;
    for seed in 0..12 {
        let mut app = headless_app(
            Options { data_dir: Some(temp_dir(&format!("roem-words-{seed}"))), ..Options::default() },
            Speed::Fast,
        );
        sit_down(&mut app, player_seats(Preset::Classic, seed));
        for _ in 0..20_000 {
            app.update();
            let show = app.world().resource::<Show>();
            let of_the_trick = show.notices.iter().filter(|n| n.text.of_the_trick() && n.until > now(&app)).count();
            said += of_the_trick;
            let under_way = (1..4).contains(&show.shown.trick.len());
            assert!(!(under_way && of_the_trick > 0), "seed {seed}: a trick's roem words beside the next trick");
            let s = seats(&app);
            if s.game().result().is_some() {
                break;
            }
            if s.waiting_for(show.stage(now(&app))) == Some(HUMAN) {
                let legal = s.game().legal_actions();
                let call = legal.contains(&Action::ClaimRoem) || s.game().may_call_roem(HUMAN);
                let pass = Action::Bid(Bid::Pass);
                let action = if call && s.game().check(Action::ClaimRoem).is_ok() {
                    Action::ClaimRoem
                } else if legal.contains(&pass) {
                    pass
                } else {
                    legal[0]
                };
                act(&mut app, action);
            }
        }
    }
    assert!(said > 0, "no roem was said in these deals: choose others");
}

/// A hint asked in the bidding stands above the box of the player's bid
/// (it covered Pass and Play), says the player's turn on their plate, and
/// goes with a touch on Close; asked again, it comes again.
#[test]
fn a_hint_in_the_bidding_leaves_the_bid_in_view_and_closes() {
    use bevy_egui::egui;
    use klaverjas_app::coach::{CoachCommand, Hint};
    for (size, scale) in [((1081, 2401), Some(2.625)), ((1280, 720), None)] {
        let options = Options { data_dir: Some(temp_dir(&format!("hint-bid-{}", size.0))), ..Options::default() };
        let mut app = screen_app(size, scale, options);
        sit_down(&mut app, practice_seats(34));
        run_until(&mut app, "the player's bid", |app| {
            let show = app.world().resource::<Show>();
            let s = seats(app);
            s.game().phase() == Phase::Bidding && s.waiting_for(show.stage(now(app))) == Some(HUMAN)
        });
        let shown = |app: &App| app.world().resource::<Hint>().shown(seats(app).moment()).is_some();
        coach(&mut app, CoachCommand::Hint);
        run_until(&mut app, "the hint", shown);
        for _ in 0..4 {
            app.update();
        }
        let ctx = egui_context(&mut app);
        let hint = ctx.memory(|m| m.area_rect(egui::Id::new("hint"))).expect("the hint is drawn");
        let bid = app.world().resource::<klaverjas_app::panels::paint::Drawn>().bid_box.expect("the bid box is drawn");
        assert!(!hint.intersects(bid), "{size:?}: the hint {hint:?} covers the bid box {bid:?}");
        tap(&mut app, "hint.close");
        assert!(!shown(&app), "{size:?}: Close left the hint");
        coach(&mut app, CoachCommand::Hint);
        run_until(&mut app, "the hint again", shown);
    }
}

/// After a deal, its review is worked out off the main thread while the
/// table goes on; every card the player played is in it, and an earlier
/// deal can be reviewed from the match's record.
#[test]
fn a_finished_deal_is_reviewed_card_by_card() {
    use klaverjas_app::coach::{CoachCommand, DealReview};
    let mut app = headless_app(Options { seed: Some(34), ..Options::default() }, Speed::Instant);
    sit_down(&mut app, player_seats(Preset::Classic, 34));
    play_until(&mut app, "the end of the deal", |s| s.game().result().is_some());
    coach(&mut app, CoachCommand::Review);
    run_until(&mut app, "the review", |app| app.world().resource::<DealReview>().review.is_some());
    let review = app.world().resource::<DealReview>().review.clone().unwrap();
    let played: Vec<Card> = seats(&app)
        .game()
        .tricks()
        .iter()
        .flat_map(|t| t.plays().filter(|&(s, _)| s == HUMAN).map(|(_, c)| c).collect::<Vec<_>>())
        .collect();
    assert_eq!(review.cards.iter().map(|c| c.card).collect::<Vec<_>>(), played);
    assert!(review.cards.iter().all(|c| c.loss >= 0 && c.value(c.card).is_some()));
    assert_eq!(review.bids.len(), seats(&app).game().bids().iter().filter(|(s, _)| *s == HUMAN).count());
    // Each costly card in plain words: its trick, what it cost, the better
    // card and the card played, by name, and no signed figure.
    let texts = app.world().resource::<Texts>().0.clone();
    let game = seats(&app).game().clone();
    let trump = game.contract().map(|c| c.trump);
    let costly = review.costliest(3);
    assert!(!costly.is_empty(), "the player's first legal cards cost something in this deal");
    for i in costly {
        let c = &review.cards[i];
        let line = words::plain_cost(&texts, c, &game);
        assert!(line.starts_with(&format!("Trick {} cost you {} point", c.trick, c.loss)), "{line}");
        assert!(line.contains(&words::card_name(&texts, c.best, trump)), "{line}");
        assert!(!line.contains('+') && !line.contains("-"), "{line}");
    }
    // The next deal starts; the first is still there to review.
    app.world_mut().write_message(TableCommand::NextDeal);
    app.update();
    coach(&mut app, CoachCommand::CloseReview);
    coach(&mut app, CoachCommand::ReviewDeal(1));
    run_until(&mut app, "the first deal's review again", |app| app.world().resource::<DealReview>().review.is_some());
    assert_eq!(app.world().resource::<DealReview>().review.as_ref(), Some(&review), "the same deal, the same review");
}

/// A hint or a review belongs to its match: after a new match neither is
/// shown, and the new match's own can be asked for.
#[test]
fn a_new_match_drops_the_old_hint_and_review() {
    use klaverjas_app::coach::{CoachCommand, DealReview, Hint};
    let mut app = headless_app(Options { seed: Some(35), ..Options::default() }, Speed::Instant);
    sit_down(&mut app, practice_seats(35));
    play_until(&mut app, "the end of the deal", |s| s.game().result().is_some());
    coach(&mut app, CoachCommand::Review);
    run_until(&mut app, "the review", |app| app.world().resource::<DealReview>().review.is_some());
    app.world_mut().write_message(TableCommand::NewMatch);
    app.update();
    run_until(&mut app, "the player's first bid", |app| idle(app) && seats(app).game().to_act() == Some(HUMAN));
    assert_eq!(app.world().resource::<DealReview>().showing(seats(&app)), None, "the old match's review");
    coach(&mut app, CoachCommand::Hint);
    run_until(&mut app, "the new match's hint", |app| {
        app.world().resource::<Hint>().shown(seats(app).moment()).is_some()
    });
    assert_eq!(seats(&app).m.aids(1).hints, 1, "counted on the new match");
}

/// Whether the last update asked for another frame.
fn asks_for_frames(app: &App) -> bool {
    let redraws = app.world().resource::<Messages<bevy::window::RequestRedraw>>();
    redraws.iter_current_update_messages().next().is_some()
}

/// A table waiting for the player draws nothing: not while the bots'
/// bids are shown, nor while the contract is, in the first trick.
#[test]
fn a_table_waiting_for_the_player_asks_for_no_frame() {
    let mut app = headless_app(Options { seed: Some(41), ..Options::default() }, Speed::Normal);
    app.add_message::<bevy::window::RequestRedraw>();
    sit_down(&mut app, player_seats(Preset::Classic, 41));
    let waiting = |app: &mut App, what: &str| {
        // The timed notices (a refused card, a bid's echo) go within 3 s.
        let until = now(app) + 4.0;
        run_until(app, "4 s more", |app| now(app) > until);
        let show = app.world().resource::<Show>();
        assert!(show.notices.iter().any(|n| n.until > now(app)), "{what}: words on the table");
        app.update();
        assert!(!asks_for_frames(app), "{what}: another frame asked for");
    };
    run_until(&mut app, "the player's bid after a bot's", |app| {
        idle(app) && seats(app).game().to_act() == Some(HUMAN) && !seats(app).game().actions().is_empty()
    });
    waiting(&mut app, "the player's bid");
    play_until(&mut app, "the player's first card", |s| {
        s.game().phase() == Phase::Playing && s.game().to_act() == Some(HUMAN) && s.game().tricks().is_empty()
    });
    run_until(&mut app, "the show to catch up", idle);
    waiting(&mut app, "the player's first card");
}

/// A phone suspends the game and may kill it: on suspend the match is on
/// disk and the bots stop; a new process continues exactly there, and on
/// resume the bots go on.
#[test]
fn a_suspend_leaves_a_save_that_continues_exactly() {
    use bevy::window::AppLifecycle;
    let dir = temp_dir("suspend");
    let options = Options { seed: Some(36), data_dir: Some(dir.clone()), ..Options::default() };
    let mut app = headless_app(options, Speed::Instant);
    sit_down(&mut app, player_seats(Preset::Classic, 36));
    play_to_the_players_card(&mut app);
    let card = seats(&app).game().legal_cards().first().unwrap();
    act(&mut app, Action::Play(card));
    let after_card = seats(&app).game().actions().len();
    // The card's own save is gone: what is on disk now, the suspend wrote.
    std::fs::remove_file(dir.join("save.ron")).unwrap();
    app.world_mut().write_message(AppLifecycle::WillSuspend);
    app.update();
    for _ in 0..200 {
        app.update();
    }
    assert_eq!(seats(&app).game().actions().len(), after_card, "no bot plays while suspended");
    let store = klaverjas_app::save::Store::new(Some(dir));
    let klaverjas_app::save::Loaded::Found((_, m)) = store.load_game(klaverjas_app::save::Slot::Match) else {
        panic!("no save")
    };
    assert_eq!(m, seats(&app).m, "what a killed game continues from");
    app.world_mut().write_message(AppLifecycle::Running);
    run_until(&mut app, "a bot's card after the resume", |app| seats(app).game().actions().len() > after_card);
}

/// The app as on a phone of `size` pixels at 2.625 pixels to the dp, with
/// egui's screens and no GPU: the window is an entity, egui runs its
/// passes and nothing is rendered.
fn phone_app(size: (u32, u32), options: Options) -> App {
    screen_app(size, Some(2.625), options)
}

/// The app with egui's screens in a window of `size` pixels: a phone's at
/// `phone` pixels to the dp, else a desktop's with a mouse.
fn screen_app(size: (u32, u32), phone: Option<f32>, options: Options) -> App {
    use bevy::window::WindowResolution;
    let options = Options { phone, window: size, ..options };
    headless_app_with(options, Speed::Instant, |app| {
        let resolution = WindowResolution::new(size.0, size.1).with_scale_factor_override(phone.unwrap_or(1.0));
        // The window's messages and its entity; no system opens it.
        app.add_plugins(bevy::window::WindowPlugin {
            primary_window: Some(Window { resolution, ..default() }),
            exit_condition: bevy::window::ExitCondition::DontExit,
            ..default()
        });
        // What egui's renderer would load its shader into.
        app.init_asset::<bevy::shader::Shader>();
        app.init_resource::<Taps>();
        // egui's AccessKit tree goes through Bevy's accessibility (a
        // window's plugins bring it).
        app.add_plugins(bevy::a11y::AccessibilityPlugin);
        app.add_plugins(bevy_egui::EguiPlugin::default()).add_plugins(klaverjas_app::ui_plugin).add_systems(
            PreUpdate,
            phone_screen
                .after(bevy_egui::EguiPreUpdateSet::InitContexts)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        );
        app.world_mut().spawn(Camera2d);
    })
}

/// What a phone's windowing system would tell egui: the screen's size in
/// points, and once that it is a touch screen (egui then gives a text
/// field a tap rather than a drag to select).
fn phone_screen(
    windows: Query<&Window>,
    device: Res<klaverjas_app::platform::Device>,
    mut inputs: Query<&mut bevy_egui::EguiInput>,
    mut touched: Local<bool>,
    mut taps: ResMut<Taps>,
) {
    use bevy_egui::egui;
    let Some(w) = windows.iter().next() else { return };
    let zoom = klaverjas_app::table::layout::zoom_for(w.width(), w.height(), device.touch());
    let size = egui::vec2(w.width(), w.height()) / zoom;
    for mut input in &mut inputs {
        input.0.screen_rect = Some(egui::Rect::from_min_size(Default::default(), size));
        input.0.events.append(&mut taps.0);
        if !*touched && device.touch() {
            input.0.events.push(egui::Event::Touch {
                device_id: egui::TouchDeviceId(1),
                id: egui::TouchId(1),
                phase: egui::TouchPhase::Cancel,
                pos: egui::Pos2::ZERO,
                force: None,
            });
            *touched = true;
        }
    }
}

/// Input for egui's next pass: a press, a release, typed text.
#[derive(Resource, Default)]
struct Taps(Vec<bevy_egui::egui::Event>);

/// Presses and releases the control drawn as `name` (see
/// `forms::mark_target`), a frame each, swiping the page first while the
/// control lies beyond its edge.
fn press(app: &mut App, name: &str) {
    use bevy::window::PrimaryWindow;
    use bevy_egui::egui;
    let target = |app: &mut App| {
        let ctx = egui_context(app);
        klaverjas_app::forms::target(&ctx, name).unwrap_or_else(|| panic!("{name} was not drawn"))
    };
    for _ in 0..12 {
        let (rect, shown) = target(app);
        if shown.expand(0.5).contains_rect(rect) {
            break;
        }
        // Up to bring up what is below, down for what is above.
        let (from, by) = if rect.top() < shown.top() { (400.0, 30.0) } else { (700.0, -30.0) };
        let window = app.world_mut().query_filtered::<Entity, With<PrimaryWindow>>().single(app.world()).unwrap();
        let finger = |phase, y: f32| TouchInput { phase, position: Vec2::new(200.0, y), window, force: None, id: 8 };
        app.world_mut().write_message(finger(TouchPhase::Started, from));
        app.update();
        for step in 1..=10 {
            app.world_mut().write_message(finger(TouchPhase::Moved, from + by * step as f32));
            app.update();
        }
        app.world_mut().write_message(finger(TouchPhase::Ended, from + by * 10.0));
        for _ in 0..30 {
            app.update();
        }
    }
    let (rect, _) = target(app);
    let pos = rect.center();
    for pressed in [true, false] {
        let button = egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        };
        app.world_mut().resource_mut::<Taps>().0.extend([egui::Event::PointerMoved(pos), button]);
        app.update();
    }
}

/// Everything a finger taps in egui's last pass that is less than 48 dp
/// high, and how many there were in all. What is dragged (a window's
/// title bar) is held, not tapped.
fn small_targets(app: &mut App) -> (Vec<bevy_egui::egui::Rect>, usize) {
    let ctx = egui_context(app);
    let zoom = ctx.zoom_factor();
    ctx.viewport(|v| {
        let hits: Vec<_> = v
            .prev_pass
            .widgets
            .layers()
            .flat_map(|(_, widgets)| widgets.iter())
            .filter(|w| w.enabled && w.sense.senses_click() && !w.sense.senses_drag() && w.rect.is_positive())
            .map(|w| w.rect)
            .collect();
        (
            hits.iter().copied().filter(|r| r.height() * zoom < klaverjas_app::platform::TOUCH_TARGET - 0.5).collect(),
            hits.len(),
        )
    })
}

/// Runs frames on `screen` and walks what egui drew there.
fn walk(app: &mut App, screen: &str, seen: &mut Vec<String>) {
    for _ in 0..4 {
        app.update();
    }
    let (small, all) = small_targets(app);
    assert!(all > 0, "{screen}: nothing to touch was drawn");
    assert!(small.is_empty(), "{screen}: targets under 48 dp: {small:?}");
    seen.push(format!("{screen}: {all}"));
}

/// The egui context of the app's window.
fn egui_context(app: &mut App) -> bevy_egui::egui::Context {
    let world = app.world_mut();
    world.query::<&mut bevy_egui::EguiContext>().single_mut(world).unwrap().get_mut().clone()
}

/// On a phone, every button, box, field and list of the menus, the table's
/// moments and a lesson's bubble (open and folded) is at least 48 dp high,
/// upright and sideways, and so is every card of the player's hand.
#[test]
fn on_a_phone_nothing_to_touch_is_under_48_dp() {
    use klaverjas_app::coach::{CoachCommand, DealReview};
    use klaverjas_app::table::input::Review;
    let mut app = phone_app((1080, 2340), Options { data_dir: Some(temp_dir("phone")), ..Options::default() });
    let mut seen = Vec::new();
    walk(&mut app, "first start", &mut seen);
    app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
    for screen in [Screen::Title, Screen::NewGame, Screen::Settings, Screen::Rules, Screen::Lessons] {
        app.world_mut().resource_mut::<NextState<Screen>>().set(screen.clone());
        walk(&mut app, &format!("{screen:?}"), &mut seen);
    }
    sit_down(&mut app, practice_seats(37));
    run_until(&mut app, "the player's bid", |app| idle(app) && seats(app).game().to_act() == Some(HUMAN));
    walk(&mut app, "bidding", &mut seen);
    play_to_the_players_card(&mut app);
    coach(&mut app, CoachCommand::Hint);
    walk(&mut app, "a hint", &mut seen);
    let table = *app.world().resource::<Table>();
    for (card, place, look, ..) in cards(&mut app) {
        if matches!(place, Place::Hand { seat: HUMAN, .. }) {
            assert!(look.size.y * table.zoom >= 48.0, "{card}: {} dp", look.size.y * table.zoom);
        }
    }
    play_until(&mut app, "the second trick", |s| s.game().tricks().len() == 1);
    app.world_mut().write_message(Review(true));
    walk(&mut app, "the last trick", &mut seen);
    app.world_mut().write_message(Review(false));
    play_until(&mut app, "the end of the deal", |s| s.game().result().is_some());
    run_until(&mut app, "the score", idle);
    walk(&mut app, "the score", &mut seen);
    coach(&mut app, CoachCommand::Review);
    run_until(&mut app, "the review", |app| app.world().resource::<DealReview>().review.is_some());
    walk(&mut app, "the review", &mut seen);
    let lesson = klaverjas_app::tutorial::lesson::all().expect("the lessons")[0].id.clone();
    let options = Options { lesson: Some(lesson), data_dir: Some(temp_dir("phone-lesson")), ..Options::default() };
    let mut app = phone_app((1080, 2340), options);
    run_until(&mut app, "the lesson", |app| {
        app.world().get_resource::<klaverjas_app::tutorial::teacher::Tutorial>().is_some()
    });
    walk(&mut app, "a lesson", &mut seen);
    // Folded as the Hide button folds it.
    let (id, step) = (tutorial(&app).lesson.id.clone(), tutorial(&app).step);
    let folded = bevy_egui::egui::Id::new(("lesson-bubble-folded", &id, step));
    egui_context(&mut app).data_mut(|d| d.insert_temp(folded, true));
    walk(&mut app, "a folded lesson", &mut seen);
    // Sideways.
    let mut app = phone_app((2340, 1080), Options { data_dir: Some(temp_dir("phone-sideways")), ..Options::default() });
    app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
    walk(&mut app, "sideways: title", &mut seen);
    sit_down(&mut app, practice_seats(38));
    run_until(&mut app, "the player's bid", |app| idle(app) && seats(app).game().to_act() == Some(HUMAN));
    walk(&mut app, "sideways: bidding", &mut seen);
    println!("{seen:?}");
}

/// With "tap to lift", a first touch lifts a card and only a second plays
/// it, on its place or on the part raised above it; a lifted card drops
/// when the match moves on without it (here an undo).
#[test]
fn tap_to_lift_plays_on_the_second_touch() {
    use klaverjas_app::coach::CoachCommand;
    use klaverjas_app::table::cards::Selection;
    let mut app = headless_app(Options { data_dir: Some(temp_dir("lift")), ..Options::default() }, Speed::Instant);
    app.world_mut().resource_mut::<PlayerSettings>().0.tap_to_lift = true;
    sit_down(&mut app, practice_seats(12));
    play_to_the_players_card(&mut app);
    app.update();
    let lifted = |app: &App| app.world().resource::<Selection>().tapped.map(|(c, _)| c);
    let card = seats(&app).game().legal_cards().first().unwrap();
    let before = seats(&app).m.clone();
    touch(&mut app, card);
    app.update();
    assert_eq!(lifted(&app), Some(card), "lifted");
    assert_eq!(seats(&app).m, before, "not played");
    // Near the top of the lifted card as drawn: above its place in the
    // hand, where no resting card lies.
    let (_, _, look, ..) = cards(&mut app).into_iter().find(|c| c.0 == card).unwrap();
    touch_at(&mut app, look.at - Vec2::new(look.size.x * 0.4, look.size.y * 0.45));
    app.update();
    assert_eq!(lifted(&app), None);
    assert_ne!(seats(&app).m, before, "played on the second touch");
    play_to_the_players_card(&mut app);
    app.update();
    let next = seats(&app).game().legal_cards().first().unwrap();
    touch(&mut app, next);
    app.update();
    assert_eq!(lifted(&app), Some(next));
    coach(&mut app, CoachCommand::Undo);
    app.update();
    assert_eq!(lifted(&app), None, "the undo took the moment it was lifted in");
}

/// On a phone a finger's swipe scrolls a long menu page: the Settings
/// page's controls move up under it.
#[test]
fn on_a_phone_a_swipe_scrolls_a_menu() {
    use bevy::window::PrimaryWindow;
    let mut app = phone_app((1080, 2340), Options { data_dir: Some(temp_dir("swipe")), ..Options::default() });
    app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Settings);
    let tops = |app: &mut App| {
        let ctx = egui_context(app);
        ctx.viewport(|v| {
            let mut tops: Vec<f32> = v
                .prev_pass
                .widgets
                .layers()
                .flat_map(|(_, widgets)| widgets.iter())
                .filter(|w| w.sense.senses_click() && !w.sense.senses_drag())
                .map(|w| w.rect.top())
                .collect();
            tops.sort_by(f32::total_cmp);
            tops
        })
    };
    for _ in 0..4 {
        app.update();
    }
    let before = tops(&mut app);
    let window = app.world_mut().query_filtered::<Entity, With<PrimaryWindow>>().single(app.world()).unwrap();
    let finger = |phase, y: f32| TouchInput { phase, position: Vec2::new(200.0, y), window, force: None, id: 7 };
    app.world_mut().write_message(finger(TouchPhase::Started, 700.0));
    app.update();
    for step in 1..=10 {
        app.world_mut().write_message(finger(TouchPhase::Moved, 700.0 - 30.0 * step as f32));
        app.update();
    }
    app.world_mut().write_message(finger(TouchPhase::Ended, 400.0));
    for _ in 0..4 {
        app.update();
    }
    let after = tops(&mut app);
    assert_eq!(before.len(), after.len(), "the same controls");
    let moved = before.iter().zip(&after).map(|(b, a)| b - a).fold(f32::MIN, f32::max);
    assert!(moved > 100.0, "the page moved up {moved} points under a 300-point swipe");
}

/// A save file as a fuzzer makes it: valid RON of the right shape with
/// wrong contents. Each is refused when the game starts, kept aside under
/// a new name and told in the player's language; the game goes on to a new
/// match, never a panic.
#[test]
fn a_save_with_wrong_contents_is_kept_aside_and_the_game_goes_on() {
    use klaverjas::Rng;
    use klaverjas_app::save::{Loaded, SaveGame, Store};
    // A match two deals in, to have a sheet and deals as played.
    let mut m = Match::new(Preset::Classic.rules(), 11, Seat::East);
    while m.deals_finished() < 2 || m.game().tricks().len() < 2 {
        match m.game().legal_actions().first() {
            Some(&a) => drop(m.apply(a).unwrap()),
            None => m.next_deal().unwrap(),
        }
    }
    let good = SaveGame::of(&m, false, None);
    let mut three = Match::new(Preset::Three.rules(), 11, Seat::East);
    three.apply(three.game().legal_actions()[0]).unwrap();
    let good_three = SaveGame::of(&three, false, None);

    let mut wrong: Vec<(&str, SaveGame)> = Vec::new();
    let mut s = good.clone();
    let card = s.record.game.deal.hands[1].first().unwrap();
    s.record.game.deal.hands[0].insert(card);
    wrong.push(("a card twice", s));
    let mut s = good_three.clone();
    s.record.game.deal.dealer = Seat::North;
    wrong.push(("a dealer in an empty chair", s));
    let mut s = good_three.clone();
    s.record.first_dealer = Seat::North;
    wrong.push(("a first dealer in an empty chair", s));
    let mut s = good.clone();
    s.record.sheet.rows[0].points.ns += 10;
    wrong.push(("a score that does not add up", s));
    let mut s = good.clone();
    s.record.sheet.rows.clear();
    wrong.push(("a sheet without the deals played", s));
    let mut s = good.clone();
    let for_three = *Match::new(Preset::Three.rules(), 1, Seat::East).game().deal();
    s.record.given_deals = vec![s.record.game.deal, for_three];
    wrong.push(("a given deal for another table", s));
    let mut s = good_three.clone();
    s.record.game.rules.players = klaverjas::Players::Four;
    wrong.push(("rules for another table than the deal", s));

    for (what, save) in &wrong {
        let dir = temp_dir("wrong-contents");
        Store::new(Some(dir.clone())).write_game(save).unwrap();
        let written = std::fs::read_to_string(dir.join("save.ron")).unwrap();
        let mut app = headless_app(Options { data_dir: Some(dir.clone()), ..Options::default() }, Speed::Instant);
        let notes = app.world().resource::<TitleMessage>().0.clone();
        assert_eq!(notes.len(), 1, "{what}: told once: {notes:?}");
        // A deal with a card twice or its dealer in an empty chair is no
        // deal code: that file reads as damaged, the others as not
        // fitting together.
        let reasons = match *what {
            "a card twice" | "a dealer in an empty chair" => {
                [(Language::English, "damaged"), (Language::Dutch, "beschadigd")]
            }
            _ => [(Language::English, "do not fit together"), (Language::Dutch, "passen niet bij elkaar")],
        };
        for (language, expected) in reasons {
            let t = klaverjas_app::i18n::Texts::load(language, Skin::French);
            let message = words::title_note(&notes[0], &t);
            assert!(message.to_lowercase().contains(expected), "{what}: {message}");
            assert!(message.contains(".unreadable-1"), "{what}: where it was kept: {message}");
        }
        assert_eq!(std::fs::read_to_string(dir.join("save.ron.unreadable-1")).unwrap(), written, "{what}: kept whole");
        assert!(app.world().get_resource::<Seats>().is_none(), "{what}: nothing to continue");
        // The game goes on: a new match starts and plays.
        sit_down(&mut app, player_seats(Preset::Classic, 4));
        app.world_mut().write_message(TableCommand::NewMatch);
        app.update();
        assert!(seats(&app).game().to_act().is_some(), "{what}: a new match plays");
    }

    // Digits changed at random in a good file: every one still parses as
    // RON, and each either replays or is set aside, without a panic.
    let text = ron::ser::to_string(&good).unwrap();
    let digits: Vec<usize> = text.char_indices().filter(|(_, c)| c.is_ascii_digit()).map(|(i, _)| i).collect();
    let mut rng = Rng::new(34);
    let (mut refused, mut replayed) = (0, 0);
    for case in 0..300 {
        let mut bytes = text.clone().into_bytes();
        for _ in 0..1 + case % 3 {
            bytes[digits[rng.below(digits.len() as u32) as usize]] = b'0' + rng.below(10) as u8;
        }
        let dir = temp_dir("digits");
        std::fs::write(dir.join("save.ron"), &bytes).unwrap();
        match Store::new(Some(dir)).load_game(klaverjas_app::save::Slot::Match) {
            Loaded::Found((_, m)) => {
                replayed += 1;
                // A file that replays is a match that plays on.
                assert!(m.game().to_act().is_some() || m.game().result().is_some());
            }
            Loaded::SetAside { moved_to, .. } => {
                refused += 1;
                assert!(moved_to.exists());
            }
            Loaded::Nothing => panic!("the file was there"),
        }
    }
    assert!(refused > 100, "most changes are caught: {refused} refused, {replayed} replayed");
}

/// The first two screens fit every supported window: "I am new", every
/// preset, the quick start, play with friends, the deals of the day and
/// Start lie wholly inside
/// the visible area,
/// unclipped by any scrolling, and are at least 48 dp high (the bots'
/// level and practice are in view too), on phones of
/// 360x640 and 412x915 dp held either way and on desktops of 1280x720 and
/// 1920x1080.
#[test]
fn the_first_start_and_a_new_game_fit_every_window_without_scrolling() {
    use bevy_egui::egui;
    let phone = |w: u32, h: u32| ((w as f32 * 2.625) as u32, (h as f32 * 2.625) as u32, Some(2.625));
    let windows =
        [phone(360, 640), phone(640, 360), phone(412, 915), phone(915, 412), (1280, 720, None), (1920, 1080, None)];
    let presets: Vec<String> = Preset::ALL.iter().map(|p| format!("preset.{}", p.name())).collect();
    for (w, h, scale) in windows {
        let dp = scale.map_or((w as f32, h as f32), |s| (w as f32 / s, h as f32 / s));
        let size = format!("{}x{} dp", dp.0, dp.1);
        let dir = temp_dir(&format!("fit-{w}x{h}"));
        // A match and a day's deals under way: the title offers both.
        let store = klaverjas_app::save::Store::new(Some(dir.clone()));
        let day = klaverjas_ai::daily::Play {
            day: klaverjas_ai::daily::Day::today(),
            preset: Preset::Classic,
            bots: klaverjas_ai::Level::Heuristic,
            record: false,
        };
        for daily in [None, Some(day)] {
            let mut m = Match::new(Preset::Classic.rules(), 3, Seat::West);
            m.apply(m.game().legal_actions()[0]).unwrap();
            store.write_game(&klaverjas_app::save::SaveGame::of(&m, false, daily)).unwrap();
        }
        let options = Options { data_dir: Some(dir), ..Options::default() };
        let mut app = screen_app((w, h), scale, options);
        // Every name must show whole; the first `sized` at least 48 dp high.
        let check = |app: &mut App, screen: &str, names: &[String], sized: usize| {
            for _ in 0..4 {
                app.update();
            }
            let ctx = egui_context(app);
            let (zoom, visible) = (ctx.zoom_factor(), ctx.content_rect());
            // A tooltip (a preset's, practice's) is not cut by the edge.
            let tooltip = ctx.global_style().spacing.tooltip_width;
            assert!(tooltip <= visible.width() - 16.0 + 0.5, "{size}: tooltips {tooltip} wide in {visible:?}");
            for (i, name) in names.iter().enumerate() {
                let (rect, shown) = klaverjas_app::forms::target(&ctx, name)
                    .unwrap_or_else(|| panic!("{size}, {screen}: {name} was not drawn"));
                let whole = |a: egui::Rect, b: egui::Rect| b.expand(0.5).contains_rect(a);
                assert!(whole(rect, visible), "{size}, {screen}: {name} at {rect:?} is outside {visible:?}");
                assert!(whole(rect, shown), "{size}, {screen}: {name} at {rect:?} is scrolled out to {shown:?}");
                let high = rect.height() * zoom;
                assert!(i >= sized || high >= 47.5, "{size}, {screen}: {name} is {high} dp high");
            }
        };
        let mut first: Vec<String> = vec!["first.new".to_string()];
        first.extend(presets.iter().cloned());
        check(&mut app, "first start", &first, first.len());
        app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Rotterdam);
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Title);
        // Every way on from the title, the games to continue first.
        let title: Vec<String> = ["continue", "continue.day", "quick", "new_game", "friends", "daily", "tutorial"]
            .into_iter()
            .chain(["statistics", "settings", "rules"])
            .chain(scale.is_none().then_some("quit"))
            .map(String::from)
            .collect();
        let all = title.len();
        check(&mut app, "title", &title, all);
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::NewGame);
        let mut new_game: Vec<String> = vec!["start".to_string()];
        new_game.extend(presets.iter().cloned());
        let sized = new_game.len();
        new_game.extend(["level.heuristic", "level.expert", "practice"].map(String::from));
        check(&mut app, "new game", &new_game, sized);
    }
}

/// On phones held either way and on desktops, through a whole deal with a
/// refused card at each of the player's turns and roem called where it
/// may be: what is said at the table never covers a name, a pile's count,
/// the contract's words, the Roem! button or other words, nor where the
/// table has room a card of the trick or of the player's hand, and the
/// Roem! button never covers a name.
#[test]
fn the_tables_words_cover_no_name_count_or_button() {
    use bevy_egui::egui;
    let phone = |w: u32, h: u32| ((w as f32 * 2.625) as u32, (h as f32 * 2.625) as u32, Some(2.625));
    let windows = [phone(360, 640), phone(412, 915), phone(915, 412), (1280, 720, None), (1920, 1080, None)];
    let mut problems = Vec::new();
    for ((w, h, scale), seed) in windows.into_iter().flat_map(|w| [5, 8, 13].map(|seed| (w, seed))) {
        let options = Options { data_dir: Some(temp_dir(&format!("words-{w}x{h}-{seed}"))), ..Options::default() };
        let mut app = screen_app((w, h), scale, options);
        app.world_mut().resource_mut::<PlayerSettings>().0.show_points = true;
        sit_down(&mut app, player_seats(Preset::Classic, seed));
        let mut refused = 0;
        for _ in 0..20_000 {
            app.update();
            let ctx = egui_context(&mut app);
            let drawn = *app.world().resource::<klaverjas_app::panels::paint::Drawn>();
            let words: Vec<egui::Rect> = ctx.data(|d| d.get_temp(egui::Id::new("notice-rects"))).unwrap_or_default();
            let mut keep: Vec<(&str, egui::Rect)> = Vec::new();
            keep.extend(drawn.plates.iter().flatten().map(|&r| ("a name", r)));
            keep.extend(drawn.counts.iter().flatten().map(|&r| ("a count", r)));
            keep.extend(drawn.indicator().map(|r| ("the contract", r)));
            keep.extend(drawn.roem_button.map(|r| ("the Roem! button", r)));
            // The cards face up, where they lie or are going. On the two
            // small phones the player's own words have no room between
            // the trick and the hand and may lie over the trick's near
            // edge (in 6 and 371 of these frames; before the words kept
            // clear of the cards where they could, 1,006 and 1,785, and
            // 12 on each desktop).
            if ![phone(360, 640), phone(915, 412)].contains(&(w, h, scale)) {
                let open = cards(&mut app)
                    .into_iter()
                    .filter(|(_, place, ..)| matches!(place, Place::Hand { seat: HUMAN, .. } | Place::Trick { .. }))
                    .map(|(.., Target(l), _)| klaverjas_app::table::outline::on_table(l.at, l.size));
                keep.extend(open.map(|r| ("a card face up", r)));
            }
            for (i, word) in words.iter().enumerate() {
                let others = words.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &r)| ("other words", r));
                for (what, r) in keep.iter().copied().chain(others) {
                    if r.intersects(word.shrink(1.0)) {
                        problems.push(format!("{w}x{h}: words at {word:?} cover {what} at {r:?}"));
                    }
                }
            }
            if let Some(button) = drawn.roem_button {
                for plate in drawn.plates.iter().flatten().filter(|p| p.intersects(button.shrink(1.0))) {
                    problems.push(format!("{w}x{h}: the Roem! button at {button:?} covers a name at {plate:?}"));
                }
            }
            let s = seats(&app);
            let g = s.game();
            if g.result().is_some() {
                break;
            }
            let show = app.world().resource::<Show>();
            if s.waiting_for(show.stage(now(&app))) != Some(HUMAN) {
                continue;
            }
            let legal = g.legal_actions();
            let forbidden =
                (g.phase() == Phase::Playing).then(|| g.hand(HUMAN).minus(g.legal_cards()).first()).flatten();
            let call = legal.contains(&Action::ClaimRoem);
            let pass = Action::Bid(Bid::Pass);
            let action = if call {
                Action::ClaimRoem
            } else if legal.contains(&pass) {
                pass
            } else {
                legal[0]
            };
            if let Some(card) = forbidden {
                act(&mut app, Action::Play(card));
                refused += 1;
                // A few frames to see the refusal where it stands.
                for _ in 0..3 {
                    app.update();
                }
            }
            act(&mut app, action);
        }
        assert!(seats(&app).game().result().is_some(), "{w}x{h}: the deal did not end");
        assert!(refused > 0, "{w}x{h}: no card was refused: choose another deal");
        problems.dedup();
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// What the test's speaker was asked to play, in order.
fn heard(app: &App) -> Vec<Sound> {
    app.world().resource::<Speaker>().requests().iter().filter_map(Command::sound).collect()
}

/// The engine's events as the table received them.
#[derive(Resource, Default)]
struct EngineEvents(Vec<klaverjas::Event>);

fn keep_engine_events(mut events: MessageReader<GameEvent>, mut kept: ResMut<EngineEvents>) {
    kept.0.extend(events.read().filter_map(|e| if let GameEvent::Engine(e) = e { Some(*e) } else { None }));
}

/// A deal is heard as it is shown: the shuffle and the deal, each card
/// (the player's own with its own sound), each sweep after its trick's
/// four cards, each roem call, and the end as the player's side takes it.
#[test]
fn a_deal_is_heard_as_the_table_shows_it() {
    use klaverjas::Event;
    let mut app =
        headless_app_with(Options { data_dir: Some(temp_dir("heard")), ..Options::default() }, Speed::Fast, |app| {
            app.init_resource::<EngineEvents>().add_systems(Update, keep_engine_events);
        });
    sit_down(&mut app, player_seats(Preset::Classic, 4));
    play_until(&mut app, "the deal's end", |s| s.game().result().is_some());
    run_until(&mut app, "the show's end", |app| app.world().resource::<Show>().shown.result.is_some());
    app.update();
    let heard = heard(&app);
    assert_eq!(heard[..2], [Sound::Shuffle, Sound::Deal], "{heard:?}");
    let plays_and_sweeps: Vec<Sound> =
        heard.iter().copied().filter(|s| matches!(s, Sound::PlayMine | Sound::PlayTheirs | Sound::Sweep)).collect();
    let events = &app.world().resource::<EngineEvents>().0;
    let mut expected = Vec::new();
    for e in events {
        match e {
            Event::CardPlayed { seat, .. } => {
                expected.push(if *seat == HUMAN { Sound::PlayMine } else { Sound::PlayTheirs })
            }
            Event::TrickWon { .. } => expected.push(Sound::Sweep),
            _ => {}
        }
    }
    assert_eq!(plays_and_sweeps, expected);
    assert_eq!(expected.iter().filter(|&&s| s == Sound::PlayMine).count(), 8);
    assert_eq!(expected.iter().filter(|&&s| s == Sound::Sweep).count(), 8);
    let bot_calls = events.iter().filter(|e| matches!(e, Event::RoemClaimed { seat, .. } if *seat != HUMAN)).count();
    assert_eq!(heard.iter().filter(|&&s| s == Sound::RoemCall).count(), bot_calls);
    assert!(!heard.contains(&Sound::RoemAnswer), "the player called nothing");
    let result = seats(&app).game().result().copied().unwrap();
    let ours = |t: klaverjas::PerTeam<u16>| (t.ns, t.ew);
    let (points, roem) = (ours(result.sheet_points), ours(result.sheet_roem));
    let end = if result.nat && result.contract.playing_team() == Team::NS {
        Some(Sound::Nat)
    } else if points.0 + roem.0 > points.1 + roem.1 {
        Some(Sound::DealWon)
    } else {
        None
    };
    let last = heard.last().copied().filter(|s| matches!(s, Sound::Nat | Sound::DealWon));
    assert_eq!(last, end, "the deal's end: {result:?}");
    for request in app.world().resource::<Speaker>().requests() {
        assert!(matches!(request, Command::Play(_, v) if (*v - 0.8).abs() < 1e-6), "at the usual volume: {request:?}");
    }
}

/// Sound off plays nothing; the app in the background stops what plays
/// and starts nothing until it is back.
#[test]
fn sound_off_and_the_background_are_silent() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("silent")), ..Options::default() }, Speed::Fast);
    app.world_mut().resource_mut::<PlayerSettings>().0.sound = false;
    sit_down(&mut app, player_seats(Preset::Classic, 4));
    for _ in 0..100 {
        app.update();
    }
    assert!(heard(&app).is_empty(), "sound off: {:?}", heard(&app));
    app.world_mut().resource_mut::<PlayerSettings>().0.sound = true;
    sit_down(&mut app, player_seats(Preset::Classic, 5));
    assert_eq!(heard(&app), [Sound::Shuffle], "the shuffle first");
    run_until(&mut app, "the deal", |app| heard(app).len() > 1);
    assert_eq!(heard(&app)[..2], [Sound::Shuffle, Sound::Deal], "then the deal");
    app.world_mut().write_message(bevy::window::AppLifecycle::Suspended);
    app.update();
    app.update();
    let requests = app.world().resource::<Speaker>().requests().len();
    assert_eq!(app.world().resource::<Speaker>().requests().last(), Some(&Command::Stop));
    sit_down(&mut app, player_seats(Preset::Classic, 6));
    for _ in 0..100 {
        app.update();
    }
    assert_eq!(app.world().resource::<Speaker>().requests().len(), requests, "nothing while in the background");
    app.world_mut().write_message(bevy::window::AppLifecycle::WillResume);
    app.update();
    sit_down(&mut app, player_seats(Preset::Classic, 7));
    assert_eq!(heard(&app).last(), Some(&Sound::Shuffle), "heard again once back");
}

/// The sound settings are kept with the others; a settings file from
/// before they existed reads with sound on at the usual volume.
#[test]
fn the_sound_settings_persist() {
    let dir = temp_dir("sound-settings");
    std::fs::write(
        dir.join("settings.ron"),
        "(format: 1, skin: French, speed: Fast, bot_level: Heuristic, language: Dutch)",
    )
    .unwrap();
    let app = headless_app(Options { data_dir: Some(dir.clone()), ..Options::default() }, Speed::Fast);
    let mut settings = app.world().resource::<PlayerSettings>().0.clone();
    assert_eq!((settings.language, settings.sound, settings.volume), (Language::Dutch, true, 80));
    settings.sound = false;
    settings.volume = 35;
    app.world().resource::<klaverjas_app::state::Files>().0.write_settings(&settings).unwrap();
    let again = headless_app(Options { data_dir: Some(dir), ..Options::default() }, Speed::Fast);
    let read = &again.world().resource::<PlayerSettings>().0;
    assert_eq!((read.sound, read.volume), (false, 35));
}

/// A deal played is counted in the profile, on disk at once, and its
/// review reaches the learning curve in the background.
#[test]
fn a_played_deal_is_counted_and_reviewed_for_the_statistics() {
    use klaverjas_ai::progress::{Kind, Profile, outcome};
    use klaverjas_app::state::PlayerProfile;
    let dir = temp_dir("profile");
    let mut app = headless_app(Options { data_dir: Some(dir.clone()), ..Options::default() }, Speed::Instant);
    sit_down(&mut app, player_seats(Preset::Classic, 4));
    play_until(&mut app, "the deal's end", |s| s.game().result().is_some());
    app.update();
    let game = seats(&app).game().clone();
    let result = *game.result().unwrap();
    let side = outcome(&result, game.rules().players, HUMAN);
    let profile = app.world().resource::<PlayerProfile>().0.clone();
    assert_eq!(profile.rows.len(), 1);
    let row = &profile.rows[0];
    assert_eq!((row.preset, row.bots, row.kind), (Preset::Classic, klaverjas_ai::Level::Heuristic, Kind::Counted));
    let t = &row.tally;
    assert_eq!((t.deals, t.deals_won + t.deals_lost, t.deals_won), (1, 1, u32::from(side.won)));
    assert_eq!(t.points, u64::from(result.sheet_points.ns + result.sheet_roem.ns));
    assert_eq!(t.nat_against, u32::from(side.nat && side.declaring));
    let on_disk: Profile = ron::from_str(&std::fs::read_to_string(dir.join("profile.ron")).unwrap()).unwrap();
    assert_eq!(on_disk.rows, profile.rows, "written at once");
    run_until(&mut app, "the review", |app| !app.world().resource::<PlayerProfile>().0.curve.is_empty());
    let curve = &app.world().resource::<PlayerProfile>().0.curve;
    assert_eq!(curve.len(), 1);
    assert_eq!(curve[0].code, game.deal().code());
    assert_eq!(curve[0].replay.as_ref().map(|r| &r.actions[..]), Some(game.actions()));
    assert!(curve[0].loss >= 0 && curve[0].expert >= 0);
    let replayed = klaverjas_app::screens::statistics::replay(&curve[0]).expect("the deal replays from the profile");
    assert_eq!(replayed.result(), game.result());
    // Reviewed again from the profile, with its seed, the deal gives the
    // same figures: the costliest deals open the review they were ranked by.
    let start = klaverjas::Game::new(*game.rules(), *game.deal()).unwrap();
    let again =
        klaverjas_ai::coach::Reviewer::new(start, game.actions().to_vec(), HUMAN, curve[0].seed).finish().unwrap();
    assert_eq!((again.total_loss(), klaverjas_ai::progress::expert_loss(&again)), (curve[0].loss, curve[0].expert));
    let on_disk: Profile = ron::from_str(&std::fs::read_to_string(dir.join("profile.ron")).unwrap()).unwrap();
    assert_eq!(on_disk.curve, *curve);
}

/// A damaged profile, or one of a newer game, is kept aside and told on
/// the title; the statistics start again and the game goes on.
#[test]
fn a_damaged_or_newer_profile_is_kept_aside_and_the_game_goes_on() {
    use klaverjas_app::state::{PlayerProfile, TitleNote};
    for (name, text, newer) in
        [("damaged", "(format: 1, rows: [(preset: Cla", false), ("newer", "(format: 99, rows: [])", true)]
    {
        let dir = temp_dir(&format!("profile-{name}"));
        std::fs::write(dir.join("profile.ron"), text).unwrap();
        let mut app = headless_app(Options { data_dir: Some(dir.clone()), ..Options::default() }, Speed::Instant);
        let notes = app.world().resource::<TitleMessage>().0.clone();
        assert!(
            matches!(&notes[..], [TitleNote::ProfileSetAside { damage, .. }] if matches!(damage, klaverjas_app::save::Damage::Newer { .. }) == newer),
            "{notes:?}"
        );
        assert_eq!(std::fs::read_to_string(dir.join("profile.ron.unreadable-1")).unwrap(), text, "kept as it was");
        let t = klaverjas_app::i18n::Texts::load(Language::English, Skin::French);
        assert!(words::title_note(&notes[0], &t).contains("statistics"), "told in words");
        sit_down(&mut app, player_seats(Preset::Classic, 4));
        play_until(&mut app, "the deal's end", |s| s.game().result().is_some());
        app.update();
        assert_eq!(app.world().resource::<PlayerProfile>().0.rows[0].tally.deals, 1);
        assert!(dir.join("profile.ron").exists(), "a fresh profile");
    }
}

/// A finger's tap on the control `name` (as [`klaverjas_app::forms::mark_target`]
/// last saw it), then a few frames for what it does.
fn tap(app: &mut App, name: &str) {
    use bevy::window::PrimaryWindow;
    for _ in 0..3 {
        app.update();
    }
    let ctx = egui_context(app);
    ctx.data_mut(|d| d.remove::<(bevy_egui::egui::Rect, bevy_egui::egui::Rect)>(target_id(name)));
    app.update();
    let ctx = egui_context(app);
    let (_, shown) = klaverjas_app::forms::target(&ctx, name).unwrap_or_else(|| panic!("{name} is not drawn"));
    let at = shown.center() * ctx.zoom_factor();
    let window = app.world_mut().query_filtered::<Entity, With<PrimaryWindow>>().single(app.world()).unwrap();
    let finger = |phase| TouchInput { phase, position: Vec2::new(at.x, at.y), window, force: None, id: 9 };
    app.world_mut().write_message(finger(TouchPhase::Started));
    app.update();
    app.world_mut().write_message(finger(TouchPhase::Ended));
    for _ in 0..3 {
        app.update();
    }
}

fn target_id(name: &str) -> bevy_egui::egui::Id {
    bevy_egui::egui::Id::new(("target", name))
}

fn screen(app: &App) -> Screen {
    app.world().resource::<State<Screen>>().get().clone()
}

fn in_lesson(app: &App) -> bool {
    app.world().get_resource::<klaverjas_app::tutorial::teacher::Tutorial>().is_some()
}

/// Opens lesson `id` at `step` and waits for its table.
fn open_lesson(app: &mut App, id: &str, step: usize) {
    use klaverjas_app::tutorial::teacher::TutorialCommand;
    app.world_mut().write_message(TutorialCommand::Start { id: id.into(), step });
    run_until(app, "the lesson's table", |app| in_lesson(app) && screen(app) == Screen::Table);
    for _ in 0..10 {
        app.update();
    }
}

/// Nothing of a lesson is left: no lesson, no gate, no lesson's seats, no
/// held trick; and the player's next action (a bid where there is one,
/// `play` when asked to) is taken by the match.
fn the_match_is_clean(app: &mut App, what: &str, play: bool) {
    assert!(!in_lesson(app), "{what}: a lesson is still running");
    assert!(app.world().resource::<klaverjas_app::seats::ActionGate>().0.is_none(), "{what}: a lesson's gate");
    assert!(!seats(app).lesson(), "{what}: the lesson's seats");
    assert!(!app.world().resource::<Show>().hold_trick, "{what}: a trick held");
    assert_eq!(screen(app), Screen::Table, "{what}");
    run_until(app, &format!("{what}: the player's turn"), |app| idle(app) && seats(app).game().to_act() == Some(HUMAN));
    let legal = seats(app).game().legal_actions();
    let wanted = if play { Action::Bid(Bid::Play) } else { Action::Bid(Bid::Pass) };
    let action = if legal.contains(&wanted) { wanted } else { legal[0] };
    let before = seats(app).game().actions().len();
    act(app, action);
    assert_eq!(seats(app).game().actions().len(), before + 1, "{what}: {action} was not taken");
}

/// A lesson left at each of its steps, by its Leave (then Back) or by the
/// menu, and once finished: then Deal me in, Continue or New game's Start
/// gives a clean match whose bid takes Pass and Play.
#[test]
fn a_lesson_left_at_any_step_by_any_way_leaves_nothing_in_the_match() {
    use klaverjas_app::tutorial::teacher::TutorialCommand;
    let lesson = klaverjas_app::tutorial::lesson::all().expect("the lessons")[0].clone();
    let mut app = phone_app((1080, 2340), Options { data_dir: Some(temp_dir("leak")), ..Options::default() });
    app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
    let mut tries = 0;
    for step in 0..=lesson.steps.len() {
        for way in ["leave", "menu"] {
            if step == lesson.steps.len() {
                // Finished: opened at the last step, and Next.
                open_lesson(&mut app, &lesson.id, step - 1);
                while tutorial(&app).step < lesson.steps.len() {
                    app.world_mut().write_message(TutorialCommand::Next);
                    app.update();
                }
            } else {
                open_lesson(&mut app, &lesson.id, step);
            }
            if way == "leave" {
                app.world_mut().write_message(TutorialCommand::Leave);
                run_until(&mut app, "the lessons", |app| screen(app) == Screen::Lessons);
                tap(&mut app, "lessons.back");
            } else {
                tap(&mut app, "menu");
            }
            assert_eq!(screen(&app), Screen::Title, "step {step}, {way}");
            assert!(!in_lesson(&app), "step {step}, {way}: the lesson goes on behind the title");
            let entry = ["quick", "continue", "new_game"][tries % 3];
            match entry {
                "continue" if app.world().get_resource::<Seats>().is_some() => tap(&mut app, "continue"),
                "new_game" => {
                    tap(&mut app, "new_game");
                    tap(&mut app, "start");
                }
                _ => tap(&mut app, "quick"),
            }
            if klaverjas_app::forms::target(&egui_context(&mut app), "confirm.go").is_some()
                && screen(&app) != Screen::Table
            {
                tap(&mut app, "confirm.go");
            }
            the_match_is_clean(&mut app, &format!("step {step}, {way}, then {entry}"), tries % 2 == 1);
            tap(&mut app, "menu");
            tries += 1;
        }
    }
    assert_eq!(tries, 2 * (lesson.steps.len() + 1));
}

/// A match in progress survives a lesson opened and left by either way,
/// Continue returns to it exactly, and neither Deal me in nor New game's
/// Start replaces it before the player says so.
#[test]
fn a_match_in_progress_survives_a_lesson_and_is_replaced_only_when_asked() {
    use klaverjas_app::tutorial::teacher::TutorialCommand;
    let mut app = phone_app((1080, 2340), Options { data_dir: Some(temp_dir("survives")), ..Options::default() });
    app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
    sit_down(&mut app, player_seats(Preset::Classic, 6));
    play_until(&mut app, "the player's first card", |s| {
        s.game().phase() == Phase::Playing && s.game().to_act() == Some(HUMAN)
    });
    run_until(&mut app, "the show to catch up", idle);
    tap(&mut app, "menu");
    let before = seats(&app).m.clone();
    for way in ["menu", "leave"] {
        open_lesson(&mut app, "table", 0);
        app.world_mut().write_message(TutorialCommand::Next);
        for _ in 0..20 {
            app.update();
        }
        if way == "menu" {
            tap(&mut app, "menu");
        } else {
            app.world_mut().write_message(TutorialCommand::Leave);
            run_until(&mut app, "the lessons", |app| screen(app) == Screen::Lessons);
            tap(&mut app, "lessons.back");
        }
        assert_eq!(screen(&app), Screen::Title);
        assert!(!in_lesson(&app));
        assert!(!seats(&app).lesson(), "{way}: Continue would open the lesson");
        assert_eq!(seats(&app).m, before, "{way}: the match is not the one left");
    }
    tap(&mut app, "continue");
    assert_eq!(screen(&app), Screen::Table);
    assert_eq!(seats(&app).m, before, "Continue returns to the match exactly");
    the_match_is_clean(&mut app, "continued", false);
    tap(&mut app, "menu");
    // The match waits while the menus show.
    for _ in 0..20 {
        app.update();
    }
    let before = seats(&app).m.clone();
    // Deal me in asks first; keeping the match keeps it.
    tap(&mut app, "quick");
    assert_eq!(screen(&app), Screen::Title);
    assert!(klaverjas_app::forms::target(&egui_context(&mut app), "confirm.keep").is_some(), "no question");
    tap(&mut app, "confirm.keep");
    assert_eq!(seats(&app).m, before, "kept");
    // New game's Start asks too.
    tap(&mut app, "new_game");
    tap(&mut app, "start");
    assert_eq!(screen(&app), Screen::NewGame, "started unasked");
    tap(&mut app, "confirm.keep");
    assert_eq!(screen(&app), Screen::NewGame);
    assert_eq!(seats(&app).m, before, "kept");
    tap(&mut app, "start");
    tap(&mut app, "confirm.go");
    assert_eq!(screen(&app), Screen::Table);
    assert_ne!(seats(&app).m, before, "a new match");
    assert!(seats(&app).game().actions().is_empty() && seats(&app).m.deals_finished() == 0);
}

/// The player's match and the day's deals each keep their own place:
/// today's deals start from their screen while a match is under way, with
/// no question and nothing thrown away, and the title continues each
/// exactly where it was left, after a restart too.
#[test]
fn the_days_deals_and_a_match_each_keep_their_place() {
    let dir = temp_dir("places");
    let options = || Options { data_dir: Some(dir.clone()), ..Options::default() };
    let mut app = phone_app((1080, 2340), options());
    app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
    let first_card = |s: &Seats| s.game().phase() == Phase::Playing && s.game().to_act() == Some(HUMAN);
    sit_down(&mut app, player_seats(Preset::Classic, 6));
    play_until(&mut app, "the player's first card", first_card);
    run_until(&mut app, "the show to catch up", idle);
    tap(&mut app, "menu");
    let the_match = seats(&app).m.clone();
    tap(&mut app, "daily");
    tap(&mut app, "daily.play");
    assert_eq!(screen(&app), Screen::Table, "the day's deals asked to throw the match away");
    assert!(seats(&app).daily().is_some());
    play_until(&mut app, "the player's first card of the day", first_card);
    run_until(&mut app, "the show to catch up", idle);
    tap(&mut app, "menu");
    let the_day = seats(&app).m.clone();
    assert_ne!(the_day, the_match);
    for _ in 0..2 {
        tap(&mut app, "continue");
        assert_eq!(screen(&app), Screen::Table);
        assert_eq!(seats(&app).m, the_match, "Continue gives the match back exactly");
        assert!(seats(&app).daily().is_none());
        tap(&mut app, "menu");
        tap(&mut app, "continue.day");
        assert_eq!(screen(&app), Screen::Table);
        assert_eq!(seats(&app).m, the_day, "the day's deals come back exactly");
        tap(&mut app, "menu");
        // Again after a restart: both are on disk.
        drop(app);
        app = phone_app((1080, 2340), options());
        app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
        run_until(&mut app, "the title", |app| screen(app) == Screen::Title);
    }
}

/// Leaving a table with friends for the menus is not silent and not for
/// good: the title says the player is still seated and offers Back to your
/// table first, which returns to the same table; Continue is the player's
/// own match, not the friends' table.
#[test]
fn the_menus_keep_a_chair_at_a_table_with_friends_and_say_so() {
    use klaverjas_app::friends::{host, sitting::Sitting};
    let dir = temp_dir("menus-at-table");
    // A player new to the game (the first start's question not answered):
    // the menus from a table do not ask it over the way back.
    let mut app = screen_app((1280, 720), None, Options { data_dir: Some(dir.clone()), ..Options::default() });
    // The player's own match, begun.
    sit_down(&mut app, player_seats(Preset::Classic, 6));
    play_until(&mut app, "the player's first card", |s| {
        s.game().phase() == Phase::Playing && s.game().to_act() == Some(HUMAN)
    });
    run_until(&mut app, "the show to catch up", idle);
    let the_match = seats(&app).m.clone();
    tap(&mut app, "menu");
    let hosting = host::start(&dir, Vec::new()).expect("this computer hosts a table");
    let setup = friends_setup(1, true);
    app.insert_resource(Sitting::host(hosting.own_server(), "Ann".into(), setup, std::sync::Arc::new(|| {})));
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Friends);
    run_real(&mut app, "the table's code", &|app| app.world().resource::<Sitting>().code.is_some());
    app.world().resource::<Sitting>().send(&klaverjas_net::ToTable::Start);
    run_real(&mut app, "the table", &|app| {
        screen(app) == Screen::Table && app.world().get_resource::<Seats>().is_some_and(|s| s.remote().is_some())
    });
    let code = app.world().resource::<Sitting>().code.unwrap().to_string();
    tap(&mut app, "menu");
    assert_eq!(screen(&app), Screen::Title);
    let ctx = egui_context(&mut app);
    assert!(klaverjas_app::forms::target(&ctx, "table.back").is_some(), "no way back to the table");
    assert!(klaverjas_app::forms::target(&ctx, "title.still_seated").is_some(), "not told of the chair kept at {code}");
    assert!(app.world().get_resource::<Sitting>().is_some(), "the menus left the table");
    tap(&mut app, "table.back");
    assert_eq!(screen(&app), Screen::Table);
    assert!(seats(&app).remote().is_some(), "back at another table");
    tap(&mut app, "menu");
    tap(&mut app, "continue");
    assert_eq!(screen(&app), Screen::Table);
    assert!(seats(&app).remote().is_none(), "Continue opened the friends' table");
    assert_eq!(seats(&app).m, the_match);
}

/// The last trick's word (roem or not) is asked while the trick still lies
/// on the table, and the trick stays there, however long the player
/// thinks, until they have said it.
#[test]
fn the_last_tricks_word_is_asked_while_the_trick_lies_there() {
    let mut app = headless_app(Options { data_dir: Some(temp_dir("last-word")), ..Options::default() }, Speed::Normal);
    let asked = (0..60).find(|&seed| {
        sit_down(&mut app, player_seats(Preset::Classic, seed));
        play_until(&mut app, "the deal's end or the player's last word", |s| {
            s.game().result().is_some() || (s.game().phase() == Phase::ClaimRoem && s.game().to_act() == Some(HUMAN))
        });
        seats(&app).game().phase() == Phase::ClaimRoem
    });
    assert!(asked.is_some(), "the player never won a last trick");
    let asked_at = |app: &App| {
        let show = app.world().resource::<Show>();
        seats(app).waiting_for(show.stage(now(app))) == Some(HUMAN)
    };
    run_until(&mut app, "the player asked for the word", asked_at);
    let lying = |app: &App| app.world().resource::<Show>().shown.trick.len() == 4;
    assert!(lying(&app), "the word was asked once the trick was swept away");
    // The player thinks: the trick stays.
    let until = now(&app) + 20.0;
    run_until(&mut app, "20 s of thinking", |app| now(app) > until);
    assert!(lying(&app) && asked_at(&app), "the trick went while the player thought");
    act(&mut app, Action::PassRoem);
    run_until(&mut app, "the trick swept", |app| !lying(app));
}

/// The waiting rooms say what each player needs: a desktop hosting without
/// the web game beside it shows no link or QR code that could not open
/// (how friends join with the code instead); a guest's phone shows the
/// chairs and "The host starts the game" in view, without the host's QR
/// code.
#[test]
fn each_waiting_room_shows_what_its_player_needs() {
    use klaverjas_app::friends::{host, sitting::Sitting};
    let host_dir = temp_dir("room-host");
    let hosting = host::start(&host_dir, Vec::new()).expect("this computer hosts a table");
    assert!(!hosting.site, "a web game lies beside the test's program");
    let mut host_app = screen_app((1280, 720), None, Options { data_dir: Some(host_dir), ..Options::default() });
    let setup = friends_setup(16, true);
    let wake = || -> klaverjas_app::friends::socket::Wake { std::sync::Arc::new(|| {}) };
    host_app.insert_resource(Sitting::host(hosting.own_server(), "Ann".into(), setup, wake()));
    host_app.insert_resource(hosting.clone());
    let mut guest = phone_app((1080, 2340), Options { data_dir: Some(temp_dir("room-guest")), ..Options::default() });
    for app in [&mut host_app, &mut guest] {
        app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Friends);
    }
    run_real(&mut host_app, "the table's code", &|app| app.world().resource::<Sitting>().code.is_some());
    let code = host_app.world().resource::<Sitting>().code.unwrap();
    let drawn = |app: &mut App, name: &str| klaverjas_app::forms::target(&egui_context(app), name);
    for _ in 0..4 {
        host_app.update();
    }
    assert!(drawn(&mut host_app, "friends.qr").is_none(), "a QR code that opens nothing");
    guest.insert_resource(Sitting::join(hosting.own_server(), code, "Bea".into(), wake()));
    run_real(&mut guest, "the guest seated", &|app| app.world().resource::<Sitting>().seat.is_some());
    for _ in 0..4 {
        guest.update();
    }
    assert!(drawn(&mut guest, "friends.qr").is_none(), "the host's QR code on a guest's phone");
    let ctx = egui_context(&mut guest);
    let (rect, shown) = klaverjas_app::forms::target(&ctx, "friends.wait_for_host").expect("what happens next is said");
    assert!(
        ctx.content_rect().contains_rect(rect) && shown.expand(0.5).contains_rect(rect),
        "below the screen: {rect:?}"
    );
}

/// A friend who comes once the match has begun takes a bot's chair and is
/// at the table at once, where the host lets them; where the host keeps
/// its bots, the phone says so once, with the way back, and shows no
/// chairs of a table the friend is not at.
#[test]
fn a_late_friend_takes_a_bots_chair_or_is_told_once_why_not() {
    use klaverjas_app::friends::{host, sitting::Sitting};
    let dir = temp_dir("late-host");
    let hosting = host::start(&dir, Vec::new()).expect("this computer hosts a table");
    let wake = || -> klaverjas_app::friends::socket::Wake { std::sync::Arc::new(|| {}) };
    for late in [true, false] {
        let mut host_app = headless_app(Options { data_dir: Some(dir.clone()), ..Options::default() }, Speed::Fast);
        let setup = friends_setup(16, late);
        host_app.insert_resource(Sitting::host(hosting.own_server(), "Ann".into(), setup, wake()));
        run_real(&mut host_app, "the table's code", &|app| app.world().resource::<Sitting>().code.is_some());
        host_app.world().resource::<Sitting>().send(&klaverjas_net::ToTable::Start);
        run_real(&mut host_app, "the match begun", &|app| app.world().resource::<Sitting>().started);
        let code = host_app.world().resource::<Sitting>().code.unwrap();
        let guest_dir = temp_dir(&format!("late-guest-{late}"));
        let mut guest = phone_app((1080, 2340), Options { data_dir: Some(guest_dir), ..Options::default() });
        guest.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
        guest.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Friends);
        guest.insert_resource(Sitting::join(hosting.own_server(), code, "Bea".into(), wake()));
        if late {
            run_real(&mut guest, "the late friend at the table", &|app| {
                screen(app) == Screen::Table
                    && app.world().get_resource::<Seats>().is_some_and(|s| s.remote().is_some())
            });
            continue;
        }
        run_real(&mut guest, "the refusal", &|app| app.world().resource::<Sitting>().refused.is_some());
        // What the room drew while it waited for the answer is forgotten.
        let names = ["N", "E", "S", "W"].map(|seat| format!("friends.chair.{seat}"));
        let ctx = egui_context(&mut guest);
        ctx.data_mut(|d| {
            names.iter().for_each(|n| d.remove::<(bevy_egui::egui::Rect, bevy_egui::egui::Rect)>(target_id(n)))
        });
        for _ in 0..4 {
            guest.update();
        }
        let ctx = egui_context(&mut guest);
        assert!(klaverjas_app::forms::target(&ctx, "friends.refusal").is_some(), "not told why");
        assert!(klaverjas_app::forms::target(&ctx, "friends.leave").is_some(), "no way back");
        for chair in &names {
            assert!(klaverjas_app::forms::target(&ctx, chair).is_none(), "the chairs of a table not joined");
        }
    }
}

/// Runs frames with real time passing for the sockets until `stop` holds.
fn run_real(app: &mut App, what: &str, stop: &dyn Fn(&mut App) -> bool) {
    for _ in 0..20_000 {
        if stop(app) {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("never reached: {what}");
}

/// A classic table with friends of `deals` deals and heuristic bots.
fn friends_setup(deals: u16, late: bool) -> klaverjas_net::Setup {
    klaverjas_net::Setup {
        preset: Preset::Classic,
        set: format!("match=deals:{deals}"),
        bots: klaverjas_ai::Level::Heuristic,
        grace: Some(30),
        hints: false,
        late,
    }
}

/// Presses `key` (and lets it go) with `held` down, as the window's
/// keyboard would.
fn keys(app: &mut App, held: &[KeyCode], key: KeyCode, logical: bevy::input::keyboard::Key) {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyboardInput};
    use bevy::window::PrimaryWindow;
    let window = app.world_mut().query_filtered::<Entity, With<PrimaryWindow>>().single(app.world()).unwrap();
    let input = |key_code, logical_key, state| KeyboardInput {
        key_code,
        logical_key,
        state,
        text: None,
        repeat: false,
        window,
    };
    for &h in held {
        app.world_mut().write_message(input(h, Key::Control, ButtonState::Pressed));
    }
    app.update();
    app.world_mut().write_message(input(key, logical.clone(), ButtonState::Pressed));
    app.update();
    app.world_mut().write_message(input(key, logical, ButtonState::Released));
    for &h in held {
        app.world_mut().write_message(input(h, Key::Control, ButtonState::Released));
    }
    for _ in 0..3 {
        app.update();
    }
}

/// Ctrl+V pastes the system's clipboard into a text field at its caret:
/// the name and the join code of Play with friends. The clipboard is the
/// real one (X11's), so this needs a display: `.ci/run` runs it under
/// Xvfb.
#[test]
#[ignore = "needs an X display: .ci/run runs it under xvfb-run"]
fn ctrl_v_pastes_the_clipboard_into_a_field() {
    use bevy::input::keyboard::Key;
    use klaverjas_app::screens::friends::FriendsForm;
    let options = Options { data_dir: Some(temp_dir("paste")), ..Options::default() };
    let mut app = screen_app((1280, 720), None, options);
    app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
    tap(&mut app, "friends");
    assert_eq!(screen(&app), Screen::Friends);
    for (field, copied, pasted) in [("friends.code", "KJ7QX2\n", "KJ7QX2"), ("friends.name", " Bea ", "Bea")] {
        let copy = klaverjas_app::platform::copy_to_clipboard(copied);
        assert_eq!(copy.outcome(), Some(Ok(())), "the clipboard took {copied:?}");
        tap(&mut app, field);
        let form = |app: &App| {
            let f = app.world().resource::<FriendsForm>();
            if field == "friends.code" { f.code.clone() } else { f.name.clone() }
        };
        let before = form(&app);
        keys(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyV, Key::Character("v".into()));
        assert_eq!(form(&app), format!("{before}{pasted}"), "{field}: Ctrl+V");
    }
    // A phone's app (here the desktop's clipboard behind it): the field's
    // Paste button, within the code's eight letters.
    let options = Options { data_dir: Some(temp_dir("paste-phone")), ..Options::default() };
    let mut app = phone_app((1080, 2340), options);
    app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
    tap(&mut app, "friends");
    let copy = klaverjas_app::platform::copy_to_clipboard(" KJ7QX2AB99\n");
    assert_eq!(copy.outcome(), Some(Ok(())));
    tap(&mut app, "friends.code.paste");
    assert_eq!(app.world().resource::<FriendsForm>().code, "KJ7QX2AB", "the Paste button, cut at the code's length");
}

/// A phone's app draws egui's fields, which have no menu to paste from
/// and which the keyboard's own paste does not reach: each field has a
/// Paste button beside it, inside the screen. A desktop pastes with its
/// keys, a browser through its page: no button there.
#[test]
fn a_phone_apps_fields_each_have_a_paste_button() {
    for phone in [true, false] {
        let options = Options { data_dir: Some(temp_dir("paste-button")), ..Options::default() };
        let mut app = if phone { phone_app((1080, 2340), options) } else { screen_app((1280, 720), None, options) };
        app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
        tap(&mut app, "friends");
        assert_eq!(screen(&app), Screen::Friends);
        let ctx = egui_context(&mut app);
        let screen_rect = ctx.content_rect();
        for field in ["friends.name", "friends.code"] {
            let (_, at) = klaverjas_app::forms::target(&ctx, field).unwrap_or_else(|| panic!("{field} is drawn"));
            let paste = klaverjas_app::forms::target(&ctx, &format!("{field}.paste"));
            match (phone, paste) {
                (true, Some((whole, _))) => {
                    assert!(screen_rect.contains_rect(whole), "{field}'s Paste at {whole:?} inside {screen_rect:?}");
                    assert!(
                        whole.left() >= at.right() && whole.center().y > at.top() && whole.center().y < at.bottom(),
                        "{field}'s Paste at {whole:?} beside it at {at:?}"
                    );
                }
                (true, None) => panic!("{field} has no Paste button on a phone"),
                (false, Some(_)) => panic!("{field} has a Paste button on a desktop"),
                (false, None) => {}
            }
        }
    }
}

/// A step's answer is read in that step: the roem call is answered "20
/// roem, counted" before the step moves on, and Next moves it on.
#[test]
fn a_steps_answer_is_shown_in_that_step() {
    use klaverjas_app::tutorial::lesson::Step;
    use klaverjas_app::tutorial::teacher::TutorialCommand;
    let mut app = headless_app(Options { data_dir: Some(temp_dir("answer")), ..Options::default() }, Speed::Instant);
    let lesson = klaverjas_app::tutorial::lesson::all().unwrap().into_iter().find(|l| l.id == "roem").unwrap();
    let call = lesson
        .steps
        .iter()
        .position(|s| matches!(s, Step::Expect { any_of, answer: Some(_), .. } if any_of[0] == Action::ClaimRoem))
        .expect("the roem call has an answer");
    app.world_mut().write_message(TutorialCommand::Start { id: "roem".into(), step: call });
    run_until(&mut app, "the step", |app| in_lesson(app) && idle(app));
    act(&mut app, Action::ClaimRoem);
    run_until(&mut app, "the answer", |app| tutorial(app).answered);
    assert_eq!(tutorial(&app).step, call, "the step waits with its answer");
    for _ in 0..100 {
        app.update();
    }
    assert_eq!(tutorial(&app).step, call, "the answer stays until Next");
    assert!(app.world().resource::<Show>().hold_trick, "the trick it talks about stays");
    app.world_mut().write_message(TutorialCommand::Next);
    app.update();
    assert_eq!(tutorial(&app).step, call + 1);
    assert!(!tutorial(&app).answered);
    // The counter counts the learner's steps only.
    let (k, total) = lesson.counted_step(call);
    assert_eq!(total, lesson.steps.iter().filter(|s| !matches!(s, Step::Auto(_))).count());
    assert_eq!(lesson.counted_step(call + 1).0, k + usize::from(!matches!(lesson.steps[call + 1], Step::Auto(_))));
}

/// Every step of every lesson, on a desktop (wide, and tall as CI's), a
/// phone held upright and one held sideways: the bubble covers neither what the step points at nor a
/// trick on the table, and on the upright phone and the desktop its words
/// fit without scrolling.
#[test]
fn a_lessons_bubble_leaves_what_it_speaks_of_in_view() {
    use bevy_egui::egui;
    let lessons = klaverjas_app::tutorial::lesson::all().expect("the lessons");
    let sizes = [
        ((1280, 720), None, true),
        ((1080, 2340), None, true),
        ((1080, 2340), Some(2.625), true),
        ((2340, 1080), Some(2.625), false),
    ];
    let mut problems = Vec::new();
    for (size, phone, fits) in sizes {
        let name = format!("bubble-{}-{}", size.0, phone.is_some());
        let options = Options { data_dir: Some(temp_dir(&name)), ..Options::default() };
        let mut app = screen_app(size, phone, options);
        app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
        for lesson in &lessons {
            for step in 0..lesson.steps.len() {
                if matches!(lesson.steps[step], klaverjas_app::tutorial::lesson::Step::PlayOut { .. }) {
                    break;
                }
                open_lesson(&mut app, &lesson.id, step);
                // Instant cards: what the step begins with is done in these.
                for _ in 0..40 {
                    app.update();
                }
                let ctx = egui_context(&mut app);
                let get = |name: &str| ctx.data(|d| d.get_temp::<egui::Rect>(egui::Id::new(name)));
                let Some(bubble) = get("lesson-bubble-rect") else {
                    problems.push(format!("{size:?} {} {step}: no bubble", lesson.id));
                    continue;
                };
                let spot: Vec<egui::Rect> = ctx.data(|d| d.get_temp(egui::Id::new("lesson-spot"))).unwrap_or_default();
                let table = *app.world().resource::<Table>();
                let layout = table.layout();
                let show = app.world().resource::<Show>();
                let mut keep = spot.clone();
                if !show.shown.trick.is_empty() {
                    let (c, at) = (layout.trick_card(), layout.trick_centre());
                    keep.push(klaverjas_app::table::outline::on_table(at, Vec2::new(c.x * 3.2, c.y * 2.0)));
                }
                // On a tall table with a trick on it, the trump and the
                // playing side stay readable too, where the step's spot
                // leaves the room below the trick.
                let drawn = *app.world().resource::<klaverjas_app::panels::paint::Drawn>();
                if size.0 < size.1 && !show.shown.trick.is_empty() && spot.is_empty() {
                    keep.extend(drawn.indicator());
                }
                let k = step + 1;
                for r in keep.iter().filter(|r| r.intersects(bubble.shrink(2.0))) {
                    problems.push(format!("{size:?} {} step {k}: the bubble {bubble:?} covers {r:?}", lesson.id));
                }
                // Words scroll only where the bubble already takes all the
                // room it has.
                let scrolls = ctx.data(|d| d.get_temp::<bool>(egui::Id::new("lesson-words-scroll")));
                let room = ctx.data(|d| d.get_temp::<f32>(egui::Id::new("lesson-bubble-room"))).unwrap_or(0.0);
                if fits && scrolls == Some(true) && bubble.height() < room - 40.0 {
                    let high = bubble.height();
                    problems.push(format!("{size:?} {} step {k}: the words scroll in {high} of {room}", lesson.id));
                }
                // The header as wide as the box under it.
                let beyond = ctx.data(|d| d.get_temp::<f32>(egui::Id::new("lesson-bubble-beyond"))).unwrap_or(0.0);
                if beyond > 1.0 {
                    problems
                        .push(format!("{size:?} {} step {k}: the body is {beyond} wider than its header", lesson.id));
                }
                ctx.data_mut(|d| {
                    d.remove::<egui::Rect>(egui::Id::new("lesson-bubble-rect"));
                    d.remove::<bool>(egui::Id::new("lesson-words-scroll"));
                });
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// On a small phone (360x640 dp) words that truly have no room scroll, and
/// a finger's swipe over them scrolls them.
#[test]
fn a_lessons_words_scroll_under_a_finger() {
    use bevy::window::PrimaryWindow;
    use bevy_egui::egui;
    let mut app = phone_app((945, 1680), Options { data_dir: Some(temp_dir("bubble-swipe")), ..Options::default() });
    app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
    let get = |app: &mut App, name: &str| egui_context(app).data(|d| d.get_temp::<f32>(egui::Id::new(name)));
    let scrolls = |app: &mut App| egui_context(app).data(|d| d.get_temp::<bool>(egui::Id::new("lesson-words-scroll")));
    let lesson = klaverjas_app::tutorial::lesson::all().unwrap().into_iter().find(|l| l.id == "following").unwrap();
    open_lesson(&mut app, &lesson.id, 0);
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(scrolls(&mut app), Some(true), "these words fit a small phone: choose longer ones for this test");
    let before = get(&mut app, "lesson-words-offset").unwrap();
    let bubble =
        egui_context(&mut app).data(|d| d.get_temp::<egui::Rect>(egui::Id::new("lesson-bubble-rect"))).unwrap();
    let zoom = egui_context(&mut app).zoom_factor();
    let window = app.world_mut().query_filtered::<Entity, With<PrimaryWindow>>().single(app.world()).unwrap();
    // Over the words: below the title, above the buttons.
    let x = bubble.center().x * zoom;
    let y = (bubble.top() + bubble.height() * 0.55) * zoom;
    let finger = |phase, y: f32| TouchInput { phase, position: Vec2::new(x, y), window, force: None, id: 3 };
    app.world_mut().write_message(finger(TouchPhase::Started, y));
    app.update();
    for step in 1..=8 {
        app.world_mut().write_message(finger(TouchPhase::Moved, y - 12.0 * step as f32));
        app.update();
    }
    app.world_mut().write_message(finger(TouchPhase::Ended, y - 96.0));
    for _ in 0..4 {
        app.update();
    }
    let after = get(&mut app, "lesson-words-offset").unwrap();
    assert!(after > before + 20.0, "the words moved {} points under a 96-point swipe", after - before);
    assert_eq!(tutorial(&app).step, 0, "the swipe was not taken for a tap");
}

/// Plays a match's deals to its end, Next deal after each.
fn play_the_day(app: &mut App) {
    loop {
        play_until(app, "a deal's end", |s| s.game().result().is_some() || s.game().phase() == Phase::ThrownIn);
        if seats(app).m.is_over() {
            return;
        }
        run_until(app, "the score", idle);
        app.world_mut().write_message(TableCommand::NextDeal);
        app.update();
    }
}

/// The deals of the day on a phone: played for the record from its screen,
/// the result screen opened once the last trick is seen, the day kept in
/// the profile (on disk too) with the yardstick worked out on the bots'
/// thread equal to the expert's day worked out in place, each deal's
/// review on the learning curve, a friend's line compared and a damaged one
/// refused; a second play is practice and leaves the record alone. Every
/// control of the screen is at least 48 dp high, before and after.
#[test]
fn a_day_is_played_for_the_record_kept_and_compared_with_a_friends_line() {
    use klaverjas_ai::daily::{self, DayResult, Play, Played};
    let dir = temp_dir("daily");
    let mut app = phone_app((1080, 2340), Options { data_dir: Some(dir.clone()), ..Options::default() });
    app.world_mut().resource_mut::<PlayerSettings>().0.home_rules = Some(Preset::Classic);
    let mut seen = Vec::new();
    walk(&mut app, "title", &mut seen);
    press(&mut app, "daily");
    walk(&mut app, "the day, not played", &mut seen);
    assert_eq!(app.world().resource::<State<Screen>>().get(), &Screen::Daily);
    press(&mut app, "daily.play");
    let today = klaverjas_app::platform::today();
    let bots = app.world().resource::<PlayerSettings>().0.bot_level.level();
    let play = Play { day: today, preset: Preset::Classic, bots, record: true };
    assert_eq!(seats(&app).daily(), Some(play));
    assert!(!seats(&app).m.is_practice(), "the record is played without help");
    let p = &app.world().resource::<klaverjas_app::state::PlayerProfile>().0;
    assert!(!p.day_open(today, Preset::Classic), "a day begun for the record is not begun for it again");
    assert_eq!(seats(&app).m.game().deal().code(), daily::new_match(today, Preset::Classic).game().deal().code());
    play_the_day(&mut app);
    let m = seats(&app).m.clone();
    assert_eq!(m.deals_finished(), daily::DEALS);
    // The save holds the day, and continues as the day's.
    let store = klaverjas_app::save::Store::new(Some(dir.clone()));
    match store.load_game(klaverjas_app::save::Slot::Day) {
        klaverjas_app::save::Loaded::Found((save, _)) => assert_eq!(save.daily, Some(play)),
        other => panic!("the day's save: {other:?}"),
    }
    assert_eq!(app.world().resource::<State<Screen>>().get(), &Screen::Table, "the last trick is shown first");
    let start = now(&app);
    run_until(&mut app, "the result screen", |app| *app.world().resource::<State<Screen>>().get() == Screen::Daily);
    println!("the result {} s of game time after the last card", now(&app) - start);
    let profile = |app: &App| app.world().resource::<klaverjas_app::state::PlayerProfile>().0.clone();
    run_until(&mut app, "the day kept and every deal reviewed", |app| {
        let p = profile(app);
        !p.days.is_empty() && p.curve.len() == daily::DEALS
    });
    let expert = daily::expert_points(today, Preset::Classic, bots);
    let kept = Played::of(play, &m, &expert);
    assert_eq!(profile(&app).days, vec![kept.clone()], "the yardstick from the bots' thread is the one in place");
    assert_eq!(kept.mine, daily::south_points(&m));
    assert_eq!(kept.codes.len(), daily::DEALS);
    match store.load_profile() {
        klaverjas_app::save::Loaded::Found(p) => assert_eq!(p.days, vec![kept.clone()]),
        other => panic!("the profile on disk: {other:?}"),
    }
    walk(&mut app, "the day's result", &mut seen);
    // A friend's line: damaged, then whole.
    let type_in = |app: &mut App, text: String| {
        press(app, "daily.friend");
        // What was there before is rubbed out, key by key, then pasted over.
        let key = |key| bevy_egui::egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: Default::default(),
        };
        let mut keys = vec![key(bevy_egui::egui::Key::End)];
        keys.extend((0..300).map(|_| key(bevy_egui::egui::Key::Backspace)));
        keys.push(bevy_egui::egui::Event::Paste(text));
        app.world_mut().resource_mut::<Taps>().0.extend(keys);
        app.update();
        press(app, "daily.compare");
        // Marks are kept between passes: what shows now is marked anew.
        egui_context(app).data_mut(|d| {
            for name in ["daily.friend_row", "daily.refused"] {
                d.remove::<(bevy_egui::egui::Rect, bevy_egui::egui::Rect)>(bevy_egui::egui::Id::new(("target", name)));
            }
        });
        app.update();
        app.update();
        let ctx = egui_context(app);
        (klaverjas_app::forms::target(&ctx, "daily.friend_row"), klaverjas_app::forms::target(&ctx, "daily.refused"))
    };
    let line = kept.result.to_string();
    let (row, refused) = type_in(&mut app, line.replace(" / expert", " expert"));
    assert!(row.is_none() && refused.is_some(), "a damaged line is refused: {row:?} {refused:?}");
    let friend = DayResult { points: kept.result.points + 1, ..kept.result.clone() };
    let (row, refused) = type_in(&mut app, format!("Ann: {friend} :)"));
    assert!(
        row.is_some() && refused.is_none(),
        "a friend's line of the same day is shown beside ours: {row:?} {refused:?}"
    );
    // Played again: practice, and the record stays as it was.
    press(&mut app, "daily.play");
    assert_eq!(seats(&app).daily(), Some(Play { record: false, ..play }));
    play_the_day(&mut app);
    run_until(&mut app, "the practice's result", |app| *app.world().resource::<State<Screen>>().get() == Screen::Daily);
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(profile(&app).days, vec![kept]);
    // Continued after a restart, a day already over stays at its table.
    let over = Seats::of_day(seats(&app).m.clone(), false, Play { record: false, ..play });
    sit_down(&mut app, over);
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(app.world().resource::<State<Screen>>().get(), &Screen::Table, "the result opens once");
    println!("{seen:?}");
}

/// The nodes of egui's last AccessKit tree: (id, node), and the focus.
fn accesskit_tree(
    app: &mut App,
) -> (Vec<(bevy_egui::egui::accesskit::NodeId, bevy_egui::egui::accesskit::Node)>, bevy_egui::egui::accesskit::NodeId) {
    let world = app.world_mut();
    let output = world.query::<&bevy_egui::EguiOutput>().single(world).unwrap();
    let update = output.platform_output.accesskit_update.clone().expect("AccessKit is on: a tree every pass");
    (update.nodes, update.focus)
}

/// With AccessKit on (as when a screen reader listens), egui's tree tells
/// the table: through a whole deal, at each of the player's turns every
/// card of the hand is a button named as a player says it, the ones the
/// rules forbid disabled with the rule as their description; the
/// keyboard's cursor is the tree's focus; the trick lies there as text;
/// and the lines of "What happened" tell each of the 32 cards played and
/// each of the 8 tricks won, with its points.
#[test]
fn a_screen_reader_is_told_the_hand_the_trick_and_every_card_played() {
    use bevy_egui::egui::accesskit::Role;
    use klaverjas_app::panels::told::{card_id, hand_card_name};
    use klaverjas_app::table::cards::{Selection, sorted_hand};
    let options = Options { data_dir: Some(temp_dir("told")), ..Options::default() };
    let mut app = screen_app((1280, 720), None, options);
    egui_context(&mut app).enable_accesskit();
    sit_down(&mut app, player_seats(Preset::Classic, 11));
    let mut told: Vec<String> = Vec::new();
    let (mut turns, mut forbidden_seen) = (0, 0);
    for _ in 0..40_000 {
        app.update();
        let (nodes, _) = accesskit_tree(&mut app);
        let label = |start: &str| {
            nodes.iter().find_map(|(_, n)| {
                let text = n.value().unwrap_or_default();
                (n.role() == Role::Label && text.starts_with(start)).then(|| text.to_string())
            })
        };
        // What happened, past where it overlaps what was read before.
        if let Some(log) = label("What happened:") {
            let lines: Vec<String> = log.lines().skip(1).map(String::from).collect();
            let k = (0..=lines.len().min(told.len())).rev().find(|&k| told[told.len() - k..] == lines[..k]).unwrap();
            told.extend(lines[k..].iter().cloned());
        }
        let s = seats(&app);
        let g = s.game();
        if g.result().is_some() && told.iter().any(|l| l.starts_with("The deal is over")) {
            break;
        }
        let show = app.world().resource::<Show>();
        if s.waiting_for(show.stage(now(&app))) != Some(HUMAN) {
            continue;
        }
        let legal = g.legal_actions();
        if g.phase() != Phase::Playing {
            let pass = Action::Bid(Bid::Pass);
            act(&mut app, if legal.contains(&pass) { pass } else { legal[0] });
            continue;
        }
        let t = app.world().resource::<Texts>().0.clone();
        let trump = g.contract().map(|c| c.trump);
        let hand = sorted_hand(show.shown.hands[HUMAN.index()], trump, show.shown.values);
        let buttons: Vec<_> = nodes.iter().filter(|(_, n)| n.role() == Role::Button).collect();
        for &card in &hand {
            let (_, node) = buttons
                .iter()
                .find(|(id, _)| *id == card_id(card).accesskit_id())
                .unwrap_or_else(|| panic!("{card} has no button"));
            assert_eq!(node.label(), Some(hand_card_name(&t, card, trump).as_str()));
            match g.check(Action::Play(card)) {
                Ok(()) => assert!(!node.is_disabled() && node.description().is_none(), "{card} is allowed"),
                Err(e) => {
                    forbidden_seen += 1;
                    assert!(node.is_disabled(), "{card} is forbidden");
                    assert_eq!(node.description(), Some(words::explain(&e, &t, trump).as_str()));
                }
            }
        }
        let on_table = label("On the table:").or(label("No cards")).expect("the trick as text");
        for (seat, card) in &show.shown.trick {
            assert!(on_table.contains(&words::card_name(&t, *card, trump)), "{seat}'s {card}: {on_table}");
        }
        // The keyboard's cursor on the card to play, and the tree's focus
        // follows it; the next pass plays it with Enter's action.
        let slot = hand.iter().rposition(|&c| g.legal_cards().contains(c)).unwrap();
        app.world_mut().resource_mut::<Selection>().keyboard = Some(slot);
        app.update();
        app.update();
        assert_eq!(accesskit_tree(&mut app).1, card_id(hand[slot]).accesskit_id(), "the focus is the cursor's card");
        turns += 1;
        act(&mut app, Action::Play(hand[slot]));
    }
    let plays = told.iter().filter(|l| l.starts_with("You play ") || l.contains(" plays ")).count();
    let wins: Vec<&String> = told.iter().filter(|l| l.contains("the trick, ") && l.contains(" point")).collect();
    assert_eq!((plays, wins.len(), turns), (32, 8, 8), "told: {told:#?}");
    assert!(forbidden_seen > 0, "a deal where no card was ever forbidden proves nothing");
    assert!(told.contains(&"Your turn".to_string()), "{told:#?}");
}

/// Words egui painted partly or wholly outside what shows of them: past
/// the clip of their page or window, or past the screen's edge, across
/// (text scrolled out of view, up or down, is not cut: it is reached by
/// scrolling).
#[derive(Resource, Default)]
struct CutWords(Vec<String>);

fn find_cut_words(
    mut outputs: Query<(&bevy_egui::EguiFullOutput, &mut bevy_egui::EguiContext)>,
    mut cut: ResMut<CutWords>,
) {
    use bevy_egui::egui::{Rect, Shape, epaint::ClippedShape};
    fn texts(shape: &Shape, shows: Rect, out: &mut Vec<String>) {
        match shape {
            Shape::Vec(shapes) => shapes.iter().for_each(|s| texts(s, shows, out)),
            Shape::Text(t) if !t.galley.text().trim().is_empty() => {
                let r = t.visual_bounding_rect();
                let past = r.min.x < shows.min.x - 1.0 || r.max.x > shows.max.x + 1.0;
                // Words in a strip that scrolls across count too: a player
                // sees them cut at its edge, or not at all where they lie
                // wholly beside what shows.
                let level = r.max.y > shows.min.y && r.min.y < shows.max.y;
                if past && (r.intersects(shows) || level) {
                    out.push(format!("{:?} at {r:?} in {shows:?}", t.galley.text()));
                }
                // A word broken over two lines, for want of room.
                let rows = &t.galley.rows;
                for pair in rows.windows(2) {
                    let end = pair[0].row.glyphs.last().map(|g| g.chr);
                    let start = pair[1].row.glyphs.first().map(|g| g.chr);
                    if !pair[0].ends_with_newline
                        && end.is_some_and(char::is_alphanumeric)
                        && start.is_some_and(char::is_alphanumeric)
                    {
                        out.push(format!("{:?} broken in a word at {r:?}", t.galley.text()));
                    }
                }
            }
            _ => {}
        }
    }
    for (output, mut ctx) in &mut outputs {
        let Some(full) = &output.0 else { continue };
        let screen = ctx.get_mut().viewport_rect();
        for ClippedShape { clip_rect, shape } in &full.shapes {
            texts(shape, clip_rect.intersect(screen), &mut cut.0);
        }
    }
}

/// At twice the usual text (the setting's largest, 200 %) and at 150 %,
/// on a phone of 360x640 dp, one of 412x915 and a desktop of 1280x720, no
/// words are cut off or broken anywhere: every menu screen, and the table bidding,
/// playing, with a hint, and at a deal's result; nor at the usual size.
#[test]
fn at_twice_the_text_no_words_are_cut_off() {
    use klaverjas_app::coach::CoachCommand;
    let phone = |w: u32, h: u32| ((w as f32 * 2.625) as u32, (h as f32 * 2.625) as u32, Some(2.625));
    let mut problems = Vec::new();
    for (w, h, scale) in [phone(360, 640), phone(412, 915), (1280, 720, None)] {
        for text_size in [100, 150, 200] {
            let options = Options { data_dir: Some(temp_dir(&format!("big-{w}-{text_size}"))), ..Options::default() };
            let mut app = screen_app((w, h), scale, options);
            app.init_resource::<CutWords>().add_systems(
                PostUpdate,
                find_cut_words
                    .after(bevy_egui::EguiPostUpdateSet::EndPass)
                    .before(bevy_egui::EguiPostUpdateSet::ProcessOutput),
            );
            {
                let mut settings = app.world_mut().resource_mut::<PlayerSettings>();
                settings.0.text_size = text_size;
                settings.0.home_rules = Some(Preset::Classic);
            }
            let mut look = |app: &mut App, what: &str| {
                for _ in 0..4 {
                    app.update();
                }
                app.world_mut().resource_mut::<CutWords>().0.clear();
                app.update();
                let scale = egui_context(app).global_style().text_styles[&bevy_egui::egui::TextStyle::Body].size;
                assert!((scale - 17.0 * text_size as f32 / 100.0).abs() < 0.01, "{what}: body text at {scale}");
                for cut in std::mem::take(&mut app.world_mut().resource_mut::<CutWords>().0) {
                    problems.push(format!("{w}x{h} at {text_size} %, {what}: {cut}"));
                }
                for covered in contract_covers(app) {
                    problems.push(format!("{w}x{h} at {text_size} %, {what}: {covered}"));
                }
            };
            for screen in Screen::MENUS {
                app.world_mut().resource_mut::<NextState<Screen>>().set(screen.clone());
                look(&mut app, &format!("{screen:?}"));
            }
            sit_down(&mut app, practice_seats(37));
            run_until(&mut app, "the player's bid", |app| idle(app) && seats(app).game().to_act() == Some(HUMAN));
            look(&mut app, "bidding");
            play_to_the_players_card(&mut app);
            coach(&mut app, CoachCommand::Hint);
            look(&mut app, "a hint");
            // Piles with their counts beside hands still full.
            play_until(&mut app, "three tricks", |s| s.game().tricks().len() >= 3);
            run_until(&mut app, "the third trick gathered", idle);
            look(&mut app, "the fourth trick");
            // Where the bar has no room for them (a 360 dp phone at 150 %
            // and 200 %), the deal's number and its buttons are in the
            // menu's list, which leads to the title too.
            if w < 1000 && text_size > 100 {
                tap(&mut app, "menu");
                assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Table);
                look(&mut app, "the menu's list");
                // Drawn in this frame, not kept from an earlier one.
                let listed = |app: &mut App| {
                    let rects = target_id("last trick");
                    egui_context(app).data_mut(|d| d.remove::<(bevy_egui::egui::Rect, bevy_egui::egui::Rect)>(rects));
                    app.update();
                    klaverjas_app::forms::target(&egui_context(app), "last trick").is_some()
                };
                assert!(listed(&mut app), "{w}x{h} at {text_size} %");
                // Escape closes the list, and leaves the table be.
                keys(&mut app, &[], KeyCode::Escape, bevy::input::keyboard::Key::Escape);
                assert!(!listed(&mut app), "{w}x{h} at {text_size} %: Escape left the list open");
                assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Table);
                // The list closed, the table's keys are its own again.
                keys(&mut app, &[], KeyCode::Escape, bevy::input::keyboard::Key::Escape);
                assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Title);
                app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Table);
                tap(&mut app, "menu");
                tap(&mut app, "to the title");
                app.update();
                assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Title, "{w}x{h} at {text_size} %");
                app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Table);
            }
            play_until(&mut app, "the deal's end", |s| s.m.deals_finished() > 0);
            run_until(&mut app, "the result shown", |app| app.world().resource::<Show>().shown.result.is_some());
            look(&mut app, "the result");
        }
    }
    assert!(problems.is_empty(), "words cut off:\n{}", problems.join("\n"));
}

/// What the felt's words lie over: the trump's mark, the contract's words,
/// each name plate and each pile's count against the cards of every hand
/// and of the trick, where the table puts them, and against each other.
fn contract_covers(app: &mut App) -> Vec<String> {
    let drawn = *app.world().resource::<klaverjas_app::panels::paint::Drawn>();
    let mut marks =
        vec![("the trump's mark".to_string(), drawn.trump_mark), ("the contract's words".into(), drawn.contract_words)];
    marks.extend(Seat::ALL.map(|seat| (format!("{seat:?}'s name"), drawn.plates[seat.index()])));
    marks.extend(Seat::ALL.map(|seat| (format!("{seat:?}'s tricks won"), drawn.counts[seat.index()])));
    let marks: Vec<(String, bevy_egui::egui::Rect)> =
        marks.into_iter().filter_map(|(what, r)| Some((what, r?))).collect();
    let mut covered: Vec<String> = cards(app)
        .into_iter()
        .filter(|(_, place, ..)| matches!(place, Place::Hand { .. } | Place::Trick { .. }))
        .flat_map(|(card, place, _, Target(l), _)| {
            let size = if l.sideways { Vec2::new(l.size.y, l.size.x) } else { l.size };
            let lies = klaverjas_app::table::outline::on_table(l.at, size);
            marks
                .iter()
                .filter(move |(_, r)| lies.intersects(r.shrink(1.0)))
                .map(move |(what, r)| format!("{what} at {r:?} covers {card} at {place:?}"))
        })
        .collect();
    for (i, (what, r)) in marks.iter().enumerate() {
        for (other, o) in marks.iter().skip(i + 1).filter(|(_, o)| o.intersects(r.shrink(1.0))) {
            covered.push(format!("{what} at {r:?} covers {other} at {o:?}"));
        }
    }
    covered.sort();
    covered
}

#[test]
fn the_zoom_and_text_sizes_are_set_before_any_screen_draws() {
    // Every word's size is a text style `set_zoom` names: a screen drawn
    // before it in a frame finds none, and egui panics. Bevy orders
    // systems it is not told to order as it likes (a browser's build drew
    // the table first), so each system that draws must be ordered with it.
    let mut app = screen_app((412 * 3, 915 * 3), Some(3.0), Options::default());
    app.update();
    let conflicts: Vec<(String, String)> =
        app.world_mut().resource_scope(|world, mut schedules: Mut<bevy::ecs::schedule::Schedules>| {
            let schedule = schedules.get_mut(bevy_egui::EguiPrimaryContextPass).expect("egui's pass");
            schedule.initialize(world).expect("the pass builds");
            let names: std::collections::HashMap<_, _> =
                schedule.systems().expect("built").map(|(key, system)| (key, system.name().to_string())).collect();
            let name = |key| names.get(key).cloned().unwrap_or_default();
            schedule.graph().conflicting_systems().0.iter().map(|(a, b, _)| (name(a), name(b))).collect()
        });
    let unordered: Vec<_> =
        conflicts.iter().filter(|(a, b)| a.contains("set_zoom") || b.contains("set_zoom")).collect();
    assert!(
        conflicts.iter().any(|(a, b)| a.contains("title") || b.contains("title")),
        "the screens share egui's context, so some pairs are unordered: {conflicts:?}"
    );
    assert!(unordered.is_empty(), "drawn in no order with the zoom: {unordered:?}");
}
