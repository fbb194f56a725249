//! Who sits at the table and how their actions reach the engine.
//!
//! The [`Seats`] resource holds the match and a [`Controller`] per seat.
//! Input (a tap, a key, a tutorial step) arrives as [`PlayerAction`]
//! messages; bots think away from the frames (`thinking`), so the window
//! keeps drawing; scripted seats play a given list. Every accepted action writes
//! the engine's events as [`GameEvent`] messages, which the show, the save
//! and any lesson listen to. The engine decides every rule; an
//! [`ActionGate`] may narrow the player's choice further (a lesson that
//! wants one particular card), never widen it.

use crate::save::{SaveGame, Slot};
use crate::state::{Files, PlayerSettings, Screen, TitleMessage};
use bevy::prelude::*;
use bevy::tasks::{Task, block_on};
use bevy::window::AppLifecycle;
use klaverjas::{Action, ActionError, Event, Game, Match, Rules, Seat};
use klaverjas_ai::remote::{Desk, Job};
use klaverjas_ai::{Decision, Level};
use std::collections::VecDeque;

/// The seat the player sits at.
pub const HUMAN: Seat = Seat::South;

/// Who decides for a seat.
pub enum Controller {
    /// Input from the window: [`PlayerAction`] messages.
    Human,
    /// A bot of `level`, seeded with `seed`; the [`Desk`] keeps it.
    Bot { level: Level, seed: u64 },
    /// The given actions in order (a lesson's partner, a test); when they
    /// run out the seat waits.
    Script(VecDeque<Action>),
    /// A friend, or the bot in their chair, at a table on a server: the
    /// table's messages say what they did ([`Seats::follow`]).
    Table,
}

/// At a table with friends: the messages for the table, which the friends'
/// plugin sends, and what the host allows.
#[derive(Default, Debug)]
pub struct Remote {
    pub outbox: Vec<klaverjas_net::ToTable>,
    /// An action was sent and the table has not answered yet: no second.
    pub waiting: bool,
    pub hints: bool,
    /// What the table says of itself, as the plates and the score show it.
    pub told: Told,
}

/// What a table with friends says of itself, by this app's seats.
#[derive(Clone, Default, Debug, PartialEq)]
pub struct Told {
    /// Who sits in each chair (the player at South).
    pub people: [Person; 4],
    /// The table cannot be reached now.
    pub reconnecting: bool,
    /// The last deal opened: its number, its code, and whether its seal
    /// held.
    pub opened: Option<(usize, String, bool)>,
    /// This player hosts the table (and so asks for a new match).
    pub host: bool,
    /// The table is out of reach for good, or refused the last message:
    /// its words.
    pub trouble: Option<String>,
}

/// A chair at a table with friends as the table shows it.
#[derive(Clone, Default, Debug, PartialEq)]
pub struct Person {
    /// `None`: a bot's chair.
    pub name: Option<String>,
    /// Gone, and a bot plays for them in this many seconds.
    pub bot_in: Option<u32>,
    /// Gone past the grace: a bot plays for them.
    pub stood_in: bool,
    /// The chair on the table's own compass, the same on every device (each
    /// turns the table so that its player sits at the bottom).
    pub chair: Option<Seat>,
}

impl Controller {
    pub fn bot(level: Level, seed: u64) -> Controller {
        Controller::Bot { level, seed }
    }
}

/// The show as the seats wait for it (what [`crate::show::Show`] reports
/// each time it is asked): whether it has caught up with every event it
/// took in, whether a deal's result lies on the table, and whether a
/// player may still call roem on the trick just won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    pub idle: bool,
    /// Caught up but for a finished trick that lies on the table.
    pub trick_lies_there: bool,
    pub result_shown: bool,
    pub roem_call_open: bool,
}

/// Where a match stands, for answers worked out off the main thread: which
/// match (each `Seats` is one, new game or lesson or loaded save), the
/// deal, the actions taken in it, and the cards taken back, after which
/// the same count of actions may be another position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    pub table: u64,
    pub deal: usize,
    pub actions: usize,
    pub undos: u16,
}

/// A bot's decision being computed off the main thread.
struct Thinking {
    seat: Seat,
    /// The position it was asked about: a stale answer is dropped.
    at: Moment,
    task: Task<(Desk, Option<Decision>)>,
}

/// The match and who plays each seat.
#[derive(Resource)]
pub struct Seats {
    pub m: Match,
    /// Which game this is, and so where it is kept.
    pub kind: Kind,
    controllers: [Controller; 4],
    thinking: Option<Thinking>,
    /// The bots' memory between decisions; away while one thinks.
    desk: Option<Desk>,
    /// This sitting's number, different for every `Seats` made.
    table: u64,
    /// Events written that the show has not taken in yet: no seat acts
    /// until it has, so the show never falls behind the match.
    pub(crate) unseen: bool,
}

/// The kinds of game a player has in progress. Each keeps its own place,
/// so that starting one never throws another away: the player's match and
/// the day's deals each in a save slot of their own, a lesson in the
/// player's progress, a table with friends on its server.
pub enum Kind {
    /// The player's own match (a new game, the quick start).
    Match,
    /// The deals of a day.
    Day(klaverjas_ai::daily::Play),
    /// A lesson's deal: the lesson keeps its own progress.
    Lesson,
    /// A table with friends: the match is the table's, followed here.
    Friends(Box<Remote>),
    /// Four bots and no player (a day's deals with `--daily`): the game
    /// watches itself and never saves.
    Demo(Option<klaverjas_ai::daily::Play>),
}

impl Kind {
    /// Where it is kept on this device, if anywhere.
    pub fn slot(&self) -> Option<Slot> {
        match self {
            Kind::Match => Some(Slot::Match),
            Kind::Day(_) => Some(Slot::Day),
            Kind::Lesson | Kind::Friends(_) | Kind::Demo(_) => None,
        }
    }
}

impl Seats {
    /// The player at South against three bots of `level` (four in a demo),
    /// each seeded from the match so a seed replays the same game.
    pub fn new(m: Match, demo: bool, level: Level) -> Seats {
        let kind = if demo { Kind::Demo(None) } else { Kind::Match };
        let seed = m.seed();
        let controllers = Seat::ALL.map(|s| {
            if demo || s != HUMAN {
                Controller::bot(level, seed ^ ((s.index() as u64 + 1) * 0x9E37))
            } else {
                Controller::Human
            }
        });
        Seats::with_controllers(m, kind, controllers)
    }

    pub fn with_controllers(m: Match, kind: Kind, controllers: [Controller; 4]) -> Seats {
        static SITTINGS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let table = SITTINGS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Seats { m, kind, controllers, thinking: None, desk: Some(Desk::default()), table, unseen: true }
    }

    /// The player at South of a day's match, against the day's bots.
    pub fn of_day(m: Match, demo: bool, play: klaverjas_ai::daily::Play) -> Seats {
        let kind = if demo { Kind::Demo(Some(play)) } else { Kind::Day(play) };
        Seats { kind, ..Seats::new(m, demo, play.bots) }
    }

    /// A saved match as the player left it: a day's as that day's.
    pub fn saved(save: &SaveGame, m: Match, level: Level) -> Seats {
        match save.daily {
            Some(play) => Seats::of_day(m, false, play),
            None => Seats::new(m, false, level),
        }
    }

    /// The match as it goes on disk.
    pub fn save(&self) -> SaveGame {
        SaveGame::of(&self.m, self.demo(), self.daily())
    }

    /// Four bots play: nobody's game.
    pub fn demo(&self) -> bool {
        matches!(self.kind, Kind::Demo(_))
    }

    pub fn lesson(&self) -> bool {
        matches!(self.kind, Kind::Lesson)
    }

    /// The day whose deals these are, if any (a demo's too).
    pub fn daily(&self) -> Option<klaverjas_ai::daily::Play> {
        match self.kind {
            Kind::Day(play) | Kind::Demo(Some(play)) => Some(play),
            _ => None,
        }
    }

    /// At a table with friends: what it says and what goes to it.
    pub fn remote(&self) -> Option<&Remote> {
        match &self.kind {
            Kind::Friends(remote) => Some(remote.as_ref()),
            _ => None,
        }
    }

    pub fn remote_mut(&mut self) -> Option<&mut Remote> {
        match &mut self.kind {
            Kind::Friends(remote) => Some(remote.as_mut()),
            _ => None,
        }
    }

    /// The player at South of a table with friends, `m` the table's match
    /// as this seat follows it; the other chairs are the table's. With
    /// `autoplay` a bot of that level plays the player's chair (`--demo`).
    pub fn at_table(m: Match, hints: bool, autoplay: Option<Level>) -> Seats {
        let seed = m.seed();
        let controllers = Seat::ALL.map(|s| match (s == HUMAN, autoplay) {
            (true, Some(level)) => Controller::bot(level, seed),
            (true, None) => Controller::Human,
            (false, _) => Controller::Table,
        });
        Seats::with_controllers(m, Kind::Friends(Box::new(Remote { hints, ..Remote::default() })), controllers)
    }

    /// Follows the table: `next` is its match as it stands now. New actions
    /// of the same deal are taken again from where this match stood, on
    /// `next`'s cards, so that the show sees the engine's own events; a new
    /// deal is put on the table.
    pub fn follow(&mut self, next: Match, events: &mut MessageWriter<GameEvent>) {
        if let Some(remote) = self.remote_mut() {
            remote.waiting = false;
        }
        let (now, then) = (self.m.game(), next.game());
        let taken = now.actions().len();
        let same_deal = next.deal_number() == self.m.deal_number()
            && now.deal().dealer == then.deal().dealer
            && then.actions().get(..taken) == Some(now.actions());
        if !same_deal {
            self.m = next;
            self.unseen = true;
            events.write(GameEvent::Dealt { number: self.m.deal_number() });
            return;
        }
        let mut record = next.record();
        let new: Vec<Action> = record.game.actions.split_off(taken);
        if new.is_empty() {
            // The same moment, the unseen cards dealt anew (or the real
            // ones, at the deal's end): nothing to show.
            self.m = next;
            return;
        }
        if then.result().is_some() {
            record.sheet.rows.pop();
        }
        let Ok(mut at) = Match::from_record(&record) else {
            self.m = next;
            self.unseen = true;
            events.write(GameEvent::Dealt { number: self.m.deal_number() });
            return;
        };
        for action in new {
            match at.apply(action) {
                Ok(happened) => happened.into_iter().for_each(|e| {
                    events.write(GameEvent::Engine(e));
                }),
                Err(e) => bevy::log::error!("the table's {action} is refused here: {e}"),
            }
        }
        self.m = next;
        self.unseen = true;
    }

    /// Gives `seat` to `controller` (a lesson hands its seats to bots for
    /// a deal played out).
    pub fn set_controller(&mut self, seat: Seat, controller: Controller) {
        self.controllers[seat.index()] = controller;
    }

    /// Queues actions for a [`Controller::Script`] seat; `false` if the
    /// seat is not scripted.
    pub fn script(&mut self, seat: Seat, actions: impl IntoIterator<Item = Action>) -> bool {
        match &mut self.controllers[seat.index()] {
            Controller::Script(queue) => {
                queue.extend(actions);
                true
            }
            _ => false,
        }
    }

    /// Whether every scripted seat has played its list.
    pub fn scripts_done(&self) -> bool {
        self.controllers.iter().all(|c| !matches!(c, Controller::Script(q) if !q.is_empty()))
    }

    /// The level of the bots at the table (of the first bot seat).
    pub fn bots(&self) -> Option<Level> {
        self.controllers.iter().find_map(|c| match c {
            Controller::Bot { level, .. } => Some(*level),
            _ => None,
        })
    }

    pub fn game(&self) -> &Game {
        self.m.game()
    }

    pub fn is_human(&self, seat: Seat) -> bool {
        matches!(self.controllers[seat.index()], Controller::Human)
    }

    /// Whether a bot is thinking now.
    pub fn thinking(&self) -> Option<Seat> {
        self.thinking.as_ref().map(|t| t.seat)
    }

    /// `seat` takes `action` ([`Match::act`]: a roem call in turn or
    /// not), writing its events. At a table with friends it goes to the
    /// table, which decides: the rules are asked here only so that a
    /// refusal is said at once, in the player's words.
    fn act(&mut self, seat: Seat, action: Action, events: &mut MessageWriter<GameEvent>) -> Result<(), ActionError> {
        if let Kind::Friends(remote) = &mut self.kind {
            self.m.clone().act(seat, action)?;
            remote.waiting = true;
            remote.outbox.push(match action {
                Action::ClaimRoem => klaverjas_net::ToTable::CallRoem,
                action => klaverjas_net::ToTable::Act { action },
            });
            return Ok(());
        }
        for event in self.m.act(seat, action)? {
            events.write(GameEvent::Engine(event));
        }
        self.unseen = true;
        Ok(())
    }

    /// Whether a seat may act now: the show has taken in every event and
    /// caught up with them.
    pub fn ready(&self, stage: Stage) -> bool {
        !self.unseen && stage.idle
    }

    /// The seat the table waits for: someone may act, and it is their turn.
    /// At a table with friends, nobody here while an action is on its way.
    pub fn waiting_for(&self, stage: Stage) -> Option<Seat> {
        self.turn(self.may_act(stage), stage)
    }

    /// A player is to say the last trick's word (roem or not): the trick
    /// stays on the table until they have.
    pub fn player_to_say_the_word(&self) -> bool {
        self.game().phase() == klaverjas::Phase::ClaimRoem && self.game().to_act().is_some_and(|s| self.is_human(s))
    }

    /// Whether a seat may act now: as [`Self::ready`], but the last trick's
    /// word (roem or not) is said while the trick still lies there, as at
    /// a real table, not once it is swept (the show holds it for a
    /// player's word: [`crate::show::Show::wait_for_word`]).
    pub fn may_act(&self, stage: Stage) -> bool {
        let last_word = stage.trick_lies_there && !self.unseen && self.game().phase() == klaverjas::Phase::ClaimRoem;
        self.ready(stage) || last_word
    }

    fn turn(&self, ready: bool, stage: Stage) -> Option<Seat> {
        if !ready || stage.result_shown || self.remote().is_some_and(|r| r.waiting) {
            return None;
        }
        self.game().to_act()
    }

    /// The player's action: refused while the table moves or out of turn,
    /// then by a lesson's gate, then by the engine's rules.
    pub fn take_player_action(
        &mut self,
        PlayerAction { seat, action }: PlayerAction,
        stage: Stage,
        gate: &ActionGate,
        events: &mut MessageWriter<GameEvent>,
    ) {
        // Roem is called by either partner, while the trick still lies
        // there: out of turn, and before the show has caught up.
        let call = action == Action::ClaimRoem;
        let turn = self.waiting_for(stage) == Some(seat);
        let refusal = if !self.is_human(seat) || !(turn || call) {
            Some(Refusal::NotNow)
        } else if let Some(Err(key)) = gate.0.as_ref().map(|g| g(self.game(), seat, action)) {
            Some(Refusal::Lesson(key))
        } else {
            self.act(seat, action, events).err().map(Refusal::Rule)
        };
        if let Some(refusal) = refusal {
            events.write(GameEvent::Refused { seat, refusal });
        }
    }

    /// Takes a finished bot decision and applies it, once the show is ready
    /// for it.
    pub fn finish_thinking(&mut self, stage: Stage, events: &mut MessageWriter<GameEvent>) {
        if !self.thinking.as_ref().is_some_and(|t| t.task.is_finished()) || !self.may_act(stage) {
            return;
        }
        let Some(thinking) = self.thinking.take() else { return };
        let (desk, decision) = block_on(thinking.task);
        self.desk = Some(desk);
        if self.moment() != thinking.at {
            return;
        }
        let chosen = decision.map(|d| d.action);
        if chosen.is_none_or(|action| self.act(thinking.seat, action, events).is_err()) {
            // A bot bug must not stall the table: take any legal action.
            bevy::log::error!("{} chose {chosen:?} which the rules refuse", thinking.seat);
            let fallback = self.game().legal_actions()[0];
            let _ = self.act(thinking.seat, fallback, events);
        }
    }

    /// Hands the position to the bot whose turn it is, once the show has
    /// caught up (see [`Self::may_act`]): it sees only its seat's view.
    pub fn start_thinking(&mut self, stage: Stage) {
        if self.thinking.is_some() {
            return;
        }
        let Some(seat) = self.turn(self.may_act(stage), stage) else { return };
        if stage.roem_call_open && Seat::ALL.iter().any(|&s| self.is_human(s) && self.game().may_call_roem(s)) {
            // The player may still call roem on their team's trick.
            return;
        }
        let Controller::Bot { level, seed } = self.controllers[seat.index()] else { return };
        let Some(desk) = self.desk.take() else { return };
        let job = Job::Decide { table: self.table, seat, level, seed, view: self.game().view(seat) };
        let task = crate::thinking::decide(desk, job);
        let at = self.moment();
        self.thinking = Some(Thinking { seat, at, task });
    }

    /// A scripted seat whose turn it is plays the next action of its list.
    pub fn play_script(&mut self, stage: Stage, events: &mut MessageWriter<GameEvent>) {
        let Some(seat) = self.waiting_for(stage) else { return };
        let Controller::Script(script) = &mut self.controllers[seat.index()] else { return };
        let Some(action) = script.pop_front() else { return };
        if let Err(e) = self.act(seat, action, events) {
            events.write(GameEvent::Refused { seat, refusal: Refusal::Rule(e) });
        }
    }

    /// Where the match stands.
    pub fn moment(&self) -> Moment {
        let deal = self.m.deal_number();
        Moment { table: self.table, deal, actions: self.m.game().actions().len(), undos: self.m.aids(deal).undos }
    }
}

/// Puts a match on the table: the resource, and the deal for the show.
pub fn sit_down(commands: &mut Commands, events: &mut MessageWriter<GameEvent>, seats: Seats) {
    events.write(GameEvent::Dealt { number: seats.m.deal_number() });
    commands.insert_resource(seats);
}

/// An action chosen at the table for `seat` (by the window's input, or a
/// lesson acting for the player).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct PlayerAction {
    pub seat: Seat,
    pub action: Action,
}

/// What the table asks of the match besides the engine's actions.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum TableCommand {
    /// Deal the next hand (after the score was seen).
    NextDeal,
    /// Start a new match with the same rules.
    NewMatch,
}

/// What happened at the table, in order.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum GameEvent {
    /// A deal is on the table: a new match, the next deal, or a loaded save.
    Dealt {
        number: usize,
    },
    Engine(Event),
    /// The coach helped (a hint, counted on the match): nothing to show,
    /// but the match changed.
    Helped,
    /// An action that was not taken, and why.
    Refused {
        seat: Seat,
        refusal: Refusal,
    },
}

/// Why an action was not taken.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The rules forbid it.
    Rule(ActionError),
    /// A lesson wants something else: the key of its explanation.
    Lesson(String),
    /// It is not this seat's turn, or the table is still moving.
    NotNow,
}

/// A narrower choice than the rules allow: the tutorial's hook. Returns
/// the key of the explanation when `action` is not what is wanted.
pub type Gate = Box<dyn Fn(&Game, Seat, Action) -> Result<(), String> + Send + Sync>;

#[derive(Resource, Default)]
pub struct ActionGate(pub Option<Gate>);

/// The order of the match's systems within a frame: input, then the
/// engine, then the show and the save see the same frame's events.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum Flow {
    Input,
    Engine,
    React,
}

pub fn plugin(app: &mut App) {
    app.add_message::<PlayerAction>()
        .add_message::<TableCommand>()
        .add_message::<GameEvent>()
        .init_resource::<ActionGate>()
        .init_resource::<Suspended>()
        .add_message::<AppLifecycle>()
        .configure_sets(Update, (Flow::Input, Flow::Engine, Flow::React).chain())
        .configure_sets(Update, Flow::Engine.run_if(in_state(Screen::Table)))
        .init_resource::<Kept>()
        .add_systems(Update, follow_lifecycle.before(Flow::Input));
    for screen in [Screen::Title, Screen::NewGame, Screen::Daily] {
        app.add_systems(OnEnter(screen), look_in_slots);
    }
}

pub fn apply_table_commands(
    mut commands: MessageReader<TableCommand>,
    seats: Option<ResMut<Seats>>,
    settings: Res<PlayerSettings>,
    mut message: ResMut<TitleMessage>,
    mut events: MessageWriter<GameEvent>,
) {
    let Some(mut seats) = seats else {
        commands.clear();
        return;
    };
    if let Some(remote) = seats.remote_mut() {
        for command in commands.read() {
            remote.outbox.push(match command {
                TableCommand::NextDeal => klaverjas_net::ToTable::Ready,
                TableCommand::NewMatch => klaverjas_net::ToTable::Rematch,
            });
        }
        return;
    }
    for command in commands.read() {
        match command {
            TableCommand::NextDeal => {
                if seats.m.next_deal().is_err() {
                    continue;
                }
            }
            TableCommand::NewMatch => {
                message.0.clear();
                let m = new_match(*seats.m.rules(), None).with_practice(seats.m.is_practice());
                *seats = Seats::new(m, seats.demo(), settings.0.bot_level.level());
            }
        }
        seats.unseen = true;
        events.write(GameEvent::Dealt { number: seats.m.deal_number() });
    }
}

/// The system has put the app in the background: a phone may kill it
/// there without warning, so the match is on disk and nothing moves.
#[derive(Resource, Default, Debug, PartialEq, Eq)]
pub struct Suspended(pub bool);

/// On suspend, saves the match and stops the bots; on resume, goes on.
fn follow_lifecycle(
    mut lifecycle: MessageReader<AppLifecycle>,
    seats: Option<Res<Seats>>,
    files: Res<Files>,
    mut suspended: ResMut<Suspended>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    for event in lifecycle.read() {
        match event {
            AppLifecycle::WillSuspend | AppLifecycle::Suspended => {
                if !suspended.0
                    && let Some(seats) = seats.as_deref().filter(|s| s.kind.slot().is_some())
                    && let Err(e) = files.0.write_game(&seats.save())
                {
                    error!("the game could not be saved on suspend: {e}");
                }
                suspended.0 = true;
            }
            AppLifecycle::WillResume | AppLifecycle::Running => {
                suspended.0 = false;
                redraw.write(bevy::window::RequestRedraw);
            }
            AppLifecycle::Idle => {}
        }
    }
}

/// Puts the player's own saved match back as the one to continue, after a
/// lesson or a table with friends (which leave it on disk as it was).
pub fn restore_saved(commands: &mut Commands, files: &crate::save::Store, level: Level) {
    commands.remove_resource::<Seats>();
    if let Some(seats) = kept(files, Slot::Match, level) {
        commands.insert_resource(seats);
    }
}

/// A slot's game as the player left it, if there is one.
pub fn kept(files: &crate::save::Store, slot: Slot, level: Level) -> Option<Seats> {
    match files.load_game(slot) {
        crate::save::Loaded::Found((save, m)) if !save.demo => Some(Seats::saved(&save, m, level)),
        _ => None,
    }
}

/// A game kept in a slot, as the title and the day's screen offer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Going {
    /// The deal a player continues to: after a finished deal's score, the
    /// next one.
    pub deal: usize,
    /// A card played or a deal finished: starting another of its kind
    /// would throw something away.
    pub begun: bool,
    pub over: bool,
    pub play: Option<klaverjas_ai::daily::Play>,
}

impl Going {
    pub fn of(m: &Match, play: Option<klaverjas_ai::daily::Play>) -> Going {
        let begun = m.deals_finished() > 0 || !m.game().actions().is_empty();
        let deal = m.deal_number() + usize::from(m.game().result().is_some());
        Going { deal, begun, over: m.is_over(), play }
    }

    /// Begun and not finished.
    pub fn in_progress(self) -> bool {
        self.begun && !self.over
    }
}

/// What each slot holds, read from disk as a menu opens (every accepted
/// action is on disk by then, whichever game is in memory).
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct Kept {
    pub game: Option<Going>,
    pub day: Option<Going>,
    /// A chair kept at a table with friends (a reload, a restart).
    pub chair: bool,
    /// The deal a score sheet kept for real cards is at, where its match
    /// goes on.
    pub sheet: Option<usize>,
}

impl Kept {
    /// What the slots hold; one that cannot be used is set aside, and
    /// said on the title.
    pub fn read(files: &crate::save::Store, notes: &mut TitleMessage) -> Kept {
        let mut going = |slot| match files.load_game(slot) {
            crate::save::Loaded::Found((save, m)) if !save.demo => Some(Going::of(&m, save.daily)),
            crate::save::Loaded::SetAside { damage, moved_to } => {
                notes.0.push(crate::state::TitleNote::SaveSetAside { damage, moved_to });
                None
            }
            _ => None,
        };
        let chair = crate::friends::sitting::KeptChair::read(files).is_some();
        let (game, day) = (going(Slot::Match), going(Slot::Day));
        let sheet = match files.read::<crate::save::SavedSheet>(&files.sheet_path()) {
            crate::save::Loaded::Found(s) if !s.kept.is_over() => Some(s.kept.lines.len() + 1),
            crate::save::Loaded::SetAside { damage, moved_to } => {
                notes.0.push(crate::state::TitleNote::SheetSetAside { damage, moved_to });
                None
            }
            _ => None,
        };
        Kept { game, day, chair, sheet }
    }
}

/// Reads [`Kept`] again.
pub fn look_in_slots(mut kept: ResMut<Kept>, files: Res<Files>, mut notes: ResMut<TitleMessage>) {
    *kept = Kept::read(&files.0, &mut notes);
}

/// Goes on with the game in `slot`: the one in memory if it is that
/// kind, else the one on disk. Returns whether there was one.
pub fn take_up(
    commands: &mut Commands,
    events: &mut MessageWriter<GameEvent>,
    (files, seats, level): (&crate::save::Store, Option<&Seats>, Level),
    slot: Slot,
) -> bool {
    if seats.is_some_and(|s| s.kind.slot() == Some(slot)) {
        return true;
    }
    match kept(files, slot, level) {
        Some(seats) => {
            sit_down(commands, events, seats);
            true
        }
        None => false,
    }
}

/// A fresh match with the app's seed (or one from the clock).
pub fn new_match(rules: Rules, seed: Option<u64>) -> Match {
    Match::new(rules, seed.unwrap_or_else(crate::platform::clock_seed), Seat::West)
}
