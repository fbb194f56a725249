//! The title screen: continue, a new game, play with friends, the deals of
//! the day, the lessons, statistics, settings, the rules, quit.

use crate::friends::sitting::{BackToTable, Sitting};
use crate::look::Pt;
use crate::look::{on_the_felt, root_ui};
use crate::pictures::CardImages;
use crate::platform::TOUCH_TARGET;
use crate::save::Slot;
use crate::seats::{Kept, Seats};
use crate::state::Config;
use crate::state::Files;
use crate::state::PlayerSettings;
use crate::state::Screen;
use crate::state::SetupRules;
use crate::state::Texts;
use crate::state::TitleMessage;
use crate::words;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::Preset;

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, title.after(crate::look::Zoom).run_if(in_state(Screen::Title)));
}

#[allow(clippy::too_many_arguments)]
fn title(
    mut contexts: EguiContexts,
    texts: Res<Texts>,
    (seats, sitting, kept): (Option<Res<Seats>>, Option<Res<Sitting>>, Res<Kept>),
    mut message: ResMut<TitleMessage>,
    images: Res<CardImages>,
    mut settings: ResMut<PlayerSettings>,
    mut setup: ResMut<SetupRules>,
    files: Res<Files>,
    (config, device): (Res<Config>, Res<crate::platform::Device>),
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    (mut commands, mut events): (Commands, MessageWriter<crate::seats::GameEvent>),
    (mut shown, mut asking): (Local<bool>, Local<bool>),
    mut layout: Local<Layout>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    if !*shown {
        // The browser check times the title's layout to this line (its
        // letters, pipelines and frame still to come: `drawn`).
        info!("the title is up");
        *shown = true;
    }
    let t = &texts.0;
    let messages: Vec<String> =
        message.0.iter().map(|m| words::title_note(m, t)).chain(images.problem.clone()).collect();
    // Each kind of game in progress is continued on its own: the match,
    // the day's deals (finished ones show their result on the day's screen).
    let continues: Vec<(Slot, String, &str)> = [
        kept.game.map(|g| (Slot::Match, t.fill("menu.continue_match", &[("n", &g.deal.to_string())]), "continue")),
        kept.day
            .filter(|d| !d.over)
            .map(|d| (Slot::Day, t.fill("daily.continue", &[("n", &d.deal.to_string())]), "continue.day")),
    ]
    .into_iter()
    .flatten()
    .collect();
    // A score sheet being kept at a table with real cards.
    let sheet = kept.sheet.map(|deal| t.fill("menu.continue_sheet", &[("n", &deal.to_string())]));
    let mut resume = None;
    // Read as the title opened, not from the disk every frame.
    let chair_kept = sitting.is_none() && kept.chair;
    let mut quick_start = false;
    // Asked at the first start, not of a player who is at a table already
    // (the menus from a friends' table, joined by its link).
    let at_a_table = sitting.is_some() || seats.as_deref().is_some_and(|s| s.remote().is_some());
    if settings.0.home_rules.is_none() && !config.0.demo && !at_a_table {
        if let Some((p, new)) = home_rules_question(&ctx, t) {
            if new {
                next.set(Screen::Lessons);
                // A newcomer is shown where a trick holds roem, and the
                // table goes at a pace they can follow.
                settings.0.point_out_roem = true;
                settings.0.speed = crate::settings::Speed::Slow;
            }
            settings.0.home_rules = Some(p);
            *setup = SetupRules::of(p, &settings.0);
            if let Err(e) = files.0.write_settings(&settings.0) {
                warn!("{e}");
            }
        }
        return Ok(());
    }
    // Every way on, in order: back to a table, the games to continue, the
    // quick start, then the rest. The first is gold.
    let mut ways: Vec<(String, &str, Go)> = Vec::new();
    if chair_kept || sitting.is_some() {
        // A chair at a table with friends, left for the menus or kept from
        // a reload or a restart: back to it first, while the table lasts.
        ways.push((t.get("friends.back_to_table"), "table.back", Go::BackToTable));
    }
    // Still seated: the menus do not leave the table, and the player is told.
    let seated = sitting
        .as_deref()
        .and_then(|s| s.code)
        .map(|code| t.fill("title.still_seated", &[("code", &code.to_string())]));
    ways.extend(continues.into_iter().map(|(slot, words, target)| (words, target, Go::Resume(slot))));
    ways.extend(sheet.map(|words| (words, "continue.sheet", Go::To(Screen::Sheet))));
    // One tap to a dealt hand: the last game started, as it was set.
    let quick = settings.0.quick_preset();
    let quick_words = t.fill("menu.quick", &[("game", &t.get(&format!("home.{}", quick.name())))]);
    ways.push((quick_words, "quick", Go::Quick));
    for (key, target, go) in [
        ("menu.new_game", "new_game", Go::To(Screen::NewGame)),
        ("menu.friends", "friends", Go::To(Screen::Friends)),
        ("menu.daily", "daily", Go::Daily),
        ("menu.sheet", "sheet", Go::To(Screen::Sheet)),
        ("menu.evening", "evening", Go::To(Screen::Evening)),
        ("menu.tutorial", "tutorial", Go::To(Screen::Lessons)),
        ("menu.statistics", "statistics", Go::To(Screen::Statistics)),
        ("menu.settings", "settings", Go::To(Screen::Settings)),
        ("menu.rules", "rules", Go::To(Screen::Rules)),
    ] {
        ways.push((t.get(key), target, go));
    }
    if crate::platform::has_quit(device.0) {
        ways.push((t.get("menu.quit"), "quit", Go::Quit));
    }
    let mut chosen = None;
    on_the_felt(0.0).show(&mut root_ui(&ctx), |ui| {
        // A note about a lost save, or text made larger, may not fit.
        let window = ui.available_height();
        let scrolled = egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                // A phone held sideways, or a window whose column the last
                // frame overflowed (games to continue, a note), keeps every
                // way in view: first without the subtitle, the quick start's
                // line and the room above; then a smaller name and the ways
                // two or three abreast.
                let short = window < 420.0 || (layout.abreast > 1 && window < 600.0);
                // Squeezed, what the window has to spare goes above.
                layout.above = if layout.tight {
                    (layout.spare * 0.4).min(window * 0.12)
                } else {
                    window * if window > 600.0 { 0.12 } else { 0.04 }
                };
                ui.add_space(layout.above);
                let name = if short { 40.0 } else { 56.0 };
                ui.label(RichText::new("Klaverjas").size(name_size(ui, name)).color(Color32::WHITE).strong());
                if !short && !layout.tight {
                    ui.label(RichText::new(t.get("title.subtitle")).pt(18.0).color(Color32::from_gray(230)));
                }
                ui.add_space(if short { 8.0 } else { 24.0 });
                let note_width = (ui.available_width() - 40.0).min(560.0);
                for m in messages {
                    egui::Frame::new()
                        .fill(Color32::from_rgb(255, 225, 160))
                        .inner_margin(10.0)
                        .corner_radius(8.0)
                        .show(ui, |ui| {
                            ui.set_width(note_width);
                            ui.label(RichText::new(&m).color(Color32::BLACK).pt(16.0));
                        });
                    ui.add_space(12.0);
                }
                let height = crate::look::at_least_a_finger(ui, TOUCH_TARGET);
                let wanted = layout.abreast.max(if window < 420.0 { 2 } else { 1 });
                let abreast = wanted.min(((ui.available_width() + 8.0) / 148.0).floor().max(1.0) as usize);
                let width = (((ui.available_width() - 16.0).min(280.0 * abreast as f32) + 8.0) / abreast as f32 - 9.0)
                    .floor()
                    .min(280.0);
                let mut button = |ui: &mut egui::Ui, i: usize, (words, target, go): &(String, &str, Go)| {
                    // Abreast, two lines of smaller words fit a finger's height.
                    let mut text = RichText::new(words.as_str()).pt(if abreast > 1 { 15.0 } else { 20.0 });
                    if i == 0 {
                        text = text.strong();
                    }
                    let mut button = egui::Button::new(text).wrap();
                    if i == 0 {
                        button = button.fill(crate::look::GOLD);
                    }
                    let response = ui.add_sized([width, height], button);
                    crate::forms::mark_target(ui, target, &response);
                    if response.clicked() {
                        chosen = Some(go.clone());
                    }
                };
                let quick_at = ways.iter().position(|w| matches!(w.2, Go::Quick));
                for (row, chunk) in ways.chunks(abreast).enumerate() {
                    ui.horizontal(|ui| {
                        // Centred: the row is as wide as its buttons.
                        ui.spacing_mut().item_spacing.x = 8.0;
                        let wide = width * chunk.len() as f32 + 8.0 * (chunk.len() - 1) as f32;
                        // The space is followed by a spacing of its own.
                        let lead = (ui.available_width() - wide) / 2.0;
                        if lead >= 8.0 {
                            ui.add_space(lead - 8.0);
                        }
                        for (j, way) in chunk.iter().enumerate() {
                            button(ui, row * abreast + j, way);
                        }
                    });
                    if row == 0
                        && let Some(seated) = &seated
                    {
                        let said = ui.label(RichText::new(seated).pt(14.0).color(Color32::from_gray(230)));
                        crate::forms::mark_target(ui, "title.still_seated", &said);
                    }
                    // What the quick start deals, beside New game's choice,
                    // where a column has room for it.
                    if abreast == 1 && quick_at == Some(row) && !short && !layout.tight {
                        let line =
                            if settings.0.last_preset.is_some() { "menu.quick_line" } else { "menu.quick_line_home" };
                        ui.label(RichText::new(t.get(line)).pt(14.0).color(Color32::from_gray(230)));
                    }
                }
            })
        });
        layout.measured(window, scrolled.content_size.y);
    });
    match chosen {
        // Still seated: straight back to the table, or its waiting room.
        Some(Go::BackToTable) if sitting.is_some() => {
            let at_table = seats.as_deref().is_some_and(|s| s.remote().is_some());
            next.set(if at_table { Screen::Table } else { Screen::Friends });
        }
        Some(Go::BackToTable) => {
            commands.insert_resource(BackToTable);
            next.set(Screen::Friends);
        }
        Some(Go::Resume(slot)) => resume = Some(slot),
        Some(Go::Quick) => quick_start = true,
        Some(Go::To(screen)) => next.set(screen),
        Some(Go::Daily) => {
            // Today's deals, of the game the player knows.
            let preset = settings.0.home_rules.unwrap_or(Preset::Classic);
            commands.insert_resource(crate::state::DayChosen { day: crate::platform::today(), preset });
            next.set(Screen::Daily);
        }
        Some(Go::Quit) => {
            exit.write(AppExit::Success);
        }
        None => {}
    }
    if let Some(slot) = resume {
        let level = settings.0.bot_level.level();
        if crate::seats::take_up(&mut commands, &mut events, (&files.0, seats.as_deref(), level), slot) {
            next.set(Screen::Table);
        }
    }
    // A match in progress is not replaced unasked.
    let quick_start = super::new_game::start_confirmed(&ctx, t, kept.game, quick_start, &mut asking);
    if quick_start {
        let chosen = SetupRules::of(settings.0.quick_preset(), &settings.0);
        super::new_game::begin(
            chosen,
            &mut settings.0,
            &files.0,
            &mut message,
            super::new_game::FirstDeal::Shuffled,
            (&mut commands, &mut events),
        );
        next.set(Screen::Table);
    }
    Ok(())
}

/// Where a title's button leads.
#[derive(Clone)]
enum Go {
    BackToTable,
    Resume(Slot),
    Quick,
    To(Screen),
    /// Today's deals.
    Daily,
    Quit,
}

/// How the title fits its window: a column with room around it, until a
/// frame's column is taller than the window; then a tight column, then two
/// and three buttons abreast, until the window grows.
#[derive(Default)]
struct Layout {
    tight: bool,
    abreast: usize,
    /// The window's height when the buttons last went abreast.
    since: f32,
    /// The room left below the last frame's buttons, less the space put
    /// above them, and that space.
    spare: f32,
    above: f32,
}

impl Layout {
    fn measured(&mut self, window: f32, content: f32) {
        self.spare = (window - (content - self.above)).max(0.0);
        self.abreast = self.abreast.max(1);
        if content > window + 0.5 && (!self.tight || self.abreast < 3) {
            if self.tight {
                self.abreast += 1;
            }
            self.tight = true;
            self.since = window;
        } else if self.tight && window > self.since + 1.0 {
            (self.tight, self.abreast) = (false, 1);
        }
    }
}

/// The first start asks which rules the player knows: club players play
/// Amsterdam or Rotterdam, and a default of another game would surprise
/// them; a newcomer is sent to the lessons, and that answer comes first.
/// The presets are compact buttons by table, their lines on hover, so the
/// whole question fits a phone held either way without scrolling. Returns
/// the answer once given, and whether the player is new.
fn home_rules_question(ctx: &egui::Context, t: &crate::i18n::Texts) -> Option<(Preset, bool)> {
    let mut answer = None;
    on_the_felt(8.0).show(&mut root_ui(ctx), |ui| {
        // What does not fit a short window (text made larger) scrolls.
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                // The name and the last lines where the window has room.
                let tall = ui.available_height() > 600.0;
                if tall {
                    ui.add_space(ui.available_height() * 0.04);
                    ui.label(RichText::new("Klaverjas").size(name_size(ui, 48.0)).color(Color32::WHITE).strong());
                    ui.add_space(8.0);
                }
                egui::Frame::new().fill(crate::look::CARD).corner_radius(14.0).inner_margin(14.0).show(ui, |ui| {
                    ui.set_width(640.0_f32.min(ui.available_width() - 16.0));
                    ui.vertical(|ui| {
                        ui.label(RichText::new(t.get("first.question")).pt(22.0).strong());
                        ui.add_space(4.0);
                        // A newcomer gets the lessons, and the game they teach.
                        let new = egui::Button::new(RichText::new(t.get("first.new")).pt(20.0).strong())
                            .fill(crate::look::GOLD)
                            .wrap();
                        let height = crate::look::at_least_a_finger(ui, TOUCH_TARGET);
                        let response = ui.add_sized([ui.available_width(), height], new);
                        crate::forms::mark_target(ui, "first.new", &response);
                        if response.clicked() {
                            answer = Some((Preset::Classic, true));
                        }
                        // A phone held sideways has room for the buttons only.
                        if ui.available_height() > 320.0 {
                            ui.label(RichText::new(t.get("first.new_line")).pt(14.0));
                        }
                        ui.add_space(4.0);
                        if let Some(p) = crate::forms::preset_buttons(ui, t, None, true) {
                            answer = Some((p, false));
                        }
                        if tall {
                            ui.add_space(6.0);
                            ui.label(RichText::new(t.get("first.explain")).pt(14.0));
                        }
                    });
                });
            })
        });
    });
    answer
}

/// The game's name, `size` points at the player's text size, but never
/// broken over two lines: it is as wide as the screen at most.
fn name_size(ui: &egui::Ui, size: f32) -> f32 {
    crate::look::scaled(ui.ctx(), size).min(ui.available_width() / 5.0)
}
