//! The game's typed values in the player's language: seats, suits, cards,
//! the engine's refusals and the table's notices. Everything is worded here,
//! where it is drawn, so the logic never holds a translated string.

use crate::i18n::Texts;
use crate::save::Damage;
use crate::seats::HUMAN;
use crate::seats::Person;
use crate::show::{Notice, NoticeText};
use klaverjas::{
    Action, ActionError, AidError, AnnounceError, Announcement, Bid, BidError, Card, ClaimError, Phase, PlayError,
    PlayRule, Seat, Suit, SwapError, Team,
};
use klaverjas_ai::coach::{Advice, Plain, WhyNot};
use klaverjas_ai::{Reason, ReasonArg};

pub fn suit_name(texts: &Texts, s: Suit) -> String {
    texts.get(&format!("suit.{}", s.letter()))
}

pub fn seat_name(texts: &Texts, s: Seat) -> String {
    texts.get(&format!("seat.{}", s.letter()))
}

/// Who sits in `seat`, as every device at the table says it: at a table
/// with friends (`people`) the person's name, or the bot by its chair's
/// number at the table ([`bot_in_chair`]; each device turns the table so
/// that its player sits at the bottom, so "East" would be another chair
/// on each); else the seat's compass name ("You" for the player).
pub fn seat_called(texts: &Texts, seat: Seat, people: Option<&[Person; 4]>) -> String {
    match people.filter(|_| seat != HUMAN).map(|p| &p[seat.index()]) {
        Some(Person { name: Some(name), .. }) => name.clone(),
        Some(Person { chair: Some(chair), .. }) => bot_in_chair(texts, *chair),
        _ => seat_name(texts, seat),
    }
}

/// The bot in the table's chair `chair`, by the chair's number at the
/// table (1 to 4), the same on every device. Not by its compass: each
/// device turns the table, and "Bot East" on the left read wrong.
pub fn bot_in_chair(texts: &Texts, chair: Seat) -> String {
    texts.fill("friends.bot_at", &[("chair", &(chair.index() + 1).to_string())])
}

pub fn team_name(texts: &Texts, team: Team) -> String {
    texts.get(&format!("team.{}", team.name()))
}

pub fn card_name(texts: &Texts, c: Card, trump: Option<Suit>) -> String {
    let rank = texts.get(&format!("rank.{}", c.rank().letter()));
    let suit = if Some(c.suit()) == trump { texts.get("suit.trumps") } else { suit_name(texts, c.suit()) };
    texts.fill("card.name", &[("rank", &rank), ("suit", &suit)])
}

pub fn bid_name(texts: &Texts, bid: Bid) -> String {
    match bid {
        Bid::Pass => texts.get("bid.pass"),
        Bid::Play => texts.get("bid.play"),
        Bid::Trump(s) => suit_name(texts, s),
        Bid::Double => texts.get("bid.double"),
    }
}

/// The name of the `nth` double of a deal (from 1): kraak, rekraak,
/// superkraak.
pub fn double_name(texts: &Texts, nth: u8) -> String {
    texts.get(&format!("double.{}", nth.clamp(1, klaverjas::bidding::MOST_DOUBLES)))
}

/// Hand roem as it is announced: "four in a row, queen high: 50".
pub fn announcement(texts: &Texts, a: &Announcement) -> String {
    let top = texts.get(&format!("rank.{}", a.top.letter()));
    let meld = match (a.four_of_a_kind, a.length) {
        (true, _) => texts.fill("meld.four", &[("ranks", &texts.get(&format!("ranks.{}", a.top.letter())))]),
        (false, 3) => texts.fill("meld.run3", &[("top", &top)]),
        (false, 4) => texts.fill("meld.run4", &[("top", &top)]),
        (false, n) => texts.fill("meld.run", &[("n", &n.to_string()), ("top", &top)]),
    };
    texts.fill("announce.said", &[("meld", &meld), ("points", &a.points.to_string())])
}

/// The engine's typed refusal, worded in the player's language.
pub fn explain(e: &ActionError, t: &Texts, trump: Option<Suit>) -> String {
    let card = |c: Card| card_name(t, c, trump);
    match e {
        ActionError::NotYourTurn => t.get("notice.wait"),
        ActionError::Play(PlayError::NotInHand { .. }) => t.get("rule.not_in_hand"),
        ActionError::Play(PlayError::Breaks { rule, .. }) => match *rule {
            PlayRule::Free => t.get("rule.free"),
            PlayRule::FollowSuit(s) => t.fill("rule.follow", &[("suit", &suit_name(t, s))]),
            PlayRule::TrumpLead { over: None } => t.get("rule.trump_lead"),
            PlayRule::TrumpLead { over: Some(c) } => t.fill("rule.trump_lead_over", &[("card", &card(c))]),
            PlayRule::MustTrump { led } => t.fill("rule.must_trump", &[("suit", &suit_name(t, led))]),
            PlayRule::MustOvertrump { over } => t.fill("rule.must_overtrump", &[("card", &card(over))]),
            PlayRule::NoUndertrump { partner_winning: true, .. } => t.get("rule.no_undertrump_partner"),
            PlayRule::NoUndertrump { over, .. } => t.fill("rule.no_undertrump", &[("card", &card(over))]),
            PlayRule::MustUndertrump { over } => t.fill("rule.must_undertrump", &[("card", &card(over))]),
            PlayRule::MustBeat { over } => t.fill("rule.must_beat", &[("card", &card(over))]),
            PlayRule::FollowOrTrump { led, over: None } => {
                t.fill("rule.follow_or_trump", &[("suit", &suit_name(t, led))])
            }
            PlayRule::FollowOrTrump { led, over: Some(c) } => {
                t.fill("rule.follow_or_overtrump", &[("suit", &suit_name(t, led)), ("card", &card(c))])
            }
        },
        ActionError::Bid(BidError::TurnedCardOnly { turned }) => {
            t.fill("bid.turned_only", &[("suit", &suit_name(t, *turned))])
        }
        ActionError::Bid(BidError::NoTurnedCard) => t.get("bid.no_turned"),
        ActionError::Bid(BidError::MustChoose { everyone_passed: true, .. }) => t.get("bid.must_choose"),
        ActionError::Bid(BidError::MustChoose { .. }) => t.get("bid.must_choose_left"),
        ActionError::Bid(BidError::DoubleOrPass) => t.get("bid.double_or_pass"),
        ActionError::Bid(BidError::NothingToDouble) => t.get("bid.nothing_to_double"),
        ActionError::Bid(BidError::NoDoubling) => t.get("bid.no_doubling"),
        ActionError::Bid(BidError::Over) => t.get("bid.over"),
        ActionError::Bid(BidError::NoBidding) => t.get("bid.no_bidding"),
        ActionError::Bid(BidError::NameAnother { refused }) => {
            t.fill("bid.name_another", &[("suit", &suit_name(t, *refused))])
        }
        ActionError::Swap(SwapError::NoTurnedTrump) => t.get("swap.no_turned"),
        ActionError::Swap(SwapError::TooLate) => t.get("swap.too_late"),
        ActionError::Swap(SwapError::NoSeven { seven }) => t.fill("swap.no_seven", &[("card", &card(*seven))]),
        ActionError::Claim(ClaimError::Automatic) => t.get("claim.automatic"),
        ActionError::Claim(ClaimError::NoRoemPlayed) => t.get("claim.no_roem_played"),
        ActionError::Claim(ClaimError::FromTheHands) => t.get("claim.from_the_hands"),
        ActionError::Claim(ClaimError::NoRoem { trick }) => t.fill("claim.no_roem", &[("trick", &trick.to_string())]),
        ActionError::Claim(ClaimError::NoTrick) => t.get("claim.no_trick"),
        ActionError::Claim(ClaimError::TooLate) => t.get("claim.too_late"),
        ActionError::Claim(ClaimError::NotYourTrick) => t.get("claim.not_your_trick"),
        ActionError::Announce(e) => t.get(match e {
            AnnounceError::NoHandRoem => "announce.no_hand_roem",
            AnnounceError::TooLate => "announce.too_late",
            AnnounceError::AlreadyAnnounced => "announce.already",
            AnnounceError::NothingToAnnounce => "announce.nothing",
        }),
        ActionError::WrongPhase { phase } => t.get(match phase {
            Phase::Bidding => "phase.bidding",
            Phase::Doubling => "phase.doubling",
            Phase::Playing => "phase.playing",
            Phase::ClaimRoem => "phase.claim",
            Phase::Discarding => "phase.discarding",
            Phase::ThrownIn => "phase.thrown_in",
            Phase::Done => "phase.done",
        }),
    }
}

/// A notice as the player reads it.
pub fn notice(n: &Notice, t: &Texts, trump: Option<Suit>, people: Option<&[Person; 4]>) -> String {
    match &n.text {
        NoticeText::Bid(bid) => bid_name(t, *bid),
        NoticeText::Double(nth) => double_name(t, *nth) + "!",
        NoticeText::Announced(a) => announcement(t, a),
        NoticeText::HandRoem(team, points) => {
            t.fill("announce.scored", &[("team", &team_name(t, *team)), ("points", &points.to_string())])
        }
        NoticeText::HandRoemAlone(seat, points) => t.fill(
            "announce.scored_alone",
            &[("seat", &seat_called(t, *seat, people)), ("points", &points.to_string())],
        ),
        NoticeText::Stuk { sturk } => t.get(if *sturk { "announce.sturk" } else { "announce.stuk" }),
        NoticeText::WentOn(on) => {
            let team = team_name(t, on.team);
            match (on.outright, on.strokes) {
                (true, n) => t.count("notice.went_on_outright", ("n", n as i64), &[("team", &team)]),
                (false, 1) => t.fill("notice.went_on_one", &[("team", &team)]),
                (false, _) => t.fill("notice.went_on_two", &[("team", &team)]),
            }
        }
        NoticeText::ThrownIn => t.get("notice.thrown_in"),
        NoticeText::LaidAway => t.get("notice.laid_away"),
        NoticeText::SecondDeal(card) => t.fill("notice.second_deal", &[("card", &card_name(t, *card, None))]),
        NoticeText::Swapped(card) => t.fill("notice.swapped", &[("card", &card_name(t, *card, None))]),
        NoticeText::SecondCard(card) => t.fill("notice.second_card", &[("suit", &suit_name(t, card.suit))]),
        NoticeText::Contract(c) => t.fill(
            "notice.contract",
            &[("seat", &seat_called(t, c.declarer, people)), ("suit", &suit_name(t, c.trump))],
        ),
        NoticeText::RoemInTrick(points) => t.fill("notice.roem_in_trick", &[("points", &points.to_string())]),
        // The player's own call is answered; anyone else's is heard.
        NoticeText::RoemClaimed(points) => {
            let key = if n.seat == Some(HUMAN) { "notice.roem_counted" } else { "notice.roem_called" };
            t.fill(key, &[("points", &points.to_string())])
        }
        NoticeText::NoRoemInTrick => t.get("notice.no_roem_in_trick"),
        NoticeText::Refused(e) => explain(e, t, trump),
        NoticeText::Lesson(key) => t.get(key),
        NoticeText::Wait => t.get("notice.wait"),
        NoticeText::SaveFailed(reason) => t.fill("notice.save_failed", &[("reason", reason)]),
        NoticeText::Aid(e) => t.get(match e {
            AidError::CountingMatch => "aid.counting_match",
            AidError::DealOver => "aid.deal_over",
            AidError::NothingToUndo => "aid.nothing_to_undo",
        }),
    }
}

pub fn title_note(n: &crate::state::TitleNote, t: &Texts) -> String {
    let (key, damage, moved_to) = match n {
        crate::state::TitleNote::SaveSetAside { damage, moved_to } => ("notice.save_set_aside", damage, moved_to),
        crate::state::TitleNote::SettingsSetAside { damage, moved_to } => {
            ("notice.settings_set_aside", damage, moved_to)
        }
        crate::state::TitleNote::ProfileSetAside { damage, moved_to } => ("notice.profile_set_aside", damage, moved_to),
        crate::state::TitleNote::SheetSetAside { damage, moved_to } => ("notice.sheet_set_aside", damage, moved_to),
    };
    t.fill(key, &[("reason", &damage_words(*damage, t)), ("path", &moved_to.display().to_string())])
}

/// What is wrong with a file set aside, in words.
pub fn damage_words(damage: Damage, t: &Texts) -> String {
    match damage {
        Damage::Unreadable => t.get("damage.unreadable"),
        Damage::Damaged => t.get("damage.damaged"),
        Damage::Newer { .. } => t.get("damage.newer"),
        Damage::DoesNotReplay => t.get("damage.does_not_replay"),
    }
}

/// Why the score sheet's keypad entry was refused, in one line.
pub fn pad_error(e: &klaverjas::keypad::PadError, t: &Texts) -> String {
    use klaverjas::SheetError;
    use klaverjas::keypad::PadError;
    match *e {
        PadError::NoTeam => t.get("sheet.refused.no_team"),
        PadError::NoPoints => t.get("sheet.refused.no_points"),
        PadError::Sheet(SheetError::Over) => t.get("sheet.refused.over"),
        PadError::Sheet(SheetError::NoSuchDeal { number }) => {
            t.fill("sheet.refused.no_such_deal", &[("n", &number.to_string())])
        }
        PadError::Sheet(SheetError::Breaks { number, error }) => {
            t.fill("sheet.refused.breaks", &[("n", &number.to_string()), ("reason", &entry_error(error, t))])
        }
        PadError::Sheet(SheetError::Entry(e)) => entry_error(e, t),
    }
}

/// Why an entered deal cannot be, in one line.
fn entry_error(e: klaverjas::EntryError, t: &Texts) -> String {
    use klaverjas::EntryError;
    let team = |team: Team| t.get(&format!("sheet.team.{}", team.name()));
    let n = |n: u16| n.to_string();
    match e {
        EntryError::NotATeamGame => t.get("sheet.refused.not_a_team_game"),
        EntryError::TooManyPoints { points, most } => {
            t.fill("sheet.refused.too_many_points", &[("n", &n(points)), ("most", &n(most))])
        }
        EntryError::NoRoemInTheseRules { team: who } => t.fill("sheet.refused.no_roem", &[("team", &team(who))]),
        EntryError::NotRoem { team: who, roem } => {
            t.fill("sheet.refused.not_roem", &[("team", &team(who)), ("n", &n(roem))])
        }
        EntryError::PitWithoutAllPoints { team: who, points } => {
            t.fill("sheet.refused.pit_without_all", &[("team", &team(who)), ("n", &n(points))])
        }
        EntryError::RoemWithoutATrick { team: who } => {
            t.fill("sheet.refused.roem_without_trick", &[("team", &team(who))])
        }
        EntryError::PitAndRevoke => t.get("sheet.refused.pit_and_revoke"),
        EntryError::Doubles { doubles } => t.fill("sheet.refused.doubles", &[("n", &doubles.to_string())]),
        EntryError::NoBoem => t.get("sheet.refused.no_boem"),
        EntryError::EndedWithoutGoingOn => t.get("sheet.refused.ended_without_going_on"),
        EntryError::PointsTogether { points, most } => {
            t.fill("sheet.refused.points_together", &[("n", &n(points)), ("most", &n(most))])
        }
        EntryError::NotThereYet { team: who, count } => {
            t.fill("sheet.refused.not_there_yet", &[("team", &team(who)), ("n", &n(count))])
        }
        EntryError::OutUnsaid { team: who, count } => {
            t.fill("sheet.refused.out_unsaid", &[("team", &team(who)), ("n", &n(count))])
        }
        EntryError::Strokes { strokes } => t.fill("sheet.refused.strokes", &[("n", &strokes.to_string())]),
    }
}

/// Why a pasted line is no result to compare, in one line.
pub fn line_error(e: &klaverjas_ai::daily::LineError, t: &Texts) -> String {
    use klaverjas_ai::daily::LineError;
    match e {
        LineError::NotAResult => t.get("daily.not_a_result"),
        LineError::Token { found, .. } if found.is_empty() => t.get("daily.cut_short"),
        LineError::Token { found, .. } => t.fill("daily.damaged", &[("found", found)]),
        LineError::Marks => t.get("daily.marks_wrong"),
        LineError::OtherDay(day) => t.fill("daily.other_day", &[("day", &day.to_string())]),
        LineError::OtherPreset(p) => t.fill("daily.other_preset", &[("game", &t.get(&format!("home.{}", p.name())))]),
    }
}

/// A bot's reason in the player's language: the hint's words.
pub fn reason(r: &Reason, t: &Texts) -> String {
    let args: Vec<(&str, String)> = r
        .args()
        .into_iter()
        .map(|(name, arg)| {
            let value = match arg {
                ReasonArg::Card { card, trump } => card_name(t, card, Some(trump)),
                ReasonArg::Suit(s) => suit_name(t, s),
                ReasonArg::Seat(s) => seat_name(t, s),
                ReasonArg::Number(n) => n.to_string(),
                ReasonArg::Average { value, decimals } => format!("{value:+.prec$}", prec = decimals as usize),
                ReasonArg::Reason(inner) => reason(&inner, t),
            };
            (name, value)
        })
        .collect();
    let values: Vec<(&str, &str)> = args.iter().map(|(n, v)| (*n, v.as_str())).collect();
    t.fill(r.key(), &values)
}

/// A hint in plain words: the club player's reason where it chooses the
/// same, which names the card or bid (or where a reason does not, the card
/// or bid alone); else why the hint's choice beats the club player's, in a
/// player's terms. The figures behind it are [`hint_figures`].
pub fn hint_words(advice: &Advice, t: &crate::i18n::Texts, game: &klaverjas::Game) -> String {
    match &advice.plain {
        Plain::Reason(klaverjas_ai::Reason::OnlyChoice | klaverjas_ai::Reason::Random) => {
            t.fill("coach.hint_card", &[("card", &action_words(advice.decision.action, t, game))])
        }
        _ => t.fill("coach.hint_is", &[("reason", &plain_reason(advice, t, game))]),
    }
}

/// A hint's plain reason: the club player's, else why the hint's choice
/// beats the club player's.
pub fn plain_reason(advice: &Advice, t: &crate::i18n::Texts, game: &klaverjas::Game) -> String {
    match &advice.plain {
        Plain::Reason(r) => reason(r, t),
        Plain::Instead { club, why } => {
            let key = match why {
                WhyNot::KeepTrump => "hint.keep_trump",
                WhyNot::LowerDoes => "hint.lower_does",
                WhyNot::FewerPoints => "hint.fewer_points",
                WhyNot::MorePoints => "hint.more_points",
                WhyNot::Made => "hint.made",
                WhyNot::FailsTooOften => "hint.fails_too_often",
                WhyNot::MostWays => "hint.most_ways",
            };
            let card = action_words(advice.decision.action, t, game);
            t.fill(key, &[("card", &card), ("club", &action_words(*club, t, game))])
        }
    }
}

/// The figures behind a hint, when the player asks why: the expert's
/// sampled deals, where it has them.
pub fn hint_figures(advice: &Advice, t: &crate::i18n::Texts) -> Option<String> {
    advice.figures().map(|r| reason(r, t))
}

/// An action as the player reads it.
pub fn action_words(a: Action, t: &crate::i18n::Texts, game: &klaverjas::Game) -> String {
    match a {
        Action::Play(c) => crate::words::card_name(t, c, game.contract().map(|c| c.trump)),
        Action::Bid(Bid::Double) => crate::words::double_name(t, game.stakes().doubles + 1),
        Action::Bid(b) => crate::words::bid_name(t, b),
        Action::ClaimRoem => t.get("roem.call"),
        Action::PassRoem => t.get("roem.pass"),
        Action::Announce => t.get("announce.action"),
        Action::Discard(c) => {
            t.fill("discard.action", &[("card", &crate::words::card_name(t, c, game.contract().map(|c| c.trump)))])
        }
        Action::Swap => t.get("swap.action"),
    }
}

/// A costly card of a review in plain words: the trick, what it cost, the
/// better card and, where the cards themselves say it, why: a trump kept
/// for later, a lower card of the same suit that would have done, fewer
/// points given to a trick the other side took, or more added to one the
/// player's side took.
pub fn plain_cost(t: &Texts, c: &klaverjas_ai::coach::CardReview, game: &klaverjas::Game) -> String {
    let trump = game.contract().map(|k| k.trump);
    let values = game.rules().card_values;
    let (card, best) = (c.card, c.best);
    let points = |x: Card| trump.map_or(0, |s| values.points(x, s));
    let strength = |x: Card| values.strength(x.rank(), Some(x.suit()) == trump);
    let trick = game.tricks().get(c.trick as usize - 1);
    let ours = trick.map(|k| k.winner.team() == HUMAN.team());
    let is_trump = |x: Card| Some(x.suit()) == trump;
    let key = if is_trump(card) && !is_trump(best) {
        "deal_review.plain.keep_trump"
    } else if card.suit() == best.suit() && strength(best) < strength(card) {
        "deal_review.plain.lower"
    } else if ours == Some(false) && points(best) < points(card) {
        "deal_review.plain.fewer_points"
    } else if ours == Some(true) && points(best) > points(card) {
        "deal_review.plain.more_points"
    } else {
        "deal_review.plain.better"
    };
    t.fill(
        key,
        &[
            ("trick", &c.trick.to_string()),
            ("loss", &t.count("table.points", ("n", c.loss as i64), &[])),
            ("card", &card_name(t, card, trump)),
            ("best", &card_name(t, best, trump)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Language, Skin};
    use klaverjas::{Deal, Game, Preset};
    use klaverjas_ai::Level;

    /// Bots play whole deals under every preset; each reason they give is
    /// worded in Dutch with every placeholder filled.
    #[test]
    fn every_reason_the_bots_give_is_worded_in_dutch() {
        let t = Texts::load(Language::Dutch, Skin::French);
        let mut keys = std::collections::BTreeSet::new();
        for (i, preset) in Preset::ALL.into_iter().enumerate() {
            for level in [Level::Heuristic, Level::Expert] {
                let mut bot = level.bot(i as u64);
                let rules = preset.rules();
                let dealer = rules.players.seats()[0];
                let mut game = Game::new(rules, Deal::shuffled_for(&rules, 40 + i as u64, dealer)).unwrap();
                while let Some(seat) = game.to_act() {
                    let decision = bot.decide(&game.view(seat));
                    let words = reason(&decision.reason, &t);
                    assert!(!words.contains('{') && !words.starts_with("reason."), "{words}");
                    keys.insert(decision.reason.key());
                    game.apply(decision.action).expect("a legal choice");
                }
            }
        }
        assert!(keys.len() >= 8, "only {keys:?}");
    }
}
