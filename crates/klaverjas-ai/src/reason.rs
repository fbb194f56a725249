//! [`Reason`]: why a bot chose what it did, as a value. `Display` gives the
//! English sentence; the app words it in its own language from
//! [`Reason::key`] and [`Reason::args`], so cards, suits and seats come out
//! in its deck and language rather than in English.

use klaverjas::{Card, Seat, Suit};
use std::fmt;

/// A mean kept as its sum and count, so that a reason stays exact and
/// comparable; it is worked out as the bot worked it out.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mean {
    pub total: i64,
    pub count: u32,
}

impl Mean {
    pub fn value(self) -> f64 {
        self.total as f64 / self.count.max(1) as f64
    }

    /// Half of this average, in whole points of the total.
    pub fn half(self) -> Mean {
        Mean { total: self.total / 2, ..self }
    }
}

/// One value a reason's sentence names.
#[derive(Clone, PartialEq, Debug)]
pub enum ReasonArg {
    /// A card, with the trump suit so that it can be called "the 9 of
    /// trumps" (*troefnegen*).
    Card {
        card: Card,
        trump: Suit,
    },
    Suit(Suit),
    Seat(Seat),
    Number(i64),
    /// Points on average, shown signed with `decimals` places.
    Average {
        value: f64,
        decimals: u8,
    },
    /// Another reason, worded first and then put in place.
    Reason(Box<Reason>),
}

/// Why a bot bid, played or called what it did: one variant for each kind
/// of thought, carrying what the sentence names.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Reason {
    /// The random bot's only thought.
    Random,
    /// A single action was possible (outside play).
    OnlyChoice,
    /// One card was legal.
    OnlyCard { card: Card, trump: Suit },
    /// Turned-card bidding: the hand is strong in the turned suit, its
    /// strength ([`crate::heuristic::hand_strength`]) at least `needed`.
    BidStrong { seat: Seat, suit: Suit, strength: i32, needed: i32 },
    /// Turned-card bidding: too weak to play (*passen*).
    PassTooWeak { suit: Suit, strength: i32, needed: i32 },
    /// Free choice: no suit reaches the threshold.
    PassNoSuit { best: Suit, strength: i32, needed: i32 },
    /// Free choice: naming the strongest suit.
    BestSuit { suit: Suit, strength: i32 },
    /// Forced to name trump (the dealer after three passes, *verplicht*).
    MustChoose { suit: Suit, strength: i32 },
    /// The playing team is nat (*nat*) anyway: calling roem would only
    /// hand it to the opponents.
    KeepRoemQuiet { roem: u16 },
    /// Calling roem (*roem!*).
    CallRoem { roem: u16 },
    /// Announcing the roem in the hand before the first card.
    Announce { points: u16 },
    /// Leading the highest trump left to draw trumps (*troef trekken*).
    DrawTrumpsMaster { card: Card, trump: Suit },
    /// Leading a low trump to draw the opponents' trumps.
    DrawTrumps { card: Card, trump: Suit },
    /// Cashing a card no one can beat or trump.
    Cash { card: Card, trump: Suit },
    /// Three players: laying a card away from hand and talon.
    Discard { card: Card, trump: Suit },
    /// Klaberjass: taking the turned card for the seven of trumps.
    Swap { card: Card, trump: Suit },
    /// Leading to the ace the partner's low discard showed.
    LeadToSignal { suit: Suit, card: Card, trump: Suit },
    /// A cheap lead, safe from a ruff.
    LeadCheap { card: Card, trump: Suit },
    /// The partner has the trick: adding points (*pak dik*).
    PakDik { card: Card, trump: Suit },
    /// The partner has the trick, and no card with points can be given.
    PartnerWinsNothingBetter { card: Card, trump: Suit },
    /// The partner has the trick: only trumps left, the smallest goes.
    PartnerWinsSmallest { card: Card, trump: Suit },
    /// Last to play: taking the trick.
    LastToPlay { card: Card, trump: Suit },
    /// Winning with a card no one after can beat.
    WinSure { card: Card, trump: Suit },
    /// Points on the table are worth trying for.
    TryForPoints { points: i32, card: Card, trump: Suit },
    /// A low discard signals the ace of its suit to the partner.
    SignalAce { card: Card, trump: Suit },
    /// The partner may win: playing low.
    PartnerMayWin { card: Card, trump: Suit },
    /// The trick is lost: giving away the least.
    CannotWin { card: Card, trump: Suit },
    /// The expert's card: best on average over sampled deals it solved.
    /// `margin` is by how much it beat `next`, the next best, on average.
    BestOverSamples { card: Card, trump: Suit, solved: u32, next: Card, margin: Mean },
    /// The expert's bid to play `suit`, from sampled deals.
    BidSampled { suit: Suit, made: u32, samples: u32, solved: u32, average: Mean },
    /// The expert's pass: playing `suit` does not pay on sampled deals.
    PassSampled { suit: Suit, made: u32, samples: u32, solved: u32, average: Mean },
    /// The expert's bid to play `suit`: on sampled deals it brings more
    /// than passing, whose `pass` is what follows a pass; `halved` when
    /// the bid had to beat only half of it (under a turned card).
    BidOverPass { suit: Suit, made: u32, samples: u32, solved: u32, average: Mean, pass: Mean, halved: bool },
    /// The expert's pass: on sampled deals what follows a pass (`pass`, or
    /// half of it where `halved`) brings more than playing `suit`, the best
    /// trump.
    PassOverBid { suit: Suit, made: u32, samples: u32, solved: u32, average: Mean, pass: Mean, halved: bool },
    /// Doubling (*kraken*): the hand is strong in the trump suit.
    Double { suit: Suit, strength: i32, needed: i32 },
    /// Not doubling: the hand is not strong enough in the trump suit.
    NoDouble { suit: Suit, strength: i32, needed: i32 },
    /// The expert's double: on sampled deals it brings `double` to the
    /// seat's team, against `pass` for passing.
    DoubleSampled { double: Mean, pass: Mean },
    /// The expert's pass where it could double: on sampled deals passing
    /// brings more.
    PassOverDouble { double: Mean, pass: Mean },
    /// The expert left an early decision, too big to search within its
    /// budget, to the heuristic, whose reason this holds.
    TooEarlyToSearch(Box<Reason>),
}

impl Reason {
    /// The translation key of this kind of reason (`assets/i18n`), whose
    /// text has a `{name}` for each of [`Reason::args`].
    pub fn key(&self) -> &'static str {
        match self {
            Reason::Random => "reason.random",
            Reason::OnlyChoice => "reason.only_choice",
            Reason::OnlyCard { .. } => "reason.only_card",
            Reason::BidStrong { .. } => "reason.bid_strong",
            Reason::PassTooWeak { .. } => "reason.pass_too_weak",
            Reason::PassNoSuit { .. } => "reason.pass_no_suit",
            Reason::BestSuit { .. } => "reason.best_suit",
            Reason::MustChoose { .. } => "reason.must_choose",
            Reason::KeepRoemQuiet { .. } => "reason.keep_roem_quiet",
            Reason::CallRoem { .. } => "reason.call_roem",
            Reason::Announce { .. } => "reason.announce",
            Reason::DrawTrumpsMaster { .. } => "reason.draw_trumps_master",
            Reason::DrawTrumps { .. } => "reason.draw_trumps",
            Reason::Cash { .. } => "reason.cash",
            Reason::Discard { .. } => "reason.discard",
            Reason::Swap { .. } => "reason.swap",
            Reason::LeadToSignal { .. } => "reason.lead_to_signal",
            Reason::LeadCheap { .. } => "reason.lead_cheap",
            Reason::PakDik { .. } => "reason.pak_dik",
            Reason::PartnerWinsNothingBetter { .. } => "reason.partner_wins_nothing_better",
            Reason::PartnerWinsSmallest { .. } => "reason.partner_wins_smallest",
            Reason::LastToPlay { .. } => "reason.last_to_play",
            Reason::WinSure { .. } => "reason.win_sure",
            Reason::TryForPoints { .. } => "reason.try_for_points",
            Reason::SignalAce { .. } => "reason.signal_ace",
            Reason::PartnerMayWin { .. } => "reason.partner_may_win",
            Reason::CannotWin { .. } => "reason.cannot_win",
            Reason::BestOverSamples { .. } => "reason.best_over_samples",
            Reason::BidSampled { .. } => "reason.bid_sampled",
            Reason::PassSampled { .. } => "reason.pass_sampled",
            Reason::BidOverPass { halved: false, .. } => "reason.bid_over_pass",
            Reason::BidOverPass { halved: true, .. } => "reason.bid_over_half_pass",
            Reason::PassOverBid { halved: false, .. } => "reason.pass_over_bid",
            Reason::PassOverBid { halved: true, .. } => "reason.half_pass_over_bid",
            Reason::Double { .. } => "reason.double",
            Reason::NoDouble { .. } => "reason.no_double",
            Reason::DoubleSampled { .. } => "reason.double_sampled",
            Reason::PassOverDouble { .. } => "reason.pass_over_double",
            Reason::TooEarlyToSearch(_) => "reason.too_early_to_search",
        }
    }

    /// The values the sentence names, by placeholder name.
    pub fn args(&self) -> Vec<(&'static str, ReasonArg)> {
        let card = |card: Card, trump: Suit| ("card", ReasonArg::Card { card, trump });
        let strength = |s: i32| ("strength", ReasonArg::Number(s as i64));
        let count = |name, n: u32| (name, ReasonArg::Number(n as i64));
        let sampled = |suit, made, samples, solved, average: Mean| {
            vec![
                ("suit", ReasonArg::Suit(suit)),
                count("made", made),
                count("samples", samples),
                count("solved", solved),
                ("average", ReasonArg::Average { value: average.value(), decimals: 0 }),
            ]
        };
        match *self {
            Reason::Random | Reason::OnlyChoice => Vec::new(),
            Reason::BidStrong { suit, strength: s, needed: n, .. }
            | Reason::PassTooWeak { suit, strength: s, needed: n }
            | Reason::PassNoSuit { best: suit, strength: s, needed: n }
            | Reason::Double { suit, strength: s, needed: n }
            | Reason::NoDouble { suit, strength: s, needed: n } => {
                vec![("suit", ReasonArg::Suit(suit)), strength(s), ("needed", ReasonArg::Number(n as i64))]
            }
            Reason::BestSuit { suit, strength: s } | Reason::MustChoose { suit, strength: s } => {
                vec![("suit", ReasonArg::Suit(suit)), strength(s)]
            }
            Reason::DoubleSampled { double, pass } | Reason::PassOverDouble { double, pass } => vec![
                ("double", ReasonArg::Average { value: double.value(), decimals: 0 }),
                ("pass", ReasonArg::Average { value: pass.value(), decimals: 0 }),
            ],
            Reason::KeepRoemQuiet { roem } | Reason::CallRoem { roem } | Reason::Announce { points: roem } => {
                vec![("roem", ReasonArg::Number(roem as i64))]
            }
            Reason::OnlyCard { card: c, trump }
            | Reason::DrawTrumpsMaster { card: c, trump }
            | Reason::DrawTrumps { card: c, trump }
            | Reason::Cash { card: c, trump }
            | Reason::Discard { card: c, trump }
            | Reason::Swap { card: c, trump }
            | Reason::LeadCheap { card: c, trump }
            | Reason::PakDik { card: c, trump }
            | Reason::PartnerWinsNothingBetter { card: c, trump }
            | Reason::PartnerWinsSmallest { card: c, trump }
            | Reason::LastToPlay { card: c, trump }
            | Reason::WinSure { card: c, trump }
            | Reason::PartnerMayWin { card: c, trump }
            | Reason::CannotWin { card: c, trump } => vec![card(c, trump)],
            Reason::LeadToSignal { suit, card: c, trump } => vec![("suit", ReasonArg::Suit(suit)), card(c, trump)],
            Reason::TryForPoints { points, card: c, trump } => {
                vec![("points", ReasonArg::Number(points as i64)), card(c, trump)]
            }
            Reason::SignalAce { card: c, trump } => vec![card(c, trump), ("suit", ReasonArg::Suit(c.suit()))],
            Reason::BestOverSamples { card: c, trump, solved, next, margin } => vec![
                card(c, trump),
                count("solved", solved),
                ("margin", ReasonArg::Average { value: margin.value(), decimals: 1 }),
                ("next", ReasonArg::Card { card: next, trump }),
            ],
            Reason::BidSampled { suit, made, samples, solved, average }
            | Reason::PassSampled { suit, made, samples, solved, average } => {
                sampled(suit, made, samples, solved, average)
            }
            Reason::BidOverPass { suit, made, samples, solved, average, pass, halved }
            | Reason::PassOverBid { suit, made, samples, solved, average, pass, halved } => {
                let mut args = sampled(suit, made, samples, solved, average);
                args.push(("pass", ReasonArg::Average { value: pass.value(), decimals: 0 }));
                if halved {
                    args.push(("bar", ReasonArg::Average { value: pass.half().value(), decimals: 0 }));
                }
                args
            }
            Reason::TooEarlyToSearch(ref inner) => vec![("reason", ReasonArg::Reason(inner.clone()))],
        }
    }
}

/// What a pass counted at half is counted as, for the reasons that name
/// it, with `tail` after it; nothing where the pass counted in full.
struct HalfPass<'a>(bool, &'a Mean, &'a str);

impl fmt::Display for HalfPass<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let HalfPass(halved, pass, tail) = *self;
        if halved { write!(f, ", counted as {:+.0} under a turned card{tail}", pass.half().value()) } else { Ok(()) }
    }
}

/// What a hand's strength counts, from the weights of
/// [`crate::heuristic::hand_strength`].
struct HandWorth;

impl fmt::Display for HandWorth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::heuristic::{ACE_WORTH, JACK_OF_TRUMPS_WORTH, NINE_OF_TRUMPS_WORTH};
        write!(
            f,
            "(the jack of trumps counts {JACK_OF_TRUMPS_WORTH}, the nine {NINE_OF_TRUMPS_WORTH}, an ace {ACE_WORTH})"
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let say = |card: &Card, trump: &Suit| card.spoken(Some(*trump));
        match self {
            Reason::Random => f.write_str("A random legal choice"),
            Reason::OnlyChoice => f.write_str("The only choice"),
            Reason::OnlyCard { card, trump } => write!(f, "{} is the only card you may play", say(card, trump)),
            Reason::BidStrong { suit, strength, needed, .. } => write!(
                f,
                "Play: strong in {}. As trump it makes your hand worth {strength}, and {needed} is enough to play {}",
                suit.name(),
                HandWorth
            ),
            Reason::PassTooWeak { suit, strength, needed } => write!(
                f,
                "Pass: too weak in {}. As trump it makes your hand worth {strength}, and playing takes {needed} {}",
                suit.name(),
                HandWorth
            ),
            Reason::PassNoSuit { best, strength, needed } => write!(
                f,
                "Pass: no suit is strong enough. The best, {}, makes your hand worth {strength} as trump, and playing takes {needed} {}",
                best.name(),
                HandWorth
            ),
            Reason::BestSuit { suit, strength } => {
                write!(
                    f,
                    "{} is your best suit: as trump it makes your hand worth {strength} {}",
                    suit.name(),
                    HandWorth
                )
            }
            Reason::MustChoose { suit, strength } => {
                write!(f, "You must choose: {} is your best suit, worth {strength} as trump", suit.name())
            }
            Reason::KeepRoemQuiet { roem } => {
                write!(
                    f,
                    "Your team is nat whatever happens: keep quiet about {roem} roem so the opponents do not get it"
                )
            }
            Reason::CallRoem { roem } => write!(f, "Roem! {roem} for your team"),
            Reason::Announce { points } => write!(f, "Announce the roem in your hand: {points}"),
            Reason::DrawTrumpsMaster { card, trump } => {
                write!(f, "Draw trumps: {} is the highest trump left", say(card, trump))
            }
            Reason::DrawTrumps { card, trump } => {
                write!(f, "Lead {} to draw the opponents' trumps", say(card, trump))
            }
            Reason::Cash { card, trump } => write!(f, "Cash {}: nobody can beat it", say(card, trump)),
            Reason::Discard { card, trump } => {
                write!(f, "Lay away {}: a short suit, few points, no trump", say(card, trump))
            }
            Reason::Swap { card, trump } => write!(f, "Take {} for the seven of trumps", say(card, trump)),
            Reason::LeadToSignal { suit, card, trump } => {
                write!(f, "Your partner's low discard showed the ace of {}: lead {}", suit.name(), say(card, trump))
            }
            Reason::LeadCheap { card, trump } => write!(f, "Lead {}: cheap, and safe from a ruff", say(card, trump)),
            Reason::PakDik { card, trump } => {
                write!(f, "Your partner wins this trick: add {} (pak dik)", say(card, trump))
            }
            Reason::PartnerWinsNothingBetter { card, trump } => {
                write!(f, "Your partner wins this trick: {} (nothing better to give)", say(card, trump))
            }
            Reason::PartnerWinsSmallest { card, trump } => {
                write!(f, "Your partner wins this trick: {} is your smallest", say(card, trump))
            }
            Reason::LastToPlay { card, trump } => {
                write!(f, "Last to play: take the trick with {}", say(card, trump))
            }
            Reason::WinSure { card, trump } => {
                write!(f, "Win with {}: nobody after you can beat it", say(card, trump))
            }
            Reason::TryForPoints { points, card, trump } => {
                write!(f, "{points} points on the table: try {}", say(card, trump))
            }
            Reason::SignalAce { card, trump } => write!(
                f,
                "Discard {}: a low card shows your partner the ace of {}",
                say(card, trump),
                card.suit().name()
            ),
            Reason::PartnerMayWin { card, trump } => {
                write!(f, "Your partner may win: play low with {}", say(card, trump))
            }
            Reason::CannotWin { card, trump } => {
                write!(f, "This trick cannot be won: {} gives away least", say(card, trump))
            }
            Reason::BestOverSamples { card, trump, solved, next, margin } => write!(
                f,
                "{} scores best over {solved} deals that fit what you have seen: {:+.1} points on average against {}, the next best",
                say(card, trump),
                margin.value(),
                say(next, trump)
            ),
            Reason::BidSampled { suit, made, samples, solved, average } => write!(
                f,
                "Play {}: made in {made} of {samples} deals that fit what you have seen ({solved} solved exactly), {:+.0} points on average",
                suit.name(),
                average.value()
            ),
            Reason::PassSampled { suit, made, samples, solved, average } => write!(
                f,
                "Pass: playing {} made in {made} of {samples} deals that fit what you have seen ({solved} solved exactly), {:+.0} points on average",
                suit.name(),
                average.value()
            ),
            Reason::BidOverPass { suit, made, samples, solved, average, pass, halved } => write!(
                f,
                "Play {}: made in {made} of {samples} deals that fit what you have seen ({solved} solved exactly), {:+.0} points on average against {:+.0} for passing{}",
                suit.name(),
                average.value(),
                pass.value(),
                HalfPass(*halved, pass, "")
            ),
            Reason::PassOverBid { suit, made, samples, solved, average, pass, halved } => write!(
                f,
                "Pass: on deals that fit what you have seen, passing brings {:+.0} points on average{} and playing {} {:+.0} (made in {made} of {samples}, {solved} solved exactly)",
                pass.value(),
                HalfPass(*halved, pass, ","),
                suit.name(),
                average.value()
            ),
            Reason::Double { suit, strength, needed } => write!(
                f,
                "Double: you are strong in {}, the trump suit: your hand is worth {strength} in it, and {needed} is enough to double",
                suit.name()
            ),
            Reason::NoDouble { suit, strength, needed } => write!(
                f,
                "Pass: not strong enough in {} to double: your hand is worth {strength} in it, and doubling takes {needed}",
                suit.name()
            ),
            Reason::DoubleSampled { double, pass } => write!(
                f,
                "Double: on deals that fit what you have seen it brings {:+.0} points on average against {:+.0} for passing",
                double.value(),
                pass.value()
            ),
            Reason::PassOverDouble { double, pass } => write!(
                f,
                "Pass: on deals that fit what you have seen a double brings {:+.0} points on average, passing {:+.0}",
                double.value(),
                pass.value()
            ),
            Reason::TooEarlyToSearch(inner) => write!(f, "{inner} (too early to search: the club player's rule)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One value of every variant: a new variant that is not added here
    /// fails to compile in [`every_kind`]'s match.
    fn every_kind() -> Vec<Reason> {
        let card: Card = "9H".parse().unwrap();
        let trump = Suit::Hearts;
        let mean = Mean { total: 25, count: 2 };
        let mut all = vec![
            Reason::Random,
            Reason::OnlyChoice,
            Reason::OnlyCard { card, trump },
            Reason::BidStrong { seat: Seat::West, suit: trump, strength: 80, needed: 70 },
            Reason::PassTooWeak { suit: trump, strength: 40, needed: 70 },
            Reason::PassNoSuit { best: trump, strength: 40, needed: 70 },
            Reason::BestSuit { suit: trump, strength: 80 },
            Reason::MustChoose { suit: trump, strength: 30 },
            Reason::KeepRoemQuiet { roem: 20 },
            Reason::CallRoem { roem: 20 },
            Reason::Announce { points: 70 },
            Reason::DrawTrumpsMaster { card, trump },
            Reason::DrawTrumps { card, trump },
            Reason::Cash { card, trump },
            Reason::LeadToSignal { suit: Suit::Clubs, card, trump },
            Reason::LeadCheap { card, trump },
            Reason::PakDik { card, trump },
            Reason::PartnerWinsNothingBetter { card, trump },
            Reason::PartnerWinsSmallest { card, trump },
            Reason::LastToPlay { card, trump },
            Reason::WinSure { card, trump },
            Reason::TryForPoints { points: 21, card, trump },
            Reason::SignalAce { card, trump },
            Reason::Discard { card, trump },
            Reason::Swap { card, trump },
            Reason::PartnerMayWin { card, trump },
            Reason::CannotWin { card, trump },
            Reason::BestOverSamples { card, trump, solved: 20, next: card, margin: mean },
            Reason::BidSampled { suit: trump, made: 9, samples: 12, solved: 11, average: mean },
            Reason::PassSampled { suit: trump, made: 3, samples: 12, solved: 12, average: mean },
            Reason::Double { suit: trump, strength: 90, needed: 80 },
            Reason::NoDouble { suit: trump, strength: 50, needed: 80 },
            Reason::DoubleSampled { double: mean, pass: mean },
            Reason::PassOverDouble { double: mean, pass: mean },
            Reason::TooEarlyToSearch(Box::new(Reason::CannotWin { card, trump })),
        ];
        for halved in [false, true] {
            let (suit, average, pass) = (trump, mean, mean);
            all.push(Reason::BidOverPass { suit, made: 20, samples: 32, solved: 9, average, pass, halved });
            all.push(Reason::PassOverBid { suit, made: 12, samples: 32, solved: 9, average, pass, halved });
        }
        for r in &all {
            // Exhaustive on purpose: see the doc comment.
            match r {
                Reason::Random
                | Reason::OnlyChoice
                | Reason::OnlyCard { .. }
                | Reason::BidStrong { .. }
                | Reason::PassTooWeak { .. }
                | Reason::PassNoSuit { .. }
                | Reason::BestSuit { .. }
                | Reason::MustChoose { .. }
                | Reason::KeepRoemQuiet { .. }
                | Reason::CallRoem { .. }
                | Reason::Announce { .. }
                | Reason::DrawTrumpsMaster { .. }
                | Reason::DrawTrumps { .. }
                | Reason::Cash { .. }
                | Reason::Discard { .. }
                | Reason::Swap { .. }
                | Reason::LeadToSignal { .. }
                | Reason::LeadCheap { .. }
                | Reason::PakDik { .. }
                | Reason::PartnerWinsNothingBetter { .. }
                | Reason::PartnerWinsSmallest { .. }
                | Reason::LastToPlay { .. }
                | Reason::WinSure { .. }
                | Reason::TryForPoints { .. }
                | Reason::SignalAce { .. }
                | Reason::PartnerMayWin { .. }
                | Reason::CannotWin { .. }
                | Reason::BestOverSamples { .. }
                | Reason::BidSampled { .. }
                | Reason::PassSampled { .. }
                | Reason::BidOverPass { .. }
                | Reason::PassOverBid { .. }
                | Reason::Double { .. }
                | Reason::NoDouble { .. }
                | Reason::DoubleSampled { .. }
                | Reason::PassOverDouble { .. }
                | Reason::TooEarlyToSearch(_) => {}
            }
        }
        all
    }

    /// The `"key": "text"` lines of a translation file.
    fn translations(file: &str) -> std::collections::HashMap<String, String> {
        // Cargo's variable at run time: a test binary cached from a
        // checkout elsewhere keeps that checkout's path from its build.
        let crate_dir = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into());
        let dir = std::path::Path::new(&crate_dir).join("../../assets/i18n");
        let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        text.lines()
            .filter_map(|line| {
                let (key, value) = line.trim().split_once("\": \"")?;
                Some((
                    key.strip_prefix('"')?.to_string(),
                    value.trim_end_matches(',').trim_end_matches('"').to_string(),
                ))
            })
            .collect()
    }

    #[test]
    fn every_reason_has_its_own_key_translated_with_its_args() {
        let all = every_kind();
        let keys: std::collections::HashSet<_> = all.iter().map(Reason::key).collect();
        assert_eq!(keys.len(), all.len(), "two kinds of reason share a key");
        for file in ["en.ron", "nl.ron"] {
            let texts = translations(file);
            for r in &all {
                let text = texts.get(r.key()).unwrap_or_else(|| panic!("{file} has no {}", r.key()));
                for (name, _) in r.args() {
                    assert!(text.contains(&format!("{{{name}}}")), "{file}: {} lacks {{{name}}}: {text}", r.key());
                }
                let placeholders = text.matches('{').count();
                assert_eq!(placeholders, r.args().len(), "{file}: {} has other placeholders: {text}", r.key());
            }
        }
    }

    #[test]
    fn the_english_translation_says_what_display_says() {
        // Fill each English text with the args worded as Display words
        // them: the two must agree, so the hint reads the same in the app.
        let en = translations("en.ron");
        for r in every_kind() {
            let mut text = en[r.key()].clone();
            for (name, arg) in r.args() {
                let value = match arg {
                    ReasonArg::Card { card, trump } => card.spoken(Some(trump)),
                    ReasonArg::Suit(s) => s.name().to_string(),
                    ReasonArg::Seat(s) => s.name().to_string(),
                    ReasonArg::Number(n) => n.to_string(),
                    ReasonArg::Average { value, decimals } => format!("{value:+.*}", decimals as usize),
                    ReasonArg::Reason(inner) => inner.to_string(),
                };
                text = text.replace(&format!("{{{name}}}"), &value);
            }
            assert_eq!(text, r.to_string(), "{}", r.key());
        }
    }

    #[test]
    fn averages_are_worked_out_as_the_bots_did() {
        let r = Reason::BestOverSamples {
            card: "JS".parse().unwrap(),
            trump: Suit::Spades,
            solved: 4,
            next: "9S".parse().unwrap(),
            margin: Mean { total: 3, count: 4 },
        };
        let expected = format!(
            "the jack of trumps scores best over 4 deals that fit what you have seen: {:+.1} points on average against the 9 of trumps, the next best",
            0.75f64
        );
        assert_eq!(r.to_string(), expected);
        let m = Mean { total: 5, count: 2 };
        let r = Reason::BidSampled { suit: Suit::Clubs, made: 1, samples: 2, solved: 2, average: m };
        assert_eq!(
            r.to_string(),
            format!(
                "Play clubs: made in 1 of 2 deals that fit what you have seen (2 solved exactly), {:+.0} points on average",
                2.5f64
            )
        );
    }
}
