//! Play with friends: host a table or join one by its code, then the
//! waiting room (the code, the link and its QR code, the chairs, the
//! host's moves and Start). The table itself is the table's screen, drawn
//! from the stand-in the sitting keeps (`crate::friends`).

use crate::forms::{big_button, form, mark_target, narrow_layout, option_label, page};
use crate::friends::host::{self, Hosting};
use crate::friends::link::waker;
use crate::friends::sitting::{BackToTable, Connection, KeptChair, Sitting};
use crate::look::Pt;
use crate::look::at_least_a_finger;
use crate::platform::{self, TOUCH_TARGET};
use crate::state::{Files, PlayerSettings, Screen, Texts};
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::{Preset, Seat};
use klaverjas_ai::Level;
use klaverjas_net::{Setup, TableCode, ToTable};

pub fn plugin(app: &mut App) {
    app.init_resource::<FriendsForm>()
        .add_systems(OnEnter(Screen::Friends), take_the_link)
        .add_systems(EguiPrimaryContextPass, friends.after(crate::look::Zoom).run_if(in_state(Screen::Friends)));
}

/// What the player filled in.
#[derive(Resource)]
pub struct FriendsForm {
    pub name: String,
    pub code: String,
    /// The table server to host on or join at (a phone, a browser; on a
    /// desktop, a table elsewhere), as typed.
    pub server: String,
    pub preset: Preset,
    pub bots: Level,
    pub deals: u16,
    pub grace: Option<u32>,
    pub hints: bool,
    pub problem: Option<String>,
    /// What is under way (the network asked for a table): news, not a
    /// problem.
    pub looking: Option<String>,
    /// Host or join at once, as if the button was pressed (`--host-table`,
    /// `--join-table`).
    pub host_now: bool,
    pub join_now: bool,
    /// A friend who comes once the match has begun may take a bot's chair.
    pub late: bool,
    /// The server field is open: a page's own server goes without saying
    /// until the player asks for another.
    pub other_server: bool,
}

impl Default for FriendsForm {
    fn default() -> FriendsForm {
        FriendsForm {
            name: String::new(),
            code: String::new(),
            server: String::new(),
            preset: Preset::Classic,
            bots: Level::Heuristic,
            deals: 16,
            grace: Some(30),
            hints: false,
            problem: None,
            looking: None,
            host_now: false,
            join_now: false,
            other_server: false,
            late: true,
        }
    }
}

/// The presets a table with friends plays here: those of four.
const PRESETS: [Preset; 5] =
    [Preset::Classic, Preset::Amsterdam, Preset::Rotterdam, Preset::WildeBoom, Preset::Klawerjas];

/// A table server's WebSocket address from what a person types: a host and
/// port, with or without `ws://` and `/ws`. The apps speak `ws://` only
/// (no TLS is built in); a browser speaks both.
pub fn server_address(typed: &str) -> Option<String> {
    let address = any_server_address(typed)?;
    (cfg!(target_arch = "wasm32") || address.starts_with("ws://")).then_some(address)
}

fn any_server_address(typed: &str) -> Option<String> {
    let typed = typed.trim().trim_end_matches('/');
    if typed.is_empty() || typed.contains(char::is_whitespace) {
        return None;
    }
    let (scheme, rest) = match typed.split_once("://") {
        Some(("ws" | "http", rest)) => ("ws", rest),
        Some(("wss" | "https", rest)) => ("wss", rest),
        Some(_) => return None,
        None => ("ws", typed),
    };
    let host = rest.split('/').next().filter(|h| !h.is_empty())?;
    Some(format!("{scheme}://{host}/ws"))
}

/// The page's own table server, in a browser: the one that served it.
#[cfg(target_arch = "wasm32")]
pub(crate) fn page_server() -> Option<String> {
    let location = web_sys::window()?.location();
    let scheme = if location.protocol().ok()? == "https:" { "wss" } else { "ws" };
    Some(format!("{scheme}://{}/ws", location.host().ok()?))
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn page_server() -> Option<String> {
    None
}

/// On entering: the name and server the player used last, the page's own
/// server in a browser, and a table's code from its link.
fn take_the_link(
    mut form: ResMut<FriendsForm>,
    settings: Res<PlayerSettings>,
    config: Res<crate::state::Config>,
    files: Res<Files>,
    mut commands: Commands,
) {
    if let Some(name) = &config.0.host_table {
        form.name = name.clone();
        form.host_now = true;
    }
    if let Some((code, server)) = config.0.join_table.as_ref().and_then(|j| j.split_once('@')) {
        form.code = code.to_owned();
        form.server = server.to_owned();
        // Without a name of the player's, the form asks for one first
        // (the others would see a made-up name).
        form.join_now = settings.0.name.as_ref().is_some_and(|n| !n.trim().is_empty()) || !form.name.is_empty();
    }
    if form.name.is_empty() {
        form.name = settings.0.name.clone().unwrap_or_default();
    }
    // The server last typed, else in a browser the one that served the
    // page (a table server serving the web build hosts there too).
    if form.server.is_empty() {
        form.server = settings.0.table_server.clone().or_else(page_server).unwrap_or_default();
    }
    // A table's link: its code, at the server that served the page.
    if let Some(code) = &config.0.join {
        form.code = code.clone();
        // The link's page reloaded while its chair is kept: back to it.
        if KeptChair::read(&files.0).is_some_and(|k| k.code.to_string() == *code) {
            commands.insert_resource(BackToTable);
        }
        if let Some(server) = page_server() {
            form.server = server;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn friends(
    mut contexts: EguiContexts,
    texts: Res<Texts>,
    mut form: ResMut<FriendsForm>,
    mut settings: ResMut<PlayerSettings>,
    files: Res<Files>,
    sitting: Option<ResMut<Sitting>>,
    hosting: Option<Res<Hosting>>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    (mut show, time, mut photographed): (ResMut<crate::show::Show>, Res<Time>, Local<bool>),
    (config, back, finding): (Res<crate::state::Config>, Option<Res<BackToTable>>, Option<Res<host::Finding>>),
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    let wake = || waker(proxy.as_deref());
    match sitting {
        Some(mut sitting) => {
            let mut leave = false;
            page(&ctx, t.get("friends.waiting"), |ui| {
                leave = waiting_room(ui, t, &mut sitting, hosting.as_deref());
            });
            // `--host-table` with `--screenshot`: the waiting room once its
            // code, link and QR code are up.
            if sitting.code.is_some() && !*photographed && config.0.host_table.is_some() {
                *photographed = true;
                let at = time.elapsed_secs() + 0.5;
                show.screenshots.push(crate::show::ScreenshotDue { name: "friends.png".into(), at });
            }
            if leave {
                // A guest leaving the waiting room gives up the chair (a
                // dropped connection would keep it for them).
                if !sitting.started && !sitting.is_host() {
                    sitting.send(&ToTable::Leave);
                }
                sitting.leave();
                KeptChair::forget(&files.0);
                commands.remove_resource::<Sitting>();
                crate::seats::restore_saved(&mut commands, &files.0, settings.0.bot_level.level());
            }
        }
        None => {
            let mut chosen = None;
            let kept = KeptChair::read(&files.0);
            page(&ctx, t.get("menu.friends"), |ui| {
                chosen = choose(ui, t, &mut form, hosting.is_some(), kept.is_some());
                if big_button(ui, t.get("menu.back")).clicked() {
                    next.set(Screen::Title);
                }
            });
            if let Some(finding) = &finding
                && let Some(found) = finding.found()
            {
                commands.remove_resource::<host::Finding>();
                form.looking = None;
                let code = finding.code.to_string();
                match found {
                    Some(server) => {
                        form.problem = None;
                        commands.insert_resource(Sitting::join(server, finding.code, finding.name.clone(), wake()));
                    }
                    None => form.problem = Some(t.fill("friends.not_found_here", &[("code", &code)])),
                }
            }
            let (host_now, join_now) = (std::mem::take(&mut form.host_now), std::mem::take(&mut form.join_now));
            let back_now = back.is_some() && kept.is_some();
            if back.is_some() {
                commands.remove_resource::<BackToTable>();
            }
            let asked = (host_now.then_some(Choice::Host).or(join_now.then_some(Choice::Join)))
                .or(back_now.then_some(Choice::Back));
            let Some(choice) = chosen.or(asked) else { return Ok(()) };
            form.problem = None;
            form.looking = None;
            let name = form.name.trim().to_owned();
            if choice != Choice::Back && name.is_empty() {
                form.problem = Some(t.get("friends.need_name"));
                return Ok(());
            }
            let mut s = settings.0.clone();
            s.name = Some(name.clone());
            // A desktop's own table, after a restart: its server first.
            let own_again = kept.as_ref().is_some_and(|k| k.server.starts_with("ws://127.0.0.1:"));
            if choice == Choice::Back && own_again && host::HOSTS_ITSELF && hosting.is_none() {
                match host::start(&files.0.dir, platform::installed("site")) {
                    Ok(h) => commands.insert_resource(h),
                    Err(e) => {
                        form.problem = Some(t.fill("friends.cannot_host", &[("why", &e)]));
                        return Ok(());
                    }
                }
            }
            let sitting = match choice {
                Choice::Back => kept.map(|k| Sitting::rejoin(&k, wake())),
                Choice::Host if host::HOSTS_ITSELF => {
                    let hosting = match hosting.as_deref() {
                        Some(h) => h.clone(),
                        None => match host::start(&files.0.dir, platform::installed("site")) {
                            Ok(h) => {
                                commands.insert_resource(h.clone());
                                h
                            }
                            Err(e) => {
                                form.problem = Some(t.fill("friends.cannot_host", &[("why", &e)]));
                                return Ok(());
                            }
                        },
                    };
                    Some(Sitting::host(hosting.own_server(), name, setup(&form), wake()))
                }
                Choice::Host => match server_address(&form.server) {
                    Some(server) => {
                        s.table_server = Some(form.server.trim().to_owned());
                        Some(Sitting::host(server, name, setup(&form), wake()))
                    }
                    None => {
                        form.problem = Some(t.get("friends.need_server"));
                        None
                    }
                },
                Choice::Join => {
                    let code = match form.code.parse::<TableCode>() {
                        Ok(code) => code,
                        Err(e) => {
                            form.problem = Some(t.fill("friends.bad_code", &[("why", &e.to_string())]));
                            return Ok(());
                        }
                    };
                    let server = match (server_address(&form.server), hosting.as_deref()) {
                        (Some(server), _) => {
                            s.table_server = Some(form.server.trim().to_owned());
                            Some(server)
                        }
                        (None, Some(h)) => Some(h.own_server()),
                        (None, None) => None,
                    };
                    match server {
                        Some(server) => Some(Sitting::join(server, code, name, wake())),
                        // A desktop asks its network who has the table.
                        None if host::HOSTS_ITSELF => {
                            form.looking = Some(t.fill("friends.looking", &[("code", &code.to_string())]));
                            let wake = wake();
                            commands.insert_resource(host::Finding::start(code, name, move || wake()));
                            None
                        }
                        None => {
                            form.problem = Some(t.get("friends.need_server"));
                            None
                        }
                    }
                }
            };
            if s != settings.0 {
                settings.0 = s;
                if let Err(e) = files.0.write_settings(&settings.0) {
                    warn!("{e}");
                }
            }
            if let Some(sitting) = sitting {
                commands.insert_resource(sitting);
            }
        }
    }
    Ok(())
}

fn setup(form: &FriendsForm) -> Setup {
    Setup {
        preset: form.preset,
        set: format!("match=deals:{}", form.deals),
        bots: form.bots,
        grace: form.grace,
        hints: form.hints,
        late: form.late,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Choice {
    Host,
    Join,
    /// Back to the table whose chair was kept.
    Back,
}

/// The form: a name, then hosting (the game and its rules) and joining (a
/// code). Returns what the player chose.
fn choose(ui: &mut egui::Ui, t: &crate::i18n::Texts, f: &mut FriendsForm, hosting: bool, kept: bool) -> Option<Choice> {
    let mut chosen = None;
    let (narrow, width) = narrow_layout(ui);
    let field = |ui: &mut egui::Ui, text: &mut String, hint: String, name: &str| {
        ui.horizontal(|ui| {
            let width = width.min(320.0) - crate::forms::beside_field(ui);
            // As high as a finger, as the Paste button beside it.
            let high = egui::vec2(0.0, at_least_a_finger(ui, 0.0));
            let response = ui.add(
                egui::TextEdit::singleline(text)
                    .hint_text(hint)
                    .desired_width(width)
                    .min_size(high)
                    .vertical_align(egui::Align::Center),
            );
            crate::forms::mark_field(ui, name, &response, text);
            crate::forms::paste_button(ui, t, name, &response, text, usize::MAX);
        });
    };
    if kept {
        let response = ui.add_sized(
            [ui.available_width().min(320.0), at_least_a_finger(ui, TOUCH_TARGET)],
            egui::Button::new(RichText::new(t.get("friends.back_to_table")).pt(20.0).strong()).fill(crate::look::GOLD),
        );
        mark_target(ui, "friends.back", &response);
        if response.clicked() {
            chosen = Some(Choice::Back);
        }
        ui.add_space(8.0);
    }
    if let Some(problem) = &f.problem {
        ui.label(RichText::new(problem).color(crate::look::REFUSED).pt(16.0));
    }
    if let Some(looking) = &f.looking {
        ui.label(RichText::new(looking).pt(16.0));
    }
    form(ui, "friends.name", narrow, 200.0, |ui| {
        option_label(ui, t.get("friends.name"), narrow);
        field(ui, &mut f.name, t.get("friends.name_hint"), "friends.name");
        ui.end_row();
        // A page served by a table server plays there: its address is no
        // business of a newcomer's, until they ask for another.
        let own = page_server().is_some_and(|own| own == f.server);
        if (!host::HOSTS_ITSELF || !hosting) && (!own || f.other_server) {
            option_label(ui, t.get("friends.server"), narrow);
            field(ui, &mut f.server, t.get("friends.server_hint"), "friends.server");
            ui.end_row();
        }
    });
    if page_server().is_some_and(|own| own == f.server) && !f.other_server {
        let words = RichText::new(t.get("friends.other_server")).underline();
        let height = at_least_a_finger(ui, TOUCH_TARGET);
        let response = ui.add(egui::Button::new(words).frame(false).min_size(egui::vec2(0.0, height)));
        mark_target(ui, "friends.other_server", &response);
        f.other_server |= response.clicked();
    }
    ui.add_space(10.0);
    ui.heading(t.get("friends.join"));
    ui.label(t.get(if host::HOSTS_ITSELF { "friends.join_line_desktop" } else { "friends.join_line" }));
    ui.horizontal_wrapped(|ui| {
        let code = egui::TextEdit::singleline(&mut f.code)
            .hint_text("ABC234")
            .char_limit(8)
            .font(egui::TextStyle::Monospace)
            .desired_width(140.0)
            .min_size(egui::vec2(0.0, at_least_a_finger(ui, 0.0)))
            .vertical_align(egui::Align::Center);
        let response = ui.add(code);
        crate::forms::mark_field(ui, "friends.code", &response, &f.code);
        crate::forms::paste_button(ui, t, "friends.code", &response, &mut f.code, 8);
        let join =
            ui.add_sized([160.0, at_least_a_finger(ui, TOUCH_TARGET)], egui::Button::new(t.get("friends.join_button")));
        mark_target(ui, "friends.join", &join);
        if join.clicked() {
            chosen = Some(Choice::Join);
        }
    });
    ui.add_space(14.0);
    ui.heading(t.get("friends.host"));
    ui.label(t.get(if host::HOSTS_ITSELF { "friends.host_line_desktop" } else { "friends.host_line" }));
    if !host::HOSTS_ITSELF && f.server.trim().is_empty() {
        ui.label(RichText::new(t.get("friends.no_server")).italics());
    }
    form(ui, "friends.host", narrow, 200.0, |ui| {
        option_label(ui, t.get("friends.game"), narrow);
        ui.horizontal_wrapped(|ui| {
            for p in PRESETS {
                ui.selectable_value(&mut f.preset, p, t.get(&format!("home.{}", p.name())));
            }
        });
        ui.end_row();
        option_label(ui, t.get("settings.bots"), narrow);
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut f.bots, Level::Heuristic, t.get("level.heuristic"));
            ui.selectable_value(&mut f.bots, Level::Expert, t.get("level.expert"));
        });
        ui.end_row();
        option_label(ui, t.get("friends.length"), narrow);
        ui.horizontal_wrapped(|ui| {
            for n in [4, 8, 16] {
                ui.selectable_value(&mut f.deals, n, t.count("friends.deals", ("n", n as i64), &[]));
            }
        });
        ui.end_row();
        option_label(ui, t.get("friends.grace"), narrow);
        ui.horizontal_wrapped(|ui| {
            for (grace, key) in
                [(Some(30), "friends.grace_30"), (Some(120), "friends.grace_120"), (None, "friends.grace_never")]
            {
                ui.selectable_value(&mut f.grace, grace, t.get(key));
            }
        });
        ui.end_row();
        option_label(ui, t.get("friends.hints"), narrow);
        ui.checkbox(&mut f.hints, t.get("friends.hints_allowed"));
        ui.end_row();
        option_label(ui, t.get("friends.late"), narrow);
        ui.checkbox(&mut f.late, t.get("friends.late_allowed"));
        ui.end_row();
    });
    let host = big_button(ui, t.get("friends.host_button"));
    mark_target(ui, "friends.host", &host);
    if host.clicked() {
        chosen = Some(Choice::Host);
    }
    ui.add_space(8.0);
    chosen
}

/// The table's link, as others open it: the host's address on the home
/// network for a table this computer hosts, else the server's own.
fn link(sitting: &Sitting, hosting: Option<&Hosting>) -> Option<String> {
    let code = sitting.code?;
    let server = match hosting.filter(|h| sitting.server == h.own_server()) {
        // Without the web game beside it, this computer's link would open
        // nothing a friend can play.
        Some(h) if !h.site => return None,
        Some(h) => format!("http://{}", h.address()),
        None => {
            let rest = sitting.server.strip_suffix("/ws")?;
            rest.replacen("ws://", "http://", 1).replacen("wss://", "https://", 1)
        }
    };
    Some(format!("{server}/t/{code}"))
}

/// The waiting room; returns whether the player leaves.
fn waiting_room(ui: &mut egui::Ui, t: &crate::i18n::Texts, sitting: &mut Sitting, hosting: Option<&Hosting>) -> bool {
    let mut leave = false;
    // Never seated (the table refused the join): its words once, and the
    // way back; no chairs of a table the player is not at.
    if sitting.seat.is_none()
        && let Connection::Closed(why) = &sitting.connection
    {
        let said = ui.label(RichText::new(t.fill("friends.not_seated", &[("why", why)])).color(crate::look::REFUSED));
        mark_target(ui, "friends.refusal", &said);
        let height = at_least_a_finger(ui, TOUCH_TARGET);
        let back = ui.add_sized([ui.available_width().min(260.0), height], egui::Button::new(t.get("menu.back")));
        mark_target(ui, "friends.leave", &back);
        return back.clicked();
    }
    match &sitting.connection {
        Connection::Opening => {
            ui.label(t.get("friends.opening"));
        }
        Connection::Reconnecting { .. } => {
            ui.label(RichText::new(t.get("table.reconnecting")).strong());
        }
        Connection::Closed(why) => {
            ui.label(RichText::new(t.fill("friends.closed", &[("why", why)])).color(crate::look::REFUSED));
        }
        Connection::Open => {}
    }
    if let Some((_, message)) = &sitting.refused {
        ui.label(RichText::new(message).color(crate::look::REFUSED));
    }
    // The code, the link and its QR code beside the chairs where the
    // window is wide; above them on a phone.
    let share = |ui: &mut egui::Ui, sitting: &Sitting| {
        let Some(code) = sitting.code else { return };
        // A guest has the code already: it is said, small; the link and
        // its QR code are the host's to hand round.
        let host = sitting.is_host();
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(t.get("friends.code")).pt(18.0));
            ui.label(RichText::new(code.as_str()).pt(if host { 40.0 } else { 22.0 }).monospace().strong());
        });
        if !host {
            return;
        }
        let Some(link) = link(sitting, hosting) else {
            ui.label(RichText::new(t.get("friends.no_site")).pt(16.0));
            return;
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(t.get("friends.link"));
            ui.label(RichText::new(&link).monospace().pt(16.0));
            if crate::platform::HAS_CLIPBOARD {
                crate::forms::copy_button(ui, t, ("friends.copy_link", "friends.copied"), &link, None);
            }
        });
        qr_code(ui, &link);
        if let Some(h) = hosting.filter(|h| sitting.server == h.own_server()) {
            let addresses: Vec<String> = h.addresses.iter().map(ToString::to_string).collect();
            let line = if addresses.is_empty() { t.get("friends.no_network") } else { addresses.join(", ") };
            ui.label(t.fill("friends.this_computer", &[("addresses", &line), ("port", &h.port.to_string())]));
        }
    };
    let mut seats = |ui: &mut egui::Ui, sitting: &mut Sitting| {
        chairs(ui, t, sitting);
        ui.add_space(8.0);
        let height = at_least_a_finger(ui, TOUCH_TARGET);
        let width = ui.available_width().min(260.0);
        if sitting.is_host() {
            let start = ui.add_sized(
                [width, height],
                egui::Button::new(RichText::new(t.get("friends.start")).pt(20.0).strong()).fill(crate::look::GOLD),
            );
            mark_target(ui, "friends.start", &start);
            if start.clicked() {
                sitting.send(&ToTable::Start);
            }
            if !sitting.started && ui.add_sized([width, height], egui::Button::new(t.get("friends.shuffle"))).clicked()
            {
                sitting.send(&ToTable::Shuffle);
            }
        } else if sitting.seat.is_some() {
            let said = ui.label(t.get("friends.wait_for_host"));
            mark_target(ui, "friends.wait_for_host", &said);
        }
        let response = ui.add_sized([width, height], egui::Button::new(t.get("friends.leave")));
        mark_target(ui, "friends.leave", &response);
        leave = response.clicked();
    };
    if ui.available_width() >= 640.0 {
        ui.columns(2, |columns| {
            share(&mut columns[0], sitting);
            seats(&mut columns[1], sitting);
        });
    } else if !sitting.is_host() {
        // A guest's phone: the chairs and what happens next first.
        seats(ui, sitting);
        ui.add_space(8.0);
        share(ui, sitting);
    } else {
        share(ui, sitting);
        ui.add_space(8.0);
        seats(ui, sitting);
    }
    leave
}

/// The four chairs as they stand round the table, this player's below;
/// the host moves a person by tapping their chair, then another.
fn chairs(ui: &mut egui::Ui, t: &crate::i18n::Texts, sitting: &mut Sitting) {
    let own = sitting.seat.unwrap_or(Seat::South);
    let turn = own.turn_to_south();
    let host = sitting.is_host();
    let picked_id = egui::Id::new("friends.picked");
    let mut picked: Option<Seat> = ui.ctx().data(|d| d.get_temp(picked_id)).flatten();
    let width = ui.available_width();
    let cell = ((width - 8.0) / 2.0).min(170.0);
    let chair = |ui: &mut egui::Ui, seat: Seat, picked: &mut Option<Seat>| {
        let who = sitting.chairs.iter().find(|c| c.seat == seat);
        let hosts = who.is_some_and(|c| c.host);
        // One pair of brackets: "Ann (you, host)".
        let name = match who.and_then(|c| c.name.clone()) {
            Some(name) if seat == own && hosts => t.fill("friends.you_host", &[("name", &name)]),
            Some(name) if seat == own => t.fill("friends.you", &[("name", &name)]),
            Some(name) if hosts => format!("{name} ({})", t.get("friends.host_mark")),
            Some(name) => name,
            None if sitting.started => crate::words::bot_in_chair(t, seat),
            None => t.get("friends.empty"),
        };
        let text = RichText::new(name).pt(18.0);
        let button = egui::Button::new(text).selected(*picked == Some(seat)).wrap();
        let response = ui.add_sized([cell, at_least_a_finger(ui, TOUCH_TARGET)], button);
        mark_target(ui, &format!("friends.chair.{}", seat.letter()), &response);
        if host && !sitting.started && response.clicked() {
            match picked.take() {
                Some(from) if from != seat => sitting.send(&ToTable::Swap { from, to: seat }),
                Some(_) => {}
                None => *picked = Some(seat),
            }
        }
    };
    // Round the table as this player sits: partner opposite.
    let at = |place: Seat| place.after(4 - turn);
    let centred = |ui: &mut egui::Ui, seat: Seat, picked: &mut Option<Seat>| {
        ui.horizontal(|ui| {
            ui.add_space((width - cell) / 2.0);
            chair(ui, seat, picked);
        });
    };
    centred(ui, at(Seat::North), &mut picked);
    ui.horizontal(|ui| {
        chair(ui, at(Seat::West), &mut picked);
        ui.add_space(width - 2.0 * cell - ui.spacing().item_spacing.x * 2.0);
        chair(ui, at(Seat::East), &mut picked);
    });
    centred(ui, at(Seat::South), &mut picked);
    if !sitting.started {
        ui.label(RichText::new(t.get("friends.empty_line")).pt(14.0));
    }
    if host && !sitting.started {
        ui.label(
            RichText::new(t.get(if picked.is_some() { "friends.move_to" } else { "friends.move" })).italics().pt(14.0),
        );
        // A person picked (not the host) can be sent away: their chair is
        // free again and their link holds nothing.
        let person = picked.filter(|&s| s != own).and_then(|s| {
            sitting.chairs.iter().find(|c| c.seat == s).and_then(|c| c.name.clone()).map(|name| (s, name))
        });
        if let Some((seat, name)) = person {
            let text = t.fill("friends.remove", &[("name", &name)]);
            let response =
                ui.add_sized([width.min(260.0), at_least_a_finger(ui, TOUCH_TARGET)], egui::Button::new(text));
            mark_target(ui, "friends.remove", &response);
            if response.clicked() {
                sitting.send(&ToTable::Remove { seat });
                picked = None;
            }
        }
    }
    ui.ctx().data_mut(|d| d.insert_temp(picked_id, picked));
}

/// The link as a QR code, large enough to scan from across a table: dark
/// modules on white with the quiet zone of four modules the standard asks.
pub(crate) fn qr_code(ui: &mut egui::Ui, link: &str) {
    let Ok(code) = qrcode::QrCode::new(link.as_bytes()) else { return };
    let modules = code.width();
    let colours = code.to_colors();
    let quiet = 4;
    let side = ui.available_width().clamp(160.0, 320.0);
    let unit = (side / (modules + 2 * quiet) as f32).floor().max(2.0);
    let size = unit * (modules + 2 * quiet) as f32;
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    mark_target(ui, "friends.qr", &response);
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::WHITE);
    for (i, colour) in colours.iter().enumerate() {
        if *colour == qrcode::Color::Dark {
            let (x, y) = ((i % modules + quiet) as f32, (i / modules + quiet) as f32);
            let min = rect.min + egui::vec2(x * unit, y * unit);
            painter.rect_filled(egui::Rect::from_min_size(min, egui::vec2(unit, unit)), 0.0, Color32::BLACK);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_server_is_a_websocket_address() {
        assert_eq!(server_address("192.168.1.5:7878").as_deref(), Some("ws://192.168.1.5:7878/ws"));
        assert_eq!(server_address(" ws://host:1/ws ").as_deref(), Some("ws://host:1/ws"));
        assert_eq!(any_server_address("https://tables.example.org/").as_deref(), Some("wss://tables.example.org/ws"));
        assert_eq!(server_address("https://tables.example.org/"), None, "no TLS in the apps");
        assert_eq!(server_address("http://h:7878/t/ABC234").as_deref(), Some("ws://h:7878/ws"));
        for bad in ["", "  ", "ftp://h", "two words"] {
            assert_eq!(server_address(bad), None, "{bad}");
        }
    }
}
