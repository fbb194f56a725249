//! The settings screen: the deck, the speed of the table, the bots'
//! strength and the language. A change shows at once and is written at
//! once.

use super::{narrow_layout, option_label, root_ui};
use crate::pictures::CardImages;
use crate::settings::{BotLevel, Language, Skin, Speed};
use crate::table::overlay::texture;
use crate::{Files, PlayerSettings, Screen, Texts};
use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::{Card, Rank, Suit};
use klaverjas_cards::Face;

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, settings.after(super::Zoom).run_if(in_state(Screen::Settings)));
}

fn settings(
    mut contexts: EguiContexts,
    mut texts: ResMut<Texts>,
    mut settings: ResMut<PlayerSettings>,
    images: Res<CardImages>,
    files: Res<Files>,
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
    egui::CentralPanel::default().show(&mut root_ui(&ctx), |ui| {
        ui.heading(t.get("menu.settings"));
        let (narrow, _) = narrow_layout(ui);
        egui::Grid::new("settings").num_columns(2).spacing([16.0, 10.0]).show(ui, |ui| {
            let label = |ui: &mut egui::Ui, key: &str| option_label(ui, t.get(key), narrow);
            label(ui, "settings.skin");
            ui.horizontal_wrapped(|ui| {
                ui.radio_value(&mut s.skin, Skin::French, t.get("skin.french"));
                ui.radio_value(&mut s.skin, Skin::FrenchFourColour, t.get("skin.four"));
                ui.radio_value(&mut s.skin, Skin::Swiss, t.get("skin.swiss"));
            });
            ui.end_row();
            if !narrow {
                ui.label("");
            }
            // A few cards of the chosen skin, so a change shows at once.
            ui.horizontal(|ui| {
                for &id in &preview {
                    ui.add(egui::Image::new((id, egui::vec2(72.0, 72.0 * 1.45))));
                }
            });
            ui.end_row();
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
            label(ui, "settings.language");
            ui.horizontal_wrapped(|ui| {
                ui.radio_value(&mut s.language, Language::English, "English");
                ui.radio_value(&mut s.language, Language::Dutch, "Nederlands");
            });
            ui.end_row();
        });
        ui.add_space(16.0);
        if ui.button(t.get("menu.back")).clicked() {
            next.set(Screen::Title);
        }
    });
    if s != settings.0 {
        texts.0 = crate::i18n::Texts::load(s.language, s.skin);
        if let Err(e) = files.0.write(&files.0.settings_path(), &s) {
            warn!("{e}");
        }
        settings.0 = s;
    }
    Ok(())
}
