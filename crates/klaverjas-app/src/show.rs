//! The show: what the table shows of the match, trailing the engine while
//! cards move. The engine's events arrive as [`GameEvent`]s and become
//! beats (a card played, a trick lying still, a sweep, a bid spoken) that
//! run one after another at the player's [`Pace`]; the card entities follow
//! [`Shown`]. Bots and the player act only when the show has caught up,
//! but for the last trick's word on roem, said while the trick lies there.
//! Each beat is also [`Heard`]: a card lands with its sound as it lands.

use crate::seats::{Flow, GameEvent, Refusal, Seats, Stage};
use crate::settings::Pace;
use crate::shown::{Dealing, LastTrick, Shown, pile_of};
use crate::state::{PlayerSettings, Screen};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use klaverjas::{ActionError, Bid, Card, ClaimError, Contract, DealResult, Event, Game, PileCard, Players, Seat, Team};
use klaverjas_cards::Sound;
use std::collections::VecDeque;

/// What a notice says; worded where it is drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum NoticeText {
    Bid(Bid),
    /// The deal's `n`th double (*kraak*, *rekraak*, *superkraak*).
    Double(u8),
    /// A seat announces the roem in its hand.
    Announced(klaverjas::Announcement),
    /// After the first trick: the team that scores the hand roem.
    HandRoem(Team, u16),
    /// The same where each plays alone: the player that scores it.
    HandRoemAlone(Seat, u16),
    /// Stuk shown as the first of king and queen of trumps is played;
    /// *sturk* where the roem is South African.
    Stuk {
        sturk: bool,
    },
    /// A side goes on the boem: the hand is over.
    WentOn(klaverjas::GoingOn),
    /// Everyone passed: the cards are thrown in.
    ThrownIn,
    /// The trump maker lays a card away from hand and talon.
    LaidAway,
    /// Klaberjass: three more cards each, and the stock's bottom card.
    SecondDeal(Card),
    /// Klaberjass: the turned card taken for the seven of trumps.
    Swapped(Card),
    SecondCard(PileCard),
    Contract(Contract),
    /// For beginners: the trick just won holds roem.
    RoemInTrick(u16),
    /// A call, counted: the player's own is answered, a bot's is spoken.
    RoemClaimed(u16),
    /// The answer to a call on a trick without roem.
    NoRoemInTrick,
    Refused(ActionError),
    /// A lesson's explanation, by its text key.
    Lesson(String),
    Wait,
    SaveFailed(String),
    /// The coach's help refused.
    Aid(klaverjas::AidError),
}

impl NoticeText {
    /// Words of the bidding: each seat's bid or double, the pile's next card.
    pub fn of_the_bidding(&self) -> bool {
        matches!(self, NoticeText::Bid(_) | NoticeText::Double(_) | NoticeText::SecondCard(_))
    }

    /// Words about the trick just won: its roem, pointed out, called or not.
    pub fn of_the_trick(&self) -> bool {
        matches!(self, NoticeText::RoemInTrick(_) | NoticeText::RoemClaimed(_) | NoticeText::NoRoemInTrick)
    }
}

/// A message for the player, shown for a while beside a seat or in the
/// middle of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub text: NoticeText,
    pub seat: Option<Seat>,
    pub until: f32,
    pub warning: bool,
    /// The tricks won when it was said.
    pub trick: u8,
}

/// A screenshot for `--screenshot`, taken when due.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenshotDue {
    pub name: String,
    pub at: f32,
}

/// A sound the table makes as the show runs a beat; the sound plugin
/// plays it (or not, as the settings say).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heard(pub Sound);

/// What happened at the table, in the order the show runs it: what a
/// player who cannot see the table is told (`panels::told` reads it out).
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    Played(Seat, Card),
    Won {
        winner: Seat,
        points: u16,
    },
    /// Everything said on the felt: bids, the contract, roem, refusals.
    Notice(NoticeText, Option<Seat>),
    DealOver(Box<DealResult>),
}

/// The last things [`Said`], and how many were said in all: a reader
/// that missed some frames still finds what it has not read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SaidLog {
    pub recent: VecDeque<Said>,
    pub count: u64,
}

impl SaidLog {
    /// As many as a player reads back after a trick and a word on it.
    pub const KEPT: usize = 16;

    fn say(&mut self, said: Said) {
        if self.recent.len() == Self::KEPT {
            self.recent.pop_front();
        }
        self.recent.push_back(said);
        self.count += 1;
    }

    /// What was said after the first `read` things, as far as it is kept.
    pub fn since(&self, read: u64) -> impl Iterator<Item = &Said> {
        let new = self.count.saturating_sub(read).min(self.recent.len() as u64) as usize;
        self.recent.iter().skip(self.recent.len() - new)
    }
}

/// One step of the show.
#[derive(Clone, Debug, PartialEq)]
enum Beat {
    /// The shuffled pack is dealt.
    Deal,
    Engine(Event),
    /// The trick just won is pushed towards its winner...
    Gather {
        winner: Seat,
    },
    /// ...and goes to the winner's team's pile.
    Sweep {
        number: u8,
        winner: Seat,
    },
}

/// How long the player has to call roem on the partner's trick before the
/// next card, whatever the speed.
pub const CALL_WINDOW: f32 = 3.0;

#[derive(Resource, Default)]
pub struct Show {
    pub shown: Shown,
    beats: VecDeque<Beat>,
    /// When the running beat ends (seconds since start).
    busy_until: f32,
    pub notices: Vec<Notice>,
    /// Counts the deals put on the table: the cards go back to the stock
    /// whenever it changes.
    pub deal_serial: u32,
    pub deals_finished: u32,
    /// Whether tricks and deal ends are photographed (`--screenshot`).
    pub photograph: bool,
    pub screenshots: Vec<ScreenshotDue>,
    /// Until when no bot acts while the player may call roem.
    pub call_until: f32,
    /// The trick whose call was answered "no roem": the call button goes.
    pub false_call: Option<u8>,
    /// The number of tricks the show has seen won this deal.
    pub tricks_seen: u8,
    /// The player asked for a second look at the last trick.
    pub reviewing: bool,
    /// A lesson points roem out whatever the setting.
    pub lesson_roem_help: bool,
    /// A lesson is talking about the trick on the table: it stays there
    /// until the lesson moves on.
    pub hold_trick: bool,
    /// A player is to say the last trick's word: the trick lies there
    /// until they have, however long they think.
    pub wait_for_word: bool,
    /// Which seats the player holds: their cards and calls sound their own.
    players_seats: [bool; 4],
    /// The beats' sounds, until the frame's systems hand them on.
    heard: Vec<Sound>,
    /// The last deal put on the table: when, its code and how far played.
    last_put: Option<(f32, String, usize)>,
    /// Face-down cards whose names were swapped (a table with friends: the
    /// other hands are a guess, and a card played from one may have been
    /// guessed in another): the card entities swap theirs too, so nothing
    /// moves but the card played.
    pub relabel: Vec<(Card, Card)>,
    pub said: SaidLog,
}

impl Show {
    /// `seat` plays `card`, which the hands shown put in another hand (a
    /// guess at a table with friends): it swaps names with one of `seat`'s
    /// face-down cards.
    fn guessed_elsewhere(&mut self, seat: Seat, card: Card) {
        let hands = &mut self.shown.hands;
        if hands[seat.index()].contains(card) {
            return;
        }
        let Some(holder) = Seat::ALL.into_iter().find(|s| hands[s.index()].contains(card)) else { return };
        let Some(stand) = hands[seat.index()].iter().next() else { return };
        hands[holder.index()].remove(card);
        hands[holder.index()].insert(stand);
        hands[seat.index()].remove(stand);
        hands[seat.index()].insert(card);
        self.relabel.push((stand, card));
    }

    /// Whether the show has caught up with the engine.
    pub fn idle(&self, now: f32) -> bool {
        self.beats.is_empty() && now >= self.busy_until
    }

    /// What the seats wait for ([`Stage`]). While a picture is being taken
    /// (`--screenshot`) nobody acts, so that it shows the moment it names.
    pub fn stage(&self, now: f32) -> Stage {
        Stage {
            idle: self.idle(now) && self.screenshots.is_empty(),
            trick_lies_there: self.trick_lies_there() && self.screenshots.is_empty(),
            result_shown: self.shown.result.is_some(),
            roem_call_open: now < self.call_until,
        }
    }

    /// Whether the show has caught up but for sweeping a finished trick:
    /// the trick lies complete on the table.
    pub fn caught_up_to_the_sweep(&self, now: f32) -> bool {
        now >= self.busy_until && self.only_clearing()
    }

    /// Whether all the show has left is clearing a finished trick away.
    fn only_clearing(&self) -> bool {
        self.beats.iter().all(|b| matches!(b, Beat::Gather { .. } | Beat::Sweep { .. }))
    }

    /// Whether a finished trick's gathering has yet to begin.
    fn gathering_next(&self) -> bool {
        matches!(self.beats.front(), Some(Beat::Gather { .. }))
    }

    /// Whether a finished trick lies on the table, not yet gathered, and
    /// nothing else is left to show.
    fn trick_lies_there(&self) -> bool {
        self.gathering_next() && self.only_clearing()
    }

    /// Whether the deal's last trick has lain still for as long as any
    /// trick does, and all that is left of the show is clearing it away:
    /// its gathering and sweep (begun or not), the word said on it, and the
    /// deal's end.
    pub fn last_trick_seen(&self, now: f32) -> bool {
        let still_done = now >= self.busy_until || !self.gathering_next();
        still_done
            && self.screenshots.is_empty()
            && self.beats.iter().any(|b| matches!(b, Beat::Engine(Event::DealOver(_))))
            && self.beats.iter().all(|b| {
                matches!(
                    b,
                    Beat::Gather { .. }
                        | Beat::Sweep { .. }
                        | Beat::Engine(Event::RoemPassed { .. } | Event::RoemClaimed { .. } | Event::DealOver(_))
                )
            })
    }

    /// Runs what is left of the show at once, for a table the player
    /// leaves: no picture is taken of it; its sounds are returned, to be
    /// heard over what opens instead.
    pub fn run_out(&mut self, now: f32, pace: Pace, roem_help: bool) -> Vec<Sound> {
        let photograph = std::mem::replace(&mut self.photograph, false);
        while let Some(beat) = self.beats.pop_front() {
            self.beat(beat, now, pace, roem_help);
        }
        self.busy_until = now;
        self.photograph = photograph;
        std::mem::take(&mut self.heard)
    }

    /// Whether the roem in a trick just won is pointed out: the beginners'
    /// setting, or a lesson.
    pub fn roem_help(&self, settings: &crate::settings::Settings) -> bool {
        settings.point_out_roem || self.lesson_roem_help
    }

    pub fn notice(&mut self, text: NoticeText, seat: Option<Seat>, now: f32, warning: bool) {
        self.notices.retain(|n| n.until > now && n.seat != seat);
        // The bidding's words stay while it lasts, as at a table where
        // each player's last word is remembered: they go when the play
        // begins (and the contract's with the first trick), not by time.
        // So do the words about a trick's roem, until the next trick's
        // first card.
        let until = if text.of_the_bidding() || text.of_the_trick() || matches!(text, NoticeText::Contract(_)) {
            f32::INFINITY
        } else {
            now + 3.0
        };
        self.said.say(Said::Notice(text.clone(), seat));
        self.notices.push(Notice { text, seat, until, warning, trick: self.tricks_seen });
    }

    /// Asks for a screenshot at `at`, with `--screenshot`.
    pub fn photograph(&mut self, name: String, at: f32) {
        if self.photograph {
            self.screenshots.push(ScreenshotDue { name, at });
        }
    }

    /// Puts the deal in play on the table; a fresh one is dealt. Entering
    /// the table and the deal's own event may both put it there in one
    /// frame: the same deal at the same moment is put there once.
    fn put_on_table(&mut self, game: &Game, now: f32, pace: Pace) {
        let put = (now, game.deal().code(), game.actions().len());
        if self.last_put.as_ref() == Some(&put) {
            return;
        }
        self.last_put = Some(put);
        self.beats.clear();
        // A new deal on the table: the last one's words go with it.
        self.notices.clear();
        self.shown = Shown::of(game);
        self.tricks_seen = game.tricks().len() as u8;
        self.false_call = None;
        self.reviewing = false;
        self.deal_serial += 1;
        self.busy_until = now;
        if game.actions().is_empty() {
            self.heard.push(Sound::Shuffle);
        }
        // The dealer shuffles, the pack lying before them, then deals.
        if game.actions().is_empty() && pace.deal() > 0.0 {
            let start = now + pace.shuffle();
            self.shown.dealing = Some(Dealing { start, seconds: pace.deal(), order: game.deal().dealing_order() });
            self.busy_until = start;
            self.beats.push_back(Beat::Deal);
        }
    }

    /// Runs the beats that are due. Returns whether anything happened.
    fn step(&mut self, now: f32, pace: Pace, roem_help: bool) -> bool {
        // A picture that is due (`--screenshot`) holds the show where it
        // is until it is kept: it shows the moment it names, every run.
        if self.screenshots.iter().any(|s| s.at <= now) {
            return false;
        }
        let mut stepped = false;
        while now >= self.busy_until {
            if self.shown.dealing.as_ref().is_some_and(|d| now >= d.start + d.seconds) {
                self.shown.dealing = None;
            }
            let hold = self.hold_trick || self.wait_for_word;
            if hold && matches!(self.beats.front(), Some(Beat::Gather { .. } | Beat::Sweep { .. })) {
                break;
            }
            let Some(beat) = self.beats.pop_front() else { break };
            self.beat(beat, now, pace, roem_help);
            stepped = true;
        }
        stepped
    }

    fn beat(&mut self, beat: Beat, now: f32, pace: Pace, roem_help: bool) {
        let event = match beat {
            Beat::Deal => {
                self.heard.push(Sound::Deal);
                self.busy_until = now + pace.deal();
                return;
            }
            Beat::Gather { winner } => {
                self.shown.gathered = Some(winner);
                self.busy_until = now + pace.fly;
                return;
            }
            Beat::Sweep { number, winner } => {
                // The contract after the first trick, and what was said of
                // the trick before this one, are no longer news.
                let old_news =
                    |n: &Notice| matches!(n.text, NoticeText::Contract(_)) || n.text.of_the_trick() && n.trick < number;
                self.notices.retain(|n| !old_news(n));
                let trick = std::mem::take(&mut self.shown.trick);
                self.shown.last_trick = Some(LastTrick { number, plays: trick.clone(), winner });
                let pile = pile_of(self.shown.players, winner).index();
                self.shown.won[pile].extend(trick.into_iter().map(|(_, c)| c));
                if number == self.shown.players.tricks() && self.shown.players == Players::Three {
                    // The last trick takes what was laid away with it.
                    let laid_away = std::mem::take(&mut self.shown.talon);
                    self.shown.won[pile].extend(laid_away.iter());
                }
                self.shown.gathered = None;
                self.busy_until = now + pace.fly;
                self.heard.push(Sound::Sweep);
                return;
            }
            Beat::Engine(event) => event,
        };
        match event {
            Event::Bid { seat, bid: Bid::Double } => {
                self.shown.doubles += 1;
                self.notice(NoticeText::Double(self.shown.doubles), Some(seat), now, false);
                self.busy_until = now + pace.pause * 0.6;
            }
            Event::Bid { seat, bid } => {
                self.notice(NoticeText::Bid(bid), Some(seat), now, false);
                self.busy_until = now + pace.pause * 0.6;
            }
            Event::SecondCardTurned { card } => {
                self.heard.push(Sound::Lay);
                self.shown.turned.push(card);
                self.notice(NoticeText::SecondCard(card), None, now, false);
                self.busy_until = now + pace.pause;
            }
            Event::Contract(c) => {
                // Who plays on which trump is read before the first card.
                self.busy_until = now + pace.pause * 1.5;
                self.shown.contract = Some(c);
                if self.shown.players == Players::Three {
                    // The maker takes the talon.
                    let talon = std::mem::take(&mut self.shown.talon);
                    self.shown.hands[c.declarer.index()] = self.shown.hands[c.declarer.index()].union(talon);
                }
                self.notice(NoticeText::Contract(c), None, now, false);
            }
            Event::CardPlayed { seat, card } => {
                if self.tricks_seen == 0 && self.shown.trick.is_empty() {
                    self.notices.retain(|n| !n.text.of_the_bidding());
                }
                // The next trick's first card closes the roem of the one
                // before: what was said of it would seem said of this one.
                if self.shown.trick.is_empty() {
                    self.notices.retain(|n| !n.text.of_the_trick());
                }
                self.guessed_elsewhere(seat, card);
                self.shown.hands[seat.index()].remove(card);
                self.shown.trick.push((seat, card));
                self.said.say(Said::Played(seat, card));
                self.busy_until = now + pace.fly;
                self.heard.push(if self.players_seats[seat.index()] { Sound::PlayMine } else { Sound::PlayTheirs });
            }
            Event::TrickWon { number, winner, roem, points } => {
                // The review of the trick before closes: this one replaces it.
                self.reviewing = false;
                self.said.say(Said::Won { winner, points });
                self.tricks_seen = number;
                if roem_help && !roem.is_empty() {
                    self.notice(NoticeText::RoemInTrick(roem.points), None, now, false);
                }
                self.call_until = now + CALL_WINDOW;
                self.beats.push_front(Beat::Sweep { number, winner });
                self.beats.push_front(Beat::Gather { winner });
                self.busy_until = now + pace.still();
                let name = format!("deal{:02}-trick{number}.png", self.deals_finished + 1);
                self.photograph(name, now);
            }
            Event::RoemClaimed { seat, points } => {
                self.heard.push(if self.players_seats[seat.index()] { Sound::RoemAnswer } else { Sound::RoemCall });
                self.notice(NoticeText::RoemClaimed(points), Some(seat), now, false)
            }
            Event::Announced(a) => {
                self.notice(NoticeText::Announced(a), Some(a.seat), now, false);
                self.busy_until = now + pace.pause;
            }
            Event::HandRoem { team, points } => {
                // At two a team is one player: say who.
                let text = match self.shown.players.seats().iter().find(|s| s.team() == team) {
                    Some(&seat) if self.shown.players == Players::Two => NoticeText::HandRoemAlone(seat, points),
                    _ => NoticeText::HandRoem(team, points),
                };
                self.notice(text, None, now, false)
            }
            Event::Stuk { seat } => {
                let sturk = self.shown.roem_table == klaverjas::RoemTable::SouthAfrican;
                self.notice(NoticeText::Stuk { sturk }, Some(seat), now, false)
            }
            Event::WentOn(on) => {
                self.notice(NoticeText::WentOn(on), None, now, false);
                self.busy_until = now + pace.pause;
            }
            Event::ThrownIn => {
                self.notice(NoticeText::ThrownIn, None, now, false);
                self.busy_until = now + pace.pause;
            }
            Event::SecondDeal { dealt, bottom } => {
                for seat in Seat::ALL {
                    let cards = dealt[seat.index()];
                    self.shown.hands[seat.index()] = self.shown.hands[seat.index()].union(cards);
                    self.shown.talon = self.shown.talon.minus(cards);
                }
                self.shown.talon.remove(bottom);
                self.shown.stock_open.push(bottom);
                self.notice(NoticeText::SecondDeal(bottom), None, now, false);
                self.busy_until = now + pace.pause;
            }
            Event::Swapped { seat, turned, seven } => {
                self.shown.hands[seat.index()].remove(seven);
                self.shown.hands[seat.index()].insert(turned);
                self.heard.push(Sound::Lay);
                if let Some(open) = self.shown.stock_open.first_mut() {
                    *open = seven;
                }
                self.notice(NoticeText::Swapped(turned), Some(seat), now, false);
                self.busy_until = now + pace.pause;
            }
            Event::Discarded { seat, card } => {
                self.shown.hands[seat.index()].remove(card);
                self.shown.talon.insert(card);
                self.heard.push(Sound::Lay);
                self.notice(NoticeText::LaidAway, Some(seat), now, false);
                self.busy_until = now + pace.pause * 0.6;
            }
            // Silence says nothing at a real table either.
            Event::RoemPassed { .. } => {}
            Event::DealOver(result) => {
                self.heard.extend(self.deal_over_sound(&result));
                self.said.say(Said::DealOver(Box::new(result)));
                self.shown.result = Some(result);
                self.deals_finished += 1;
                let name = format!("deal{:02}-end.png", self.deals_finished);
                self.photograph(name, now + 0.5);
            }
        }
    }
}

impl Show {
    /// The end of a deal as the player's side hears it: their side went
    /// nat, or won the deal (which the other side's nat is too); a lost
    /// deal makes no sound.
    fn deal_over_sound(&self, result: &DealResult) -> Option<Sound> {
        let mine = self.players_seats.iter().position(|&p| p).map_or(crate::seats::HUMAN, |i| Seat::ALL[i]);
        let side = klaverjas_ai::progress::outcome(result, self.shown.players, mine);
        if side.nat && side.declaring {
            Some(Sound::Nat)
        } else if side.won {
            Some(Sound::DealWon)
        } else {
            None
        }
    }
}

/// The show taking in the frame's events and moving on.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pacing;

pub fn plugin(app: &mut App) {
    app.init_resource::<Show>()
        .add_message::<Heard>()
        .add_systems(
            Update,
            (take_in_events, run_show.run_if(in_state(Screen::Table))).chain().in_set(Flow::React).in_set(Pacing),
        )
        .add_systems(OnEnter(Screen::Table), deal_on_entering);
}

/// Takes the frame's events into the show. A seat that acted leaves
/// [`Seats`] marked until then, so no other seat acts in the same frame on
/// a table the show has not taken in.
fn take_in_events(
    mut events: MessageReader<GameEvent>,
    mut show: ResMut<Show>,
    seats: Option<ResMut<Seats>>,
    settings: Res<PlayerSettings>,
    time: Res<Time>,
    mut heard: MessageWriter<Heard>,
) {
    let now = time.elapsed_secs();
    let pace = settings.0.speed.pace();
    let Some(mut seats) = seats else {
        events.clear();
        return;
    };
    show.players_seats = Seat::ALL.map(|s| seats.is_human(s));
    for event in events.read() {
        if let GameEvent::Refused { seat, .. } = event
            && seats.is_human(*seat)
        {
            heard.write(Heard(Sound::Refused));
        }
        match event {
            GameEvent::Dealt { .. } => show.put_on_table(seats.game(), now, pace),
            GameEvent::Engine(e) => show.beats.push_back(Beat::Engine(*e)),
            GameEvent::Helped => {}
            GameEvent::Refused { seat, refusal } => {
                let text = match refusal {
                    Refusal::Rule(ActionError::Claim(ClaimError::NoRoem { trick })) => {
                        show.false_call = Some(*trick);
                        show.notice(NoticeText::NoRoemInTrick, Some(*seat), now, false);
                        continue;
                    }
                    Refusal::Rule(e) => NoticeText::Refused(*e),
                    Refusal::Lesson(key) => NoticeText::Lesson(key.clone()),
                    Refusal::NotNow => NoticeText::Wait,
                };
                show.notice(text, Some(*seat), now, true);
            }
        }
    }
    seats.unseen = false;
    heard.write_batch(show.heard.drain(..).map(Heard));
}

/// A fresh deal is dealt where the player sees it: on entering the table
/// (after Continue, or a deal put on the table while the menus showed).
fn deal_on_entering(mut show: ResMut<Show>, seats: Option<Res<Seats>>, settings: Res<PlayerSettings>, time: Res<Time>) {
    if let Some(seats) = seats
        && seats.game().actions().is_empty()
    {
        show.put_on_table(seats.game(), time.elapsed_secs(), settings.0.speed.pace());
    }
}

/// Runs what is due and keeps the window drawing while anything moves.
fn run_show(
    mut show: ResMut<Show>,
    seats: Option<Res<Seats>>,
    settings: Res<PlayerSettings>,
    time: Res<Time>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut heard: MessageWriter<Heard>,
) {
    let now = time.elapsed_secs();
    let roem_help = show.roem_help(&settings.0);
    show.wait_for_word = seats.as_ref().is_some_and(|s| s.player_to_say_the_word());
    let stepped = show.step(now, settings.0.speed.pace(), roem_help);
    heard.write_batch(show.heard.drain(..).map(Heard));
    let thinking = seats.as_ref().is_some_and(|s| s.thinking().is_some() || s.unseen);
    // Only a notice that goes by time needs the frames that take it away:
    // the bidding's words stay until the play, and waiting on them the
    // window drew for as long as the player thought.
    let notices = show.notices.iter().any(|n| n.until > now && n.until.is_finite()) || now < show.call_until;
    if stepped || !show.idle(now) || thinking || notices {
        redraw.write(RequestRedraw);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use klaverjas::{Action, Deal, Preset};

    /// A deal's last trick is seen lying still, as every trick is; then
    /// what is left of the show (its gathering and sweep, the deal's end)
    /// can run out at once, its sounds returned.
    #[test]
    fn the_last_trick_is_seen_before_it_is_swept() {
        let rules = Preset::Classic.rules();
        let mut game = Game::new(rules, Deal::shuffled_for(&rules, 3, Seat::West)).unwrap();
        let pace = crate::settings::Speed::Fast.pace();
        let mut show = Show::default();
        show.put_on_table(&game, 0.0, pace);
        while game.result().is_none() {
            let legal = game.legal_actions();
            let pick = legal.iter().find(|a| !matches!(a, Action::ClaimRoem | Action::Bid(Bid::Double))).unwrap();
            show.beats.extend(game.apply(*pick).unwrap().into_iter().map(Beat::Engine));
        }
        let mut now = 0.0;
        let mut tricks_lying_still = 0;
        while !show.last_trick_seen(now) {
            assert!(show.shown.result.is_none() && now < 300.0, "the show passed the last trick by at {now} s");
            show.step(now, pace, false);
            tricks_lying_still += usize::from(show.shown.trick.len() == 4 && show.tricks_seen < 8);
            now += 0.01;
        }
        assert!(tricks_lying_still > 0, "earlier tricks lay complete, and were not taken for the last");
        assert_eq!((show.tricks_seen, show.shown.trick.len()), (8, 4), "the last trick lies on the table");
        assert!(show.shown.gathered.is_none() && !show.idle(now));
        // Still seen once the gathering has begun: the show may step first
        // in the frame the trick's stillness ends.
        show.step(now, pace, false);
        assert!(show.shown.gathered.is_some() && show.last_trick_seen(now));
        let sounds = show.run_out(now, pace, false);
        assert!(show.idle(now) && show.shown.result.is_some() && show.shown.trick.is_empty());
        assert_eq!(show.shown.last_trick.as_ref().map(|t| t.number), Some(8));
        assert!(sounds.contains(&Sound::Sweep), "{sounds:?}");
    }
}
