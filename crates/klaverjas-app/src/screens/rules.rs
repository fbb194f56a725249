//! The rules page: the rules as they are played, generated from the rule
//! set itself (the match in play, else the one being set up).

use crate::forms::page;
use crate::look::Pt;
use crate::seats::Seats;
use crate::state::Screen;
use crate::state::SetupRules;
use crate::state::Texts;
use bevy::prelude::*;
use bevy_egui::egui::RichText;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::{Bidding, MatchLength, RoemClaim, RoemTable, Rules, Undertrump};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, rules_page.after(crate::look::Zoom).run_if(in_state(Screen::Rules)));
}

/// The rules in sections, each a heading and its paragraphs, ending with a
/// worked example of a deal's count under these rules.
pub fn rules_text(t: &crate::i18n::Texts, r: &Rules) -> Vec<(String, Vec<String>)> {
    let three = r.players == klaverjas::Players::Three;
    let two = r.players == klaverjas::Players::Two;
    let mut cards = vec![t.get(match r.players {
        klaverjas::Players::Four => "rules.cards",
        klaverjas::Players::Three => "rules.cards.three",
        klaverjas::Players::Two => "rules.cards.two",
    })];
    cards.push(t.get(match r.card_values {
        klaverjas::CardValues::Dutch => "rules.order",
        klaverjas::CardValues::SouthAfrican => "rules.order.sa",
    }));
    if r.direction == klaverjas::Direction::AntiClockwise {
        cards.push(t.get("rules.anti_clockwise"));
    }
    let mut trump = vec![t.get(match r.bidding {
        Bidding::TurnedCard => "rules.bidding.turned",
        Bidding::FreeChoice if r.redeal_on_all_pass => "rules.bidding.free.redeal",
        Bidding::FreeChoice => "rules.bidding.free",
        Bidding::DealerFirst => "rules.bidding.dealer_first",
        Bidding::Mandatory => "rules.bidding.mandatory",
        Bidding::LastCardDealt => "rules.bidding.last_card",
        Bidding::TwoRounds => "rules.bidding.two_rounds",
    })];
    if three {
        trump.push(t.get("rules.talon"));
    }
    if two {
        trump.push(t.get("rules.stock"));
    }
    let f = &r.following;
    let south_african = [
        (f.trump_instead_of_following, "rules.trump_instead"),
        (f.free_when_void, "rules.free_when_void"),
        (f.jack_never_forced, "rules.jack_never_forced"),
    ];
    // Where a void player need not trump, the Dutch duty to trump and its
    // exemption for a winning partner do not arise.
    // South African following in one sentence, so that following and
    // trumping instead do not read as two rules that contradict.
    let sa_follow = f.free_when_void && f.trump_instead_of_following;
    let follow = match (sa_follow, f.free_when_void) {
        (true, _) => "rules.follow.sa",
        (false, true) => "rules.follow_only",
        (false, false) => "rules.follow",
    };
    let mut play = vec![
        t.get(follow),
        t.get(match (f.trump_lead_overtrump, r.players.partnerships()) {
            (true, true) => "rules.trump_lead.over",
            (true, false) => "rules.trump_lead.over_alone",
            (false, _) => "rules.trump_lead.any",
        }),
    ];
    // Alone at the table, nobody has a partner to be exempted for.
    if !f.free_when_void && r.players.partnerships() {
        play.push(t.get(if f.partner_exemption { "rules.exemption.yes" } else { "rules.exemption.no" }));
    }
    // At two a trump on the table was led: there is nothing to go under.
    if !two {
        play.push(t.get(match f.undertrump {
            Undertrump::Forbidden => "rules.undertrump.forbidden",
            Undertrump::Allowed => "rules.undertrump.allowed",
            Undertrump::Forced => "rules.undertrump.forced",
        }));
    }
    let said = |key: &str| sa_follow && matches!(key, "rules.trump_instead" | "rules.free_when_void");
    play.extend(south_african.iter().filter(|(on, key)| *on && !said(key)).map(|(_, key)| t.get(key)));
    if f.win_if_able {
        play.push(t.get("rules.win_if_able"));
    }
    if f.trump_instead_of_following {
        // A South African player knows the revoke by its name.
        play.push(t.get("rules.versaak"));
    }
    let mut roem = vec![t.get(match r.roem_table {
        RoemTable::Blog => "rules.roem.blog",
        RoemTable::Cards001 => "rules.roem.001",
        RoemTable::Nku => "rules.roem.nku",
        RoemTable::SouthAfrican => "rules.roem.sa",
        RoemTable::None => "rules.roem.none",
        RoemTable::Klaberjass => "rules.roem.klaberjass",
    })];
    // Klaberjass's words say it all: the best run and Bella.
    let klaberjass = r.roem_table == RoemTable::Klaberjass;
    if r.roem_table != RoemTable::None && r.roem_source == klaverjas::RoemSource::Hand && !klaberjass {
        // South African players size their roemtes and say sturk.
        roem.push(t.get(if r.roem_table == RoemTable::SouthAfrican {
            "rules.roem.hand_sa"
        } else {
            "rules.roem.hand"
        }));
        if r.roem_table == RoemTable::Cards001 {
            roem.push(t.get("rules.roem.hand_five"));
        }
    } else if r.roem_table != RoemTable::None && !klaberjass {
        roem.push(t.get(if r.roem_claim == RoemClaim::Manual { "rules.claim.manual" } else { "rules.claim.auto" }));
    }
    let counts = [("last", r.last_trick_bonus.to_string()), ("total", r.deal_points().to_string())];
    let counts = counts.iter().map(|(k, v)| (*k, v.as_str())).collect::<Vec<_>>();
    let mut scoring = if two {
        vec![t.fill("rules.scoring.two", &counts)]
    } else if three {
        vec![t.fill("rules.scoring.three", &counts)]
    } else if r.has_playing_team() {
        vec![
            t.fill("rules.scoring", &counts),
            t.get(if r.pit_for_defenders { "rules.pit.both" } else { "rules.pit.playing" }),
        ]
    } else {
        vec![t.fill("rules.scoring.both_count", &counts)]
    };
    let stakes = [(r.kraken, "rules.kraken"), (r.spades_double, "rules.spades_double")];
    scoring.extend(stakes.iter().filter(|(on, _)| *on).map(|(_, key)| t.get(key)));
    scoring.push(match r.match_length {
        MatchLength::Deals(n) => t.fill("rules.match.deals", &[("n", &n.to_string())]),
        MatchLength::Points(n) if !r.players.partnerships() => {
            t.fill("rules.match.points_alone", &[("n", &n.to_string())])
        }
        MatchLength::Points(n) => t.fill("rules.match.points", &[("n", &n.to_string())]),
        MatchLength::Boem(n) => t.fill("rules.match.boem", &[("n", &n.to_string())]),
    });
    // With no playing team and no boem there is nothing worth working out.
    let example = match (r.races_to_the_boem(), r.has_playing_team()) {
        (true, _) => t.get("rules.example.boem"),
        (false, true) if r.players.partnerships() => worked_example(t, r),
        (false, _) => String::new(),
    };
    [
        ("rules.head.cards", cards),
        ("rules.head.trump", trump),
        ("rules.head.play", play),
        ("rules.head.roem", roem),
        ("rules.head.scoring", scoring),
        ("rules.head.example", example.split('\n').filter(|l| !l.is_empty()).map(str::to_string).collect()),
        ("rules.head.keys", KEYS.iter().map(|key| t.get(key)).collect()),
        ("rules.head.sources", vec![t.get("rules.sources")]),
    ]
    .into_iter()
    .filter(|(_, lines)| !lines.is_empty())
    .map(|(head, lines)| (t.get(head), lines))
    .collect()
}

/// The table's keys, a line each: the whole game without a pointer.
const KEYS: [&str; 7] = ["keys.hand", "keys.play", "keys.bid", "keys.roem", "keys.coach", "keys.table", "keys.tab"];

/// A deal's count under `r`: its numbers follow the deal's points, a
/// clear make, and a nat just at half.
fn worked_example(t: &crate::i18n::Texts, r: &Rules) -> String {
    let total = r.deal_points();
    let all = total + 20;
    let half = all / 2;
    let ours = half + 20;
    let low = half - 20;
    let n = |v: u16| v.to_string();
    t.fill(
        "rules.example",
        &[
            ("ours", &n(ours)),
            ("theirs", &n(total - ours)),
            ("total", &n(total)),
            ("all", &n(all)),
            ("half", &n(half)),
            ("ours_all", &n(ours + 20)),
            ("low", &n(low)),
            ("low_all", &n(low + 20)),
        ],
    )
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
    let rules = seats.map(|s| *s.m.rules()).unwrap_or(setup.rules);
    page(&ctx, t.get("menu.rules"), |ui| {
        if ui.button(t.get("menu.back")).clicked() {
            next.set(Screen::Title);
        }
        for (head, lines) in rules_text(t, &rules) {
            ui.add_space(10.0);
            ui.label(RichText::new(head).pt(21.0).strong());
            for line in lines {
                ui.label(RichText::new(line).pt(17.0));
                ui.add_space(4.0);
            }
        }
    });
    Ok(())
}
