//! The match being played, the bots, and what the table shows of it. The
//! engine decides everything; this module only turns its events into a
//! paced show (cards fly, tricks pause and sweep) and asks the bots or the
//! player for the next action when the show has caught up.

use crate::i18n::Texts;
use crate::save::{SaveGame, Store};
use crate::settings::Settings;
use bevy::prelude::*;
use klaverjas::{
    Action, ActionError, BidError, Card, CardSet, ClaimError, DealResult, Event, Match, PerTeam, Phase, PlayError,
    PlayRule, Rules, Seat, Suit,
};
use klaverjas_ai::Bot;
use std::collections::VecDeque;

/// The seat the player sits at.
pub const HUMAN: Seat = Seat::South;

/// What the table shows: it trails the engine while animations run.
#[derive(Default, Clone, Debug)]
pub struct Shown {
    pub hands: [CardSet; 4],
    pub trick: Vec<(Seat, Card)>,
    pub tricks_won: PerTeam<u8>,
    /// The card in the air: (seat, card, start, seconds).
    pub flying: Option<(Seat, Card, f32, f32)>,
    /// A finished trick on its way to the winner: (winner, start, seconds).
    pub sweep: Option<(Seat, f32, f32)>,
    /// The deal being dealt: (start, seconds).
    pub dealing: Option<(f32, f32)>,
    pub result: Option<DealResult>,
}

/// A message for the player, shown for a while.
#[derive(Clone, Debug)]
pub struct Notice {
    pub text: String,
    pub seat: Option<Seat>,
    pub until: f32,
    pub warning: bool,
}

#[derive(Resource)]
pub struct Session {
    pub m: Match,
    pub demo: bool,
    bots: Vec<Option<Box<dyn Bot>>>,
    queue: VecDeque<Event>,
    pub shown: Shown,
    /// When the current animation step ends (seconds since start).
    busy_until: f32,
    pub notices: Vec<Notice>,
    pub deals_finished: u32,
    /// A fresh match is dealt on screen at the first step.
    deal_pending: bool,
    /// Files to capture and when (the render side takes them when due;
    /// the score sheet gets a moment to appear first).
    pub screenshots: Vec<(String, f32)>,
}

impl Session {
    pub fn new(m: Match, demo: bool, settings: &Settings) -> Session {
        let seed = m.seed();
        let bots = Seat::ALL
            .iter()
            .map(|&s| {
                (demo || s != HUMAN).then(|| settings.bot_level.level().bot(seed ^ ((s.index() as u64 + 1) * 0x9E37)))
            })
            .collect();
        let mut s = Session {
            m,
            demo,
            bots,
            queue: VecDeque::new(),
            shown: Shown::default(),
            busy_until: 0.0,
            notices: Vec::new(),
            deals_finished: 0,
            deal_pending: true,
            screenshots: Vec::new(),
        };
        s.show_current_deal(0.0, 0.0);
        s
    }

    /// Shows the deal in play as it stands: used at start and on continue.
    fn show_current_deal(&mut self, now: f32, deal_seconds: f32) {
        let g = self.m.game();
        self.shown = Shown {
            hands: Seat::ALL.map(|s| g.hand(s)),
            trick: g.current_trick().map(|t| t.plays().collect()).unwrap_or_default(),
            tricks_won: tricks_won(g.tricks()),
            dealing: (deal_seconds > 0.0 && g.actions().is_empty()).then_some((now, deal_seconds)),
            result: g.result().copied(),
            ..Shown::default()
        };
        self.busy_until = now + deal_seconds;
    }

    /// When the running animation step ends.
    pub fn busy(&self) -> f32 {
        self.busy_until
    }

    pub fn is_human(&self, seat: Seat) -> bool {
        self.bots[seat.index()].is_none()
    }

    /// Whether the show has caught up with the engine.
    pub fn idle(&self, now: f32) -> bool {
        self.queue.is_empty() && now >= self.busy_until
    }

    /// The seat the game waits for once the show has caught up.
    pub fn waiting_for(&self, now: f32) -> Option<Seat> {
        if !self.idle(now) || self.shown.result.is_some() {
            return None;
        }
        self.m.game().to_act()
    }

    /// Applies an action and queues its events for the show.
    fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        let events = self.m.apply(action)?;
        self.queue.extend(events);
        Ok(())
    }

    /// The player's action; on refusal, the engine's reason in the player's
    /// language (also posted as a notice).
    pub fn human(&mut self, action: Action, texts: &Texts, now: f32) -> Result<(), String> {
        if self.waiting_for(now).is_none_or(|s| !self.is_human(s)) {
            return Err(texts.get("notice.wait"));
        }
        self.apply(action).map_err(|e| {
            let text = explain(&e, texts, self.m.game().contract().map(|c| c.trump));
            self.notice(text.clone(), Some(HUMAN), now, true);
            text
        })
    }

    pub fn notice(&mut self, text: String, seat: Option<Seat>, now: f32, warning: bool) {
        self.notices.retain(|n| n.until > now && n.seat != seat);
        self.notices.push(Notice { text, seat, until: now + 3.0, warning });
    }

    /// One step of the show, or of a bot: call every frame. Returns true
    /// while something is moving (so the window keeps redrawing).
    pub fn step(&mut self, now: f32, settings: &Settings, texts: &Texts) -> bool {
        let (fly, pause) = settings.speed.timings();
        if std::mem::take(&mut self.deal_pending) && self.m.game().actions().is_empty() && fly > 0.0 {
            self.show_current_deal(now, fly * 6.0);
            return true;
        }
        if now < self.busy_until {
            return true;
        }
        self.finish_animation();
        if let Some(event) = self.queue.pop_front() {
            self.show(event, now, fly, pause, texts);
            return true;
        }
        if let Some(seat) = self.waiting_for(now)
            && let Some(bot) = self.bots[seat.index()].as_mut()
        {
            let decision = bot.decide(&self.m.game().view(seat));
            if self.apply(decision.action).is_err() {
                // A bot bug must not stall the table: take any legal action.
                let fallback = self.m.game().legal_actions()[0];
                let _ = self.apply(fallback);
            }
            return true;
        }
        false
    }

    /// Lands what was in flight.
    fn finish_animation(&mut self) {
        self.shown.flying = None;
        self.shown.dealing = None;
        if let Some((winner, _, _)) = self.shown.sweep.take() {
            self.shown.trick.clear();
            self.shown.tricks_won[winner.team()] += 1;
        }
    }

    fn show(&mut self, event: Event, now: f32, fly: f32, pause: f32, texts: &Texts) {
        match event {
            Event::Bid { seat, bid } => {
                let text = match bid {
                    klaverjas::Bid::Pass => texts.get("bid.pass"),
                    klaverjas::Bid::Play => texts.get("bid.play"),
                    klaverjas::Bid::Trump(s) => suit_name(texts, s),
                };
                self.notice(text, Some(seat), now, false);
                self.busy_until = now + pause * 0.6;
            }
            Event::SecondCardTurned { card } => {
                let text = texts.fill("notice.second_card", &[("suit", &suit_name(texts, card.suit))]);
                self.notice(text, None, now, false);
                self.busy_until = now + pause;
            }
            Event::Contract(c) => {
                let text = texts.fill(
                    "notice.contract",
                    &[("seat", &seat_name(texts, c.declarer)), ("suit", &suit_name(texts, c.trump))],
                );
                self.notice(text, None, now, false);
            }
            Event::CardPlayed { seat, card } => {
                self.shown.hands[seat.index()].remove(card);
                self.shown.trick.push((seat, card));
                self.shown.flying = Some((seat, card, now, fly));
                self.busy_until = now + fly;
            }
            Event::TrickWon { number, winner, roem, .. } => {
                if !roem.is_empty() {
                    let text = texts.fill("notice.roem_in_trick", &[("points", &roem.points.to_string())]);
                    self.notice(text, Some(winner), now, false);
                }
                self.shown.sweep = Some((winner, now + pause, fly));
                self.busy_until = now + pause + fly;
                self.screenshots.push((format!("deal{:02}-trick{number}.png", self.deals_finished + 1), now));
            }
            Event::RoemClaimed { seat, points } => {
                let text = texts.fill("notice.roem_claimed", &[("points", &points.to_string())]);
                self.notice(text, Some(seat), now, false);
            }
            Event::RoemPassed { seat } => {
                self.notice(texts.get("notice.roem_passed"), Some(seat), now, false);
            }
            Event::DealOver(result) => {
                self.shown.result = Some(result);
                self.deals_finished += 1;
                self.screenshots.push((format!("deal{:02}-end.png", self.deals_finished), now + 0.5));
            }
        }
    }

    /// Starts the next deal (after the player saw the score).
    pub fn next_deal(&mut self, now: f32, settings: &Settings) -> bool {
        if self.m.next_deal().is_err() {
            return false;
        }
        let (fly, _) = settings.speed.timings();
        self.show_current_deal(now, fly * 6.0);
        true
    }

    pub fn save(&self, store: &Store) -> Result<(), String> {
        store.write_game(&SaveGame::of(&self.m, self.demo))
    }

    pub fn rules(&self) -> &Rules {
        self.m.rules()
    }
}

/// Trick counts per team from the engine's record.
fn tricks_won(tricks: &[klaverjas::TrickRecord]) -> PerTeam<u8> {
    let mut won = PerTeam::default();
    for t in tricks {
        won[t.winner.team()] += 1;
    }
    won
}

pub fn suit_name(texts: &Texts, s: Suit) -> String {
    texts.get(&format!("suit.{}", s.letter()))
}

pub fn seat_name(texts: &Texts, s: Seat) -> String {
    texts.get(&format!("seat.{}", s.letter()))
}

pub fn card_name(texts: &Texts, c: Card, trump: Option<Suit>) -> String {
    let rank = texts.get(&format!("rank.{}", c.rank().letter()));
    let suit = if Some(c.suit()) == trump { texts.get("suit.trumps") } else { suit_name(texts, c.suit()) };
    texts.fill("card.name", &[("rank", &rank), ("suit", &suit)])
}

/// The engine's typed refusal, worded in the player's language.
pub fn explain(e: &ActionError, t: &Texts, trump: Option<Suit>) -> String {
    let card = |c: Card| card_name(t, c, trump);
    match e {
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
        },
        ActionError::Bid(BidError::TurnedCardOnly { turned }) => {
            t.fill("bid.turned_only", &[("suit", &suit_name(t, *turned))])
        }
        ActionError::Bid(BidError::NoTurnedCard) => t.get("bid.no_turned"),
        ActionError::Bid(BidError::MustChoose { everyone_passed: true, .. }) => t.get("bid.must_choose"),
        ActionError::Bid(BidError::MustChoose { .. }) => t.get("bid.must_choose_left"),
        ActionError::Claim(ClaimError::Automatic) => t.get("claim.automatic"),
        ActionError::Claim(ClaimError::NoRoem { trick }) => t.fill("claim.no_roem", &[("trick", &trick.to_string())]),
        ActionError::Claim(ClaimError::NoTrick) => t.get("claim.no_trick"),
        ActionError::Claim(ClaimError::TooLate) => t.get("claim.too_late"),
        ActionError::WrongPhase { phase } => t.get(match phase {
            Phase::Bidding => "phase.bidding",
            Phase::Playing => "phase.playing",
            Phase::ClaimRoem => "phase.claim",
            Phase::Done => "phase.done",
        }),
    }
}
