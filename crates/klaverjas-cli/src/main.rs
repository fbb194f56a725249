//! `kj`: the Klaverjas engine on the command line. Human-readable output by
//! default, JSON with `--json`. Any bad input ends with a one-line message
//! and a non-zero exit code, never a panic.

mod args;
mod bench_evening;
mod bench_table;
mod daily;
mod evening;
mod matches;
mod progress;
mod review;
mod stats;
mod table;

use args::Args;
use klaverjas::{
    Action, Card, CardSet, Contract, Deal, Game, PerTeam, PileCard, PlayState, Players, Position, Rng, Rules, Seat,
    Stock, Suit, Team, Trick, legal_cards, roem::trick_roem,
};
use serde_json::{Value, json};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
kj: the Klaverjas engine on the command line

  kj legal --rules PRESET --trump SUIT --hand CARDS [--trick CARDS]
  kj trick --rules PRESET --trump SUIT --trick CARDS
  kj deal  --rules PRESET --dealer SEAT --trump SUIT --playing SEAT --play CARDS [--claim all|none]
  kj deal  --rules PRESET --dealer SEAT --actions LIST [--pile CARD,CARD] [--hands HANDS]
           [--last-card CARD] [--carry NS,EW]
  kj sim   --rules PRESET --deals N --seed S
  kj sim   --rules PRESET --ns LEVEL --ew LEVEL --matches N --seed S [--duplicate] [--threads N]
           [--ns-without IDEAS] [--ew-without IDEAS]
  kj solve --rules PRESET --trump SUIT --hands \"N:CARDS E:CARDS S:CARDS W:CARDS\" --leader SEAT [--trick CARDS]
  kj review --rules PRESET --code CODE --dealer SEAT --trump SUIT --playing SEAT --play CARDS --seat SEAT [--seed S]
  kj code  (--seed S --dealer SEAT [--rules PRESET] | --code CODE)
  kj score --rules PRESET --deals \"DEAL; DEAL; ...\"
           (a score sheet of deals played with real cards, each as the table writes
           it down: who played, trump, the playing team's card points, then any of
           roem NS/EW, pit, revoke TEAM, doubles N TEAM, and in a boem out TEAM,
           outright TEAM [STROKES], others N; e.g. \"S H 102 roem 20/0\")
  kj daily [--date YYYY-MM-DD] [--rules PRESET] [--bots LEVEL] [--result LINE]
           (the deals of the day and the expert's points on them from South;
           --result reads a shared line of the same day beside them)
  kj bench playout [--deals N] [--seed S] [--rules PRESET]
  kj bench solver --deals N --seed S [--rules PRESET]
  kj bench bot --level LEVEL --decisions N --seed S [--bids] [--without IDEAS] [--rules PRESET]
  kj bench review --deals N --seed S [--rules PRESET]
  kj bench table --server URL [--tables N] [--seconds S] [--think MS] [--pid SERVER_PID]
  kj bench evening --server URL [--players N] [--deals N]
           (an evening's load: N players checked in and connected, one round, every
           table's phone entering its deals at once, deal after deal)
  kj stats --data-dir DIR   (the game's statistics and learning curve, from DIR/profile.ron)
{TABLE}

Every command takes --json for JSON output, and every command with --rules
takes --set NAME=VALUE,... to change options of the preset (listed below).
Presets: listed below. Levels: random, heuristic, expert,
pimc (the first expert, the measure of later ones); --ns-without,
--ew-without and --without switch ideas of the expert off to measure them
(listed below). Suits C D H S;
seats N E S W.
Cards: rank 7 8 9 T J Q K A (10 also accepted) then suit, e.g. JH 9h 10s,
separated by spaces or commas.
A deal's actions (--actions), in order, separated by commas: pass, play,
trump SUIT (or the suit's name), double (kraak), announce (roem from the
hand), a card or several cards separated by spaces, roem, no roem; e.g.
\"pass, trump hearts, double, pass, pass, 7H 8H 9H JH, ...\". The hands
follow from the 32 cards played. With a turned card, --pile gives it and
the pile's next card (2-6), e.g. 4H,6C. Where the last card dealt makes
trump (klawerjas), --last-card names it, face up in the dealer's hand.
A hand of a boem may end before its last trick: give --hands then, as for
kj solve; --carry gives the points each side brings from old play. At
three (the three preset) the players sit E, S and W: give --hands with
the talon's two cards as North's, and the trump maker's two cards laid
away as discard CARD, e.g. \"pass, hearts, discard 7C, discard 8D, ...\";
kj sim then plays --ns in one seat and --ew in the other two, with
--duplicate the --ns level in each seat in turn. An error counts the
actions one by one, each card one.";

/// The usage text with every rule option `--set` knows and its values,
/// from the engine's own list.
fn usage() -> String {
    let options: Vec<String> =
        klaverjas::Rules::OPTIONS.iter().map(|o| format!("  {o}: {}", klaverjas::Rules::accepted_values(o))).collect();
    let ideas: Vec<&str> = klaverjas_ai::expert::Idea::ALL.iter().map(|i| i.name()).collect();
    let presets: Vec<&str> = klaverjas::Preset::ALL.iter().map(|p| p.name()).collect();
    format!(
        "{}\n\nPresets: {}\n\nRule options:\n{}\n\nIdeas of the expert: {}",
        USAGE.replace("{TABLE}", &format!("{}\n{}", table::USAGE, evening::USAGE)),
        presets.join(", "),
        options.join("\n"),
        ideas.join(", ")
    )
}

/// How a command failed: bad input (exit 2) or a broken rule (exit 1).
pub enum Failure {
    Usage(String),
    Rule(String),
}

impl From<String> for Failure {
    fn from(s: String) -> Failure {
        Failure::Usage(s)
    }
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    match run(&raw) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("kj: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Rule(msg)) => {
            eprintln!("kj: {msg}");
            ExitCode::from(1)
        }
    }
}

fn run(raw: &[String]) -> Result<(), Failure> {
    let Some((command, rest)) = raw.split_first() else {
        println!("{}", usage());
        return Ok(());
    };
    match command.as_str() {
        "legal" => legal(&Args::parse("legal", rest, &["rules", "trump", "hand", "trick"], &["json"])?),
        "trick" => trick(&Args::parse("trick", rest, &["rules", "trump", "trick"], &["json"])?),
        "deal" => {
            let valued = [
                "rules",
                "dealer",
                "trump",
                "playing",
                "play",
                "claim",
                "actions",
                "pile",
                "hands",
                "last-card",
                "carry",
            ];
            deal(&Args::parse("deal", rest, &valued, &["json"])?)
        }
        "sim" => {
            let args = Args::parse(
                "sim",
                rest,
                &["rules", "deals", "seed", "ns", "ew", "matches", "threads", "ns-without", "ew-without"],
                &["json", "duplicate"],
            )?;
            if args.opt("ns").is_some() || args.opt("ew").is_some() || args.opt("matches").is_some() {
                matches::sim_matches(&args)
            } else {
                sim(&args)
            }
        }
        "solve" => solve(&Args::parse("solve", rest, &["rules", "trump", "hands", "leader", "trick"], &["json"])?),
        "review" => review::review(&Args::parse(
            "review",
            rest,
            &["rules", "code", "dealer", "trump", "playing", "play", "seat", "seed"],
            &["json"],
        )?),
        "code" => code(&Args::parse("code", rest, &["seed", "dealer", "code", "rules", "set"], &["json"])?),
        "score" => score(&Args::parse("score", rest, &["rules", "set", "deals"], &["json"])?),
        "daily" => daily::daily(&Args::parse("daily", rest, &["date", "rules", "bots", "result"], &["json"])?),
        "bench" => bench(rest),
        "stats" => stats::stats(&Args::parse("stats", rest, &["data-dir"], &["json"])?),
        "table" => table::table(rest),
        "evening" => evening::evening(rest),
        "help" | "--help" | "-h" => {
            println!("{}", usage());
            Ok(())
        }
        other => Err(Failure::Usage(format!("unknown command '{other}' (try 'kj help')"))),
    }
}

/// Prints `value` as JSON with `--json`, else the human text.
pub fn output(args: &Args, value: Value, human: String) {
    use std::io::Write;
    let text = if args.flag("json") { value.to_string() } else { human };
    // A reader that stops early (`kj stats | head`) is no error of ours.
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

fn names(cards: impl IntoIterator<Item = Card>) -> Vec<String> {
    cards.into_iter().map(|c| c.to_string()).collect()
}

fn trick_from(cards: &[Card], trump: Suit, rules: &Rules) -> Trick {
    // Only relative seats matter to the rules; the first seat taken leads.
    Trick::for_rules(rules.players.seats()[0], trump, rules).with_cards(cards)
}

fn legal(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let trump = args.suit("trump")?;
    let hand = args.cards("hand")?;
    let on_table = if args.opt("trick").is_some() { args.cards("trick")? } else { Vec::new() };
    let most = rules.hand_size() as usize;
    if hand.is_empty() || hand.len() > most {
        return Err(format!("--hand: a hand holds 1 to {most} cards in these rules, not {}", hand.len()).into());
    }
    let before = rules.players.count() - 1;
    if on_table.len() > before {
        return Err(format!("--trick: at most {before} cards can precede a play, not {}", on_table.len()).into());
    }
    if let Some(c) = on_table.iter().find(|c| hand.contains(c)) {
        return Err(format!("card '{c}' is both in the hand and in the trick").into());
    }
    let set: CardSet = hand.iter().copied().collect();
    let (allowed, rule) = legal_cards(set, &trick_from(&on_table, trump, &rules), trump, &rules.following);
    let list: Vec<Card> = hand.into_iter().filter(|c| allowed.contains(*c)).collect();
    let why = if allowed == set { String::new() } else { format!("  ({})", rule.explain(trump)) };
    output(args, json!({ "legal": names(list.iter().copied()) }), format!("legal: {}{why}", names(list).join(" ")));
    Ok(())
}

fn trick(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let trump = args.suit("trump")?;
    let cards = args.cards("trick")?;
    let players = rules.players.count();
    if cards.len() != players {
        return Err(format!("--trick: a trick has {players} cards in these rules, not {}", cards.len()).into());
    }
    let t = trick_from(&cards, trump, &rules);
    let winner = t.winning_index().unwrap_or(0);
    let set = t.set();
    let points = rules.card_values.set_points(set, trump);
    let roem = trick_roem(set, trump, rules.roem_table);
    output(
        args,
        json!({ "winner": winner, "points": points, "roem": roem.points }),
        format!("winner: card {} ({}), points: {points}, roem: {}", winner, cards[winner], roem.describe()),
    );
    Ok(())
}

/// Plays `cards` in order; with `claim` every roem is called as soon as its
/// trick is won, and the deal's last word is no roem.
pub fn play_cards(game: &mut Game, cards: &[Card], claim: bool) -> Result<(), Failure> {
    for (i, &card) in cards.iter().enumerate() {
        let seat = game.to_act().map_or("nobody", |s| s.name());
        if let Err(e) = game.apply(Action::Play(card)) {
            return Err(Failure::Rule(format!("trick {}: {seat} played {card}: {e}", i / 4 + 1)));
        }
        if claim && game.legal_actions().contains(&Action::ClaimRoem) {
            game.apply(Action::ClaimRoem).map_err(|e| Failure::Rule(e.to_string()))?;
        }
        if game.phase() == klaverjas::Phase::ClaimRoem {
            game.apply(Action::PassRoem).map_err(|e| Failure::Rule(e.to_string()))?;
        }
    }
    Ok(())
}

/// A deal given as its whole list of actions (`--actions`, in the notation
/// of the usage text): the hands follow from the cards played, trump from
/// the bids. An action the rules refuse is named with its number, its seat
/// and the rule.
fn game_from_actions(args: &Args, rules: klaverjas::Rules, dealer: Seat, list: &str) -> Result<Game, Failure> {
    let mut actions = Vec::new();
    for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        match item.parse::<Action>() {
            Ok(action) => actions.push(action),
            Err(e) if !item.contains(char::is_whitespace) => return Err(format!("--actions: {e}").into()),
            Err(_) => {
                for word in item.split_whitespace() {
                    actions.push(word.parse::<Action>().map_err(|e| format!("--actions: {e}"))?);
                }
            }
        }
    }
    let pile = match args.opt("pile") {
        Some(p) => {
            let cards: Vec<PileCard> = p
                .split([',', ' '])
                .filter(|w| !w.trim().is_empty())
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("--pile: {e}"))?;
            <[PileCard; 2]>::try_from(cards).map_err(|c| format!("--pile: two cards, not {}", c.len()))?
        }
        None if rules.bidding == klaverjas::Bidding::TurnedCard
            && actions.iter().any(|a| matches!(a, Action::Bid(_))) =>
        {
            return Err("--pile: turned-card bidding needs the turned card and the pile's next one, e.g. --pile 4H,6C"
                .to_string()
                .into());
        }
        None => PileCard::showing(Suit::Clubs),
    };
    let cards: Vec<Card> =
        actions.iter().filter_map(|a| if let Action::Play(c) = a { Some(*c) } else { None }).collect();
    let last_card = match args.opt("last-card") {
        Some(_) if rules.bidding != klaverjas::Bidding::LastCardDealt => {
            return Err("--last-card: in these rules the last card dealt does not make trump (bidding=last-card)"
                .to_string()
                .into());
        }
        Some(text) => Some(text.trim().parse::<Card>().map_err(|e| format!("--last-card: {e}"))?),
        None if rules.bidding == klaverjas::Bidding::LastCardDealt => {
            return Err("--last-card: the last card dealt makes trump in these rules: name it, e.g. --last-card 7C"
                .to_string()
                .into());
        }
        None => None,
    };
    let carry = match args.opt("carry") {
        Some(text) => {
            // Old play brings under 100 each: a side at 100 went on.
            let bad = || format!("--carry: expected the points of NS and EW, each under 100, e.g. 62,79, not '{text}'");
            let (ns, ew) = text.split_once(',').ok_or_else(bad)?;
            let points = |p: &str| p.trim().parse::<u16>().ok().filter(|&p| p < klaverjas::BOEM_TARGET).ok_or_else(bad);
            Some(PerTeam::new(points(ns)?, points(ew)?))
        }
        None => None,
    };
    let deal = match args.opt("hands") {
        Some(text) if rules.players == Players::Two => parse_two(text, dealer)?,
        Some(text) => {
            Deal::from_hands(dealer, parse_hands(text, false, rules.players)?, pile).map_err(|e| e.to_string())?
        }
        None if rules.players == Players::Two => {
            return Err("--hands: at two the stock cannot be read from the play: give the hands, the second \
                        deal's cards marked +, and at North the turned and the bottom card, e.g. \
                        --hands \"S:... +9D +TD +JD W:... N:9C 7D\""
                .to_string()
                .into());
        }
        None if rules.players == Players::Three => {
            return Err("--hands: at three the talon cannot be read from the play: give the hands, with the talon \
                        as North's, e.g. --hands \"E:... S:... W:... N:7C 8D\""
                .to_string()
                .into());
        }
        None => {
            if cards.len() != 32 {
                return Err(format!("--actions: a deal has 32 cards, not {} (or give --hands)", cards.len()).into());
            }
            // Trump from the bids alone, to know who won each trick and so
            // who held each card; the replay below checks every bid again.
            let mut bidding = klaverjas::bidding::BiddingState::new(&rules, dealer, pile);
            let trump = actions
                .iter()
                .filter_map(|a| if let Action::Bid(b) = a { Some(*b) } else { None })
                .find_map(|b| bidding.apply(b).ok().and_then(|_| bidding.contract()))
                .map_or(last_card.map_or(pile[0].suit, |c| c.suit()), |c| c.trump);
            Deal::from_play(dealer, trump, &cards, pile, &rules).map_err(|e| e.to_string())?
        }
    };
    let deal = match last_card {
        Some(card) => deal.with_last_card(card).map_err(|e| format!("--last-card: {e}"))?,
        None => deal,
    };
    let mut game = Game::new(rules, deal).map_err(|e| e.to_string())?.with_carry(carry);
    for (i, &action) in actions.iter().enumerate() {
        let seat = game.to_act().map_or("nobody", |s| s.name());
        game.apply(action).map_err(|e| Failure::Rule(format!("action {} ({seat}: {action}): {e}", i + 1)))?;
    }
    Ok(game)
}

fn deal(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let dealer = args.seat("dealer")?;
    let game = match args.opt("actions") {
        Some(list) => game_from_actions(args, rules, dealer, list)?,
        None => {
            let trump = args.suit("trump")?;
            let declarer = args.seat("playing")?;
            let cards = args.cards("play")?;
            let claim = match args.opt("claim").unwrap_or("all") {
                "all" => true,
                "none" => false,
                other => return Err(format!("--claim: expected all or none, not '{other}'").into()),
            };
            let dealt = rules.tricks_per_deal() as usize * rules.players.count();
            if cards.len() != dealt {
                return Err(format!("--play: a deal has {dealt} cards, not {}", cards.len()).into());
            }
            let deal =
                Deal::from_play(dealer, trump, &cards, PileCard::showing(trump), &rules).map_err(|e| e.to_string())?;
            let mut game = Game::with_contract(rules, deal, Contract { trump, declarer, forced: false })
                .map_err(|e| format!("--playing: {e}"))?;
            play_cards(&mut game, &cards, claim)?;
            game
        }
    };
    let result = *game.result().ok_or_else(|| Failure::Rule("the deal did not finish".to_string()))?;
    let tricks: Vec<Value> = game
        .tricks()
        .iter()
        .map(|t| {
            json!({
                "leader": t.leader.to_string(),
                "cards": names(t.played().iter().copied()),
                "winner": t.winner.to_string(),
                "points": t.points,
                "roem": t.roem.points,
            })
        })
        .collect();
    let per_team = |p: PerTeam<u16>| json!({ "NS": p.ns, "EW": p.ew });
    let value = json!({
        "tricks": tricks,
        "points": per_team(result.points),
        "roem": per_team(result.roem),
        "nat": result.nat,
        "pit": result.pit.is_some(),
        "doubles": result.stakes.doubles,
        "multiplier": result.stakes.multiplier,
        "final": per_team(result.final_score()),
        "going_on": result.going_on.map(|on| json!({
            "team": on.team.to_string(), "strokes": on.strokes, "outright": on.outright,
        })),
        "tally": game.rules().races_to_the_boem().then(|| json!({
            "NS": game.tally(Team::NS), "EW": game.tally(Team::EW),
        })),
    });
    let value = match result.players {
        Some(each) => {
            let mut value = value;
            let seats = game.rules().players.seats().iter().map(|s| {
                let i = s.index();
                let player = json!({ "points": each.points[i], "roem": each.roem[i], "tricks": each.tricks[i], "score": each.score[i] });
                (s.to_string(), player)
            });
            value["players"] = Value::Object(seats.collect());
            value["laid_away"] = json!(names(game.discards()));
            value
        }
        None => value,
    };
    let mut human = String::new();
    for (i, t) in game.tricks().iter().enumerate() {
        let plays: Vec<String> = t.plays().map(|(s, c)| format!("{s}:{c}")).collect();
        let roem = if t.roem.is_empty() { String::new() } else { format!(", {}", t.roem.describe()) };
        human += &format!("trick {}: {}  -> {} ({} points{roem})\n", i + 1, plays.join(" "), t.winner, t.points);
    }
    let team = |t: Team| {
        format!("{t}: {} points, {} roem, final {}", result.points[t], result.roem[t], result.final_score()[t])
    };
    match result.players {
        Some(each) => {
            let laid: Vec<String> = game.discards().iter().map(|c| c.to_string()).collect();
            human += &format!("laid away: {} (to the last trick's winner)", laid.join(" "));
            for s in game.rules().players.seats() {
                let i = s.index();
                human += &format!("\n{s}: {} points, {} roem, final {}", each.points[i], each.roem[i], each.score[i]);
            }
            if result.nat {
                human += &format!("\n{} (trump maker) is nat", result.contract.declarer);
            }
        }
        None => {
            human += &format!("{}\n{}", team(Team::NS), team(Team::EW));
            if result.nat {
                human += &format!("\n{} is nat", result.contract.playing_team());
            }
        }
    }
    if game.rules().races_to_the_boem() {
        human += &format!("\ntally: NS {}, EW {}", game.tally(Team::NS), game.tally(Team::EW));
        human += &match result.going_on {
            Some(on) if on.outright => format!("\n{} win outright: {} strokes", on.team, on.strokes),
            Some(on) => format!("\n{} go on {} stroke{}", on.team, on.strokes, if on.strokes == 1 { "" } else { "s" }),
            None => "\nnobody reached 100: old play follows".to_string(),
        };
    }
    if let Some(t) = result.pit {
        human += &format!("\n{t} has pit");
    }
    if result.stakes.multiplier > 1 {
        human += &format!("\nscores x{}", result.stakes.multiplier);
    }
    output(args, value, human);
    Ok(())
}

fn sim(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let deals = args.number("deals", 1000)?;
    let seed = args.number("seed", 1)?;
    let mut rng = Rng::new(seed);
    let mut totals = SimTotals::default();
    let mut bar = progress::Bar::new(deals);
    for n in 0..deals {
        let mut game = Game::dealt(rules, klaverjas::session::deal_seed(seed, n), Seat::from_index(n as usize));
        while game.to_act().is_some() {
            let legal = game.legal_actions();
            let action = legal[rng.below(legal.len() as u32) as usize];
            game.apply(action).map_err(|e| Failure::Rule(format!("engine refused its own legal action: {e}")))?;
        }
        if let Some(r) = game.result() {
            totals.add(r);
        }
        bar.tick(n + 1);
    }
    bar.finish();
    output(args, totals.json(deals, &rules), totals.human(deals, &rules));
    Ok(())
}

#[derive(Default)]
struct SimTotals {
    points: PerTeam<u64>,
    roem: PerTeam<u64>,
    final_score: PerTeam<u64>,
    playing: PerTeam<u64>,
    nat: PerTeam<u64>,
    pit: PerTeam<u64>,
    /// Where everyone plays alone: each seat's points, final score, and
    /// deals played (named trump) and nat, by [`Seat::index`].
    alone: Option<[AloneTotals; 4]>,
}

#[derive(Default, Clone, Copy)]
struct AloneTotals {
    points: u64,
    final_score: u64,
    playing: u64,
    nat: u64,
}

impl SimTotals {
    fn add(&mut self, r: &klaverjas::DealResult) {
        if let Some(each) = r.players {
            let alone = self.alone.get_or_insert_default();
            for (i, seat) in alone.iter_mut().enumerate() {
                seat.points += each.points[i] as u64;
                seat.final_score += each.score[i] as u64;
            }
            let maker = &mut alone[r.contract.declarer.index()];
            maker.playing += 1;
            maker.nat += r.nat as u64;
        }
        for t in Team::BOTH {
            self.points[t] += r.points[t] as u64;
            self.roem[t] += r.roem[t] as u64;
            self.final_score[t] += r.final_score()[t] as u64;
        }
        let playing = r.contract.playing_team();
        self.playing[playing] += 1;
        if r.nat {
            self.nat[playing] += 1;
        }
        if let Some(t) = r.pit {
            self.pit[t] += 1;
        }
    }

    fn json(&self, deals: u64, rules: &Rules) -> Value {
        if let Some(alone) = self.alone {
            let seats: serde_json::Map<String, Value> = rules
                .players
                .seats()
                .iter()
                .map(|s| {
                    let a = alone[s.index()];
                    let seat =
                        json!({ "points": a.points, "final": a.final_score, "playing": a.playing, "nat": a.nat });
                    (s.to_string(), seat)
                })
                .collect();
            return json!({ "deals": deals, "players": seats });
        }
        let pt = |p: &PerTeam<u64>| json!({ "NS": p.ns, "EW": p.ew });
        json!({
            "deals": deals,
            "points": pt(&self.points),
            "roem": pt(&self.roem),
            "final": pt(&self.final_score),
            "playing": pt(&self.playing),
            "nat": pt(&self.nat),
            "pit": pt(&self.pit),
        })
    }

    fn human(&self, deals: u64, rules: &Rules) -> String {
        let per = |x: u64| {
            if deals == 0 { 0.0 } else { x as f64 / deals as f64 }
        };
        let mut s = format!("{deals} deals with random legal players\n");
        // Alone at the table, the team columns mean nothing: each player.
        if let Some(alone) = self.alone {
            for seat in rules.players.seats() {
                let a = alone[seat.index()];
                s += &format!(
                    "{seat}: final {} ({:.1} a deal), points {}, named trump {} times, nat {}\n",
                    a.final_score,
                    per(a.final_score),
                    a.points,
                    a.playing,
                    a.nat
                );
            }
            return s.trim_end().to_string();
        }
        for t in Team::BOTH {
            s += &format!(
                "{t}: final {} ({:.1} a deal), points {}, roem {}, played {} times, nat {}, pit {}\n",
                self.final_score[t],
                per(self.final_score[t]),
                self.points[t],
                self.roem[t],
                self.playing[t],
                self.nat[t],
                self.pit[t]
            );
        }
        s.trim_end().to_string()
    }
}

/// A score sheet of deals entered by hand, scored by the engine's own
/// rules ([`klaverjas::score_entered_after`], each hand of a boem with
/// what the sides bring to it): bad words exit 2 naming the token, a deal
/// that cannot be (the rules' reason) exits 1 naming the deal.
fn score(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let mut sheet = klaverjas::ScoreSheet::default();
    for (n, line) in args.req("deals")?.split(';').map(str::trim).filter(|l| !l.is_empty()).enumerate() {
        let entered: klaverjas::EnteredDeal = line.parse().map_err(|e| format!("--deals, deal {}: {e}", n + 1))?;
        let result = klaverjas::score_entered_after(&rules, sheet.carry(), &entered)
            .map_err(|e| Failure::Rule(format!("deal {} ({line}): {e}", n + 1)))?;
        sheet.rows.push(result);
    }
    let totals = sheet.totals();
    // Ahead by what decides the match: strokes on the boem, else points.
    let winner = sheet.leading_team(&rules).map_or("nobody (a tie)", |t| t.name());
    let rows: Vec<Value> = sheet
        .rows
        .iter()
        .map(|r| {
            json!({ "NS": r.total(Team::NS), "EW": r.total(Team::EW), "marks": [r.marks(Team::NS), r.marks(Team::EW)],
                "nat": r.nat, "pit": r.pit_bonus.map(|t| t.to_string()), "revoke": r.revoke.map(|t| t.to_string()),
                "went_on": r.going_on.map(|g| json!({ "team": g.team.to_string(), "strokes": g.strokes })) })
        })
        .collect();
    let strokes = sheet.strokes();
    let mut out = json!({ "deals": rows, "totals": { "NS": totals.ns, "EW": totals.ew }, "ahead": winner });
    if rules.races_to_the_boem() {
        out["strokes"] = json!({ "NS": strokes.ns, "EW": strokes.ew });
    }
    let human = format!("{}ahead: {winner}\n", sheet.render(PerTeam::new("NS", "EW")));
    output(args, out, human);
    Ok(())
}

fn code(args: &Args) -> Result<(), Failure> {
    let deal = match args.opt("code") {
        Some(code) => Deal::from_code(code).map_err(|e| e.to_string())?,
        None => {
            let seed = args.number("seed", 1)?;
            let (rules, dealer) = (args.rules()?, args.seat("dealer")?);
            if !rules.players.seats_at(dealer) {
                return Err(format!("--dealer: nobody sits at {dealer} at this table").into());
            }
            Deal::shuffled_for(&rules, seed, dealer)
        }
    };
    let hands: serde_json::Map<String, Value> =
        Seat::ALL.iter().map(|s| (s.to_string(), json!(names(deal.hand(*s))))).collect();
    let mut out = json!({ "code": deal.code(), "dealer": deal.dealer.to_string(), "hands": hands });
    let mut human = format!("code: {}\ndealer: {}\n", deal.code(), deal.dealer);
    match deal.stock {
        Some(stock) => {
            // As `kj deal --hands` reads it: the second deal marked +.
            for s in [Seat::South, Seat::West] {
                let cards: Vec<String> = deal
                    .hand(s)
                    .iter()
                    .map(|c| if stock.later.contains(c) { format!("+{c}") } else { c.to_string() })
                    .collect();
                human += &format!("{}: {}\n", s, cards.join(" "));
            }
            human +=
                &format!("turned: {}, bottom: {}\nstock: {}\n", stock.turned, stock.bottom, deal.hand(Seat::North));
            out["turned"] = json!(stock.turned.to_string());
            out["bottom"] = json!(stock.bottom.to_string());
            out["second_deal"] = json!(names(stock.later));
        }
        None => {
            human += &format!("turned: {} then {}\n", deal.pile[0], deal.pile[1]);
            for s in Seat::ALL {
                human += &format!("{}: {}\n", s, deal.hand(s));
            }
            out["turned"] = json!([deal.pile[0].to_string(), deal.pile[1].to_string()]);
        }
    }
    output(args, out, human.trim_end().to_string());
    Ok(())
}

fn bench(rest: &[String]) -> Result<(), Failure> {
    let Some((what, rest)) = rest.split_first() else {
        return Err(Failure::Usage("'kj bench' needs what to measure: playout".to_string()));
    };
    match what.as_str() {
        "playout" => bench_playout(&Args::parse("bench playout", rest, &["deals", "seed", "rules"], &["json"])?),
        "solver" => bench_solver(&Args::parse("bench solver", rest, &["deals", "seed", "rules"], &["json"])?),
        "bot" => matches::bench_bot(&Args::parse(
            "bench bot",
            rest,
            &["level", "decisions", "seed", "rules", "without"],
            &["json", "bids"],
        )?),
        "review" => review::bench_review(&Args::parse("bench review", rest, &["deals", "seed", "rules"], &["json"])?),
        "evening" => bench_evening::bench_evening(&Args::parse(
            "bench evening",
            rest,
            &["server", "players", "deals"],
            &["json"],
        )?),
        "table" => bench_table::bench_table(&Args::parse(
            "bench table",
            rest,
            &["server", "tables", "seconds", "think", "pid"],
            &["json"],
        )?),
        other => Err(Failure::Usage(format!(
            "unknown benchmark '{other}' (known: playout, solver, bot, review, table, evening)"
        ))),
    }
}

/// Random playouts of whole deals on one thread: deals are shuffled first,
/// so only the playing is timed.
fn bench_playout(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let rules = four_players(rules, "kj bench playout")?;
    let deals = args.at_least_one("deals", 2_000_000)?;
    let seed = args.number("seed", 1)?;
    let starts: Vec<PlayState> = (0..1024u64)
        .map(|i| {
            let deal = Deal::shuffled(seed.wrapping_add(i), Seat::from_index(i as usize));
            PlayState::new(deal.hands, Suit::from_index(i as usize), rules.direction.next(deal.dealer), &rules)
        })
        .collect();
    let mut rng = Rng::new(seed);
    let mut checksum = 0u64;
    let start = Instant::now();
    for i in 0..deals {
        let mut state = starts[(i % 1024) as usize];
        state.random_playout(&mut rng);
        checksum += state.points.ns as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    let rate = deals as f64 / secs;
    output(
        args,
        json!({ "playouts": deals, "seconds": secs, "playouts_per_sec": rate.round(), "ns_points_mean": checksum as f64 / deals as f64 }),
        format!("{deals} random playouts in {secs:.3} s: {:.2} M playouts/s on one thread", rate / 1e6),
    );
    Ok(())
}

/// `rules`, where four play: the solver, and the benchmarks built on it,
/// know the four-player game only.
pub fn four_players(rules: Rules, command: &str) -> Result<Rules, String> {
    match rules.players {
        Players::Four => Ok(rules),
        _ => Err(format!(
            "{command}: the solver knows the four-player game only, these rules seat {}",
            rules.players.count()
        )),
    }
}

/// Median and 95th percentile of a list of durations in milliseconds.
pub fn percentiles(times: &mut [f64]) -> (f64, f64) {
    times.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.95))
}

/// Full 32-card double-dummy solves on one thread, each from a cold table.
fn bench_solver(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let rules = four_players(rules, "kj bench solver")?;
    let deals = args.at_least_one("deals", 100)?;
    let seed = args.number("seed", 1)?;
    let mut solver = klaverjas_ai::solver::Solver::default();
    let mut times = Vec::new();
    let mut node_counts = Vec::new();
    let mut nodes = 0;
    let mut total = 0.0;
    for i in 0..deals {
        let deal = Deal::shuffled(seed.wrapping_add(i), Seat::from_index(i as usize));
        let state = PlayState::new(deal.hands, Suit::from_index(i as usize), rules.direction.next(deal.dealer), &rules);
        solver.clear();
        let before = solver.nodes;
        let start = Instant::now();
        std::hint::black_box(solver.value(&state));
        let secs = start.elapsed().as_secs_f64();
        total += secs;
        nodes += solver.nodes - before;
        node_counts.push((solver.nodes - before) as f64);
        times.push(secs * 1000.0);
    }
    let (median, p95) = percentiles(&mut times);
    let (median_nodes, _) = percentiles(&mut node_counts);
    let nps = (nodes as f64 / total).round();
    output(
        args,
        json!({ "median_ms": median, "p95_ms": p95, "nodes_per_sec": nps }),
        format!(
            "{deals} full solves: median {median:.2} ms, p95 {p95:.2} ms, {:.1} M nodes/s, median {:.0} k nodes, {} k in all",
            nps / 1e6,
            median_nodes / 1e3,
            nodes / 1000
        ),
    );
    Ok(())
}

/// Each given seat's cards in the order given, by [`Seat::index`].
type HandLists = [Option<Vec<Card>>; 4];

/// Each seat's cards in the order given, and the cards marked `+` (the
/// second deal of Klaberjass).
fn hand_lists(text: &str) -> Result<(HandLists, CardSet), String> {
    let mut hands: [Option<Vec<Card>>; 4] = Default::default();
    let mut later = CardSet::EMPTY;
    let mut current: Option<Seat> = None;
    let mut seen = CardSet::EMPTY;
    for token in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
        let card_text = match token.split_once(':') {
            Some((seat, rest)) => {
                let seat: Seat = seat.parse().map_err(|e| format!("--hands: {e}"))?;
                if hands[seat.index()].is_some() {
                    return Err(format!("--hands: seat {seat} is given twice"));
                }
                hands[seat.index()] = Some(Vec::new());
                current = Some(seat);
                rest
            }
            None => token,
        };
        if card_text.is_empty() {
            continue;
        }
        let seat = current.ok_or_else(|| format!("--hands: '{token}' comes before any seat (write N:cards)"))?;
        let (second, card_text) = match card_text.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, card_text),
        };
        let card: Card = card_text.parse().map_err(|e| format!("--hands: {e}"))?;
        if seen.contains(card) {
            return Err(format!("--hands: duplicate card '{card_text}'"));
        }
        seen.insert(card);
        if second {
            later.insert(card);
        }
        hands[seat.index()].get_or_insert_with(Vec::new).push(card);
    }
    Ok((hands, later))
}

/// A deal of Klaberjass from `--hands`: South's and West's nine cards,
/// those of the second deal marked `+`, and at North the turned card and
/// then the bottom card (the rest of the stock is what no one holds).
fn parse_two(text: &str, dealer: Seat) -> Result<Deal, String> {
    let (hands, later) = hand_lists(text)?;
    let hand = |s: Seat| hands[s.index()].as_ref().map(|v| v.iter().copied().collect::<CardSet>());
    let stock = match hands[Seat::North.index()].as_deref() {
        Some(&[turned, bottom]) => Stock { later, turned, bottom },
        _ => return Err("--hands: at two North lists the turned card and the bottom card, e.g. N:9C 7D".to_string()),
    };
    let (Some(south), Some(west)) = (hand(Seat::South), hand(Seat::West)) else {
        return Err("--hands: at two South and West hold the cards (S:... W:...)".to_string());
    };
    Deal::for_two(dealer, south, west, stock).map_err(|e| format!("--hands: {e}"))
}

/// Parses `"N:CARDS E:CARDS S:CARDS W:CARDS"`: each seat once, cards
/// separated by spaces or commas. Between tricks the hands are equal; in a
/// trick the position checks their sizes. At three, North's chair holds
/// the talon's two cards.
fn parse_hands(text: &str, in_trick: bool, players: Players) -> Result<[CardSet; 4], String> {
    let (mut hands, later) = hand_lists(text)?;
    if let Some(card) = later.first() {
        return Err(format!("--hands: '+{card}' marks a card of the second deal, which only Klaberjass has"));
    }
    let mut out = [CardSet::EMPTY; 4];
    for seat in Seat::ALL {
        let cards = hands[seat.index()].take().ok_or_else(|| format!("--hands: seat {seat} is missing"))?;
        out[seat.index()] = cards.into_iter().collect();
    }
    let seated = players.seats();
    let n = out[seated[0].index()].len();
    let most = players.tricks() as u32;
    if !in_trick && (n == 0 || n > most || seated.iter().any(|s| out[s.index()].len() != n)) {
        let sizes: Vec<String> = seated.iter().map(|s| format!("{s} {}", out[s.index()].len())).collect();
        return Err(format!("--hands: hands must be equal, 1 to {most} cards each (got {})", sizes.join(", ")));
    }
    if players == Players::Three && out[Seat::North.index()].len() != klaverjas::deal::TALON {
        let talon = out[Seat::North.index()].len();
        return Err(format!("--hands: at three North holds the talon of 2 cards (got {talon})"));
    }
    Ok(out)
}

fn solve(args: &Args) -> Result<(), Failure> {
    let rules = args.rules()?;
    let trump = args.suit("trump")?;
    let leader = args.seat("leader")?;
    let rules = four_players(rules, "kj solve")?;
    let hands = parse_hands(args.req("hands")?, args.opt("trick").is_some(), Players::Four)?;
    let trick = if args.opt("trick").is_some() { args.cards("trick")? } else { Vec::new() };
    // The position counts the tricks gone, so the last-trick bonus goes to
    // the eighth.
    let position = Position::new(&rules, trump, leader, hands, &trick).map_err(|e| format!("--hands: {e}"))?;
    let state = position.play_state();
    let mut solver = klaverjas_ai::solver::Solver::default();
    // Roem from the hands does not depend on the play: it shifts every
    // card's value alike.
    let roem = position.hand_roem_to_come(&rules);
    let shift = roem.ns as i32 - roem.ew as i32;
    let value = solver.value(&state) + shift;
    let cards: Vec<(Card, i32)> = solver.card_values(&state).into_iter().map(|(c, v)| (c, v + shift)).collect();
    let map: serde_json::Map<String, Value> = cards.iter().map(|(c, v)| (c.to_string(), json!(v))).collect();
    let human = cards.iter().map(|(c, v)| format!("{c} {v:+}")).collect::<Vec<_>>().join(", ");
    let verb = if trick.is_empty() { "leads" } else { "plays" };
    let roem_line = if roem.ns == 0 && roem.ew == 0 {
        String::new()
    } else {
        format!("\nroem from the hands, in the value: NS {}, EW {}", roem.ns, roem.ew)
    };
    let mut out = json!({ "value": value, "cards": map });
    if rules.roem_source == klaverjas::RoemSource::Hand {
        out["hand_roem"] = json!({ "ns": roem.ns, "ew": roem.ew });
    }
    output(
        args,
        out,
        format!("value (NS minus EW): {value:+}{roem_line}\n{} {verb}: {human}", position.to_act().name()),
    );
    Ok(())
}
