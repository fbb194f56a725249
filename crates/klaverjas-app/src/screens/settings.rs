//! The settings screen: the language, the text size and contrast, the
//! deck, the speed of the table, the bots' strength, the rules played at
//! home, the table's helps and its sound. A change shows at once and is
//! written at once.

use crate::forms::form;
use crate::forms::narrow_layout;
use crate::forms::option_label;
use crate::forms::page;
use crate::panels::paint::texture;
use crate::pictures::CardImages;
use crate::settings::{BotLevel, Language, Skin, Speed};
use crate::state::Files;
use crate::state::PlayerSettings;
use crate::state::Screen;
use crate::state::SetupRules;
use crate::state::Texts;
use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::{Card, Preset, Rank, Suit};
use klaverjas_cards::Face;

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, settings.after(crate::look::Zoom).run_if(in_state(Screen::Settings)));
}

fn settings(
    mut contexts: EguiContexts,
    mut texts: ResMut<Texts>,
    mut settings: ResMut<PlayerSettings>,
    images: Res<CardImages>,
    files: Res<Files>,
    mut setup: ResMut<SetupRules>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let preview: Vec<egui::TextureId> = [
        Face::Card(Card::new(Suit::Hearts, Rank::Jack)),
        Face::Card(Card::new(Suit::Hearts, Rank::Nine)),
        Face::Card(Card::new(Suit::Clubs, Rank::Ace)),
        Face::Card(Card::new(Suit::Diamonds, Rank::Queen)),
        Face::Back,
    ]
    .into_iter()
    .map(|f| texture(&mut contexts, &images, f))
    .collect();
    let ctx = contexts.ctx_mut()?.clone();
    let t = texts.0.clone();
    let mut s = settings.0.clone();
    page(&ctx, t.get("menu.settings"), |ui| {
        let (narrow, _) = narrow_layout(ui);
        // A label column wider than any label in either language, and the
        // language first: switching it moves no control under the pointer.
        let label_width = 240.0;
        form(ui, "settings", narrow, label_width, |ui| {
            let label = |ui: &mut egui::Ui, key: &str| option_label(ui, t.get(key), narrow);
            label(ui, "settings.language");
            ui.horizontal_wrapped(|ui| {
                ui.radio_value(&mut s.language, Language::English, "English");
                ui.radio_value(&mut s.language, Language::Dutch, "Nederlands");
                ui.radio_value(&mut s.language, Language::Afrikaans, "Afrikaans");
            });
            ui.end_row();
            // Second: a player who cannot read the rest finds it soon.
            label(ui, "settings.text_size");
            ui.vertical(|ui| {
                ui.horizontal_wrapped(|ui| {
                    for size in crate::settings::TEXT_SIZES {
                        ui.radio_value(&mut s.text_size, size, format!("{size} %"));
                    }
                });
                ui.checkbox(&mut s.high_contrast, t.get("settings.high_contrast"));
            });
            ui.end_row();
            label(ui, "settings.skin");
            ui.horizontal_wrapped(|ui| {
                ui.radio_value(&mut s.skin, Skin::French, t.get("skin.french"));
                ui.radio_value(&mut s.skin, Skin::FrenchFourColour, t.get("skin.four"));
                ui.radio_value(&mut s.skin, Skin::Swiss, t.get("skin.swiss"));
            });
            ui.end_row();
        });
        // A few cards of the chosen skin, so a change shows at once.
        ui.horizontal(|ui| {
            if !narrow {
                ui.add_space(label_width + 16.0);
            }
            // Five cards across whatever the width.
            let card = ((ui.available_width() - 40.0) / 5.0).min(64.0);
            for &id in &preview {
                ui.add(egui::Image::new((id, egui::vec2(card, card * 1.45))));
            }
        });
        ui.add_space(8.0);
        form(ui, "settings2", narrow, label_width, |ui| {
            let label = |ui: &mut egui::Ui, key: &str| option_label(ui, t.get(key), narrow);
            label(ui, "settings.speed");
            ui.horizontal_wrapped(|ui| {
                for (v, k) in [
                    (Speed::Slow, "speed.slow"),
                    (Speed::Normal, "speed.normal"),
                    (Speed::Fast, "speed.fast"),
                    (Speed::Instant, "speed.instant"),
                ] {
                    ui.radio_value(&mut s.speed, v, t.get(k));
                }
            });
            ui.end_row();
            label(ui, "settings.bots");
            ui.horizontal_wrapped(|ui| {
                ui.radio_value(&mut s.bot_level, BotLevel::Heuristic, t.get("level.heuristic"));
                ui.radio_value(&mut s.bot_level, BotLevel::Expert, t.get("level.expert"));
            });
            ui.end_row();
        });
        // Seven presets wrap over several lines, which a grid's row does
        // not make room for: the next row's options would stand beside
        // this label. They get their own block.
        ui.add_space(6.0);
        ui.label(t.get("settings.home_rules"));
        ui.horizontal_wrapped(|ui| {
            for p in Preset::ALL {
                ui.radio_value(&mut s.home_rules, Some(p), t.get(&format!("home.{}", p.name())));
            }
        });
        ui.add_space(6.0);
        form(ui, "settings3", narrow, label_width, |ui| {
            let label = |ui: &mut egui::Ui, key: &str| option_label(ui, t.get(key), narrow);
            label(ui, "settings.table");
            ui.vertical(|ui| {
                ui.checkbox(&mut s.show_points, t.get("settings.show_points"));
                ui.checkbox(&mut s.point_out_roem, t.get("settings.point_out_roem"));
                ui.checkbox(&mut s.tap_to_lift, t.get("settings.tap_to_lift"));
            });
            ui.end_row();
            label(ui, "settings.sound");
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut s.sound, t.get("settings.sound_on"));
                ui.add_enabled(
                    s.sound,
                    egui::Slider::new(&mut s.volume, 0..=100).text(t.get("settings.volume")).suffix(" %"),
                );
            });
            ui.end_row();
        });
        ui.add_space(16.0);
        if crate::forms::big_button(ui, t.get("menu.back")).clicked() {
            next.set(Screen::Title);
        }
    });
    if s != settings.0 {
        if s.home_rules != settings.0.home_rules
            && let Some(p) = s.home_rules
        {
            *setup = SetupRules::of(p, &s);
        }
        texts.0 = crate::i18n::Texts::load(s.language, s.skin);
        if let Err(e) = files.0.write_settings(&s) {
            warn!("{e}");
        }
        settings.0 = s;
    }
    Ok(())
}
