//! The title screen: continue, a new game, play with friends, the deals of
//! the day, the lessons, statistics, settings, the rules, quit.

use crate::forms::big_button;
use crate::friends::sitting::{BackToTable, KeptChair, Sitting};
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
    let can_continue = !continues.is_empty();
    let mut resume = None;
    let chair_kept = sitting.is_none() && KeptChair::read(&files.0).is_some();
    let mut quick_start = false;
    if settings.0.home_rules.is_none() && !config.0.demo {
        if let Some((p, new)) = home_rules_question(&ctx, t) {
            if new {
                next.set(Screen::Lessons);
                // A newcomer is shown where a trick holds roem.
                settings.0.point_out_roem = true;
            }
            settings.0.home_rules = Some(p);
            *setup = SetupRules::of(p, &settings.0);
            if let Err(e) = files.0.write_settings(&settings.0) {
                warn!("{e}");
            }
        }
        return Ok(());
    }
    on_the_felt(0.0).show(&mut root_ui(&ctx), |ui| {
        // A note about a lost save, or text made larger, may not fit.
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                // A phone held sideways keeps the ways to a table in view:
                // a smaller name, less room around it.
                let short = ui.available_height() < 420.0;
                ui.add_space(ui.available_height() * if ui.available_height() > 600.0 { 0.12 } else { 0.04 });
                let name = if short { 40.0 } else { 56.0 };
                ui.label(RichText::new("Klaverjas").size(name).color(Color32::WHITE).strong());
                ui.label(RichText::new(t.get("title.subtitle")).size(18.0).color(Color32::from_gray(230)));
                ui.add_space(if short { 8.0 } else { 24.0 });
                let note_width = (ui.available_width() - 40.0).min(560.0);
                for m in messages {
                    egui::Frame::new()
                        .fill(Color32::from_rgb(255, 225, 160))
                        .inner_margin(10.0)
                        .corner_radius(8.0)
                        .show(ui, |ui| {
                            ui.set_width(note_width);
                            ui.label(RichText::new(&m).color(Color32::BLACK).size(16.0));
                        });
                    ui.add_space(12.0);
                }
                let height = crate::look::at_least_a_finger(ui, TOUCH_TARGET);
                let width = ui.available_width().min(280.0);
                // The first button is gold: the game in play, else a new one.
                let first = |text: String| {
                    egui::Button::new(RichText::new(text).size(20.0).strong())
                        .fill(crate::look::GOLD)
                        .min_size([width, height].into())
                };
                // A chair kept at a table with friends (a reload, a
                // restart): back to it first, while the table lasts.
                if chair_kept {
                    let response = ui.add(first(t.get("friends.back_to_table")));
                    crate::forms::mark_target(ui, "table.back", &response);
                    if response.clicked() {
                        commands.insert_resource(BackToTable);
                        next.set(Screen::Friends);
                    }
                }
                for (i, (slot, words, target)) in continues.into_iter().enumerate() {
                    let response = if chair_kept || i > 0 { big_button(ui, words) } else { ui.add(first(words)) };
                    crate::forms::mark_target(ui, target, &response);
                    if response.clicked() {
                        resume = Some(slot);
                    }
                }
                // One tap to a dealt hand: the last game started, as it was set.
                let quick = settings.0.quick_preset();
                let words = t.fill("menu.quick", &[("game", &t.get(&format!("home.{}", quick.name())))]);
                let response = if can_continue || chair_kept { big_button(ui, words) } else { ui.add(first(words)) };
                crate::forms::mark_target(ui, "quick", &response);
                // What the quick start deals, beside New game's choice.
                let line = if settings.0.last_preset.is_some() { "menu.quick_line" } else { "menu.quick_line_home" };
                ui.label(RichText::new(t.get(line)).size(14.0).color(Color32::from_gray(230)));
                quick_start = response.clicked();
                // The other ways in, a column; two abreast on a phone held
                // sideways, where a column would push the day's deals out of view.
                let mut entries = vec![
                    ("menu.new_game", "new_game", Go::To(Screen::NewGame)),
                    ("menu.friends", "friends", Go::To(Screen::Friends)),
                    ("menu.daily", "daily", Go::Daily),
                    ("menu.tutorial", "tutorial", Go::To(Screen::Lessons)),
                    ("menu.statistics", "statistics", Go::To(Screen::Statistics)),
                    ("menu.settings", "settings", Go::To(Screen::Settings)),
                    ("menu.rules", "rules", Go::To(Screen::Rules)),
                ];
                if crate::platform::has_quit(device.0) {
                    entries.push(("menu.quit", "quit", Go::Quit));
                }
                let mut chosen = None;
                let mut button = |ui: &mut egui::Ui, (key, target, go): &(&str, &str, Go), width: f32| {
                    let text = RichText::new(t.get(key)).size(20.0);
                    let response = ui.add_sized([width, height], egui::Button::new(text).wrap());
                    crate::forms::mark_target(ui, target, &response);
                    if response.clicked() {
                        chosen = Some(go.clone());
                    }
                };
                if short {
                    let half = (ui.available_width().min(2.0 * width) - 8.0) / 2.0;
                    for pair in entries.chunks(2) {
                        ui.horizontal(|ui| {
                            // Centred: the row is as wide as its buttons.
                            let row = half * pair.len() as f32 + 8.0 * (pair.len() - 1) as f32;
                            ui.add_space((ui.available_width() - row).max(0.0) / 2.0);
                            pair.iter().for_each(|entry| button(ui, entry, half));
                        });
                    }
                } else {
                    entries.iter().for_each(|entry| button(ui, entry, width));
                }
                match chosen {
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
            })
        });
    });
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
    To(Screen),
    /// Today's deals.
    Daily,
    Quit,
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
                    ui.label(RichText::new("Klaverjas").size(48.0).color(Color32::WHITE).strong());
                    ui.add_space(8.0);
                }
                egui::Frame::new().fill(crate::look::CARD).corner_radius(14.0).inner_margin(14.0).show(ui, |ui| {
                    ui.set_width(640.0_f32.min(ui.available_width() - 16.0));
                    ui.vertical(|ui| {
                        ui.label(RichText::new(t.get("first.question")).size(22.0).strong());
                        ui.add_space(4.0);
                        // A newcomer gets the lessons, and the game they teach.
                        let new = egui::Button::new(RichText::new(t.get("first.new")).size(20.0).strong())
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
                            ui.label(RichText::new(t.get("first.new_line")).size(14.0));
                        }
                        ui.add_space(4.0);
                        if let Some(p) = crate::forms::preset_buttons(ui, t, None, true) {
                            answer = Some((p, false));
                        }
                        if tall {
                            ui.add_space(6.0);
                            ui.label(RichText::new(t.get("first.explain")).size(14.0));
                        }
                    });
                });
            })
        });
    });
    answer
}
