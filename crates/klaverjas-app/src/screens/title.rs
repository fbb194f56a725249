//! The title screen: continue, a new game, settings, the rules, quit.

use super::{FELT, big_button, root_ui};
use crate::pictures::CardImages;
use crate::seats::Seats;
use crate::{Screen, Texts, TitleMessage, words};
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, title.after(super::Zoom).run_if(in_state(Screen::Title)));
}

fn title(
    mut contexts: EguiContexts,
    texts: Res<Texts>,
    seats: Option<Res<Seats>>,
    message: Res<TitleMessage>,
    images: Res<CardImages>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    let messages: Vec<String> =
        message.0.iter().map(|m| words::title_note(m, t)).chain(images.problem.clone()).collect();
    let can_continue = seats.is_some();
    egui::CentralPanel::default().frame(egui::Frame::new().fill(FELT)).show(&mut root_ui(&ctx), |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.12);
            ui.label(RichText::new("Klaverjas").size(56.0).color(Color32::WHITE).strong());
            ui.label(RichText::new(t.get("title.subtitle")).size(18.0).color(Color32::from_gray(230)));
            ui.add_space(24.0);
            for m in messages {
                egui::Frame::new().fill(Color32::from_rgb(255, 225, 160)).inner_margin(10.0).corner_radius(8.0).show(
                    ui,
                    |ui| {
                        ui.set_max_width(520.0);
                        ui.label(RichText::new(&m).color(Color32::BLACK).size(16.0));
                    },
                );
                ui.add_space(12.0);
            }
            let button =
                |text: String| egui::Button::new(RichText::new(text).size(20.0)).min_size([280.0, 44.0].into());
            if ui.add_enabled(can_continue, button(t.get("menu.continue"))).clicked() {
                next.set(Screen::Table);
            }
            if big_button(ui, t.get("menu.new_game")).clicked() {
                next.set(Screen::NewGame);
            }
            ui.add_enabled(false, button(t.get("menu.tutorial"))).on_disabled_hover_text(t.get("menu.tutorial_soon"));
            if big_button(ui, t.get("menu.settings")).clicked() {
                next.set(Screen::Settings);
            }
            if big_button(ui, t.get("menu.rules")).clicked() {
                next.set(Screen::Rules);
            }
            if big_button(ui, t.get("menu.quit")).clicked() {
                exit.write(AppExit::Success);
            }
        });
    });
    Ok(())
}
