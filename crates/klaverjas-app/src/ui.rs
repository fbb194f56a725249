//! Menus and dialogs (egui): title, new game, settings, rules; on the table
//! the bidding buttons, the roem call, the score sheet and the top bar.

use crate::i18n::Texts;
use crate::pictures::CardPictures;
use crate::session::{HUMAN, Session, suit_name};
use crate::settings::{BotLevel, Language, Settings, Skin, Speed};
use crate::table::{self, team_colour};
use bevy_egui::egui::{self, Align2, Color32, RichText};
use klaverjas::{
    Action, Bid, Bidding, Card, DealResult, MatchLength, Phase, Preset, Rank, RoemClaim, RoemTable, Rules, ScoreSheet,
    Suit, Team, Undertrump,
};

/// What a menu asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum MenuAction {
    Continue,
    NewGame(Rules),
    OpenNewGame,
    OpenSettings,
    OpenRules,
    Back,
    Quit,
    SettingsChanged,
}

fn big_button(ui: &mut egui::Ui, text: String) -> egui::Response {
    ui.add_sized([280.0, 44.0], egui::Button::new(RichText::new(text).size(20.0)))
}

pub fn title(root: &mut egui::Ui, t: &Texts, can_continue: bool, message: Option<&str>) -> Option<MenuAction> {
    let mut out = None;
    egui::CentralPanel::default().frame(egui::Frame::new().fill(table::FELT)).show(root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.12);
            ui.label(RichText::new("Klaverjas").size(56.0).color(Color32::WHITE).strong());
            ui.label(RichText::new(t.get("title.subtitle")).size(18.0).color(Color32::from_gray(230)));
            ui.add_space(24.0);
            if let Some(m) = message {
                egui::Frame::new().fill(Color32::from_rgb(255, 225, 160)).inner_margin(10.0).corner_radius(8.0).show(
                    ui,
                    |ui| {
                        ui.set_max_width(520.0);
                        ui.label(RichText::new(m).color(Color32::BLACK).size(16.0));
                    },
                );
                ui.add_space(12.0);
            }
            if ui
                .add_enabled(
                    can_continue,
                    egui::Button::new(RichText::new(t.get("menu.continue")).size(20.0)).min_size([280.0, 44.0].into()),
                )
                .clicked()
            {
                out = Some(MenuAction::Continue);
            }
            if big_button(ui, t.get("menu.new_game")).clicked() {
                out = Some(MenuAction::OpenNewGame);
            }
            ui.add_enabled(
                false,
                egui::Button::new(RichText::new(t.get("menu.tutorial")).size(20.0)).min_size([280.0, 44.0].into()),
            )
            .on_disabled_hover_text(t.get("menu.tutorial_soon"));
            if big_button(ui, t.get("menu.settings")).clicked() {
                out = Some(MenuAction::OpenSettings);
            }
            if big_button(ui, t.get("menu.rules")).clicked() {
                out = Some(MenuAction::OpenRules);
            }
            if big_button(ui, t.get("menu.quit")).clicked() {
                out = Some(MenuAction::Quit);
            }
        });
    });
    out
}

/// The new-game screen: a preset, and every option of it to change.
pub fn new_game(root: &mut egui::Ui, t: &Texts, rules: &mut Rules) -> Option<MenuAction> {
    let mut out = None;
    egui::CentralPanel::default().show(root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading(t.get("menu.new_game"));
            ui.horizontal_wrapped(|ui| {
                for p in Preset::ALL {
                    if ui.selectable_label(*rules == p.rules(), t.get(&format!("preset.{}", p.name()))).clicked() {
                        *rules = p.rules();
                    }
                }
            });
            ui.separator();
            let (narrow, combo) = narrow_layout(ui);
            egui::Grid::new("options").num_columns(2).spacing([16.0, 8.0]).show(ui, |ui| {
                let label = |ui: &mut egui::Ui, key: &str| option_label(ui, t.get(key), narrow);
                label(ui, "option.bidding");
                let bidding = [Bidding::TurnedCard, Bidding::FreeChoice, Bidding::DealerFirst, Bidding::Mandatory];
                choice(ui, t, "bidding", combo, &mut rules.bidding, &bidding, bidding_key);
                ui.end_row();
                label(ui, "option.partner_exemption");
                ui.checkbox(&mut rules.following.partner_exemption, "");
                ui.end_row();
                label(ui, "option.undertrump");
                let undertrump = [Undertrump::Forbidden, Undertrump::Allowed, Undertrump::Forced];
                choice(ui, t, "undertrump", combo, &mut rules.following.undertrump, &undertrump, undertrump_key);
                ui.end_row();
                label(ui, "option.trump_lead_overtrump");
                ui.checkbox(&mut rules.following.trump_lead_overtrump, "");
                ui.end_row();
                label(ui, "option.roem_table");
                let tables = [RoemTable::Blog, RoemTable::Cards001, RoemTable::Nku];
                choice(ui, t, "roem", combo, &mut rules.roem_table, &tables, roem_key);
                ui.end_row();
                label(ui, "option.roem_claim");
                let mut manual = rules.roem_claim == RoemClaim::Manual;
                ui.checkbox(&mut manual, "");
                rules.roem_claim = if manual { RoemClaim::Manual } else { RoemClaim::Automatic };
                ui.end_row();
                label(ui, "option.pit_for_defenders");
                ui.checkbox(&mut rules.pit_for_defenders, "");
                ui.end_row();
                label(ui, "option.match");
                let mut by_points = matches!(rules.match_length, MatchLength::Points(_));
                ui.horizontal_wrapped(|ui| {
                    ui.radio_value(&mut by_points, false, t.get("option.match_deals"));
                    ui.radio_value(&mut by_points, true, t.get("option.match_points"));
                });
                rules.match_length = match (by_points, rules.match_length) {
                    (false, MatchLength::Points(_)) => MatchLength::Deals(16),
                    (true, MatchLength::Deals(_)) => MatchLength::Points(1500),
                    (_, m) => m,
                };
                ui.end_row();
            });
            ui.add_space(16.0);
            ui.horizontal(|ui| {
                if big_button(ui, t.get("menu.start")).clicked() {
                    out = Some(MenuAction::NewGame(*rules));
                }
                if ui.button(t.get("menu.back")).clicked() {
                    out = Some(MenuAction::Back);
                }
            });
        });
    });
    out
}

/// Whether a form must put each control under its label (a phone held
/// upright), and how wide its drop-down lists are.
fn narrow_layout(ui: &egui::Ui) -> (bool, f32) {
    let width = ui.available_width();
    if width < 560.0 { (true, width - 24.0) } else { (false, 300.0) }
}

/// A drop-down of `choices`, each shown by its translated name.
fn choice<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    t: &Texts,
    id: &str,
    width: f32,
    value: &mut T,
    choices: &[T],
    key: fn(T) -> &'static str,
) {
    egui::ComboBox::from_id_salt(id).width(width).selected_text(t.get(key(*value))).show_ui(ui, |ui| {
        for &c in choices {
            ui.selectable_value(value, c, t.get(key(c)));
        }
    });
}

/// A form's label: beside its control, or above it on a narrow screen.
fn option_label(ui: &mut egui::Ui, text: String, narrow: bool) {
    ui.label(text);
    if narrow {
        ui.end_row();
    }
}

fn bidding_key(b: Bidding) -> &'static str {
    match b {
        Bidding::TurnedCard => "bidding.turned",
        Bidding::FreeChoice => "bidding.free",
        Bidding::DealerFirst => "bidding.dealer_first",
        Bidding::Mandatory => "bidding.mandatory",
    }
}

fn undertrump_key(u: Undertrump) -> &'static str {
    match u {
        Undertrump::Forbidden => "undertrump.forbidden",
        Undertrump::Allowed => "undertrump.allowed",
        Undertrump::Forced => "undertrump.forced",
    }
}

fn roem_key(r: RoemTable) -> &'static str {
    match r {
        RoemTable::Blog => "roem.blog",
        RoemTable::Cards001 => "roem.001",
        RoemTable::Nku => "roem.nku",
    }
}

pub fn settings(root: &mut egui::Ui, t: &Texts, s: &mut Settings, pics: &mut CardPictures) -> Option<MenuAction> {
    let mut out = None;
    let before = s.clone();
    egui::CentralPanel::default().show(root, |ui| {
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
            pics.use_skin(s.skin);
            skin_preview(ui, pics);
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
            out = Some(MenuAction::Back);
        }
    });
    if out.is_none() && *s != before {
        out = Some(MenuAction::SettingsChanged);
    }
    out
}

/// A few cards of the chosen skin, so a change shows at once.
fn skin_preview(ui: &mut egui::Ui, pics: &mut CardPictures) {
    let card = egui::vec2(72.0, 72.0 * 1.45);
    pics.fit(card.y * ui.ctx().pixels_per_point());
    let cards = [
        (Suit::Hearts, Rank::Jack),
        (Suit::Hearts, Rank::Nine),
        (Suit::Clubs, Rank::Ace),
        (Suit::Diamonds, Rank::Queen),
    ];
    let (rect, _) = ui.allocate_exact_size(egui::vec2(card.x * 5.5, card.y + 6.0), egui::Sense::hover());
    let p = ui.painter_at(rect);
    for (i, (suit, rank)) in cards.into_iter().enumerate() {
        let at = rect.left_center() + egui::vec2(card.x * (0.5 + 1.1 * i as f32), 0.0);
        table::draw_face(&p, pics, Card::new(suit, rank), at, card, false, false);
    }
    table::draw_back(&p, pics, rect.left_center() + egui::vec2(card.x * 4.9, 0.0), card, false);
}

/// The rules as they are played: generated from the rule set itself.
pub fn rules_text(t: &Texts, r: &Rules) -> Vec<String> {
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

pub fn rules_page(root: &mut egui::Ui, t: &Texts, r: &Rules) -> Option<MenuAction> {
    let mut out = None;
    egui::CentralPanel::default().show(root, |ui| {
        ui.heading(t.get("menu.rules"));
        egui::ScrollArea::vertical().max_height(ui.available_height() - 50.0).show(ui, |ui| {
            for line in rules_text(t, r) {
                ui.label(RichText::new(line).size(16.0));
                ui.add_space(6.0);
            }
        });
        if ui.button(t.get("menu.back")).clicked() {
            out = Some(MenuAction::Back);
        }
    });
    out
}

/// Score-sheet rows as players write them: points then roem marks, a dash for
/// nothing.
pub fn sheet_grid(ui: &mut egui::Ui, t: &Texts, sheet: &ScoreSheet) {
    egui::Grid::new("sheet").striped(true).num_columns(3).spacing([24.0, 4.0]).show(ui, |ui| {
        ui.label("");
        ui.label(RichText::new(t.get("team.NS")).color(team_colour(Team::NS)).strong());
        ui.label(RichText::new(t.get("team.EW")).color(team_colour(Team::EW)).strong());
        ui.end_row();
        for (i, row) in sheet.rows.iter().enumerate() {
            ui.label(format!("{}", i + 1));
            for team in Team::BOTH {
                let points = if row.total(team) == 0 { "-".to_string() } else { row.sheet_points[team].to_string() };
                // Points right-aligned as in the sums below, roem marks after.
                ui.label(RichText::new(format!("{points:>4} {}", row.marks(team))).monospace());
            }
            ui.end_row();
        }
        let sums = [
            (t.get("sheet.points"), sheet.points()),
            (t.get("sheet.roem"), sheet.roem()),
            (t.get("sheet.total"), sheet.totals()),
        ];
        for (label, sum) in sums {
            ui.label(RichText::new(label).strong());
            ui.label(RichText::new(format!("{:>4}", sum.ns)).monospace().strong());
            ui.label(RichText::new(format!("{:>4}", sum.ew)).monospace().strong());
            ui.end_row();
        }
    });
}

fn result_line(t: &Texts, r: &DealResult) -> String {
    let playing = r.contract.playing_team();
    let mut s = t.fill(
        "result.points",
        &[
            ("ns", &r.points.ns.to_string()),
            ("ew", &r.points.ew.to_string()),
            ("rns", &r.roem.ns.to_string()),
            ("rew", &r.roem.ew.to_string()),
        ],
    );
    if r.nat {
        s += "\n";
        s += &t.fill("result.nat", &[("team", &t.get(&format!("team.{}", playing.name())))]);
    }
    if let Some(team) = r.pit {
        s += "\n";
        s += &t.fill("result.pit", &[("team", &t.get(&format!("team.{}", team.name())))]);
    }
    s
}

/// What the player did in the table's overlays.
pub enum TableAction {
    Game(Action),
    NextDeal,
    NewMatch,
    Menu,
}

/// The top bar, the bidding and roem buttons, and the end-of-deal sheet.
pub fn table_overlays(
    root: &mut egui::Ui,
    t: &Texts,
    s: &Session,
    now: f32,
    pics: &mut CardPictures,
) -> Option<TableAction> {
    let mut out = None;
    let ctx = root.ctx().clone();
    let game = s.m.game();
    egui::Panel::top("bar").frame(egui::Frame::new().fill(Color32::from_rgb(12, 60, 36)).inner_margin(6.0)).show(
        root,
        |ui| {
            ui.horizontal(|ui| {
                if ui.button(RichText::new("☰").size(18.0)).clicked() {
                    out = Some(TableAction::Menu);
                }
                let totals = s.m.sheet().totals();
                for team in Team::BOTH {
                    ui.label(
                        RichText::new(format!("{}: {}", t.get(&format!("team.{}", team.name())), totals[team]))
                            .color(team_colour(team))
                            .size(17.0)
                            .strong(),
                    );
                    ui.add_space(8.0);
                }
                ui.label(
                    RichText::new(t.fill("table.deal", &[("n", &s.m.deal_number().to_string())]))
                        .color(Color32::WHITE)
                        .size(15.0),
                );
            });
        },
    );
    let my_turn = s.waiting_for(now) == Some(HUMAN) && s.is_human(HUMAN);
    if my_turn && game.phase() == Phase::Bidding {
        egui::Area::new("bidding".into()).anchor(Align2::CENTER_CENTER, [0.0, 40.0]).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(12.0).show(ui, |ui| {
                ui.label(RichText::new(t.get("bid.your_turn")).size(18.0));
                ui.horizontal(|ui| {
                    // The card the bid is about: pass or play beside it.
                    if let Some(&pile) = game.turned_cards().last() {
                        let size = egui::vec2(64.0, 64.0 * 1.45);
                        let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
                        table::draw_pile_card(ui.painter(), pics, pile, rect);
                    }
                    ui.horizontal_wrapped(|ui| {
                        for action in game.legal_actions() {
                            let (label, suit) = match action {
                                Action::Bid(Bid::Pass) => (t.get("bid.pass"), None),
                                Action::Bid(Bid::Play) => (t.get("bid.play"), None),
                                // Room on the left for the skin's symbol.
                                Action::Bid(Bid::Trump(suit)) => (format!("      {}", suit_name(t, suit)), Some(suit)),
                                _ => continue,
                            };
                            let button = egui::Button::new(RichText::new(label).size(18.0));
                            let response = ui.add_sized([130.0, 44.0], button);
                            if let Some(suit) = suit {
                                let at = response.rect.left_center() + egui::vec2(22.0, 0.0);
                                table::draw_suit(ui.painter(), pics, suit, at, 13.0);
                            }
                            if response.clicked() {
                                out = Some(TableAction::Game(action));
                            }
                        }
                    });
                });
            });
        });
    }
    // Roem: offered after a trick won by the player, and required when the
    // engine asks; a call without roem is refused by the engine.
    let won_last = game.tricks().last().is_some_and(|tr| tr.winner == HUMAN)
        && game.current_trick().is_some_and(|tr| tr.is_empty());
    let manual = s.rules().roem_claim == RoemClaim::Manual;
    if my_turn && manual && (game.phase() == Phase::ClaimRoem || (won_last && game.phase() == Phase::Playing)) {
        egui::Area::new("roem".into()).anchor(Align2::RIGHT_BOTTOM, [-16.0, -ctx.content_rect().height() * 0.3]).show(
            &ctx,
            |ui| {
                egui::Frame::popup(ui.style()).inner_margin(10.0).show(ui, |ui| {
                    if ui
                        .add_sized(
                            [120.0, 48.0],
                            egui::Button::new(RichText::new(t.get("roem.call")).size(22.0).strong()),
                        )
                        .clicked()
                    {
                        out = Some(TableAction::Game(Action::ClaimRoem));
                    }
                    if game.phase() == Phase::ClaimRoem
                        && ui.add_sized([120.0, 36.0], egui::Button::new(t.get("roem.pass"))).clicked()
                    {
                        out = Some(TableAction::Game(Action::PassRoem));
                    }
                });
            },
        );
    }
    if let (Some(result), true) = (s.shown.result, s.idle(now)) {
        egui::Window::new(t.get("result.title"))
            .collapsible(false)
            .resizable(false)
            .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
            .show(&ctx, |ui| {
                ui.label(RichText::new(result_line(t, &result)).size(16.0));
                ui.separator();
                sheet_grid(ui, t, s.m.sheet());
                ui.separator();
                if s.m.is_over() {
                    let winner = match s.m.winner() {
                        Some(team) => t.fill("result.winner", &[("team", &t.get(&format!("team.{}", team.name())))]),
                        None => t.get("result.tie"),
                    };
                    ui.label(RichText::new(winner).size(20.0).strong());
                    if !s.demo && ui.button(RichText::new(t.get("menu.new_game")).size(18.0)).clicked() {
                        out = Some(TableAction::NewMatch);
                    }
                } else if !s.demo && ui.button(RichText::new(t.get("result.next")).size(18.0)).clicked() {
                    out = Some(TableAction::NextDeal);
                }
            });
    }
    out
}
