//! The score sheet for a game with real cards: the four names and who
//! deals first, then the sheet as it is kept on paper (Wij and Zij, one
//! line a deal, marks and totals) above a big keypad. The engine scores
//! every entry (`klaverjas::keypad`, `KeptSheet`); this screen draws it,
//! keeps it in `sheet.ron` after every tap, counts a finished match in the
//! statistics, and shares the sheet as text and as a picture.

use crate::forms::{mark_field, mark_target};
use crate::look::Pt;
use crate::look::{CARD, GOLD, INK, REFUSED, at_least_a_finger, on_the_felt, root_ui};
use crate::panels::paint::{paint_suit, suit_texture};
use crate::pictures::CardImages;
use crate::save::{Loaded, SavedSheet};
use crate::state::{Files, PlayerProfile, PlayerSettings, Screen, Texts};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::keypad::{Field, Key, Keypad};
use klaverjas::{KeptSheet, MatchLength, PerTeam, Preset, Seat, Suit, Team};

/// The version of `sheet.ron`; a newer one is kept aside unread.
pub const SHEET_FORMAT: u32 = 1;

pub fn plugin(app: &mut App) {
    app.init_resource::<Desk>()
        .init_resource::<Taken>()
        .add_systems(OnEnter(Screen::Sheet), open)
        .add_systems(EguiPrimaryContextPass, sheet.after(crate::look::Zoom).run_if(in_state(Screen::Sheet)));
}

/// The sheet on the screen and what is being set up.
#[derive(Resource, Default)]
struct Desk {
    sheet: Option<SavedSheet>,
    setup: Setup,
    /// Why the last entry was refused, in words.
    refusal: Option<String>,
    /// The team the quick roem buttons add to.
    roem_team: Option<Team>,
    /// A kept sheet that could not be read, or where a picture went.
    note: Option<String>,
    /// Asking before a new sheet replaces this one.
    asking_new: bool,
    /// A picture of the sheet being taken: its name, and the frames to
    /// draw the whole sheet alone before it is taken.
    photo: Option<(String, u8)>,
}

/// The sheet's picture once taken, as PNG, waiting to be handed to the
/// player from the main thread (iOS's share sheet is opened only there).
#[derive(Resource, Default)]
struct Taken(Option<(String, Result<Vec<u8>, String>)>);

/// The window's picture as PNG.
fn png_of(image: &bevy::image::Image) -> Result<Vec<u8>, String> {
    let picture = image.clone().try_into_dynamic().map_err(|e| e.to_string())?;
    let mut png = Vec::new();
    picture
        .to_rgb8()
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(png)
}

struct Setup {
    preset: Preset,
    /// North, East, South, West, as on the sheet.
    names: [String; 4],
    dealer: Seat,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup { preset: Preset::Classic, names: Default::default(), dealer: Seat::South }
    }
}

/// The presets whose matches a sheet of two teams keeps.
fn sheet_presets() -> Vec<Preset> {
    Preset::ALL.into_iter().filter(|p| KeptSheet::new(p.rules(), Seat::South).is_ok()).collect()
}

/// The kept sheet, read as the screen opens; one that cannot be read is
/// set aside and said.
fn open(mut desk: ResMut<Desk>, files: Res<Files>, texts: Res<Texts>, settings: Res<PlayerSettings>) {
    let t = &texts.0;
    desk.refusal = None;
    desk.note = None;
    desk.asking_new = false;
    let path = files.0.sheet_path();
    // A sheet whose lines no longer score (damaged, or kept by another
    // version) is set aside like a save that does not replay.
    let read = match files.0.read::<SavedSheet>(&path) {
        Loaded::Found(s) => match s.kept.broken() {
            Some((number, e)) => {
                files.0.set_aside(&path, crate::save::Damage::DoesNotReplay, &format!("deal {number}: {e}"))
            }
            None => Loaded::Found(s),
        },
        other => other,
    };
    desk.sheet = match read {
        Loaded::Found(s) if s.format <= SHEET_FORMAT => Some(s),
        Loaded::Found(_) | Loaded::Nothing => None,
        Loaded::SetAside { damage, moved_to } => {
            let damage = crate::words::damage_words(damage, t);
            desk.note =
                Some(t.fill("sheet.set_aside", &[("damage", &damage), ("path", &moved_to.display().to_string())]));
            None
        }
    };
    if desk.sheet.is_none() {
        let home = settings.0.home_rules.filter(|p| sheet_presets().contains(p));
        desk.setup.preset = home.unwrap_or(Preset::Classic);
    }
}

/// Writes the sheet whole: every tap is on disk before the next frame.
fn keep(files: &crate::save::Store, sheet: &SavedSheet) {
    if let Err(e) = files.write(&files.sheet_path(), sheet) {
        warn!("the score sheet could not be kept: {e}");
    }
}

#[allow(clippy::too_many_arguments)]
fn sheet(
    mut contexts: EguiContexts,
    texts: Res<Texts>,
    mut desk: ResMut<Desk>,
    files: Res<Files>,
    (settings, mut profile): (Res<PlayerSettings>, ResMut<PlayerProfile>),
    (images, mut taken): (Res<CardImages>, ResMut<Taken>),
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    // On the main thread: iOS's share sheet may only be opened there.
    _main: bevy::ecs::system::NonSendMarker,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    let symbols: Vec<egui::TextureId> = Suit::ALL.iter().map(|&s| suit_texture(&mut contexts, &images, s)).collect();
    let desk = &mut *desk;
    let Some(kept) = desk.sheet.as_mut() else {
        if let Some(started) = setup(&ctx, t, &mut desk.setup, desk.note.as_deref(), &settings.0, &mut next) {
            keep(&files.0, &started);
            desk.sheet = Some(started);
            desk.note = None;
        }
        return Ok(());
    };
    let mut action = None;
    // A picture shows the sheet whole, without the buttons below it.
    let photographing = desk.photo.is_some();
    if let Some((name, frames)) = desk.photo.take() {
        if frames == 0 {
            commands.spawn(Screenshot::primary_window()).observe(
                move |captured: On<ScreenshotCaptured>, mut taken: ResMut<Taken>| {
                    taken.0 = Some((name.clone(), png_of(&captured.image)));
                },
            );
        } else {
            desk.photo = Some((name, frames - 1));
        }
        ctx.request_repaint();
    }
    if let Some((name, png)) = taken.0.take() {
        let kept = png.and_then(|png| crate::platform::keep_picture(&png, &name, &files.0.dir));
        desk.note = Some(match kept {
            Ok(place) => {
                info!("the score sheet's picture: {place}");
                t.fill("sheet.picture_kept", &[("place", &place)])
            }
            Err(e) => {
                warn!("the score sheet's picture: {e}");
                t.fill("sheet.picture_refused", &[("reason", &e)])
            }
        });
    }
    on_the_felt(6.0).show(&mut root_ui(&ctx), |ui| {
        if photographing {
            heading(ui, t, kept, Heading::Picture);
            lines(ui, t, kept, Lines::Whole);
            return;
        }
        // The keypad where an entry is open, else what to do with the
        // finished sheet: beside the sheet where the window is wide (a
        // desktop, a tablet sideways), below it on a phone.
        let keypad = !kept.kept.is_over() || kept.correcting.is_some();
        let panel = if ui.available_width() > 900.0 {
            egui::Panel::right("sheet-keypad-beside").exact_size(480.0).resizable(false)
        } else {
            egui::Panel::bottom("sheet-keypad")
        };
        panel
            .frame(egui::Frame::new().fill(CARD).corner_radius(10.0).inner_margin(6.0))
            .show_separator_line(false)
            .show(ui, |ui| {
                action = if keypad {
                    pad(
                        ui,
                        t,
                        (&kept.pad, &kept.kept.rules, kept.correcting),
                        (&symbols, &PerTeam::new(t.get("sheet.team.NS"), t.get("sheet.team.EW"))),
                        (&mut desk.roem_team, desk.refusal.as_deref()),
                    )
                } else {
                    finished(ui, t, kept, desk.note.as_deref())
                };
            });
        let (heading_shape, lines_shape) =
            if keypad { (Heading::Entry, Lines::AboveThePad) } else { (Heading::Finished, Lines::Finished) };
        egui::CentralPanel::default().frame(egui::Frame::new()).show(ui, |ui| {
            if let Some(a) = heading(ui, t, kept, heading_shape) {
                action = Some(a);
            }
            if let Some(a) = lines(ui, t, kept, lines_shape) {
                action = Some(a);
            }
        });
    });
    if desk.asking_new {
        let question = if kept.kept.is_over() { "sheet.new_question_over" } else { "sheet.new_question" };
        let (new, keep_it) = (t.get("sheet.new"), t.get("sheet.keep"));
        match crate::forms::confirm(&ctx, new.clone(), t.get(question), keep_it, new) {
            Some(true) => {
                let _ = crate::disk::remove(&files.0.sheet_path());
                desk.sheet = None;
                desk.asking_new = false;
                desk.note = None;
            }
            Some(false) => desk.asking_new = false,
            None => {}
        }
        return Ok(());
    }
    let Some(action) = action else { return Ok(()) };
    let rules = kept.kept.rules;
    let before = kept.kept.clone();
    match action {
        Do::Key(key) => {
            kept.pad.press(key, &rules);
            if let Key::Focus(Field::Roem(team)) | Key::AddRoem(team, _) = key {
                desk.roem_team = Some(team);
            }
            desk.refusal = None;
        }
        Do::Enter => match kept.pad.enter(&mut kept.kept, kept.correcting) {
            Ok(_) => {
                kept.pad = Keypad::default();
                kept.correcting = None;
                desk.refusal = None;
                desk.roem_team = None;
                let sheet = kept.kept.sheet();
                let (number, totals, strokes) = (kept.kept.lines.len(), sheet.totals(), sheet.strokes());
                info!("the score sheet: deal {number} entered, totals {totals:?}, strokes {strokes:?}");
            }
            Err(e) => {
                info!("the score sheet refused the entry: {e}");
                desk.refusal = Some(crate::words::pad_error(&e, t));
            }
        },
        Do::Correct(number) => {
            if let Some(line) = kept.kept.lines.get(number - 1) {
                kept.pad = Keypad::holding(&line.deal);
                kept.correcting = Some(number);
                desk.refusal = None;
            }
        }
        Do::StopCorrecting => {
            kept.pad = Keypad::default();
            kept.correcting = None;
            desk.refusal = None;
        }
        Do::Undo => {
            kept.kept.undo();
            kept.correcting = None;
            kept.pad = Keypad::default();
            desk.refusal = None;
        }
        Do::Picture => {
            desk.photo = Some((format!("klaverjas-sheet-{}.png", crate::platform::today()), 2));
        }
        Do::NewSheet => {
            desk.asking_new = true;
        }
        Do::Back => {
            next.set(Screen::Title);
        }
    }
    // A finished match is in the statistics as it stands: a change after
    // (an undo, a correction) takes its count back and counts it again.
    if let Some(kept) = desk.sheet.as_mut()
        && kept.kept != before
    {
        let preset = klaverjas_ai::progress::preset_of(&kept.kept.rules);
        let counted = kept.counted.take();
        if let Some(added) = &counted {
            profile.0.forget_sheet(preset, added);
        }
        kept.counted = profile.0.note_sheet(&kept.kept, Team::NS);
        if (counted.is_some() || kept.counted.is_some())
            && let Err(e) = files.0.write_profile(&profile.0)
        {
            warn!("{e}");
        }
    }
    if let Some(kept) = &desk.sheet {
        keep(&files.0, kept);
    }
    Ok(())
}

/// What a tap asked for.
pub(crate) enum Do {
    Key(Key),
    Enter,
    Correct(usize),
    StopCorrecting,
    Undo,
    Picture,
    NewSheet,
    Back,
}

/// The first page: the game, the four names, who deals first.
fn setup(
    ctx: &egui::Context,
    t: &crate::i18n::Texts,
    setup: &mut Setup,
    note: Option<&str>,
    settings: &crate::settings::Settings,
    next: &mut NextState<Screen>,
) -> Option<SavedSheet> {
    let mut started = None;
    let mut start = false;
    let rules = settings.rules_for(setup.preset);
    let content = |ui: &mut egui::Ui| {
        if let Some(note) = note {
            ui.label(RichText::new(note).color(REFUSED).pt(15.0));
        }
        ui.label(RichText::new(t.get("sheet.line")).pt(15.0));
        ui.add_space(6.0);
        ui.label(RichText::new(t.get("sheet.game")).pt(16.0).strong());
        let presets = sheet_presets();
        ui.horizontal_wrapped(|ui| {
            // Three abreast, so that the whole form fits a phone held
            // upright; fewer where a game's name would break (large text).
            ui.spacing_mut().button_padding = egui::vec2(4.0, 2.0);
            let names: Vec<String> = presets.iter().map(|p| t.get(&format!("home.{}", p.name()))).collect();
            let (width, gap) = (ui.available_width(), ui.spacing().item_spacing.x);
            let abreast = crate::forms::columns_for(ui, &names, 16.0, width, gap, &[3, 2, 1]);
            let third = ((width - (abreast - 1) as f32 * gap) / abreast as f32).floor();
            for p in presets {
                let name = RichText::new(t.get(&format!("home.{}", p.name()))).pt(16.0);
                let height = at_least_a_finger(ui, crate::platform::TOUCH_TARGET);
                let button = egui::Button::new(name).wrap().selected(setup.preset == p);
                let response = ui.add_sized([third, height], button);
                mark_target(ui, &format!("sheet.preset.{}", p.name()), &response);
                if response.clicked() {
                    setup.preset = p;
                }
            }
        });
        ui.label(RichText::new(match_length(t, rules.match_length)).pt(14.0));
        ui.add_space(6.0);
        // Partners opposite: Wij are South (the keeper) and North.
        for (team, seats) in [(Team::NS, [Seat::South, Seat::North]), (Team::EW, [Seat::West, Seat::East])] {
            ui.label(RichText::new(t.get(&format!("sheet.team.{}", team.name()))).pt(16.0).strong());
            for seat in seats {
                ui.horizontal(|ui| {
                    let label = RichText::new(t.get(&format!("sheet.seat.{}", seat.name()))).pt(15.0);
                    ui.add_sized([72.0, 24.0], egui::Label::new(label).truncate());
                    let name = &mut setup.names[seat.index()];
                    let field = egui::TextEdit::singleline(name)
                        .char_limit(16)
                        .font(egui::TextStyle::Heading)
                        .desired_width(ui.available_width().min(260.0) - crate::forms::beside_field(ui));
                    let response = ui.add(field);
                    mark_field(ui, &format!("sheet.name.{}", seat.name()), &response, name);
                    let field = response.clone();
                    crate::forms::paste_button(ui, t, &format!("sheet.name.{}", seat.name()), &field, name, 16);
                });
            }
        }
        ui.add_space(6.0);
        ui.label(RichText::new(t.get("sheet.first_dealer")).pt(16.0).strong());
        let quarter = ((ui.available_width() - 3.0 * ui.spacing().item_spacing.x) / 4.0).floor();
        ui.horizontal(|ui| {
            for seat in [Seat::South, Seat::West, Seat::North, Seat::East] {
                let name = shown_name(t, &setup.names, seat);
                let height = at_least_a_finger(ui, crate::platform::TOUCH_TARGET);
                let response = ui.add_sized(
                    [quarter, height],
                    egui::Button::new(RichText::new(name).pt(16.0)).truncate().selected(setup.dealer == seat),
                );
                mark_target(ui, &format!("sheet.dealer.{}", seat.name()), &response);
                if response.clicked() {
                    setup.dealer = seat;
                }
            }
        });
    };
    // Start and Back stay in view below the form.
    let footer = |ui: &mut egui::Ui| {
        let (go, back) = (t.get("sheet.start"), t.get("menu.back"));
        let half = (ui.available_width() - 8.0) / 2.0;
        // Side by side at the usual size, as ever; one above the other
        // where large text makes them wider than half the width.
        let font = egui::FontId::proportional(crate::look::scaled(ui.ctx(), 20.0));
        let padding = 2.0 * ui.spacing().button_padding.x;
        let wide =
            |w: &str| ui.painter().layout_no_wrap(w.to_string(), font.clone(), Color32::BLACK).size().x + padding;
        let larger = crate::look::scaled(ui.ctx(), 1.0) > 1.0;
        let abreast = !larger || (wide(&go) <= half && wide(&back) <= half);
        let buttons = |ui: &mut egui::Ui, width: f32| {
            let height = at_least_a_finger(ui, crate::platform::TOUCH_TARGET);
            let words = RichText::new(go).pt(20.0).strong().color(Color32::BLACK);
            let go = ui.add_sized([width, height], egui::Button::new(words).fill(GOLD));
            mark_target(ui, "sheet.start", &go);
            start = go.clicked();
            let back = ui.add_sized([width, height], egui::Button::new(RichText::new(back).pt(20.0)));
            mark_target(ui, "sheet.back", &back);
            if back.clicked() {
                next.set(Screen::Title);
            }
        };
        match abreast {
            true => ui.horizontal(|ui| buttons(ui, half)).inner,
            false => buttons(ui, ui.available_width()),
        }
    };
    crate::forms::page_with_footer(ctx, t.get("sheet.title"), content, Some(Box::new(footer)));
    if start && let Ok(kept) = KeptSheet::new(rules, setup.dealer) {
        let names = std::array::from_fn(|i| shown_name(t, &setup.names, Seat::ALL[i]));
        started = Some(SavedSheet {
            format: SHEET_FORMAT,
            preset: setup.preset,
            names,
            kept,
            pad: Keypad::default(),
            correcting: None,
            counted: None,
        });
    }
    started
}

/// A player's name as typed, or the seat's word where none was.
fn shown_name(t: &crate::i18n::Texts, names: &[String; 4], seat: Seat) -> String {
    let name = names[seat.index()].trim();
    if name.is_empty() { t.get(&format!("sheet.seat.{}", seat.name())) } else { name.to_string() }
}

fn match_length(t: &crate::i18n::Texts, length: MatchLength) -> String {
    match length {
        MatchLength::Deals(n) => t.fill("sheet.length_deals", &[("n", &n.to_string())]),
        MatchLength::Points(n) => t.fill("sheet.length_points", &[("n", &n.to_string())]),
        MatchLength::Boem(n) => t.fill("sheet.length_boem", &[("n", &n.to_string())]),
    }
}

/// What the heading holds besides its words.
#[derive(Clone, Copy, PartialEq)]
enum Heading {
    /// Back, New sheet, Undo and Clear.
    Entry,
    /// Back (the finished sheet's buttons are below it).
    Finished,
    /// Nothing to tap: a picture of the sheet.
    Picture,
}

/// How the lines take the room they have.
#[derive(Clone, Copy, PartialEq)]
enum Lines {
    /// Scrolling, the last in view, with the keypad below.
    AboveThePad,
    /// Scrolling, with the key to the marks.
    Finished,
    /// Every line, for a picture.
    Whole,
}

/// Back, the deal's number, who deals and who leads (or who won); where
/// an entry is open, New sheet, Undo (the last deal) and Clear (the
/// entry).
fn heading(ui: &mut egui::Ui, t: &crate::i18n::Texts, kept: &SavedSheet, shape: Heading) -> Option<Do> {
    let mut action = None;
    let sheet = &kept.kept;
    let words = match (sheet.is_over(), sheet.winner()) {
        (true, Some(team)) => t.fill("sheet.won", &[("team", &kept.team_names(team))]),
        (true, None) => t.get("sheet.tie"),
        (false, _) => {
            let number = (sheet.lines.len() + 1).to_string();
            let deals = match sheet.rules.match_length {
                MatchLength::Deals(n) => t.fill("sheet.deal_of", &[("n", &number), ("of", &n.to_string())]),
                _ => t.fill("sheet.deal", &[("n", &number)]),
            };
            let dealer = &kept.names[sheet.dealer().index()];
            let leader = &kept.names[sheet.leader().index()];
            t.fill("sheet.turn", &[("deal", &deals), ("dealer", dealer), ("leader", leader)])
        }
    };
    ui.horizontal(|ui| {
        let height = at_least_a_finger(ui, 0.0);
        let mut button = |ui: &mut egui::Ui, key: &str, target: &str, what: Do| {
            let response = ui.add_sized([0.0, height], egui::Button::new(RichText::new(t.get(key)).pt(15.0)));
            mark_target(ui, target, &response);
            if response.clicked() {
                action = Some(what);
            }
        };
        if shape == Heading::Picture {
            return;
        }
        button(ui, "menu.back", "sheet.back", Do::Back);
        if shape == Heading::Entry {
            button(ui, "sheet.new", "sheet.new", Do::NewSheet);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                button(ui, "sheet.clear", "sheet.clear", Do::Key(Key::Clear));
                if !sheet.lines.is_empty() && kept.correcting.is_none() {
                    button(ui, "sheet.undo", "sheet.undo", Do::Undo);
                }
            });
        }
    });
    ui.label(RichText::new(words).pt(17.0).color(Color32::WHITE).strong());
    action
}

/// The sheet as on paper: Wij and Zij, a line a deal (tap one to correct
/// it), the totals.
fn lines(ui: &mut egui::Ui, t: &crate::i18n::Texts, kept: &SavedSheet, shape: Lines) -> Option<Do> {
    let keypad = shape == Lines::AboveThePad;
    let mut action = None;
    let scored = kept.kept.sheet();
    let big = 22.0;
    let frame = egui::Frame::new().fill(CARD).corner_radius(10.0).inner_margin(egui::Margin::symmetric(8, 4));
    frame.show(ui, |ui| {
        ui.spacing_mut().item_spacing.y = 0.0;
        // A little short of the frame: egui adds a rounding's width at the edge.
        let width = ui.available_width() - 8.0;
        let number_width = 50.0;
        let column = (width - number_width - 16.0) / 2.0;
        let row = |ui: &mut egui::Ui, cells: [RichText; 3], fill: Option<Color32>| -> egui::Response {
            let (rect, response) = ui.allocate_exact_size(egui::vec2(width, big + 6.0), egui::Sense::click());
            if let Some(fill) = fill {
                ui.painter().rect_filled(rect, 4.0, fill);
            }
            let [n, wij, zij] = cells;
            let place = |ui: &mut egui::Ui, x: f32, w: f32, text: RichText, align: egui::Align| {
                let r =
                    egui::Rect::from_min_size(egui::pos2(rect.left() + x, rect.top()), egui::vec2(w, rect.height()));
                ui.scope_builder(
                    egui::UiBuilder::new()
                        .max_rect(r)
                        .layout(egui::Layout::left_to_right(egui::Align::Center).with_main_align(align)),
                    |ui| ui.add(egui::Label::new(text).selectable(false).truncate()),
                );
            };
            place(ui, 0.0, number_width, n, egui::Align::Min);
            place(ui, number_width, column, wij, egui::Align::Center);
            place(ui, number_width + column + 16.0, column, zij, egui::Align::Center);
            let x = rect.left() + number_width + column + 8.0;
            ui.painter().vline(x, rect.y_range(), egui::Stroke::new(1.5, INK));
            response
        };
        let head =
            |team: Team| RichText::new(t.get(&format!("sheet.team.{}", team.name()))).pt(big).strong().color(INK);
        row(ui, [RichText::new(""), head(Team::NS), head(Team::EW)], None);
        let names = |team: Team| RichText::new(kept.team_names(team)).pt(13.0).color(INK);
        // The players' names where the keypad leaves room (the heading
        // names the dealer and the leader while deals are entered).
        if !keypad {
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 0.0;
                ui.add_space(number_width);
                ui.add_sized([column, 16.0], egui::Label::new(names(Team::NS)).truncate());
                ui.add_space(16.0);
                ui.add_sized([column, 16.0], egui::Label::new(names(Team::EW)).truncate());
            });
        }
        ui.separator();
        // The lines scroll, the last in view; the totals stay below them.
        // Below the lines: the totals (and strokes), and at the end the key.
        let below = if kept.kept.rules.races_to_the_boem() { 2.0 } else { 1.0 } + if keypad { 0.0 } else { 1.4 };
        let room = match shape {
            Lines::Whole => f32::INFINITY,
            _ => (ui.available_height() - (big + 16.0) * below).max(big * 3.0),
        };
        egui::ScrollArea::vertical().max_height(room).stick_to_bottom(true).show(ui, |ui| {
            for (i, result) in scored.rows.iter().enumerate() {
                let line = &kept.kept.lines[i];
                let cell = |team: Team| {
                    let marks = result.marks(team);
                    let points =
                        if result.total(team) == 0 { "–".to_string() } else { result.sheet_points[team].to_string() };
                    let mut text = if marks.is_empty() { points } else { format!("{marks}  {points}") };
                    // Went on the boem: its strokes after the points.
                    if let Some(on) = result.going_on.filter(|g| g.team == team) {
                        text += &format!("  +{}", on.strokes);
                    }
                    RichText::new(text).pt(big).color(INK)
                };
                let mut number = format!("{}", i + 1);
                if result.revoke.is_some() {
                    number += " R";
                } else if result.nat {
                    number += " N";
                }
                if line.corrected {
                    number += "*";
                }
                let fill = (kept.correcting == Some(i + 1)).then_some(GOLD);
                let response =
                    row(ui, [RichText::new(number).pt(15.0).color(INK), cell(Team::NS), cell(Team::EW)], fill);
                // Only a line that shows whole can be tapped for sure.
                if ui.clip_rect().contains_rect(response.rect) {
                    mark_target(ui, &format!("sheet.line.{}", i + 1), &response);
                }
                if response.clicked() {
                    action = Some(Do::Correct(i + 1));
                }
            }
        });
        ui.separator();
        let sum = scored.totals();
        let total = |n: u32| RichText::new(n.to_string()).pt(big + 2.0).strong().color(INK);
        let said = RichText::new(t.get("sheet.total")).pt(13.0).color(INK);
        let response = row(ui, [said, total(sum.ns), total(sum.ew)], None);
        mark_target(ui, "sheet.totals", &response);
        if kept.kept.rules.races_to_the_boem() {
            let strokes = scored.strokes();
            let said = RichText::new(t.get("sheet.strokes")).pt(13.0).color(INK);
            let response = row(ui, [said, total(strokes.ns.into()), total(strokes.ew.into())], None);
            mark_target(ui, "sheet.strokes", &response);
        }
        if !keypad {
            let key = if kept.kept.rules.races_to_the_boem() { "sheet.key_boem" } else { "sheet.key" };
            ui.label(RichText::new(t.get(key)).pt(12.0).color(INK));
        }
    });
    action
}

/// The match over: the sheet to share, its picture, a new sheet.
fn finished(ui: &mut egui::Ui, t: &crate::i18n::Texts, kept: &SavedSheet, note: Option<&str>) -> Option<Do> {
    let mut action = None;
    let height = at_least_a_finger(ui, crate::platform::TOUCH_TARGET);
    ui.horizontal_wrapped(|ui| {
        let text = shared_text(t, kept);
        let button = |ui: &mut egui::Ui, key: &str, target: &str| {
            let words = RichText::new(t.get(key)).pt(18.0);
            let response = ui.add(egui::Button::new(words).min_size(egui::vec2(0.0, height)));
            mark_target(ui, target, &response);
            response.clicked()
        };
        // The sheet as text: Share on a phone, Copy elsewhere.
        if crate::platform::HAS_SHARE_SHEET {
            if button(ui, "sheet.share_button", "sheet.share")
                && let Err(e) = crate::platform::share(&text)
            {
                warn!("the score sheet could not be shared: {e}");
            }
        } else if crate::platform::HAS_CLIPBOARD {
            crate::forms::copy_button(ui, t, ("sheet.copy", "sheet.copied"), &text, Some(18.0));
        }
        if button(ui, crate::platform::PICTURE_WORDS, "sheet.picture") {
            action = Some(Do::Picture);
        }
        if button(ui, "sheet.new", "sheet.new") {
            action = Some(Do::NewSheet);
        }
        if button(ui, "sheet.undo", "sheet.undo") {
            action = Some(Do::Undo);
        }
    });
    if let Some(note) = note {
        ui.label(RichText::new(note).pt(14.0).color(INK));
    }
    action
}

/// The sheet as text to share: the game, the teams, the sheet as
/// `kj score` prints it.
pub fn shared_text(t: &crate::i18n::Texts, kept: &SavedSheet) -> String {
    let game = t.get(&format!("home.{}", kept.preset.name()));
    let wij = t.get("sheet.team.NS");
    let zij = t.get("sheet.team.EW");
    let names = PerTeam::new(wij.as_str(), zij.as_str());
    format!(
        "Klaverjas, {game}, {}: {wij} {}, {zij} {}\n{}",
        crate::platform::today(),
        kept.team_names(Team::NS),
        kept.team_names(Team::EW),
        kept.kept.sheet().render(names)
    )
}

/// The keypad: the team that played with its trump, the numbers, the
/// quick roem, pit, revoke, kraken, then the digits and OK.
pub(crate) fn pad(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    (p, rules, correcting): (&Keypad, &klaverjas::Rules, Option<usize>),
    (symbols, teams): (&[egui::TextureId], &PerTeam<String>),
    (roem_team, refusal): (&mut Option<Team>, Option<&str>),
) -> Option<Do> {
    let mut action = None;
    let gap = 6.0;
    ui.spacing_mut().item_spacing = egui::vec2(gap, gap);
    let width = ui.available_width() - 8.0;
    let key_height = at_least_a_finger(ui, 40.0);
    let cell = |n: f32| (width - gap * (n - 1.0)) / n;
    let mut tap = |a: Do| action = Some(a);
    if let Some(number) = correcting {
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(t.fill("sheet.correcting", &[("n", &number.to_string())])).pt(16.0).strong().color(INK),
            );
            let stop = ui.button(RichText::new(t.get("sheet.stop_correcting")).pt(16.0));
            mark_target(ui, "sheet.stop_correcting", &stop);
            if stop.clicked() {
                tap(Do::StopCorrecting);
            }
        });
    }
    // Who played, and trump: one tap.
    for team in Team::BOTH {
        ui.horizontal(|ui| {
            let label_width = cell(5.0);
            let words = RichText::new(teams[team].clone()).pt(20.0).strong().color(INK);
            ui.add_sized([label_width, key_height], egui::Label::new(words));
            for (i, &suit) in Suit::ALL.iter().enumerate() {
                let chosen = p.played == Some((team, suit));
                let response = ui.add_sized([label_width, key_height], egui::Button::new("").selected(chosen));
                paint_suit(ui.painter(), symbols[i], response.rect.center(), key_height * 0.32);
                mark_target(ui, &format!("sheet.played.{}.{}", team.name(), suit.letter()), &response);
                if response.clicked() {
                    tap(Do::Key(Key::Played(team, suit)));
                }
            }
        });
    }
    // The numbers: the playing team's card points (the others' follow),
    // and each team's roem; a tap chooses where the digits go.
    let most = rules.deal_points();
    let playing = p.played.map(|(team, _)| team);
    // In a boem a hand may end early: the other team's points are typed
    // too (until then they are the rest of the deal's).
    let boem = rules.races_to_the_boem();
    ui.horizontal(|ui| {
        for team in Team::BOTH {
            // The team tapped with its trump has the points field, the
            // other the others'; outside a boem either may be typed and
            // the other follows.
            let typed_for = playing.unwrap_or(Team::NS);
            let mine = team == typed_for;
            let points = match (mine, p.points, p.others) {
                (true, Some(n), _) | (false, _, Some(n)) => n.to_string(),
                (true, None, Some(o)) if !boem => most.saturating_sub(o).to_string(),
                (false, Some(n), None) => most.saturating_sub(n).to_string(),
                _ => "…".to_string(),
            };
            let field = if mine { Field::Points } else { Field::Others };
            let focus = p.focus == field;
            let text = t.fill("sheet.points_of", &[("team", &teams[team].clone()), ("n", &points)]);
            let response =
                ui.add_sized([cell(4.0), key_height], egui::Button::new(RichText::new(text).pt(17.0)).selected(focus));
            mark_target(ui, &format!("sheet.points.{}", team.name()), &response);
            if response.clicked() {
                tap(Do::Key(Key::Focus(field)));
            }
        }
        for team in Team::BOTH {
            let focus = p.focus == Field::Roem(team);
            let text = t.fill("sheet.roem_of", &[("n", &p.roem[team].to_string())]);
            let response =
                ui.add_sized([cell(4.0), key_height], egui::Button::new(RichText::new(text).pt(17.0)).selected(focus));
            mark_target(ui, &format!("sheet.roem.{}", team.name()), &response);
            if response.clicked() {
                tap(Do::Key(Key::Focus(Field::Roem(team))));
            }
        }
    });
    // Quick roem for the team last chosen for it (else the one that played).
    let values = klaverjas::roem::values(rules.roem_table);
    if !values.is_empty() {
        let team = roem_team.or(playing).unwrap_or(Team::NS);
        ui.horizontal(|ui| {
            let name = teams[team].clone();
            let switch =
                ui.add_sized([cell(6.0), key_height], egui::Button::new(RichText::new(name).pt(16.0).strong()));
            mark_target(ui, "sheet.roem_team", &switch);
            if switch.clicked() {
                *roem_team = Some(team.other());
            }
            // Stuk, then 20, 50 and 100 (a run, a longer one, four of a
            // kind or two runs), then the preset's higher values.
            let mut adds: Vec<u16> = vec![20, 50, 100];
            adds.extend(values.iter().filter(|&&v| v > 100));
            adds.dedup();
            let mut quick: Vec<(String, String, u16)> =
                vec![(t.get("sheet.stuk"), "stuk".to_string(), klaverjas::roem::STUK)];
            quick.extend(adds.into_iter().map(|v| (format!("+{v}"), v.to_string(), v)));
            // As many as fit a finger's width each (the rest are typed).
            let fit = ((width - cell(6.0)) / (52.0 + gap)).floor().max(1.0) as usize;
            let n = quick.len().min(fit) as f32;
            ui.spacing_mut().button_padding = egui::vec2(2.0, 2.0);
            for (words, name, value) in quick.into_iter().take(fit) {
                let response = ui.add_sized(
                    [(width - cell(6.0) - gap * n) / n, key_height],
                    egui::Button::new(RichText::new(words).pt(15.0)),
                );
                mark_target(ui, &format!("sheet.add_roem.{name}"), &response);
                if response.clicked() {
                    tap(Do::Key(Key::AddRoem(team, value)));
                }
            }
        });
    }
    // Pit, revoke, kraken, and in a boem who went on: to a team each,
    // in one row (a boem has no pit bonus, nor kraken).
    ui.horizontal(|ui| {
        let count = if rules.kraken { 5.0 } else { 4.0 };
        let small = cell(count);
        let mut toggle = |ui: &mut egui::Ui, words: String, on: bool, target: String, key: Key| {
            let text = RichText::new(words).pt(14.0);
            let response = ui.add_sized([small, key_height], egui::Button::new(text).wrap().selected(on));
            mark_target(ui, &target, &response);
            if response.clicked() {
                tap(Do::Key(key));
            }
        };
        for team in Team::BOTH {
            let name = teams[team].clone();
            if boem {
                // One button a team: out, then outright on two strokes,
                // then on one, then not.
                use klaverjas::Out;
                let (words, key) = match p.out {
                    Some(Out::ByPoints(t2)) if t2 == team => {
                        (t.fill("sheet.out", &[("team", &name)]), Key::Outright(team))
                    }
                    Some(Out::Outright(t2, n)) if t2 == team => {
                        (t.fill("sheet.outright_on", &[("team", &name), ("n", &n.to_string())]), Key::Outright(team))
                    }
                    _ => (t.fill("sheet.out", &[("team", &name)]), Key::Out(team)),
                };
                let on = p.out.is_some_and(|o| o.team() == team);
                toggle(ui, words, on, format!("sheet.out.{}", team.name()), key);
            } else {
                let words = t.fill("sheet.pit", &[("team", &name)]);
                toggle(ui, words, p.pit == Some(team), format!("sheet.pit.{}", team.name()), Key::Pit(team));
            }
        }
        for team in Team::BOTH {
            let name = teams[team].clone();
            let words = t.fill("sheet.revoke", &[("team", &name)]);
            toggle(ui, words, p.revoke == Some(team), format!("sheet.revoke.{}", team.name()), Key::Revoke(team));
        }
        if rules.kraken {
            let words = t.fill("sheet.doubles", &[("n", &p.doubles.to_string())]);
            toggle(ui, words, p.doubles > 0, "sheet.double".to_string(), Key::Double);
        }
    });
    if let Some(why) = refusal {
        ui.label(RichText::new(why).pt(16.0).color(REFUSED).strong());
    }
    // The digits in three rows of four, with erase, 0 and OK at the right.
    let erase = t.get("sheet.erase");
    for row in [["1", "2", "3", "erase"], ["4", "5", "6", "0"], ["7", "8", "9", "OK"]] {
        ui.horizontal(|ui| {
            for key in row {
                let text = match key {
                    "erase" => RichText::new(erase.as_str()).pt(18.0),
                    _ => RichText::new(key).pt(26.0).strong(),
                };
                let button = match key {
                    "OK" => egui::Button::new(text.color(Color32::BLACK)).fill(GOLD),
                    _ => egui::Button::new(text),
                };
                let response = ui.add_sized([cell(4.0), key_height], button);
                mark_target(ui, &format!("sheet.key.{key}"), &response);
                if response.clicked() {
                    tap(match key {
                        "OK" => Do::Enter,
                        "erase" => Do::Key(Key::Erase),
                        digit => Do::Key(Key::Digit(digit.parse().unwrap_or(0))),
                    });
                }
            }
        });
    }
    action
}
