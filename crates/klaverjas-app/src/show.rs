//! The show: what the table shows of the match, trailing the engine while
//! cards move. The engine's events arrive as [`GameEvent`]s and become
//! beats (a card played, a trick lying still, a sweep, a bid spoken) that
//! run one after another at the player's [`Pace`]; the card entities follow
//! [`Shown`]. Bots and the player act only when the show has caught up.

use crate::seats::{Flow, GameEvent, Refusal, Seats};
use crate::settings::Pace;
use crate::{PlayerSettings, Screen};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use klaverjas::{
    ActionError, Bid, Card, CardSet, CardValues, ClaimError, Contract, DealResult, Event, Game, Phase, PileCard,
    Players, Seat, Team,
};
use std::collections::VecDeque;

/// The table as the player sees it now.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub dealer: Seat,
    /// Who sits at the table.
    pub players: Players,
    pub hands: [CardSet; 4],
    /// The trick on the table, in order of play.
    pub trick: Vec<(Seat, Card)>,
    /// The cards of the tricks won, trick by trick, on each pile by the
    /// seat it lies before ([`Shown::pile_of`]).
    pub won: [Vec<Card>; 4],
    /// At three, the talon face down in North's empty place, and there
    /// the cards the trump maker laid away until the last trick takes
    /// them.
    pub talon: CardSet,
    /// The 2-6 pile's turned cards (classic).
    pub turned: Vec<PileCard>,
    /// Klaberjass: the stock's open cards beside it, the turned card (or
    /// the seven of trumps taken for it) and, after the second deal, the
    /// bottom card; `talon` holds the stock's closed cards.
    pub stock_open: Vec<Card>,
    /// The dealer's last card, face up where it makes trump: it lies open
    /// in the dealer's hand until played.
    pub face_up: Option<Card>,
    pub contract: Option<Contract>,
    /// The order of the cards, for sorting a hand.
    pub values: CardValues,
    /// The roem's values, for the words its calls are made in.
    pub roem_table: klaverjas::RoemTable,
    /// How often the deal has been doubled (*kraken*).
    pub doubles: u8,
    pub dealing: Option<Dealing>,
    pub result: Option<DealResult>,
    /// The trick just won, pushed together before the winner while it is
    /// swept away.
    pub gathered: Option<Seat>,
    /// The last trick swept, for a second look until the next is complete.
    pub last_trick: Option<LastTrick>,
}

/// A completed trick as it was played.
#[derive(Clone, Debug, PartialEq)]
pub struct LastTrick {
    pub number: u8,
    pub plays: Vec<(Seat, Card)>,
    pub winner: Seat,
}

impl Default for Shown {
    fn default() -> Shown {
        Shown {
            dealer: Seat::West,
            players: Players::Four,
            hands: [CardSet::EMPTY; 4],
            trick: Vec::new(),
            won: Default::default(),
            talon: CardSet::EMPTY,
            turned: Vec::new(),
            stock_open: Vec::new(),
            face_up: None,
            contract: None,
            values: CardValues::Dutch,
            roem_table: klaverjas::RoemTable::Blog,
            doubles: 0,
            dealing: None,
            result: None,
            gathered: None,
            last_trick: None,
        }
    }
}

impl Shown {
    /// The deal in play as it stands, all at once (a loaded save).
    fn of(game: &Game) -> Shown {
        let players = game.rules().players;
        let mut won: [Vec<Card>; 4] = Default::default();
        for t in game.tricks() {
            won[pile_of(players, t.winner).index()].extend(t.played());
        }
        // The talon lies in the middle until the maker takes it; what the
        // maker laid away lies there until the last trick.
        let mut talon = match game.phase() {
            Phase::Bidding | Phase::ThrownIn => game.deal().talon(),
            _ if game.result().is_some() => CardSet::EMPTY,
            _ => game.discards(),
        };
        let mut stock_open = Vec::new();
        if let Some(turned) = game.turned_card() {
            let seven = Card::new(turned.suit(), klaverjas::Rank::Seven);
            stock_open.push(if game.swapped().is_some() { seven } else { turned });
            stock_open.extend(game.bottom_card());
            // The stock keeps what is in no hand, no trick and not open.
            let out = Seat::ALL.iter().fold(CardSet::EMPTY, |a, &s| a.union(game.hand(s)));
            talon = CardSet::ALL.minus(out).minus(game.plays().map(|(_, c)| c).collect());
            stock_open.iter().for_each(|&c| talon.remove(c));
        }
        if game.result().is_some()
            && let Some(last) = game.tricks().last()
        {
            won[pile_of(players, last.winner).index()].extend(game.discards());
        }
        Shown {
            dealer: game.dealer(),
            players,
            hands: Seat::ALL.map(|s| game.hand(s)),
            trick: game.current_trick().map(|t| t.plays().collect()).unwrap_or_default(),
            won,
            talon,
            turned: game.turned_cards(),
            stock_open,
            face_up: game.face_up(),
            contract: game.contract(),
            values: game.rules().card_values,
            roem_table: game.rules().roem_table,
            doubles: game.stakes().doubles,
            dealing: None,
            result: game.result().copied(),
            gathered: None,
            last_trick: game.tricks().last().map(|t| LastTrick {
                number: game.tricks().len() as u8,
                plays: t.plays().collect(),
                winner: t.winner,
            }),
        }
    }

    /// The piles of won tricks: one a team, or at three one a player.
    pub fn piles(&self) -> Vec<Seat> {
        match self.players {
            Players::Four => vec![Seat::South, Seat::East],
            Players::Three | Players::Two => self.players.seats().to_vec(),
        }
    }

    /// Tricks on the pile before `pile` (the cards laid away at three,
    /// added with the last trick, make no trick of their own).
    pub fn tricks_won(&self, pile: Seat) -> usize {
        self.won[pile.index()].len() / self.players.count()
    }

    /// The card points of the tricks on a pile, with the last trick's
    /// bonus once it is in.
    pub fn points(&self, pile: Seat, rules: &klaverjas::Rules) -> u16 {
        let Some(trump) = self.contract.map(|c| c.trump) else { return 0 };
        let cards = rules.card_values.set_points(self.won[pile.index()].iter().copied().collect(), trump);
        let last = self
            .last_trick
            .as_ref()
            .is_some_and(|t| t.number == rules.tricks_per_deal() && pile_of(self.players, t.winner) == pile);
        cards + if last { rules.last_trick_bonus } else { 0 }
    }
}

/// The pile a trick won by `winner` goes to: the team's, which lies before
/// South for North-South and before East for East-West; at three and two
/// the winner's own.
pub fn pile_of(players: Players, winner: Seat) -> Seat {
    match (players, winner.team()) {
        (Players::Three | Players::Two, _) => winner,
        (Players::Four, Team::NS) => Seat::South,
        (Players::Four, Team::EW) => Seat::East,
    }
}

/// A deal being dealt: the 32 cards leave the dealer in the engine's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Dealing {
    pub start: f32,
    pub seconds: f32,
    pub order: [(Seat, Card); 32],
}

/// Of the deal, the share of its time each card is in the air.
pub const IN_AIR: f32 = 0.1;

impl Dealing {
    /// When the `k`-th card of the deal leaves the dealer.
    pub fn leaves_at(&self, k: usize) -> f32 {
        self.start + k as f32 / 32.0 * (1.0 - IN_AIR) * self.seconds
    }

    pub fn flight(&self) -> f32 {
        IN_AIR * self.seconds
    }
}

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
    /// The deal's code copied, or why not.
    CodeCopied(Result<(), String>),
}

/// A message for the player, shown for a while beside a seat or in the
/// middle of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub text: NoticeText,
    pub seat: Option<Seat>,
    pub until: f32,
    pub warning: bool,
}

/// A screenshot for `--screenshot`, taken when due.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenshotDue {
    pub name: String,
    pub at: f32,
}

/// One step of the show.
#[derive(Clone, Debug, PartialEq)]
enum Beat {
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
}

impl Show {
    /// Whether the show has caught up with the engine.
    pub fn idle(&self, now: f32) -> bool {
        self.beats.is_empty() && now >= self.busy_until
    }

    /// Whether the show has caught up but for sweeping a finished trick:
    /// the trick lies complete on the table.
    pub fn caught_up_to_the_sweep(&self, now: f32) -> bool {
        now >= self.busy_until && self.beats.iter().all(|b| matches!(b, Beat::Gather { .. } | Beat::Sweep { .. }))
    }

    pub fn notice(&mut self, text: NoticeText, seat: Option<Seat>, now: f32, warning: bool) {
        self.notices.retain(|n| n.until > now && n.seat != seat);
        self.notices.push(Notice { text, seat, until: now + 3.0, warning });
    }

    /// Asks for a screenshot at `at`, with `--screenshot`.
    pub fn photograph(&mut self, name: String, at: f32) {
        if self.photograph {
            self.screenshots.push(ScreenshotDue { name, at });
        }
    }

    /// Puts the deal in play on the table; a fresh one is dealt.
    fn put_on_table(&mut self, game: &Game, now: f32, pace: Pace) {
        self.beats.clear();
        self.shown = Shown::of(game);
        self.tricks_seen = game.tricks().len() as u8;
        self.false_call = None;
        self.reviewing = false;
        self.deal_serial += 1;
        self.busy_until = now;
        if game.actions().is_empty() && pace.deal() > 0.0 {
            self.shown.dealing = Some(Dealing { start: now, seconds: pace.deal(), order: game.deal().dealing_order() });
            self.busy_until = now + pace.deal();
        }
    }

    /// Runs the beats that are due. Returns whether anything happened.
    fn step(&mut self, now: f32, pace: Pace, roem_help: bool) -> bool {
        let mut stepped = false;
        while now >= self.busy_until {
            if self.shown.dealing.as_ref().is_some_and(|d| now >= d.start + d.seconds) {
                self.shown.dealing = None;
            }
            if self.hold_trick && matches!(self.beats.front(), Some(Beat::Gather { .. } | Beat::Sweep { .. })) {
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
            Beat::Gather { winner } => {
                self.shown.gathered = Some(winner);
                self.busy_until = now + pace.fly;
                return;
            }
            Beat::Sweep { number, winner } => {
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
                self.shown.turned.push(card);
                self.notice(NoticeText::SecondCard(card), None, now, false);
                self.busy_until = now + pace.pause;
            }
            Event::Contract(c) => {
                self.shown.contract = Some(c);
                if self.shown.players == Players::Three {
                    // The maker takes the talon.
                    let talon = std::mem::take(&mut self.shown.talon);
                    self.shown.hands[c.declarer.index()] = self.shown.hands[c.declarer.index()].union(talon);
                }
                self.notice(NoticeText::Contract(c), None, now, false);
            }
            Event::CardPlayed { seat, card } => {
                self.shown.hands[seat.index()].remove(card);
                self.shown.trick.push((seat, card));
                self.busy_until = now + pace.fly;
            }
            Event::TrickWon { number, winner, roem, .. } => {
                if roem_help && !roem.is_empty() {
                    self.notice(NoticeText::RoemInTrick(roem.points), None, now, false);
                }
                // The review of the trick before closes: this one replaces it.
                self.reviewing = false;
                self.tricks_seen = number;
                self.call_until = now + CALL_WINDOW;
                self.beats.push_front(Beat::Sweep { number, winner });
                self.beats.push_front(Beat::Gather { winner });
                self.busy_until = now + pace.still();
                let name = format!("deal{:02}-trick{number}.png", self.deals_finished + 1);
                self.photograph(name, now);
            }
            Event::RoemClaimed { seat, points } => self.notice(NoticeText::RoemClaimed(points), Some(seat), now, false),
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
                if let Some(open) = self.shown.stock_open.first_mut() {
                    *open = seven;
                }
                self.notice(NoticeText::Swapped(turned), Some(seat), now, false);
                self.busy_until = now + pace.pause;
            }
            Event::Discarded { seat, card } => {
                self.shown.hands[seat.index()].remove(card);
                self.shown.talon.insert(card);
                self.notice(NoticeText::LaidAway, Some(seat), now, false);
                self.busy_until = now + pace.pause * 0.6;
            }
            // Silence says nothing at a real table either.
            Event::RoemPassed { .. } => {}
            Event::DealOver(result) => {
                self.shown.result = Some(result);
                self.deals_finished += 1;
                let name = format!("deal{:02}-end.png", self.deals_finished);
                self.photograph(name, now + 0.5);
            }
        }
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Show>()
        .add_systems(Update, (take_in_events, run_show.run_if(in_state(Screen::Table))).chain().in_set(Flow::React))
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
) {
    let now = time.elapsed_secs();
    let pace = settings.0.speed.pace();
    let Some(mut seats) = seats else {
        events.clear();
        return;
    };
    for event in events.read() {
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
) {
    let now = time.elapsed_secs();
    // The beginners' setting, or a lesson, points roem out.
    let roem_help = settings.0.point_out_roem || show.lesson_roem_help;
    let stepped = show.step(now, settings.0.speed.pace(), roem_help);
    let thinking = seats.as_ref().is_some_and(|s| s.thinking().is_some() || s.unseen);
    let notices = show.notices.iter().any(|n| n.until > now) || now < show.call_until;
    if stepped || !show.idle(now) || thinking || notices || !show.screenshots.is_empty() {
        redraw.write(RequestRedraw);
    }
}
