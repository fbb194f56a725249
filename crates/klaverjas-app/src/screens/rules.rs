//! The rules page: the rules as they are played, generated from the rule
//! set itself (the match in play, else the one being set up).

use super::root_ui;
use crate::seats::Seats;
use crate::{Screen, SetupRules, Texts};
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::{Bidding, MatchLength, RoemClaim, RoemTable, Rules, Undertrump};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, rules_page.after(super::Zoom).run_if(in_state(Screen::Rules)));
}

pub fn rules_text(t: &crate::i18n::Texts, r: &Rules) -> Vec<String> {
    let mut out = vec![t.get("rules.cards"), t.get("rules.order")];
    out.push(t.get(match r.bidding {
        Bidding::TurnedCard => "rules.bidding.turned",
        Bidding::FreeChoice => "rules.bidding.free",
        Bidding::DealerFirst => "rules.bidding.dealer_first",
        Bidding::Mandatory => "rules.bidding.mandatory",
    }));
    out.push(t.get("rules.follow"));
    out.push(t.get(if r.following.trump_lead_overtrump { "rules.trump_lead.over" } else { "rules.trump_lead.any" }));
    out.push(t.get(if r.following.partner_exemption { "rules.exemption.yes" } else { "rules.exemption.no" }));
    out.push(t.get(match r.following.undertrump {
        Undertrump::Forbidden => "rules.undertrump.forbidden",
        Undertrump::Allowed => "rules.undertrump.allowed",
        Undertrump::Forced => "rules.undertrump.forced",
    }));
    out.push(t.get(match r.roem_table {
        RoemTable::Blog => "rules.roem.blog",
        RoemTable::Cards001 => "rules.roem.001",
        RoemTable::Nku => "rules.roem.nku",
    }));
    out.push(t.get(if r.roem_claim == RoemClaim::Manual { "rules.claim.manual" } else { "rules.claim.auto" }));
    out.push(
        t.fill("rules.scoring", &[("last", &r.last_trick_bonus.to_string()), ("total", &r.deal_points().to_string())]),
    );
    out.push(t.get(if r.pit_for_defenders { "rules.pit.both" } else { "rules.pit.playing" }));
    out.push(match r.match_length {
        MatchLength::Deals(n) => t.fill("rules.match.deals", &[("n", &n.to_string())]),
        MatchLength::Points(n) => t.fill("rules.match.points", &[("n", &n.to_string())]),
    });
    out
}

fn rules_page(
    mut contexts: EguiContexts,
    texts: Res<Texts>,
    seats: Option<Res<Seats>>,
    setup: Res<SetupRules>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    let rules = seats.map(|s| *s.m.rules()).unwrap_or(setup.0);
    egui::CentralPanel::default().show(&mut root_ui(&ctx), |ui| {
        ui.heading(t.get("menu.rules"));
        egui::ScrollArea::vertical().max_height(ui.available_height() - 50.0).show(ui, |ui| {
            for line in rules_text(t, &rules) {
                ui.label(RichText::new(line).size(16.0));
                ui.add_space(6.0);
            }
        });
        if ui.button(t.get("menu.back")).clicked() {
            next.set(Screen::Title);
        }
    });
    Ok(())
}
