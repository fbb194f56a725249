//! `kj` over generated command lines: every subcommand and preset, with
//! options well formed, malformed, missing, doubled and unknown. Each run
//! must end with exit 0, or with exit 1 or 2 and one line on stderr; never
//! a panic, never a hang.
//!
//! `KJ_FUZZ_LINES=N` runs N command lines instead of the default.

use klaverjas::{Deal, Preset, Rng, Rules, Seat};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// Each list starts with the words a well-formed line uses, up to the
// first "!"; what follows is garbage.
const SUITS: &[&str] = &["C", "D", "H", "S", "hearts", "!", "X", ""];
const SEATS: &[&str] = &["N", "E", "S", "W", "south", "!", "Q", ""];
const NUMBERS: &[&str] = &["1", "2", "3", "!", "0", "-1", "1e3", "x", "", "18446744073709551616"];
const CARD_WORDS: &[&str] = &["7", "8", "9", "T", "10", "J", "Q", "K", "A", "!", "1", "Z"];
const SUIT_LETTERS: &[&str] = &["C", "D", "H", "S", "c", "h", "!", "X"];
const ACTION_WORDS: &[&str] =
    &["pass", "play", "trump hearts", "double", "announce", "roem", "no roem", "swap", "discard 7C", "!", "bid"];

thread_local! {
    /// Whether the line being made is well formed: only its structure
    /// (options left out, given twice, unknown) can then be wrong.
    static CLEAN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn clean() -> bool {
    CLEAN.with(|c| c.get())
}

/// A word of `list`: a well-formed one on a clean line, else any.
fn pick<'a>(rng: &mut Rng, list: &[&'a str]) -> &'a str {
    let valid = list.iter().position(|w| *w == "!").unwrap_or(list.len());
    let n = if clean() { valid } else { list.len() };
    match list[rng.below(n as u32) as usize] {
        "!" => list[valid + 1..].first().copied().unwrap_or(""),
        word => word,
    }
}

/// A garbage choice on a dirty line, once in `n`.
fn garbage(rng: &mut Rng, n: u32) -> bool {
    !clean() && rng.below(n) == 0
}

fn card(rng: &mut Rng) -> String {
    format!("{}{}", pick(rng, CARD_WORDS), pick(rng, SUIT_LETTERS))
}

/// `n` cards, real ones mostly, separated by spaces or commas.
fn cards(rng: &mut Rng, n: usize) -> String {
    let deck: Vec<String> = klaverjas::CardSet::ALL.iter().map(|c| c.to_string()).collect();
    let mut out: Vec<String> = Vec::new();
    for _ in 0..n {
        out.push(if garbage(rng, 10) { card(rng) } else { deck[rng.below(32) as usize].clone() });
    }
    out.join(if rng.below(2) == 0 { " " } else { "," })
}

/// A whole deal's hands for `kj solve`/`kj deal`: often a real deal.
fn hands(rng: &mut Rng) -> String {
    let deal = Deal::shuffled(rng.next_u64(), Seat::from_index(rng.below(4) as usize));
    let mut text: Vec<String> = Seat::ALL
        .iter()
        .map(|s| {
            let hand: Vec<String> = deal.hand(*s).iter().map(|c| c.to_string()).collect();
            let take = if garbage(rng, 4) { rng.below(9) as usize } else { hand.len() };
            format!("{}:{}", s, hand[..take.min(hand.len())].join(" "))
        })
        .collect();
    if garbage(rng, 5) {
        text.pop();
    }
    if garbage(rng, 8) {
        text.push(format!("N:+{}", card(rng)));
    }
    text.join(" ")
}

fn rules_value(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 if !clean() => "nosuchpreset".to_string(),
        _ => Preset::ALL[rng.below(Preset::ALL.len() as u32) as usize].name().to_string(),
    }
}

fn set_value(rng: &mut Rng) -> String {
    let mut pairs = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let name = Rules::OPTIONS[rng.below(Rules::OPTIONS.len() as u32) as usize];
        let accepted = Rules::accepted_values(name);
        let values: Vec<&str> = accepted.split(", ").collect();
        let value = match rng.below(6) {
            0 if !clean() => "garbage".to_string(),
            1 if !clean() => String::new(),
            _ => pick(rng, &values).replace('N', "3").replace("STROKES", "2").replace("0 to 100 (points)", "10"),
        };
        pairs.push(if garbage(rng, 12) { name.to_string() } else { format!("{name}={value}") });
    }
    pairs.join(",")
}

/// A value for option `name`, valid or not.
fn value(rng: &mut Rng, command: &str, name: &str) -> String {
    match name {
        // A review solves every card of a deal: one is enough.
        "deals" if command == "bench review" => pick(rng, &["1", "!", "0", "x"]).to_string(),
        "rules" => rules_value(rng),
        "set" => set_value(rng),
        "trump" => pick(rng, SUITS).to_string(),
        "dealer" | "playing" | "leader" | "seat" => pick(rng, SEATS).to_string(),
        "hand" => {
            let n = rng.below(11) as usize;
            cards(rng, n)
        }
        "trick" => {
            let n = rng.below(6) as usize;
            cards(rng, n)
        }
        "play" => {
            let n = if rng.below(3) == 0 { 32 } else { rng.below(40) as usize };
            cards(rng, n)
        }
        "hands" => hands(rng),
        "claim" => pick(rng, &["all", "none", "!", "some"]).to_string(),
        "actions" => {
            let n = rng.below(40) as usize;
            let mut items: Vec<String> = Vec::new();
            for _ in 0..n {
                items.push(if rng.below(2) == 0 { pick(rng, ACTION_WORDS).to_string() } else { cards(rng, 1) });
            }
            items.join(", ")
        }
        "pile" => format!("{}{},{}{}", rng.below(8), pick(rng, SUITS), rng.below(8), pick(rng, SUITS)),
        "last-card" => card(rng),
        "carry" => format!("{},{}", pick(rng, NUMBERS), pick(rng, NUMBERS)),
        "code" => match if clean() { 3 } else { rng.below(3) } {
            3 => {
                let rules = Preset::ALL[rng.below(Preset::ALL.len() as u32) as usize].rules();
                Deal::shuffled_for(&rules, rng.next_u64(), rules.players.seats()[0]).code()
            }
            0 => Deal::shuffled(rng.next_u64(), Seat::from_index(rng.below(4) as usize)).code(),
            1 => {
                let rules = Preset::ALL[rng.below(Preset::ALL.len() as u32) as usize].rules();
                let dealer = rules.players.seats()[0];
                let mut code: Vec<char> = Deal::shuffled_for(&rules, rng.next_u64(), dealer).code().chars().collect();
                let i = rng.below(code.len() as u32) as usize;
                code[i] = pick(rng, &["0", "Z", "U", "-", "9"]).chars().next().unwrap_or('0');
                code.into_iter().collect()
            }
            _ => pick(rng, &["", "X", "123", "ZZZZZZZZZZZZZZZZZZZZZZZZ"]).to_string(),
        },
        // Small counts: the runs are real work.
        "deals" | "matches" | "decisions" | "threads" | "seed" => pick(rng, NUMBERS).to_string(),
        "ns" | "ew" => pick(rng, &["random", "heuristic", "!", "wizard", ""]).to_string(),
        "level" => pick(rng, &["random", "heuristic", "expert", "pimc", "!", "wizard"]).to_string(),
        "ns-without" | "ew-without" | "without" => {
            pick(rng, &["inference", "pass-value", "budget", "!", "nonsense", ""]).to_string()
        }
        _ => pick(rng, NUMBERS).to_string(),
    }
}

/// Each command with the options it takes, read from `kj help`'s usage
/// lines (a line that goes on is indented under its command), so that a
/// new option is fuzzed as soon as it is documented; every command also
/// takes --json, and --set where it takes --rules.
fn commands() -> Vec<(String, Vec<String>)> {
    let help = Command::new(env!("CARGO_BIN_EXE_kj")).arg("help").output().expect("kj help runs");
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in String::from_utf8_lossy(&help.stdout).lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let options = words
            .iter()
            .filter_map(|w| w.trim_start_matches(['[', '(']).trim_end_matches([']', ')']).strip_prefix("--"));
        match words.first() {
            Some(&"kj") if words.len() > 1 => {
                let name: Vec<&str> =
                    words[1..].iter().take_while(|w| w.chars().all(|c| c.is_ascii_lowercase())).copied().collect();
                out.push((name.join(" "), options.map(String::from).collect()));
            }
            Some(w) if w.starts_with("[--") && line.starts_with("    ") => {
                if let Some((_, last)) = out.last_mut() {
                    last.extend(options.map(String::from));
                }
            }
            _ => {}
        }
        if line.trim().is_empty() && !out.is_empty() {
            break;
        }
    }
    for (_, options) in &mut out {
        options.push("json".to_string());
        if options.iter().any(|o| o == "rules") {
            options.push("set".to_string());
        }
    }
    out.push(("help".to_string(), Vec::new()));
    out.push(("nonsense".to_string(), vec!["json".to_string()]));
    out
}

const SWITCHES: &[&str] = &["json", "duplicate", "bids"];

fn command_line(rng: &mut Rng, commands: &[(String, Vec<String>)]) -> Vec<String> {
    CLEAN.with(|c| c.set(rng.below(3) != 0));
    let (command, options) = &commands[rng.below(commands.len() as u32) as usize];
    let command = command.as_str();
    let mut line: Vec<String> = command.split(' ').map(String::from).collect();
    for name in options.iter().map(String::as_str) {
        // Counts are always given: the defaults are benchmark sized.
        let count = matches!(name, "deals" | "matches" | "decisions");
        if rng.below(4) == 0 && !count {
            continue;
        }
        line.push(format!("--{name}"));
        if !SWITCHES.contains(&name) {
            match rng.below(20) {
                0 if !count && !clean() => {}
                1 => {
                    let last = line.len() - 1;
                    line[last] = format!("--{name}={}", value(rng, command, name));
                }
                _ => line.push(value(rng, command, name)),
            }
        }
    }
    match if clean() { 99 } else { rng.below(8) } {
        0 => line.push("--nonsense".to_string()),
        1 => line.push("stray".to_string()),
        2 if line.len() > 1 => {
            let again = line[line.len() - 1].clone();
            line.push(again);
        }
        3 => line.push("--".to_string()),
        _ => {}
    }
    line
}

/// Runs `kj` with `args`, killed after `limit`: its exit code (None if
/// killed) and stderr.
fn run(args: &[String], limit: Duration) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kj"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .env("RUST_BACKTRACE", "0")
        .spawn()
        .expect("kj starts");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("kj waits") {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let mut err = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut err);
    }
    (status.and_then(|s| s.code()), err)
}

fn lines(default: usize) -> usize {
    std::env::var("KJ_FUZZ_LINES").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

#[test]
fn no_command_line_panics() {
    let total = lines(2500);
    let threads = 2;
    let commands = commands();
    let names: Vec<&str> = commands.iter().map(|(c, _)| c.as_str()).collect();
    for expected in ["legal", "trick", "deal", "sim", "solve", "review", "code", "bench playout", "bench bot"] {
        assert!(names.contains(&expected), "kj help lists no '{expected}': {names:?}");
    }
    let commands = &commands;
    let results: Vec<(usize, usize, usize)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut rng = Rng::new(0x6b6a_0000 + t as u64);
                    let mut codes = (0, 0, 0);
                    for _ in 0..total / threads {
                        let line = command_line(&mut rng, commands);
                        let (code, err) = run(&line, Duration::from_secs(60));
                        let shown = format!("kj {}", line.join(" "));
                        let code = code.unwrap_or_else(|| panic!("{shown}: did not end within 60 s"));
                        assert!(!err.contains("panicked"), "{shown}: panicked:\n{err}");
                        match code {
                            0 => codes.0 += 1,
                            1 | 2 => {
                                assert!(
                                    err.ends_with('\n') && err.lines().count() == 1 && err.starts_with("kj: "),
                                    "{shown}: exit {code} with stderr {err:?}"
                                );
                                if code == 1 { codes.1 += 1 } else { codes.2 += 1 }
                            }
                            other => panic!("{shown}: exit {other}, stderr {err:?}"),
                        }
                    }
                    codes
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a worker")).collect()
    });
    let (ok, rule, usage) = results.iter().fold((0, 0, 0), |a, r| (a.0 + r.0, a.1 + r.1, a.2 + r.2));
    eprintln!("{} command lines: {ok} exit 0, {rule} exit 1, {usage} exit 2", ok + rule + usage);
    // The generator must reach the work, not only the parser.
    assert!(ok >= total / 20, "only {ok} of {total} lines ran to the end");
}

/// The three found by hand before the net existed.
#[test]
fn the_three_that_panicked_or_misled_now_answer() {
    let sh = |line: &str| run(&line.split(' ').map(String::from).collect::<Vec<_>>(), Duration::from_secs(60));
    assert_eq!(sh("sim --rules three --deals 200 --seed 1").0, Some(0));
    assert_eq!(sh("sim --rules klaberjass --deals 3 --seed 1").0, Some(0));
    let legal = Command::new(env!("CARGO_BIN_EXE_kj"))
        .args([
            "legal",
            "--rules",
            "klaberjass",
            "--trump",
            "S",
            "--hand",
            "TD 9S QH 9D TC KS AH TH 8D",
            "--trick",
            "KC",
        ])
        .output()
        .expect("kj runs");
    assert!(legal.status.success(), "{}", String::from_utf8_lossy(&legal.stderr));
    assert!(String::from_utf8_lossy(&legal.stdout).starts_with("legal: "));
    let (code, err) = sh("bench solver --deals 0");
    assert_eq!(code, Some(2));
    assert_eq!(err, "kj: --deals: at least 1, not 0\n");
}
