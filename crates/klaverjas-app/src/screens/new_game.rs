//! The new-game screen: a preset, the bots and practice, and Start; every
//! option of the preset folded away as house rules, kept per preset.

use crate::forms::form;
use crate::forms::narrow_layout;
use crate::forms::option_label;
use crate::look::Pt;
use crate::platform::TOUCH_TARGET;
use crate::save::Store;
use crate::seats::{GameEvent, Going, Kept, Seats};
use crate::settings::{BotLevel, Settings};
use crate::state::Files;
use crate::state::PlayerSettings;
use crate::state::Screen;
use crate::state::SetupRules;
use crate::state::Texts;
use crate::state::TitleMessage;
use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::{Bidding, Deal, Match, MatchLength, Preset, RoemClaim, RoemTable, Seat, Undertrump};

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::NewGame), start_from_home_rules)
        .add_systems(EguiPrimaryContextPass, new_game.after(crate::look::Zoom).run_if(in_state(Screen::NewGame)));
}

/// The form opens on the player's home rules, as they keep them.
fn start_from_home_rules(settings: Res<PlayerSettings>, mut setup: ResMut<SetupRules>) {
    *setup = SetupRules::of(settings.0.home_rules.unwrap_or(Preset::Classic), &settings.0);
}

/// A deal to replay from its code, and whose hand the player takes.
pub struct Replay {
    code: String,
    seat: Seat,
}

impl Default for Replay {
    fn default() -> Replay {
        Replay { code: String::new(), seat: Seat::South }
    }
}

/// What a new match deals first.
pub enum FirstDeal {
    /// A deal from the clock's seed.
    Shuffled,
    /// A deal from its code, from the hand of the player at `Seat`.
    Replay(Deal, Seat),
    /// The deals of a day (their own rules and bots; `setup` aside).
    Day(klaverjas_ai::daily::Play),
}

/// Starts a new match under `setup` with the player's bots and practice
/// choice, and remembers the preset for the title's quick start.
pub fn begin(
    setup: SetupRules,
    settings: &mut Settings,
    files: &Store,
    message: &mut TitleMessage,
    first: FirstDeal,
    (commands, events): (&mut Commands, &mut MessageWriter<GameEvent>),
) {
    // What the title said about a lost game or settings is over now.
    message.0.clear();
    // The quick start repeats the last game chosen, not a day's.
    if settings.last_preset != Some(setup.preset) && !matches!(first, FirstDeal::Day(_)) {
        settings.last_preset = Some(setup.preset);
        if let Err(e) = files.write_settings(settings) {
            warn!("{e}");
        }
    }
    // A replayed deal comes first, turned so that the chosen hand is the
    // player's; the match goes on with the clock's deals.
    let level = settings.bot_level.level();
    let seats = match first {
        FirstDeal::Replay(deal, seat) => {
            let m = replay_match(setup.rules, deal, seat, crate::platform::clock_seed());
            Seats::new(m.with_practice(settings.practice), false, level)
        }
        FirstDeal::Shuffled => {
            Seats::new(crate::seats::new_match(setup.rules, None).with_practice(settings.practice), false, level)
        }
        // A day played for the record is played without help.
        FirstDeal::Day(play) => {
            let m = klaverjas_ai::daily::new_match(play.day, play.preset);
            Seats::of_day(m.with_practice(settings.practice && !play.record), false, play)
        }
    };
    // Only the game of this kind is replaced: another kind keeps its place.
    if let Some(slot) = seats.kind.slot() {
        files.delete_game(slot);
    }
    crate::seats::sit_down(commands, events, seats);
}

/// Whether a new game starts this frame: at once when Start was
/// `pressed` and the game it would replace (`kept`, of the same kind) is
/// not in progress, else once the player, asked in their language, says
/// so. `asking` keeps the question up between frames.
pub fn start_confirmed(
    ctx: &egui::Context,
    t: &crate::i18n::Texts,
    kept: Option<Going>,
    pressed: bool,
    asking: &mut bool,
) -> bool {
    let playing = kept.filter(|k| k.in_progress());
    *asking |= pressed && playing.is_some();
    if !*asking {
        return pressed;
    }
    let answer = playing.map(|p| {
        let deal = p.deal.to_string();
        crate::forms::confirm(
            ctx,
            t.get("new.replace_title"),
            t.fill("new.replace_question", &[("n", &deal)]),
            t.get("new.replace_keep"),
            t.get("new.replace_go"),
        )
    });
    match answer {
        Some(None) => false,
        // Answered, or the match ended meanwhile.
        answer => {
            *asking = false;
            answer.flatten().unwrap_or(true)
        }
    }
}

/// The new-game screen: what most players choose (the preset, the bots,
/// practice) and Start first, all on one screen without scrolling; the
/// rules' every option folded under "House rules", and a deal code under
/// "Replay a deal".
#[allow(clippy::too_many_arguments)]
fn new_game(
    mut replay: Local<Replay>,
    mut contexts: EguiContexts,
    mut commands: Commands,
    texts: Res<Texts>,
    mut setup: ResMut<SetupRules>,
    files: Res<Files>,
    mut settings: ResMut<PlayerSettings>,
    mut next: ResMut<NextState<Screen>>,
    mut events: MessageWriter<GameEvent>,
    mut message: ResMut<TitleMessage>,
    (kept, mut asking): (Res<Kept>, Local<bool>),
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let t = &texts.0;
    let mut chosen = *setup;
    let mut s = settings.0.clone();
    let mut start = false;
    let given = (!replay.code.trim().is_empty()).then(|| Deal::from_code(&replay.code));
    // Start stays in view at the foot, whatever scrolls above it.
    let footer = |ui: &mut egui::Ui| {
        ui.horizontal_wrapped(|ui| {
            let height = crate::look::at_least_a_finger(ui, TOUCH_TARGET);
            let words = egui::RichText::new(t.get("menu.start")).pt(20.0).strong();
            // Back beside Start, whatever the width.
            let width = (ui.available_width() - 100.0).min(280.0);
            let response = ui.add_sized([width, height], egui::Button::new(words).fill(crate::look::GOLD));
            crate::forms::mark_target(ui, "start", &response);
            if response.clicked() && !matches!(given, Some(Err(_))) {
                start = true;
            }
            if ui.add(egui::Button::new(t.get("menu.back")).min_size(egui::vec2(80.0, height))).clicked() {
                next.set(Screen::Title);
            }
        });
        // A code that is not one says so, and nothing starts.
        if let Some(Err(_)) = given {
            ui.colored_label(egui::Color32::from_rgb(170, 60, 20), t.get("replay.bad_code"));
        }
    };
    let choices = |ui: &mut egui::Ui| {
        if let Some(p) = crate::forms::preset_buttons(ui, t, Some(chosen.preset), false) {
            chosen = SetupRules::of(p, &s);
        }
        ui.horizontal_wrapped(|ui| {
            ui.label(t.get("settings.bots"));
            let height = crate::look::at_least_a_finger(ui, 0.0);
            for (level, key) in [(BotLevel::Heuristic, "level.heuristic"), (BotLevel::Expert, "level.expert")] {
                let button = egui::Button::new(t.get(key)).selected(s.bot_level == level);
                let response = ui.add(button.min_size(egui::vec2(0.0, height)));
                crate::forms::mark_target(ui, key, &response);
                if response.clicked() {
                    s.bot_level = level;
                }
            }
            ui.add_space(12.0);
            // The short word fits the row of a phone held sideways.
            let response =
                ui.checkbox(&mut s.practice, t.get("option.practice_short")).on_hover_text(t.get("option.practice"));
            crate::forms::mark_target(ui, "practice", &response);
        });
        ui.add_space(6.0);
        let changed = chosen.rules != chosen.preset.rules();
        let heading = if changed { t.get("house.heading_changed") } else { t.get("house.heading") };
        egui::CollapsingHeader::new(egui::RichText::new(heading).pt(18.0))
            .id_salt("house-rules")
            .default_open(false)
            .show(ui, |ui| {
                // Where the chosen preset is played, so a player finds the
                // game of home by its place as well as its name.
                ui.label(egui::RichText::new(t.get(&format!("preset.{}.where", chosen.preset.name()))).italics());
                rule_options(ui, t, &mut chosen.rules);
                let reset = t.fill("house.reset", &[("game", &t.get(&format!("home.{}", chosen.preset.name())))]);
                if ui.add_enabled(changed, egui::Button::new(reset)).clicked() {
                    chosen.rules = chosen.preset.rules();
                }
            });
        egui::CollapsingHeader::new(egui::RichText::new(t.get("replay.heading")).pt(18.0))
            .id_salt("replay")
            .default_open(!replay.code.is_empty())
            .show(ui, |ui| replay_form(ui, t, &mut replay, chosen.rules.players.partnerships()));
    };
    crate::forms::page_with_footer(&ctx, t.get("menu.new_game"), choices, Some(Box::new(footer)));
    s.keep_house_rules(chosen.preset, chosen.rules);
    if s != settings.0 {
        if let Err(e) = files.0.write_settings(&s) {
            warn!("{e}");
        }
        settings.0 = s;
    }
    *setup = chosen;
    let start = start_confirmed(&ctx, t, kept.game, start, &mut asking);
    if start {
        let first = match given {
            Some(Ok(deal)) => FirstDeal::Replay(deal, replay.seat),
            _ => FirstDeal::Shuffled,
        };
        // The code was for this game; the next starts fresh.
        *replay = Replay::default();
        begin(chosen, &mut settings.0, &files.0, &mut message, first, (&mut commands, &mut events));
        next.set(Screen::Table);
    }
    Ok(())
}

/// A deal code to replay, and whose hand the player takes.
fn replay_form(ui: &mut egui::Ui, t: &crate::i18n::Texts, replay: &mut Replay, partners: bool) {
    let (narrow, combo) = narrow_layout(ui);
    form(ui, "replay-form", narrow, 0.0, |ui| {
        option_label(ui, t.get("replay.code"), narrow);
        ui.horizontal(|ui| {
            let response = ui.add(
                egui::TextEdit::singleline(&mut replay.code)
                    .hint_text("XXXX-XXXX-XXXX-XXXX")
                    .desired_width(combo - crate::forms::beside_field(ui))
                    .min_size(egui::vec2(0.0, crate::look::at_least_a_finger(ui, 0.0))),
            );
            crate::forms::mark_field(ui, "replay.code", &response, &replay.code);
            crate::forms::paste_button(ui, t, "replay.code", &response, &mut replay.code, usize::MAX);
        });
        ui.end_row();
        if !replay.code.trim().is_empty() && partners {
            option_label(ui, t.get("replay.seat"), narrow);
            ui.horizontal_wrapped(|ui| {
                for seat in Seat::ALL {
                    ui.radio_value(&mut replay.seat, seat, t.get(&format!("compass.{}", seat.letter())));
                }
            });
            ui.end_row();
        }
    });
}

/// Every option of the rules, to change on top of the preset.
fn rule_options(ui: &mut egui::Ui, t: &crate::i18n::Texts, rules: &mut klaverjas::Rules) {
    let (narrow, combo) = narrow_layout(ui);
    form(ui, "options", narrow, 0.0, |ui| {
        let label = |ui: &mut egui::Ui, key: &str| option_label(ui, t.get(key), narrow);
        label(ui, "option.bidding");
        choice(ui, t, "bidding", combo, &mut rules.bidding, &Bidding::ALL, bidding_key);
        ui.end_row();
        if matches!(rules.bidding, Bidding::FreeChoice | Bidding::DealerFirst) {
            label(ui, "option.redeal");
            ui.checkbox(&mut rules.redeal_on_all_pass, "");
            ui.end_row();
        }
        label(ui, "option.cards");
        let values = klaverjas::CardValues::ALL;
        choice(ui, t, "cards", combo, &mut rules.card_values, &values, card_values_key);
        ui.end_row();
        label(ui, "option.anti_clockwise");
        let mut anti = rules.direction == klaverjas::Direction::AntiClockwise;
        ui.checkbox(&mut anti, "");
        rules.direction = if anti { klaverjas::Direction::AntiClockwise } else { klaverjas::Direction::Clockwise };
        ui.end_row();
        // Alone at the table nobody has a partner, nor a side to double.
        let partners = rules.players.partnerships();
        if partners {
            label(ui, "option.partner_exemption");
            ui.checkbox(&mut rules.following.partner_exemption, "");
            ui.end_row();
        }
        label(ui, "option.undertrump");
        let undertrump = [Undertrump::Forbidden, Undertrump::Allowed, Undertrump::Forced];
        choice(ui, t, "undertrump", combo, &mut rules.following.undertrump, &undertrump, undertrump_key);
        ui.end_row();
        let f = &mut rules.following;
        let switches = [
            ("option.trump_lead_overtrump", &mut f.trump_lead_overtrump),
            ("option.trump_instead_of_following", &mut f.trump_instead_of_following),
            ("option.free_when_void", &mut f.free_when_void),
            ("option.jack_never_forced", &mut f.jack_never_forced),
            ("option.win_if_able", &mut f.win_if_able),
        ];
        switch_rows(ui, &label, switches);
        label(ui, "option.roem_table");
        choice(ui, t, "roem", combo, &mut rules.roem_table, &RoemTable::ALL, roem_key);
        ui.end_row();
        label(ui, "option.roem_from_hand");
        let mut from_hand = rules.roem_source == klaverjas::RoemSource::Hand;
        ui.add_enabled(rules.roem_table != RoemTable::None, egui::Checkbox::new(&mut from_hand, ""));
        rules.roem_source = if from_hand { klaverjas::RoemSource::Hand } else { klaverjas::RoemSource::Table };
        ui.end_row();
        label(ui, "option.roem_claim");
        let mut manual = rules.roem_claim == RoemClaim::Manual;
        let called = rules.roem_table != RoemTable::None && rules.roem_source == klaverjas::RoemSource::Table;
        ui.add_enabled(called, egui::Checkbox::new(&mut manual, ""));
        rules.roem_claim = if manual { RoemClaim::Manual } else { RoemClaim::Automatic };
        ui.end_row();
        if partners {
            let switches = [
                ("option.pit_for_defenders", &mut rules.pit_for_defenders),
                ("option.kraken", &mut rules.kraken),
                ("option.spades_double", &mut rules.spades_double),
            ];
            switch_rows(ui, &label, switches);
        }
        label(ui, "option.match");
        // The kind of match; a length changed elsewhere (kj, a save)
        // stays while its kind is kept.
        let kinds = [
            (MatchLength::STANDARD_DEALS, "option.match_deals"),
            (MatchLength::STANDARD_POINTS, "option.match_points"),
            (MatchLength::STANDARD_BOEM, "option.match_boem"),
        ];
        let kind = |m: MatchLength| std::mem::discriminant(&m);
        ui.horizontal_wrapped(|ui| {
            for (standard, key) in kinds {
                let chosen = kind(rules.match_length) == kind(standard);
                // The target in words: the preset's own (500 in
                // Klaberjass) once chosen.
                let target = match (chosen, rules.match_length, standard) {
                    (true, MatchLength::Points(n), _) | (false, _, MatchLength::Points(n)) => n,
                    _ => 0,
                };
                let words = t.fill(key, &[("n", &target.to_string())]);
                if ui.radio(chosen, words).clicked() && !chosen {
                    rules.match_length = standard;
                }
            }
        });
        ui.end_row();
    });
}

/// A match that starts with `deal` as the player at `seat` had it (the
/// player sits South, so the table turns), then goes on with `seed`'s deals.
/// At three, where North's chair is empty, the deal is played as given.
pub fn replay_match(rules: klaverjas::Rules, deal: Deal, seat: Seat, seed: u64) -> Match {
    let deal = if rules.players.partnerships() { deal.seen_from(seat) } else { deal };
    Match::from_deals(rules, vec![deal], seed).unwrap_or_else(|_| crate::seats::new_match(rules, Some(seed)))
}

/// A drop-down of `choices`, each shown by its translated name.
fn choice<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
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

pub fn bidding_key(b: Bidding) -> &'static str {
    match b {
        Bidding::TurnedCard => "bidding.turned",
        Bidding::FreeChoice => "bidding.free",
        Bidding::DealerFirst => "bidding.dealer_first",
        Bidding::Mandatory => "bidding.mandatory",
        Bidding::LastCardDealt => "bidding.last_card",
        Bidding::TwoRounds => "bidding.two_rounds",
    }
}

pub fn card_values_key(v: klaverjas::CardValues) -> &'static str {
    match v {
        klaverjas::CardValues::Dutch => "cards.dutch",
        klaverjas::CardValues::SouthAfrican => "cards.south_african",
    }
}

pub fn undertrump_key(u: Undertrump) -> &'static str {
    match u {
        Undertrump::Forbidden => "undertrump.forbidden",
        Undertrump::Allowed => "undertrump.allowed",
        Undertrump::Forced => "undertrump.forced",
    }
}

pub fn roem_key(r: RoemTable) -> &'static str {
    match r {
        RoemTable::Blog => "roem.blog",
        RoemTable::Cards001 => "roem.001",
        RoemTable::Nku => "roem.nku",
        RoemTable::SouthAfrican => "roem.sa",
        RoemTable::None => "roem.none",
        RoemTable::Klaberjass => "roem.klaberjass",
    }
}

/// One row a switch: the option's words, then its checkbox.
fn switch_rows<'a>(
    ui: &mut egui::Ui,
    label: &dyn Fn(&mut egui::Ui, &str),
    switches: impl IntoIterator<Item = (&'a str, &'a mut bool)>,
) {
    for (key, on) in switches {
        label(ui, key);
        ui.checkbox(on, "");
        ui.end_row();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A missing text shows its key: every choice of the form, every
    /// preset's names, and the rules page of every preset have their words
    /// in both languages.
    #[test]
    fn every_choice_and_preset_has_its_words() {
        use crate::settings::{Language, Skin};
        let english = crate::i18n::Texts::load(Language::English, Skin::French);
        let mut keys: Vec<String> = Vec::new();
        keys.extend(Bidding::ALL.map(|b| bidding_key(b).to_string()));
        keys.extend(RoemTable::ALL.map(|r| roem_key(r).to_string()));
        keys.extend(klaverjas::CardValues::ALL.map(|v| card_values_key(v).to_string()));
        for p in Preset::ALL {
            keys.extend(["preset.", "home.", "first."].map(|k| format!("{k}{}", p.name())));
            keys.push(format!("preset.{}.where", p.name()));
        }
        for key in &keys {
            assert_ne!(english.get(key), *key, "no words for {key}");
        }
        for language in [Language::English, Language::Dutch, Language::Afrikaans] {
            let t = crate::i18n::Texts::load(language, Skin::French);
            for p in Preset::ALL {
                for (head, lines) in crate::screens::rules::rules_text(&t, &p.rules()) {
                    assert!(!head.starts_with("rules."), "{p}: a key instead of a heading: {head}");
                    for line in &lines {
                        assert!(line.contains(' '), "{p}: a key instead of words: {line}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_replayed_deal_gives_the_player_the_chosen_hand() {
        let deal = Deal::shuffled(77, Seat::North);
        let code = deal.code();
        for seat in Seat::ALL {
            let m = replay_match(Preset::Classic.rules(), Deal::from_code(&code).unwrap(), seat, 5);
            assert_eq!(m.game().hand(Seat::South), deal.hand(seat), "{seat}");
            assert_eq!(m.game().hand(Seat::North), deal.hand(seat.partner()), "{seat}");
        }
    }
}
