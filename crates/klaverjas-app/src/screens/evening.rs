//! A club evening: the organiser sets one up (a desktop hosts it itself,
//! as it hosts a table), players check in with their phones by its link
//! or code, the organiser's desk draws and starts each round, and every
//! phone shows its table: where its player sits and who deals, at real
//! cards the table's sheet entered with the score sheet's keypad, online
//! the way to the chair. The standings follow each deal. The evening is
//! the server's (`klaverjas_club` decides who may do what); this screen
//! sends actions and draws the evening it is sent.

use crate::forms::{big_button, form, mark_field, mark_target, narrow_layout, option_label, page};
use crate::friends::host::{self, Hosting};
use crate::friends::link::waker;
use crate::friends::sitting::{Chairkeeper, KeptChair, Sitting};
use crate::friends::socket::{Socket, SocketEvent};
use crate::look::Pt;
use crate::look::{GOLD, REFUSED, at_least_a_finger};
use crate::panels::paint::suit_texture;
use crate::pictures::CardImages;
use crate::platform::{self, TOUCH_TARGET};
use crate::save::Loaded;
use crate::state::{Files, PlayerSettings, Screen, Texts};
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::keypad::{Field, Key, Keypad};
use klaverjas::{KeptSheet, Preset, Seat, Suit, Team};
use klaverjas_club::{Cards, EveningAction, EveningSetup, Leftover, SitOutScore, Who};
use klaverjas_net::TableCode;
use klaverjas_net::evening::{EVENING_PROTOCOL, EveningView, FromEvening, ToEvening};
use serde::{Deserialize, Serialize};

pub fn plugin(app: &mut App) {
    app.init_resource::<EveningForm>()
        .add_systems(OnEnter(Screen::Evening), take_the_link)
        .add_systems(EguiPrimaryContextPass, evening.after(crate::look::Zoom).run_if(in_state(Screen::Evening)));
}

/// What the player filled in before they are in.
#[derive(Resource)]
pub struct EveningForm {
    pub name: String,
    pub code: String,
    pub server: String,
    pub title: String,
    pub club: String,
    pub preset: Preset,
    pub rounds: u8,
    pub deals: u8,
    pub online: bool,
    pub bots: bool,
    /// The sit-out score: `None`, the round's average.
    pub fixed: Option<u32>,
    /// Roem counts in the evening's points beside card points.
    pub roem: bool,
    /// The club's season counts each member's best so many evenings.
    pub best: Option<u8>,
    pub problem: Option<String>,
    /// An evening being looked for on the home network by its code.
    pub looking: Option<TableCode>,
    /// The organiser's field for a player without a phone.
    pub adding: String,
}

impl Default for EveningForm {
    fn default() -> EveningForm {
        EveningForm {
            name: String::new(),
            code: String::new(),
            server: String::new(),
            title: String::new(),
            club: String::new(),
            preset: Preset::Classic,
            rounds: 3,
            deals: 16,
            online: false,
            bots: false,
            fixed: None,
            roem: true,
            best: None,
            problem: None,
            looking: None,
            adding: String::new(),
        }
    }
}

/// The evening this app is at: its connection, who it is there, and the
/// evening as last sent.
#[derive(Resource)]
pub struct AtEvening {
    socket: Socket,
    /// The connection's first message, sent when it opens.
    first: String,
    /// The evenings' WebSocket address, `ws://HOST:PORT/evening`.
    server: String,
    code: Option<TableCode>,
    who: Option<Who>,
    token: Option<String>,
    view: Option<EveningView>,
    /// Why the last action was refused, in the server's words.
    refused: Option<String>,
    /// The connection ended: why, and when (seconds of the app's clock).
    closed: Option<(String, f32)>,
    pad: Keypad,
    /// The line being corrected: its round, table and line.
    correcting: Option<(u8, u16, u16)>,
    /// The table whose sheet the organiser has open.
    open_table: Option<u16>,
    /// The player the organiser tapped, to remove once asked again.
    removing: Option<u16>,
    roem_team: Option<Team>,
}

impl AtEvening {
    fn open(server: String, first: &ToEvening, wake: crate::friends::socket::Wake) -> AtEvening {
        // The first message goes once the socket is open (a browser's
        // WebSocket drops what is sent before).
        let first = serde_json::to_string(first).unwrap_or_default();
        AtEvening {
            socket: Socket::open(&server, wake),
            first,
            server,
            code: None,
            who: None,
            token: None,
            view: None,
            refused: None,
            closed: None,
            pad: Keypad::default(),
            correcting: None,
            open_table: None,
            removing: None,
            roem_team: None,
        }
    }

    fn act(&mut self, action: EveningAction) {
        self.refused = None;
        self.socket.send(serde_json::to_string(&ToEvening::Act { action }).unwrap_or_default());
    }

    /// The table server's address for the tables (`/ws`).
    fn table_server(&self) -> String {
        self.server.trim_end_matches("/evening").to_owned() + "/ws"
    }
}

/// What brings a phone back to its evening after a reload, a sleep or a
/// restart: kept in `evening.ron`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptEvening {
    pub format: u32,
    pub server: String,
    pub code: TableCode,
    pub token: String,
}

impl KeptEvening {
    const FORMAT: u32 = 1;

    fn path(store: &crate::save::Store) -> std::path::PathBuf {
        store.dir.join("evening.ron")
    }

    pub fn read(store: &crate::save::Store) -> Option<KeptEvening> {
        match store.read::<KeptEvening>(&KeptEvening::path(store)) {
            Loaded::Found(kept) => Some(kept),
            _ => None,
        }
    }

    fn keep(store: &crate::save::Store, server: &str, code: TableCode, token: &str) {
        let kept =
            KeptEvening { format: KeptEvening::FORMAT, server: server.to_owned(), code, token: token.to_owned() };
        if let Err(e) = store.write(&KeptEvening::path(store), &kept) {
            warn!("the evening's place was not kept: {e}");
        }
    }

    fn forget(store: &crate::save::Store) {
        let _ = crate::disk::remove(&KeptEvening::path(store));
    }
}

/// The evenings' address from what a person types (host and port, with or
/// without a scheme): the table server's, at `/evening`.
fn evening_address(typed: &str) -> Option<String> {
    let tables = crate::screens::friends::server_address(typed)?;
    Some(tables.trim_end_matches("/ws").to_owned() + "/evening")
}

/// On entering: the name and server last used, the page's own server in a
/// browser, an evening's code from its link, and the evening kept.
fn take_the_link(
    mut form: ResMut<EveningForm>,
    settings: Res<PlayerSettings>,
    config: Res<crate::state::Config>,
    files: Res<Files>,
    at: Option<Res<AtEvening>>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    mut commands: Commands,
) {
    if form.name.is_empty() {
        form.name = settings.0.name.clone().unwrap_or_default();
    }
    if form.server.is_empty() {
        form.server = settings.0.table_server.clone().or_else(crate::screens::friends::page_server).unwrap_or_default();
    }
    let linked = config.0.evening.clone();
    if let Some(code) = &linked {
        form.code = code.clone();
        if let Some(server) = crate::screens::friends::page_server() {
            form.server = server;
        }
    }
    if at.is_some() {
        return;
    }
    let wake = waker(proxy.as_deref());
    // Back to the evening kept, unless a link names another.
    match KeptEvening::read(&files.0) {
        Some(kept) if linked.as_ref().is_none_or(|c| *c == kept.code.to_string()) => {
            let first = ToEvening::Return { protocol: EVENING_PROTOCOL, code: kept.code, token: kept.token.clone() };
            commands.insert_resource(AtEvening::open(kept.server, &first, wake));
        }
        _ => {
            // A link's evening is watched first: its name, who is in and
            // the club's members to pick from, before checking in.
            let code = linked.and_then(|c| c.parse::<TableCode>().ok());
            if let (Some(code), Some(server)) = (code, evening_address(&form.server)) {
                let first = ToEvening::Watch { protocol: EVENING_PROTOCOL, code };
                commands.insert_resource(AtEvening::open(server, &first, wake));
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn evening(
    mut contexts: EguiContexts,
    texts: Res<Texts>,
    mut form: ResMut<EveningForm>,
    mut settings: ResMut<PlayerSettings>,
    files: Res<Files>,
    at: Option<ResMut<AtEvening>>,
    (hosting, finding): (Option<Res<Hosting>>, Option<Res<host::Finding>>),
    images: Res<CardImages>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    time: Res<Time>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    let wake = || waker(proxy.as_deref());
    let symbols: Vec<egui::TextureId> = Suit::ALL.iter().map(|&s| suit_texture(&mut contexts, &images, s)).collect();
    let Some(mut at) = at else {
        let mut chosen = None;
        page(&ctx, t.get("evening.title"), |ui| {
            chosen = not_in(ui, t, &mut form, hosting.is_some());
            if big_button(ui, t.get("menu.back")).clicked() {
                next.set(Screen::Title);
            }
        });
        if let Some(choice) = chosen {
            begin(choice, &mut form, &mut settings, &files, hosting.as_deref(), &mut commands, wake());
        }
        if let Some(finding) = &finding
            && let Some(found) = finding.found()
        {
            commands.remove_resource::<host::Finding>();
            form.looking = None;
            match found {
                Some(tables) => {
                    let server = tables.trim_end_matches("/ws").to_owned() + "/evening";
                    let first = ToEvening::CheckIn {
                        protocol: EVENING_PROTOCOL,
                        code: finding.code,
                        name: finding.name.clone(),
                    };
                    commands.insert_resource(AtEvening::open(server, &first, wake()));
                }
                None => form.problem = Some(t.fill("evening.not_found_here", &[("code", finding.code.as_str())])),
            }
        }
        return Ok(());
    };
    hear(&mut at, &files, t, time.elapsed_secs());
    // A connection lost: back in with the token after a moment (a phone
    // that slept, a server restarted).
    if let (Some((_, when)), Some(token), Some(code)) = (at.closed.clone(), at.token.clone(), at.code) {
        if time.elapsed_secs() - when > 2.0 {
            let first = ToEvening::Return { protocol: EVENING_PROTOCOL, code, token };
            let server = at.server.clone();
            let kept = std::mem::replace(&mut *at, AtEvening::open(server, &first, wake()));
            at.code = kept.code;
            at.token = kept.token;
            at.who = kept.who;
            at.view = kept.view;
        } else {
            ctx.request_repaint_after(std::time::Duration::from_millis(500));
        }
    }
    let mut leave = false;
    let mut go_to_table = None;
    let mut check_in = None;
    let title = at.view.as_ref().map_or_else(|| t.get("evening.title"), |v| v.setup.name.clone());
    page(&ctx, title, |ui| {
        if let Some((why, _)) = &at.closed {
            let words = if at.token.is_some() { t.get("evening.reconnecting") } else { why.clone() };
            ui.label(RichText::new(words).color(REFUSED).pt(16.0));
        }
        if let Some(why) = &at.refused {
            let said = ui.label(RichText::new(why).color(REFUSED).pt(16.0).strong());
            mark_target(ui, "evening.refusal", &said);
        }
        match at.who {
            None if at.closed.is_none() => {
                ui.label(t.get("friends.opening"));
            }
            None => {}
            Some(Who::Newcomer | Who::Server) => check_in = checking_in(ui, t, &at, &mut form),
            Some(Who::Organiser) => desk(ui, t, &mut at, &mut form, hosting.as_deref(), &symbols),
            Some(Who::Player(me)) => go_to_table = player(ui, t, &mut at, me, &symbols),
        }
        ui.add_space(12.0);
        let response = big_button(ui, t.get("evening.leave"));
        mark_target(ui, "evening.leave", &response);
        leave = response.clicked();
    });
    if let Some(name) = check_in {
        let Some(code) = at.code else { return Ok(()) };
        let mut s = settings.0.clone();
        s.name = Some(name.clone());
        if s != settings.0 {
            settings.0 = s;
            let _ = files.0.write_settings(&settings.0);
        }
        let first = ToEvening::CheckIn { protocol: EVENING_PROTOCOL, code, name };
        commands.insert_resource(AtEvening::open(at.server.clone(), &first, wake()));
    }
    if let Some(code) = go_to_table
        && let Some(token) = at.token.clone()
    {
        let chair = Chairkeeper { server: at.table_server(), code, token };
        if let Err(e) = KeptChair::keep(&files.0, &chair) {
            warn!("{e}");
        }
        commands.insert_resource(Sitting::rejoin(&chair, wake()));
        next.set(Screen::Friends);
    }
    if leave {
        // The evening stays on the server; leaving forgets this phone's
        // place only when it has none to keep (a watcher's).
        if at.token.is_none() {
            KeptEvening::forget(&files.0);
        }
        commands.remove_resource::<AtEvening>();
        next.set(Screen::Title);
    }
    Ok(())
}

/// What came in on the socket.
fn hear(at: &mut AtEvening, files: &Files, t: &crate::i18n::Texts, now: f32) {
    while let Some(event) = at.socket.poll() {
        match event {
            SocketEvent::Opened => at.socket.send(at.first.clone()),
            SocketEvent::Text(text) => match serde_json::from_str::<FromEvening>(&text) {
                Ok(FromEvening::Welcome { code, you, token, .. }) => {
                    // Words a test of the pages waits for.
                    info!(
                        "at evening {code} as {}",
                        match you {
                            Who::Organiser => "the organiser".to_owned(),
                            Who::Player(p) => format!("player {}", p + 1),
                            Who::Newcomer | Who::Server => "a watcher".to_owned(),
                        }
                    );
                    at.code = Some(code);
                    at.who = Some(you);
                    at.closed = None;
                    if let Some(token) = token {
                        KeptEvening::keep(&files.0, &at.server, code, &token);
                        at.token = Some(token);
                    }
                }
                Ok(FromEvening::Evening { view }) => {
                    let entered: u16 = view.progress.iter().sum();
                    info!(
                        "the evening: round {} of {}{}, {entered} deals entered or played{}",
                        view.rounds,
                        view.setup.rounds,
                        if view.started { " started" } else { "" },
                        if view.over { ", over" } else { "" }
                    );
                    at.view = Some(*view);
                }
                Ok(FromEvening::Accepted { change }) => {
                    info!("the evening accepted it: {change:?}");
                    at.pad = Keypad::default();
                    at.correcting = None;
                    at.refused = None;
                }
                Ok(FromEvening::Refused { message, .. }) => {
                    info!("the evening refused it: {message}");
                    if at.who.is_none() {
                        // Not let in: a wrong code, a name taken, a token
                        // the evening does not know.
                        at.closed = Some((message.clone(), now));
                        at.token = None;
                        KeptEvening::forget(&files.0);
                    }
                    at.refused = Some(message);
                }
                Err(e) => warn!("the evening sent what this app cannot read: {e}"),
            },
            SocketEvent::Closed(why) => {
                if at.closed.is_none() {
                    at.closed = Some((t.fill("friends.closed", &[("why", &why)]), now));
                }
            }
        }
    }
}

enum Begin {
    Organise,
    CheckIn,
}

/// The first page: check in with a code and a name, or organise.
fn not_in(ui: &mut egui::Ui, t: &crate::i18n::Texts, f: &mut EveningForm, hosting: bool) -> Option<Begin> {
    let mut chosen = None;
    let (narrow, _) = narrow_layout(ui);
    if let Some(problem) = &f.problem {
        ui.label(RichText::new(problem).color(REFUSED).pt(16.0));
    }
    if let Some(code) = f.looking {
        ui.label(RichText::new(t.fill("evening.looking", &[("code", code.as_str())])).pt(16.0));
    }
    ui.label(t.get("evening.line"));
    // A desktop organises (it hosts the evening); a phone checks in.
    let mut check_in = |ui: &mut egui::Ui, chosen: &mut Option<Begin>| {
        ui.heading(t.get("evening.check_in"));
        form(ui, "evening.in", narrow, 180.0, |ui| {
            option_label(ui, t.get("friends.name"), narrow);
            field(ui, t, &mut f.name, t.get("friends.name_hint"), "evening.name", 24);
            ui.end_row();
            option_label(ui, t.get("evening.code"), narrow);
            field(ui, t, &mut f.code, "ABC234".into(), "evening.code", 8);
            ui.end_row();
            if !host::HOSTS_ITSELF || !hosting {
                option_label(ui, t.get("friends.server"), narrow);
                field(ui, t, &mut f.server, t.get("friends.server_hint"), "evening.server", 200);
                ui.end_row();
            }
        });
        let response = big_button(ui, t.get("evening.check_in_button"));
        mark_target(ui, "evening.check_in", &response);
        if response.clicked() {
            *chosen = Some(Begin::CheckIn);
        }
    };
    let mut organise = |ui: &mut egui::Ui, chosen: &mut Option<Begin>| {
        ui.heading(t.get("evening.organise"));
        ui.label(t.get(if host::HOSTS_ITSELF { "evening.organise_line_desktop" } else { "evening.organise_line" }));
        form(ui, "evening.setup", narrow, 180.0, |ui| {
            option_label(ui, t.get("evening.name"), narrow);
            field(ui, t, &mut f.title, t.get("evening.name_hint"), "evening.title", 60);
            ui.end_row();
            option_label(ui, t.get("evening.club"), narrow);
            field(ui, t, &mut f.club, t.get("evening.club_hint"), "evening.club", 60);
            ui.end_row();
            option_label(ui, t.get("friends.game"), narrow);
            ui.horizontal_wrapped(|ui| {
                for p in [Preset::Classic, Preset::Amsterdam, Preset::Rotterdam, Preset::WildeBoom] {
                    choice(
                        ui,
                        t.get(&format!("home.{}", p.name())),
                        f.preset == p,
                        &format!("evening.preset.{}", p.name()),
                        || f.preset = p,
                    );
                }
            });
            ui.end_row();
            option_label(ui, t.get("evening.rounds"), narrow);
            ui.horizontal_wrapped(|ui| {
                for n in 1..=6u8 {
                    choice(ui, n.to_string(), f.rounds == n, &format!("evening.rounds.{n}"), || f.rounds = n);
                }
            });
            ui.end_row();
            option_label(ui, t.get("evening.deals"), narrow);
            ui.horizontal_wrapped(|ui| {
                // Clubs play 16, 12 or 8; fewer for a short evening or a try.
                for n in [16u8, 12, 8, 4, 2] {
                    choice(ui, n.to_string(), f.deals == n, &format!("evening.deals.{n}"), || f.deals = n);
                }
            });
            ui.end_row();
            option_label(ui, t.get("evening.tables"), narrow);
            ui.horizontal_wrapped(|ui| {
                choice(ui, t.get("evening.real"), !f.online, "evening.cards.real", || f.online = false);
                choice(ui, t.get("evening.online"), f.online, "evening.cards.online", || f.online = true);
            });
            ui.end_row();
            option_label(ui, t.get("evening.left_over"), narrow);
            ui.horizontal_wrapped(|ui| {
                choice(ui, t.get("evening.sit_out"), !f.bots || !f.online, "evening.left.sit_out", || f.bots = false);
                // Bots sit only at tables that play online.
                ui.add_enabled_ui(f.online, |ui| {
                    choice(ui, t.get("evening.bots"), f.bots && f.online, "evening.left.bots", || f.bots = true);
                });
                if !f.online {
                    ui.label(RichText::new(t.get("evening.bots_online_only")).pt(14.0));
                }
            });
            ui.end_row();
            if !f.bots || !f.online {
                option_label(ui, t.get("evening.sit_out_score"), narrow);
                ui.horizontal_wrapped(|ui| {
                    choice(ui, t.get("evening.average"), f.fixed.is_none(), "evening.sit_out.average", || {
                        f.fixed = None
                    });
                    for n in [600u32, 1000] {
                        choice(ui, n.to_string(), f.fixed == Some(n), &format!("evening.sit_out.{n}"), || {
                            f.fixed = Some(n)
                        });
                    }
                });
                ui.end_row();
            }
            option_label(ui, t.get("evening.counts"), narrow);
            ui.horizontal_wrapped(|ui| {
                choice(ui, t.get("evening.points_and_roem"), f.roem, "evening.roem.yes", || f.roem = true);
                choice(ui, t.get("evening.card_points_only"), !f.roem, "evening.roem.no", || f.roem = false);
            });
            ui.end_row();
            if !f.club.trim().is_empty() {
                option_label(ui, t.get("evening.season"), narrow);
                ui.horizontal_wrapped(|ui| {
                    choice(ui, t.get("evening.all_evenings"), f.best.is_none(), "evening.best.all", || f.best = None);
                    for n in [5u8, 10, 20] {
                        let words = t.fill("evening.best_of", &[("n", &n.to_string())]);
                        choice(ui, words, f.best == Some(n), &format!("evening.best.{n}"), || f.best = Some(n));
                    }
                });
                ui.end_row();
            }
        });
        let width = ui.available_width().min(280.0);
        let words = RichText::new(t.get("evening.organise_button")).pt(20.0).strong();
        let response = ui.add_sized([width, at_least_a_finger(ui, TOUCH_TARGET)], egui::Button::new(words).fill(GOLD));
        mark_target(ui, "evening.organise", &response);
        if response.clicked() {
            *chosen = Some(Begin::Organise);
        }
    };
    if host::HOSTS_ITSELF {
        organise(ui, &mut chosen);
        ui.add_space(12.0);
        check_in(ui, &mut chosen);
    } else {
        check_in(ui, &mut chosen);
        ui.add_space(12.0);
        organise(ui, &mut chosen);
    }
    chosen
}

fn field(ui: &mut egui::Ui, t: &crate::i18n::Texts, text: &mut String, hint: String, name: &str, limit: usize) {
    let (_, width) = narrow_layout(ui);
    ui.horizontal(|ui| {
        let width = width.min(320.0) - crate::forms::beside_field(ui);
        let high = egui::vec2(0.0, at_least_a_finger(ui, 0.0));
        let edit = egui::TextEdit::singleline(text)
            .hint_text(hint)
            .char_limit(limit)
            .desired_width(width)
            .min_size(high)
            .vertical_align(egui::Align::Center);
        let response = ui.add(edit);
        mark_field(ui, name, &response, text);
        crate::forms::paste_button(ui, t, name, &response, text, limit);
    });
}

/// A lit-when-chosen button, as high as a finger.
fn choice(ui: &mut egui::Ui, words: String, on: bool, target: &str, mut pick: impl FnMut()) {
    let height = at_least_a_finger(ui, TOUCH_TARGET);
    let response =
        ui.add(egui::Button::new(RichText::new(words).pt(17.0)).selected(on).min_size(egui::vec2(48.0, height)));
    mark_target(ui, target, &response);
    if response.clicked() {
        pick();
    }
}

fn begin(
    choice: Begin,
    form: &mut EveningForm,
    settings: &mut PlayerSettings,
    files: &Files,
    hosting: Option<&Hosting>,
    commands: &mut Commands,
    wake: crate::friends::socket::Wake,
) {
    form.problem = None;
    let first = match choice {
        Begin::Organise => {
            let setup = EveningSetup {
                name: form.title.trim().to_owned(),
                club: form.club.trim().to_owned(),
                rounds: form.rounds,
                deals: form.deals,
                leftover: if form.online && form.bots { Leftover::Bots } else { Leftover::SitOut },
                sit_out: form.fixed.map_or(SitOutScore::Average, SitOutScore::Fixed),
                roem_counts: form.roem,
                best: form.best.filter(|_| !form.club.trim().is_empty()),
                ..EveningSetup::club_evening("", form.preset, if form.online { Cards::Online } else { Cards::Real })
            };
            if let Err(e) = setup.rules() {
                form.problem = Some(e.to_string());
                return;
            }
            ToEvening::Organise { protocol: EVENING_PROTOCOL, setup, club_token: None }
        }
        Begin::CheckIn => {
            let code = match form.code.parse::<TableCode>() {
                Ok(code) => code,
                Err(e) => {
                    form.problem = Some(e.to_string());
                    return;
                }
            };
            if form.name.trim().is_empty() {
                form.problem = Some("a name is needed".into());
                return;
            }
            settings.0.name = Some(form.name.trim().to_owned());
            ToEvening::CheckIn { protocol: EVENING_PROTOCOL, code, name: form.name.trim().to_owned() }
        }
    };
    let own = |h: &Hosting| h.own_server().trim_end_matches("/ws").to_owned() + "/evening";
    let server = match (&first, evening_address(&form.server)) {
        (_, Some(server)) => {
            settings.0.table_server = Some(form.server.trim().to_owned());
            server
        }
        // A desktop hosts the evening it organises, as it hosts a table.
        (ToEvening::Organise { .. }, None) if host::HOSTS_ITSELF => {
            match hosting.cloned().map(Ok).unwrap_or_else(|| host::start(&files.0.dir, platform::installed("site"))) {
                Ok(h) => {
                    let server = own(&h);
                    commands.insert_resource(h);
                    server
                }
                Err(e) => {
                    form.problem = Some(e);
                    return;
                }
            }
        }
        // A desktop checking in without an address: its own evening, or
        // one on the home network found by its code.
        (ToEvening::CheckIn { code, name, .. }, None) if host::HOSTS_ITSELF => match hosting {
            Some(h) => own(h),
            None => {
                form.looking = Some(*code);
                commands.insert_resource(host::Finding::start(*code, name.clone(), move || wake()));
                let _ = files.0.write_settings(&settings.0);
                return;
            }
        },
        _ => {
            form.problem = Some("a table server's address is needed".into());
            return;
        }
    };
    let _ = files.0.write_settings(&settings.0);
    commands.insert_resource(AtEvening::open(server, &first, wake));
}

/// A link's evening, before checking in: its name, who is in, and the
/// club's members to pick from. Returns the name to check in with.
fn checking_in(ui: &mut egui::Ui, t: &crate::i18n::Texts, at: &AtEvening, f: &mut EveningForm) -> Option<String> {
    let mut chosen = None;
    let Some(view) = &at.view else { return None };
    let line = if view.members.is_empty() { "evening.check_in_line_new" } else { "evening.check_in_line" };
    ui.label(RichText::new(t.get(line)).pt(18.0));
    field(ui, t, &mut f.name, t.get("friends.name_hint"), "evening.name", 24);
    let response = big_button(ui, t.get("evening.check_in_button"));
    mark_target(ui, "evening.check_in", &response);
    if response.clicked() && !f.name.trim().is_empty() {
        chosen = Some(f.name.trim().to_owned());
    }
    if !view.members.is_empty() {
        ui.label(t.get("evening.members"));
        ui.horizontal_wrapped(|ui| {
            for (i, name) in view.members.iter().enumerate() {
                let response = ui.add(
                    egui::Button::new(RichText::new(name).pt(17.0))
                        .min_size(egui::vec2(0.0, at_least_a_finger(ui, TOUCH_TARGET))),
                );
                mark_target(ui, &format!("evening.member.{i}"), &response);
                if response.clicked() {
                    chosen = Some(name.clone());
                }
            }
        });
    }
    let names: Vec<&str> = view.players.iter().filter(|p| p.present).map(|p| p.name.as_str()).collect();
    if !names.is_empty() {
        ui.label(t.fill("evening.in_already", &[("n", &names.len().to_string()), ("names", &names.join(", "))]));
    }
    chosen
}

/// The link phones open: the evening at this computer's address on the
/// home network, else at its server's.
fn link(at: &AtEvening, hosting: Option<&Hosting>) -> Option<String> {
    let code = at.code?;
    let own = hosting.filter(|h| at.server.starts_with(&h.own_server().trim_end_matches("/ws").to_owned()));
    let base = match own {
        Some(h) if !h.site => return None,
        Some(h) => format!("http://{}", h.address()),
        None => {
            at.server.trim_end_matches("/evening").replacen("ws://", "http://", 1).replacen("wss://", "https://", 1)
        }
    };
    Some(format!("{base}/v/{code}"))
}

/// The organiser's desk: the code, link and QR code; who is in; the
/// draw and the start; each table with its sheet; the standings.
fn desk(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    at: &mut AtEvening,
    f: &mut EveningForm,
    hosting: Option<&Hosting>,
    symbols: &[egui::TextureId],
) {
    let Some(view) = at.view.clone() else { return };
    let Some(code) = at.code else { return };
    if !view.setup.club.is_empty() {
        ui.label(RichText::new(t.fill("evening.of_club", &[("club", &view.setup.club)])).pt(16.0));
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(t.get("friends.code")).pt(18.0));
        let said = ui.label(RichText::new(code.as_str()).pt(40.0).family(egui::FontFamily::Monospace).strong());
        mark_target(ui, "evening.code_shown", &said);
    });
    // Where players check in: this computer's address where it hosts the
    // evening (a phone types it as the table server without the link).
    if let Some(h) = hosting.filter(|h| at.server.starts_with(h.own_server().trim_end_matches("/ws"))) {
        ui.label(RichText::new(t.fill("evening.this_computer", &[("address", &h.address())])).pt(16.0));
    }
    if let Some(link) = link(at, hosting) {
        ui.horizontal_wrapped(|ui| {
            ui.label(t.get("friends.link"));
            ui.add(egui::Label::new(RichText::new(&link).family(egui::FontFamily::Monospace).pt(16.0)).wrap());
            if crate::platform::HAS_CLIPBOARD {
                crate::forms::copy_button(ui, t, ("friends.copy_link", "friends.copied"), &link, None);
            }
        });
        if view.rounds == 0 {
            crate::screens::friends::qr_code(ui, &link);
        }
        let projector = link.replace("/v/", "/e/");
        ui.label(t.fill("evening.projector", &[("link", &projector)]));
    } else {
        ui.label(RichText::new(t.get("evening.no_site")).pt(16.0));
    }
    let present: Vec<(u16, &klaverjas_club::Player)> =
        view.players.iter().enumerate().map(|(i, p)| (i as u16, p)).filter(|(_, p)| p.present).collect();
    let playing = view.started && !view.over && view.progress.iter().any(|p| *p < u16::from(view.setup.deals));
    // Who is in, each removable; a player without a phone added by name.
    egui::CollapsingHeader::new(
        RichText::new(t.fill("evening.players", &[("n", &present.len().to_string())])).pt(18.0),
    )
    .default_open(view.rounds == 0)
    .show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            for (id, p) in &present {
                let words = if p.phone { p.name.clone() } else { t.fill("evening.no_phone", &[("name", &p.name)]) };
                let response =
                    ui.add(egui::Button::new(RichText::new(words).pt(16.0)).selected(at.removing == Some(*id)));
                mark_target(ui, &format!("evening.player.{id}"), &response);
                if response.clicked() {
                    at.removing = if at.removing == Some(*id) { None } else { Some(*id) };
                }
            }
        });
        // A name tapped: Remove asks once more, so that a slip of the
        // finger takes nobody out.
        if let Some(id) = at.removing
            && let Some(p) = view.players.get(usize::from(id))
        {
            ui.horizontal_wrapped(|ui| {
                let remove = ui.button(RichText::new(t.fill("evening.remove", &[("name", &p.name)])).pt(16.0));
                mark_target(ui, "evening.remove", &remove);
                if remove.clicked() {
                    at.act(EveningAction::Remove { player: id });
                    at.removing = None;
                }
                if ui.button(RichText::new(t.get("evening.keep")).pt(16.0)).clicked() {
                    at.removing = None;
                }
            });
        }
        ui.horizontal(|ui| {
            field(ui, t, &mut f.adding, t.get("evening.add_hint"), "evening.add", 24);
            let response = ui.add(
                egui::Button::new(t.get("evening.add")).min_size(egui::vec2(0.0, at_least_a_finger(ui, TOUCH_TARGET))),
            );
            mark_target(ui, "evening.add_button", &response);
            if response.clicked() && !f.adding.trim().is_empty() {
                at.act(EveningAction::Add { name: std::mem::take(&mut f.adding).trim().to_owned() });
            }
        });
    });
    ui.add_space(6.0);
    // The round: drawn (again), started.
    let height = at_least_a_finger(ui, TOUCH_TARGET);
    let width = ui.available_width().min(300.0);
    if !view.over && !playing {
        ui.horizontal_wrapped(|ui| {
            let drawn = view.draw.is_some() && !view.started;
            let words = if drawn {
                t.get("evening.draw_again")
            } else {
                t.fill("evening.draw", &[("n", &(view.rounds + 1).to_string())])
            };
            let draw = ui.add_sized([width, height], egui::Button::new(RichText::new(words).pt(18.0)));
            mark_target(ui, "evening.draw", &draw);
            if draw.clicked() {
                at.act(EveningAction::Draw);
            }
            if drawn {
                let start = ui.add_sized(
                    [width, height],
                    egui::Button::new(
                        RichText::new(t.fill("evening.start", &[("n", &view.rounds.to_string())])).pt(18.0).strong(),
                    )
                    .fill(GOLD),
                );
                mark_target(ui, "evening.start", &start);
                if start.clicked() {
                    at.act(EveningAction::Start);
                }
            }
        });
    }
    if let Some(draw) = &view.draw {
        ui.heading(t.fill("evening.round", &[("n", &view.rounds.to_string()), ("of", &view.setup.rounds.to_string())]));
        let left: u32 = view.progress.iter().map(|p| u32::from(u16::from(view.setup.deals).saturating_sub(*p))).sum();
        let state = match (view.started, left) {
            (false, _) => t.get("evening.drawn_not_started"),
            (true, 0) => t.get("evening.round_played"),
            (true, n) => t.fill("evening.round_started", &[("n", &n.to_string())]),
        };
        let said = ui.label(RichText::new(state).pt(17.0).strong());
        mark_target(ui, "evening.round_state", &said);
        for (i, table) in draw.tables.iter().enumerate() {
            let i = i as u16;
            let done = view.progress.get(usize::from(i)).copied().unwrap_or(0);
            let online = view.online.get(usize::from(i)).copied().flatten();
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(t.fill("evening.table", &[("n", &(i + 1).to_string())])).pt(18.0).strong());
                ui.label(RichText::new(chairs_line(t, &view, table)).pt(16.0));
                if view.started {
                    ui.label(
                        t.fill("evening.progress", &[("n", &done.to_string()), ("of", &view.setup.deals.to_string())]),
                    );
                    if online.is_some() {
                        ui.label(t.get("evening.online"));
                    } else {
                        let open = at.open_table == Some(i);
                        let response = ui.add(egui::Button::new(t.get("evening.sheet")).selected(open));
                        mark_target(ui, &format!("evening.open.{}", i + 1), &response);
                        if response.clicked() {
                            at.open_table = if open { None } else { Some(i) };
                            at.correcting = None;
                        }
                    }
                } else if !table.chairs.contains(&None) {
                    // Before the start: how this table plays, one tap to
                    // the other way.
                    let cards = view.cards.get(usize::from(i)).copied().unwrap_or(view.setup.cards);
                    for (how, words, name) in
                        [(Cards::Real, "evening.real", "real"), (Cards::Online, "evening.online", "online")]
                    {
                        let response = ui.add(egui::Button::new(t.get(words)).selected(cards == how));
                        mark_target(ui, &format!("evening.cards.{}.{name}", i + 1), &response);
                        if response.clicked() && cards != how {
                            at.act(EveningAction::TableCards { table: i, cards: how });
                        }
                    }
                } else {
                    ui.label(t.get("evening.online"));
                }
            });
        }
        if !draw.sitting_out.is_empty() {
            let out: Vec<String> = draw.sitting_out.iter().map(|p| name_of(&view, Some(*p), t)).collect();
            ui.label(t.fill("evening.sitting_out", &[("names", &out.join(", "))]));
        }
    }
    if let Some(table) = at.open_table
        && let Some((round, _, score)) = view.sheets.iter().find(|(_, tb, _)| *tb == table).cloned()
    {
        table_sheet(ui, t, at, &view, (round, table, &score), true, symbols);
    }
    standings(ui, t, &view);
}

fn name_of(view: &EveningView, player: Option<u16>, t: &crate::i18n::Texts) -> String {
    player.and_then(|p| view.players.get(usize::from(p))).map_or_else(|| t.get("evening.a_bot"), |p| p.name.clone())
}

/// "N Anne · E Bas · S Cor · W Dirk; Bas deals".
fn chairs_line(t: &crate::i18n::Texts, view: &EveningView, table: &klaverjas_club::DrawnTable) -> String {
    let pair = |team: Team| format!("{} {}", pair_short(t, team), pair_names(t, view, table, team));
    let dealer = name_of(view, table.chairs[table.dealer.index()], t);
    let against = t.get("evening.against");
    format!("{} {against} {}; {}", pair(Team::NS), pair(Team::EW), t.fill("evening.deals_first", &[("name", &dealer)]))
}

/// A player's page: where they sit this round and, at real cards, the
/// table's sheet; online, the way to the chair. Returns the table to go to.
fn player(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    at: &mut AtEvening,
    me: u16,
    symbols: &[egui::TextureId],
) -> Option<TableCode> {
    let view = at.view.clone()?;
    let mut go = None;
    let my_name = name_of(&view, Some(me), t);
    ui.label(RichText::new(t.fill("evening.you_are", &[("name", &my_name)])).pt(18.0));
    let mine = view
        .draw
        .as_ref()
        .and_then(|d| d.tables.iter().position(|tb| tb.seat_of(me).is_some()).map(|i| (i as u16, d.tables[i])));
    match (&view.draw, mine) {
        _ if view.over => {
            ui.label(RichText::new(t.get("evening.over")).pt(20.0).strong());
        }
        (None, _) => {
            ui.label(RichText::new(t.get("evening.wait_draw")).pt(18.0));
        }
        (Some(draw), None) if draw.sitting_out.contains(&me) => {
            ui.label(RichText::new(t.get("evening.you_sit_out")).pt(20.0).strong());
        }
        (Some(_), None) => {
            ui.label(RichText::new(t.get("evening.wait_draw")).pt(18.0));
        }
        (Some(_), Some((i, table))) => {
            let seat = table.seat_of(me).unwrap_or(Seat::South);
            let partner = name_of(&view, table.chairs[seat.partner().index()], t);
            let said = ui.label(
                RichText::new(t.fill(
                    "evening.your_table",
                    &[
                        ("n", &(i + 1).to_string()),
                        ("seat", &t.get(&format!("evening.seat.{}", seat.letter()))),
                        ("partner", &partner),
                    ],
                ))
                .pt(22.0)
                .strong(),
            );
            mark_target(ui, "evening.your_table", &said);
            ui.label(RichText::new(chairs_line(t, &view, &table)).pt(16.0));
            if !view.started {
                ui.label(t.get("evening.wait_start"));
            } else if let Some(code) = view.online.get(usize::from(i)).copied().flatten() {
                let response = ui.add_sized(
                    [ui.available_width().min(300.0), at_least_a_finger(ui, TOUCH_TARGET)],
                    egui::Button::new(RichText::new(t.get("evening.go_to_table")).pt(20.0).strong()).fill(GOLD),
                );
                mark_target(ui, "evening.go_to_table", &response);
                if response.clicked() {
                    go = Some(code);
                }
            } else if let Some((round, _, score)) = view.sheets.iter().find(|(_, tb, _)| *tb == i).cloned() {
                table_sheet(ui, t, at, &view, (round, i, &score), false, symbols);
            }
        }
    }
    standings(ui, t, &view);
    go
}

/// A real-cards table's sheet: each deal's line with its points, what was
/// said of it, Dispute and Correct; the keypad for the next deal (or the
/// correction) while deals are to be entered.
fn table_sheet(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    at: &mut AtEvening,
    view: &EveningView,
    (round, table, score): (u8, u16, &klaverjas_club::TableScore),
    organiser: bool,
    symbols: &[egui::TextureId],
) {
    let Some(draw) = &view.draw else { return };
    let Some(drawn) = draw.tables.get(usize::from(table)) else { return };
    let Ok(rules) = view.setup.rules() else { return };
    ui.heading(t.fill("evening.sheet_of", &[("n", &(table + 1).to_string())]));
    // Each pair by its two names, then the lines: a row each that wraps
    // on a phone rather than widening the page.
    let names = |team: Team| format!("{}: {}", pair_short(t, team), pair_names(t, view, drawn, team));
    ui.label(RichText::new(format!("{}   {}", names(Team::NS), names(Team::EW))).pt(16.0));
    let mut totals = [0u32; 2];
    // Dispute and Correct as high as a finger: a phone's tap finds them.
    let finger = egui::vec2(0.0, at_least_a_finger(ui, TOUCH_TARGET));
    for (n, result) in score.results.iter().enumerate() {
        let n16 = n as u16;
        let ns = u32::from(result.sheet_points[Team::NS] + result.sheet_roem[Team::NS]);
        let ew = u32::from(result.sheet_points[Team::EW] + result.sheet_roem[Team::EW]);
        totals[0] += ns;
        totals[1] += ew;
        let notes = score.notes.get(n).map(Vec::as_slice).unwrap_or_default();
        let disputed = notes.iter().any(|note| matches!(note, klaverjas_club::LineNote::Disputed { .. }));
        let corrected = notes.iter().rev().find_map(|note| match note {
            klaverjas_club::LineNote::Corrected { by } => Some(*by),
            _ => None,
        });
        let said = match corrected {
            Some(Who::Organiser) => t.get("evening.corrected_by_organiser"),
            Some(Who::Player(p)) => t.fill("evening.corrected_by", &[("name", &name_of(view, Some(p), t))]),
            _ if disputed => t.get("evening.disputed"),
            _ => String::new(),
        };
        ui.horizontal_wrapped(|ui| {
            let line = format!("{}.  {} {ns} · {} {ew}", n + 1, pair_short(t, Team::NS), pair_short(t, Team::EW));
            let shown = ui.label(RichText::new(line).pt(17.0).family(egui::FontFamily::Monospace));
            mark_target(ui, &format!("evening.line.{}", n + 1), &shown);
            if !said.is_empty() {
                ui.label(RichText::new(said).pt(14.0).color(REFUSED));
            }
            if !organiser {
                let response = ui.add(egui::Button::new(t.get("evening.dispute")).min_size(finger));
                mark_target(ui, &format!("evening.dispute.{}", n + 1), &response);
                if response.clicked() {
                    at.act(EveningAction::Dispute { round, table, line: n16 });
                }
            }
            let response = ui.add(egui::Button::new(t.get("evening.correct")).min_size(finger));
            mark_target(ui, &format!("evening.correct.{}", n + 1), &response);
            if response.clicked()
                && let Some(deal) = score.entered.get(n)
            {
                at.pad = Keypad::holding(deal);
                at.correcting = Some((round, table, n16));
            }
        });
    }
    let (ns, ew) = (pair_short(t, Team::NS), pair_short(t, Team::EW));
    let total = format!("{}  {ns} {} · {ew} {}", t.get("evening.total"), totals[0], totals[1]);
    let said = ui.label(RichText::new(total).pt(17.0).strong());
    mark_target(ui, "evening.total", &said);
    let entering = score.results.len() < usize::from(view.setup.deals);
    if !entering && at.correcting.is_none() {
        return;
    }
    // The keypad checks an entry here before it is sent: a sheet of the
    // table's lines scores it as the server will.
    let Ok(mut sheet) = KeptSheet::new(rules, drawn.dealer) else { return };
    for deal in &score.entered {
        let _ = sheet.enter(*deal);
    }
    let correcting = at.correcting.map(|(_, _, line)| usize::from(line) + 1);
    let mut roem_team = at.roem_team;
    let refusal = at.refused.clone();
    let pairs = klaverjas::PerTeam::new(pair_short(t, Team::NS), pair_short(t, Team::EW));
    let tapped = crate::screens::sheet::pad(
        ui,
        t,
        (&at.pad, &rules, correcting),
        (symbols, &pairs),
        (&mut roem_team, refusal.as_deref()),
    );
    at.roem_team = roem_team;
    use crate::screens::sheet::Do;
    match tapped {
        Some(Do::Key(key)) => {
            at.pad.press(key, &rules);
            if let Key::Focus(Field::Roem(team)) | Key::AddRoem(team, _) = key {
                at.roem_team = Some(team);
            }
            at.refused = None;
        }
        Some(Do::Enter) => {
            let number = correcting.unwrap_or(sheet.lines.len() + 1);
            match at.pad.deal(&sheet, number) {
                Ok(deal) => match at.correcting {
                    Some((round, table, line)) => at.act(EveningAction::Correct { round, table, line, deal }),
                    None => at.act(EveningAction::Enter { table, deal }),
                },
                Err(e) => at.refused = Some(crate::words::pad_error(&e, t)),
            }
        }
        Some(Do::StopCorrecting) => {
            at.pad = Keypad::default();
            at.correcting = None;
        }
        _ => {}
    }
}

/// A pair by its seats' letters: "N-S", "E-W" (in the player's language).
fn pair_short(t: &crate::i18n::Texts, team: Team) -> String {
    let [a, b] = seats_of(team);
    format!("{}-{}", t.get(&format!("evening.short.{}", a.letter())), t.get(&format!("evening.short.{}", b.letter())))
}

/// The pair's two seats, partners opposite.
fn seats_of(team: Team) -> [Seat; 2] {
    match team {
        Team::NS => [Seat::North, Seat::South],
        Team::EW => [Seat::East, Seat::West],
    }
}

/// The pair at `table` by its two names: "Anne & Bas".
fn pair_names(t: &crate::i18n::Texts, view: &EveningView, table: &klaverjas_club::DrawnTable, team: Team) -> String {
    seats_of(team).map(|s| name_of(view, table.chairs[s.index()], t)).join(" & ")
}

/// The standings: place, name, points, deals, marches, nats.
fn standings(ui: &mut egui::Ui, t: &crate::i18n::Texts, view: &EveningView) {
    if view.rounds == 0 {
        return;
    }
    ui.add_space(8.0);
    ui.heading(t.get(if view.over { "evening.final" } else { "evening.standings" }));
    egui::Grid::new("evening-standings").striped(true).spacing([12.0, 4.0]).show(ui, |ui| {
        for key in [
            "evening.place",
            "evening.who",
            "evening.points",
            "evening.deals_played",
            "evening.marches",
            "evening.nats",
        ] {
            ui.label(RichText::new(t.get(key)).strong());
        }
        ui.end_row();
        for (i, row) in view.standings.iter().enumerate() {
            let place = ui.label(row.place.to_string());
            if i == 0 {
                mark_target(ui, "evening.first", &place);
            }
            ui.label(&row.name);
            ui.label(row.points.to_string());
            ui.label(row.deals.to_string());
            ui.label(row.marches.to_string());
            ui.label(row.nats.to_string());
            ui.end_row();
        }
    });
}
