//! What egui draws over the card sprites: the top bar, the name plates,
//! the trick counts, the trump indicator's words, the notices, the bidding
//! and roem buttons, and the score sheet after a deal. Buttons become
//! [`PlayerAction`]s and [`TableCommand`]s; nothing here touches the engine.

use super::input::PointerOverUi;
use super::input::Review;
use super::layout::{Layout, Table};
use crate::pictures::CardImages;
use crate::seats::{HUMAN, PlayerAction, Seats, TableCommand};
use crate::show::{LastTrick, NoticeText, Show};
use crate::words::{double_name, notice, seat_name, suit_name, team_name};
use crate::{Screen, Texts};
use bevy::prelude::*;
use bevy_egui::egui::{self, Align2, Color32, CornerRadius, FontId, Pos2, RichText, Stroke, StrokeKind};
use bevy_egui::{EguiContexts, EguiTextureHandle};
use klaverjas::{
    Action, Bid, Card, DealResult, Match, PerTeam, Phase, PileCard, Players, Rank, Rules, ScoreSheet, Seat, Suit, Team,
};
use klaverjas_cards::Face;

pub const TEAM_NS: Color32 = Color32::from_rgb(240, 200, 80);
pub const TEAM_EW: Color32 = Color32::from_rgb(120, 190, 255);

pub fn team_colour(team: Team) -> Color32 {
    if team == Team::NS { TEAM_NS } else { TEAM_EW }
}

/// West's own colour where each plays alone (three players); South keeps
/// ours and East theirs.
pub const ALONE_WEST: Color32 = Color32::from_rgb(150, 220, 140);

/// The colour a seat is drawn in: its team's, or at three its own.
pub fn seat_colour(players: Players, seat: Seat) -> Color32 {
    match (players, seat) {
        (Players::Three, Seat::West) => ALONE_WEST,
        _ => team_colour(seat.team()),
    }
}

/// A seat's colour dark enough to read on a card-coloured panel.
pub fn seat_ink(players: Players, seat: Seat) -> Color32 {
    match (players, seat) {
        (Players::Three, Seat::West) => Color32::from_rgb(40, 120, 40),
        _ => team_ink(seat.team()),
    }
}

/// A team's colour dark enough to read on a card-coloured panel.
pub fn team_ink(team: Team) -> Color32 {
    if team == Team::NS { Color32::from_rgb(150, 105, 0) } else { Color32::from_rgb(25, 90, 170) }
}

fn pos(v: Vec2) -> Pos2 {
    Pos2::new(v.x, v.y)
}

/// The egui texture of a picture of the current skin.
pub fn texture(contexts: &mut EguiContexts, images: &CardImages, face: Face) -> egui::TextureId {
    contexts.add_image(EguiTextureHandle::Weak(images.face(face).id()))
}

/// Paints the part `uv` (0..1 on both axes) of a texture into `rect`.
pub fn paint_part(p: &egui::Painter, texture: egui::TextureId, rect: egui::Rect, uv: egui::Rect) {
    let mut mesh = egui::Mesh::with_texture(texture);
    mesh.add_rect_with_uv(rect, uv, Color32::WHITE);
    p.add(mesh);
}

/// A suit's symbol as the skin draws it: the middle of its ace.
pub fn paint_suit(p: &egui::Painter, texture: egui::TextureId, centre: Pos2, half: f32) {
    // The ace's pip fills the middle half of the card's width.
    let uv = egui::Rect::from_center_size(Pos2::new(0.5, 0.5), egui::vec2(0.52, 0.52 / 1.45));
    paint_part(p, texture, egui::Rect::from_center_size(centre, egui::Vec2::splat(2.0 * half)), uv);
}

pub fn suit_texture(contexts: &mut EguiContexts, images: &CardImages, suit: Suit) -> egui::TextureId {
    texture(contexts, images, Face::Card(Card::new(suit, Rank::Ace)))
}

pub fn pile_texture(contexts: &mut EguiContexts, images: &CardImages, c: PileCard) -> egui::TextureId {
    texture(contexts, images, Face::Pile { suit: c.suit, rank: c.rank })
}

/// Slides a label sideways so it stays on the table.
fn keep_inside(rect: egui::Rect, area: egui::Rect) -> egui::Rect {
    let dx = (area.left() + 4.0 - rect.left()).max(0.0) - (rect.right() - area.right() + 4.0).max(0.0);
    rect.translate(egui::vec2(dx, 0.0))
}

/// Where this frame's pass drew the things a lesson may point at, so that
/// its outline goes around the thing itself.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct Drawn {
    pub roem_button: Option<egui::Rect>,
    pub sheet: Option<egui::Rect>,
}

/// The table's egui pass. Records the area below the top bar for the
/// cards, and whether egui has the pointer.
#[allow(clippy::too_many_arguments)]
pub fn overlay(
    mut contexts: EguiContexts,
    seats: Option<Res<Seats>>,
    show: Res<Show>,
    texts: Res<Texts>,
    images: Res<CardImages>,
    settings: Res<crate::PlayerSettings>,
    mut table: ResMut<Table>,
    mut over_ui: ResMut<PointerOverUi>,
    mut drawn: ResMut<Drawn>,
    (hint, deal_review): (Res<crate::coach::Hint>, Res<crate::coach::DealReview>),
    mut coach: MessageWriter<crate::coach::CoachCommand>,
    time: Res<Time>,
    mut actions: MessageWriter<PlayerAction>,
    mut commands: MessageWriter<TableCommand>,
    mut reviews: MessageWriter<Review>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let Some(seats) = seats else {
        // No match at the table: back to the title, unless a screen is
        // already chosen (leaving a lesson goes to the lessons).
        if matches!(*next, NextState::Unchanged) {
            next.set(Screen::Title);
        }
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    // Where the Roem! button stood last frame: the player's notices step
    // aside from it.
    let roem_button = drawn.roem_button;
    *drawn = Drawn::default();
    let mut root = crate::screens::root_ui(&ctx);
    let t = &texts.0;
    let now = time.elapsed_secs();
    let game = seats.game();
    let trump = show.shown.contract.map(|c| c.trump);
    let mut review_wanted = None;

    // The top bar: menu, totals, deal number.
    egui::Panel::top("bar").frame(egui::Frame::new().fill(Color32::from_rgb(12, 60, 36)).inner_margin(6.0)).show(
        &mut root,
        |ui| {
            // On a narrow screen the coach's buttons go to a second row.
            ui.horizontal_wrapped(|ui| {
                if ui.button(RichText::new("☰").size(18.0)).clicked() {
                    next.set(Screen::Title);
                }
                // A boem counts strokes; other matches points.
                let sheet = shown_sheet(&seats, &show);
                let boem = seats.m.rules().races_to_the_boem();
                let totals = if boem { sheet.strokes().map(u32::from) } else { sheet.totals() };
                let players = seats.m.rules().players;
                // Each alone: a total for every player.
                let each = sheet.player_totals();
                for &seat in players.seats().iter().filter(|_| !players.partnerships()) {
                    ui.label(
                        RichText::new(format!("{}: {}", seat_name(t, seat), each[seat.index()]))
                            .color(seat_colour(players, seat))
                            .size(17.0)
                            .strong(),
                    );
                    ui.add_space(8.0);
                }
                for team in Team::BOTH.into_iter().filter(|_| players.partnerships()) {
                    let total = match boem {
                        true => t.fill("table.strokes", &[("n", &totals[team].to_string())]),
                        false => totals[team].to_string(),
                    };
                    ui.label(
                        RichText::new(format!("{}: {total}", team_name(t, team)))
                            .color(team_colour(team))
                            .size(17.0)
                            .strong(),
                    );
                    ui.add_space(8.0);
                }
                ui.label(
                    RichText::new(t.fill("table.deal", &[("n", &seats.m.deal_number().to_string())]))
                        .color(Color32::WHITE)
                        .size(15.0),
                );
                let review = egui::Button::new(RichText::new(t.get("table.last_trick")).size(15.0));
                if ui.add_enabled(show.shown.last_trick.is_some(), review).clicked() {
                    review_wanted = Some(!show.reviewing);
                }
                // The review of the deals played so far.
                let review = egui::Button::new(RichText::new(t.get("table.review")).size(15.0));
                if !seats.demo && !seats.lesson && ui.add_enabled(seats.m.deals_finished() > 0, review).clicked() {
                    coach.write(crate::coach::CoachCommand::Review);
                }
                // A practice game's coach (H and U on the keyboard).
                if crate::coach::helps(&seats) {
                    let asked = hint.working() || hint.shown(seats.moment()).is_some();
                    let hint_button = egui::Button::new(RichText::new(t.get("coach.hint")).size(15.0));
                    if ui.add_enabled(game.to_act() == Some(HUMAN) && !asked, hint_button).clicked() {
                        coach.write(crate::coach::CoachCommand::Hint);
                    }
                    let undo = egui::Button::new(RichText::new(t.get("coach.undo")).size(15.0));
                    if ui.add_enabled(crate::coach::can_undo(game), undo).clicked() {
                        coach.write(crate::coach::CoachCommand::Undo);
                    }
                }
            });
        },
    );
    let area = root.available_rect_before_wrap();
    let measured = Rect::new(area.left(), area.top(), area.right(), area.bottom());
    if table.area != measured && measured.width() > 0.0 && measured.height() > 0.0 {
        table.area = measured;
    }
    let layout = table.layout();
    let p = ctx.layer_painter(egui::LayerId::background());

    let waiting = seats.waiting_for(&show, now);
    name_plates(&p, t, &show, &layout, waiting);
    trick_counts(&p, t, &show, &layout, settings.0.show_points.then(|| seats.m.rules()));
    let trump_symbol = trump.map(|s| suit_texture(&mut contexts, &images, s));
    let race = seats.game().rules().races_to_the_boem().then(|| {
        let g = seats.game();
        PerTeam::new(g.tally(Team::NS), g.tally(Team::EW))
    });
    indicator(&p, t, seats.game().rules(), &show, &layout, trump_symbol, race);
    for n in show.notices.iter().filter(|n| n.until > now) {
        let font = FontId::proportional((layout.card.y * 0.12).clamp(14.0, 28.0));
        let galley = p.layout(notice(n, t, trump), font, Color32::BLACK, layout.area.width() * 0.8);
        let size = galley.size() + egui::vec2(20.0, 12.0);
        let at = match n.seat {
            Some(seat) if seat == HUMAN => layout.hand_centre(HUMAN) - Vec2::new(0.0, layout.card.y * 1.05),
            Some(seat) => layout.name_plate(seat).lerp(layout.trick_centre(), 0.3),
            // Above the trick, clear of North's card and of a lesson's
            // outline around the trick.
            None => layout.trick_centre() - Vec2::new(0.0, layout.trick_card().y + 10.0 + size.y * 0.5),
        };
        let rect = egui::Rect::from_center_size(pos(at), size);
        let rect = match roem_button.filter(|b| n.seat == Some(HUMAN) && b.intersects(rect)) {
            Some(button) => rect.translate(egui::vec2(button.left() - 8.0 - rect.right(), 0.0)),
            None => rect,
        };
        let rect = keep_inside(rect, egui_rect(&layout));
        let fill = if n.warning { Color32::from_rgb(255, 225, 160) } else { Color32::from_rgb(250, 250, 250) };
        if let Some(seat) = n.seat.filter(|&s| s != HUMAN) {
            // What another seat says comes as speech, pointing at them.
            speech_tail(&p, rect, pos(layout.name_plate(seat)), fill);
        }
        p.rect(rect, CornerRadius::same(10), fill, Stroke::new(1.0, Color32::DARK_GRAY), StrokeKind::Inside);
        p.galley(rect.min + egui::vec2(10.0, 6.0), galley, Color32::BLACK);
    }

    let my_turn = waiting == Some(HUMAN) && seats.is_human(HUMAN);
    let mut chosen = None;
    let doubling = game.phase() == Phase::Doubling;
    if my_turn && (game.phase() == Phase::Bidding || doubling) {
        let pile = game.turned_cards().last().map(|&c| pile_texture(&mut contexts, &images, c));
        let symbols: Vec<_> = Suit::ALL.iter().map(|&s| suit_texture(&mut contexts, &images, s)).collect();
        // Right of the middle on a wide table, clear of a lesson's bubble
        // left of the trick.
        let aside = if layout.area.width() > layout.area.height() { 90.0 } else { 0.0 };
        egui::Area::new("bidding".into()).anchor(Align2::CENTER_CENTER, [aside, 40.0]).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(12.0).show(ui, |ui| {
                let title = match game.contract().filter(|_| doubling) {
                    Some(c) => t.fill("double.your_turn", &[("suit", &suit_name(t, c.trump))]),
                    // Klaberjass's second round: the turned suit is out.
                    None => {
                        match game.turned_card().filter(|_| !game.legal_actions().contains(&Action::Bid(Bid::Play))) {
                            Some(turned) => t.fill("bid.second_round", &[("suit", &suit_name(t, turned.suit()))]),
                            None => t.get("bid.your_turn"),
                        }
                    }
                };
                ui.label(RichText::new(title).size(18.0));
                ui.horizontal(|ui| {
                    // The card the bid is about: pass or play beside it.
                    if let Some(pile) = pile {
                        let size = egui::vec2(64.0, 64.0 * 1.45);
                        ui.add(egui::Image::new((pile, size)));
                    }
                    ui.horizontal_wrapped(|ui| {
                        for action in game.legal_actions() {
                            let (label, suit) = match action {
                                Action::Bid(Bid::Pass) => (t.get("bid.pass"), None),
                                // At two the turned card lies on the stock, not
                                // in the dialog: say its suit.
                                Action::Bid(Bid::Play) => match game.turned_card() {
                                    Some(c) => (
                                        format!(
                                            "      {}",
                                            t.fill("bid.play_suit", &[("suit", &suit_name(t, c.suit()))])
                                        ),
                                        Some(c.suit()),
                                    ),
                                    None => (t.get("bid.play"), None),
                                },
                                Action::Bid(Bid::Double) => (double_name(t, game.stakes().doubles + 1), None),
                                // Room on the left for the skin's symbol.
                                Action::Bid(Bid::Trump(suit)) => (format!("      {}", suit_name(t, suit)), Some(suit)),
                                _ => continue,
                            };
                            let response = ui.add_sized(
                                [130.0, crate::screens::at_least_a_finger(ui, 44.0)],
                                egui::Button::new(RichText::new(label).size(18.0)),
                            );
                            if let Some(suit) = suit {
                                let at = response.rect.left_center() + egui::vec2(22.0, 0.0);
                                paint_suit(ui.painter(), symbols[suit.index()], at, 13.0);
                            }
                            if response.clicked() {
                                chosen = Some(action);
                            }
                        }
                    });
                });
            });
        });
    }
    // At three, the player who named trump lays two cards away: a word on
    // what the taps on the hand do now.
    if my_turn && game.phase() == Phase::Discarding {
        let left = 2 - game.discards().len();
        egui::Area::new("lay away".into()).anchor(Align2::CENTER_CENTER, [0.0, 0.0]).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(12.0).show(ui, |ui| {
                ui.set_max_width(360.0);
                ui.label(RichText::new(t.fill("table.lay_away", &[("n", &left.to_string())])).size(17.0));
            });
        });
    }
    // Roem may be called after any trick the player's team won, whether it
    // holds roem or not, until the next card: the engine says when. The
    // button comes when the trick is seen won and goes once answered.
    let tricks = game.tricks().len() as u8;
    let last_word = game.phase() == Phase::ClaimRoem && my_turn;
    let may_call =
        seats.is_human(HUMAN) && game.may_call_roem(HUMAN) && show.tricks_seen == tricks && show.shown.result.is_none();
    // Hand roem is announced before the player's first card, and at two
    // the seven of trumps swapped for the turned card.
    let announce = my_turn && game.legal_actions().contains(&Action::Announce) && show.idle(now);
    let swap = my_turn && game.legal_actions().contains(&Action::Swap) && show.idle(now);
    if may_call && show.false_call == Some(tricks) {
        if last_word {
            chosen = Some(Action::PassRoem);
        }
    } else if may_call || announce || swap {
        // Beside the player's hand, right of where a full hand reaches; on a
        // narrow table, where the hand fills the width, just above it at the
        // right. Never over a name or a card.
        let card = layout.hand_card(HUMAN);
        let most = (game.rules().hand_size() as usize).max(8);
        let full_hand = layout.hand_positions(HUMAN, most).last().map_or(0.0, |p| p.x) + card.x * 0.5;
        let centre_y = layout.hand_centre(HUMAN).y;
        let beside = full_hand + 16.0 + 150.0 <= layout.area.max.x;
        let (pivot, at) = if beside {
            (Align2::LEFT_CENTER, Pos2::new(full_hand + 16.0, centre_y))
        } else {
            (Align2::RIGHT_BOTTOM, Pos2::new(layout.area.max.x - 16.0, centre_y - card.y * 0.5 - 12.0))
        };
        let shown = egui::Area::new("roem".into()).pivot(pivot).fixed_pos(at).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(10.0).show(ui, |ui| {
                if swap || announce {
                    // Narrow enough to stay clear of the player's name on a
                    // phone.
                    ui.vertical(|ui| {
                        if let (true, Some(turned)) = (swap, game.turned_card()) {
                            let words = t.fill("swap.button", &[("card", &crate::words::card_name(t, turned, None))]);
                            let button = egui::Button::new(RichText::new(words).size(18.0).strong());
                            if ui.add_sized([136.0, 48.0], button).clicked() {
                                chosen = Some(Action::Swap);
                            }
                        }
                        if announce {
                            let trump = game.contract().map_or(klaverjas::Suit::Clubs, |c| c.trump);
                            let points = klaverjas::roem::hand_roem_points(
                                game.deal().hand(HUMAN),
                                trump,
                                game.rules().roem_table,
                            );
                            let words = t.fill("announce.button", &[("points", &points.to_string())]);
                            let button = egui::Button::new(RichText::new(words).size(20.0).strong());
                            if ui.add_sized([136.0, 48.0], button).clicked() {
                                chosen = Some(Action::Announce);
                            }
                        }
                    });
                    return;
                }
                let call = egui::Button::new(RichText::new(t.get("roem.call")).size(22.0).strong());
                if ui.add_sized([120.0, 48.0], call).clicked() {
                    chosen = Some(Action::ClaimRoem);
                }
                // The last trick waits for a word, roem or not.
                if last_word
                    && ui
                        .add_sized(
                            [120.0, crate::screens::at_least_a_finger(ui, 40.0)],
                            egui::Button::new(t.get("roem.pass")),
                        )
                        .clicked()
                {
                    chosen = Some(Action::PassRoem);
                }
            });
        });
        drawn.roem_button = Some(shown.response.rect);
    }
    if show.reviewing
        && let Some(last) = &show.shown.last_trick
    {
        let faces: Vec<_> = last.plays.iter().map(|&(_, c)| texture(&mut contexts, &images, Face::Card(c))).collect();
        let close = last_trick_window(&ctx, t, last, &faces);
        if close {
            review_wanted = Some(false);
        }
    }
    // The deal's review takes the score's place until it is closed.
    let reviewing = deal_review.showing(&seats) == Some(seats.m.deal_number());
    if let (Some(result), true, false) = (show.shown.result, show.idle(now), reviewing) {
        let window = egui::Window::new(t.get("result.title")).collapsible(false).resizable(false);
        // A lesson's bubble, which talks about the sheet, stands left of the
        // trick on a wide table and above it on a tall one: the sheet goes
        // right of it or below it.
        let beside = (layout.lesson_bubble_right(), layout.lesson_bubble_bottom());
        let window = match beside {
            (Some(right), _) if seats.lesson => {
                window.pivot(Align2::LEFT_CENTER).fixed_pos(Pos2::new(right + 28.0, layout.trick_centre().y))
            }
            (_, Some(bottom)) if seats.lesson => {
                window.pivot(Align2::CENTER_TOP).fixed_pos(Pos2::new(layout.area.center().x, bottom + 12.0))
            }
            _ => window.anchor(Align2::CENTER_CENTER, [0.0, 0.0]),
        };
        window.show(&ctx, |ui| {
            ui.label(RichText::new(result_line(t, &result, seats.m.rules(), race)).size(16.0));
            ui.separator();
            drawn.sheet = Some(sheet_grid(ui, t, &seats.m));
            let legend = match (seats.m.rules().races_to_the_boem(), seats.m.rules().players.partnerships()) {
                (true, _) => "sheet.legend_boem",
                (false, true) => "sheet.legend",
                (false, false) => "sheet.legend_alone",
            };
            ui.label(RichText::new(t.get(legend)).size(14.0).color(Color32::from_gray(70)));
            ui.separator();
            if seats.m.is_over() {
                let winner = match (seats.m.rules().players.partnerships(), seats.m.winner(), seats.m.winning_player())
                {
                    (true, Some(team), _) => t.fill("result.winner", &[("team", &team_name(t, team))]),
                    (false, _, Some(seat)) => t.fill("result.winner_alone", &[("seat", &seat_name(t, seat))]),
                    _ => t.get("result.tie"),
                };
                ui.label(RichText::new(winner).size(20.0).strong());
                if !seats.demo && !seats.lesson && ui.button(RichText::new(t.get("menu.new_game")).size(18.0)).clicked()
                {
                    commands.write(TableCommand::NewMatch);
                }
            } else if !seats.demo
                && !seats.lesson
                && ui.button(RichText::new(t.get("result.next")).size(18.0)).clicked()
            {
                commands.write(TableCommand::NextDeal);
            }
            if !seats.demo && !seats.lesson {
                if ui.button(RichText::new(t.get("result.review")).size(16.0)).clicked() {
                    coach.write(crate::coach::CoachCommand::Review);
                }
                share_code(ui, t, game.deal().code(), &mut coach);
            }
        });
    }
    if let Some(action) = chosen {
        actions.write(PlayerAction { seat: HUMAN, action });
    }
    if let Some(open) = review_wanted {
        reviews.write(Review(open));
    }
    over_ui.0 = ctx.is_pointer_over_egui() || ctx.egui_wants_pointer_input();
    Ok(())
}

fn egui_rect(layout: &Layout) -> egui::Rect {
    egui::Rect::from_min_max(pos(layout.area.min), pos(layout.area.max))
}

/// Names, team colours, the dealer, the playing side, who is to act.
fn name_plates(
    p: &egui::Painter,
    t: &crate::i18n::Texts,
    show: &Show,
    layout: &Layout,
    waiting: Option<klaverjas::Seat>,
) {
    let players = show.shown.players;
    for &seat in players.seats() {
        let mut name = seat_name(t, seat);
        if seat == show.shown.dealer {
            name = format!("{name}  ({})", t.get("table.dealer"));
        }
        if show.shown.contract.is_some_and(|c| c.declarer == seat) {
            name = format!("{name}  ★");
        }
        let font = FontId::proportional((layout.card.y * 0.13).clamp(14.0, 30.0));
        let galley = p.layout_no_wrap(name, font, Color32::BLACK);
        let rect = egui::Rect::from_center_size(pos(layout.name_plate(seat)), galley.size() + egui::vec2(16.0, 6.0));
        let rect = keep_inside(rect, egui_rect(layout));
        let active = waiting == Some(seat);
        p.rect(
            rect,
            CornerRadius::same(6),
            seat_colour(players, seat),
            Stroke::new(if active { 3.0 } else { 0.0 }, Color32::WHITE),
            StrokeKind::Outside,
        );
        p.galley(rect.min + egui::vec2(8.0, 3.0), galley, Color32::BLACK);
    }
}

fn trick_counts(p: &egui::Painter, t: &crate::i18n::Texts, show: &Show, layout: &Layout, points: Option<&Rules>) {
    let players = show.shown.players;
    for pile in show.shown.piles() {
        let n = show.shown.tricks_won(pile);
        if n > 0 {
            let colour = seat_colour(players, pile);
            let at = layout.pile(players, pile) + Vec2::new(0.0, layout.small().x * 0.6);
            let mut label = t.fill("table.tricks", &[("n", &n.to_string())]);
            if let Some(rules) = points {
                label += "\n";
                label += &t.fill("table.points", &[("n", &show.shown.points(pile, rules).to_string())]);
            }
            let galley = p.layout_no_wrap(label, FontId::proportional(15.0), colour);
            let mut rect = Align2::CENTER_TOP.anchor_size(pos(at), galley.size());
            // Below the pile, or beside it where the table ends or the
            // player's hand begins first.
            let hand_top = layout.hand_centre(Seat::South).y - layout.card.y * (0.5 + super::cards::LIFT);
            if rect.bottom() > layout.area.max.y || (layout.portrait && pile == Seat::South && rect.bottom() > hand_top)
            {
                let side = layout.pile(players, pile) + Vec2::new(layout.small().y * 0.5 + 6.0, 0.0);
                rect = Align2::LEFT_CENTER.anchor_size(pos(side), galley.size());
            }
            let rect = keep_inside(rect, egui_rect(layout));
            p.galley(rect.min, galley, colour);
        }
    }
}

/// A tail from a speech bubble towards who speaks.
fn speech_tail(p: &egui::Painter, bubble: egui::Rect, speaker: Pos2, fill: Color32) {
    let centre = bubble.center();
    let towards = (speaker - centre).normalized();
    // Where the line towards the speaker leaves the bubble.
    let exit =
        (bubble.width() * 0.5 / towards.x.abs().max(1e-3)).min(bubble.height() * 0.5 / towards.y.abs().max(1e-3));
    let base = centre + towards * (exit - 6.0);
    let side = egui::vec2(-towards.y, towards.x) * 8.0;
    let tip = centre + towards * (exit + 16.0);
    p.add(egui::Shape::convex_polygon(vec![base + side, tip, base - side], fill, Stroke::new(1.0, Color32::DARK_GRAY)));
}

/// The last trick again, each card where its seat sits, the winner
/// marked. Returns whether the player closed it.
fn last_trick_window(ctx: &egui::Context, t: &crate::i18n::Texts, last: &LastTrick, faces: &[egui::TextureId]) -> bool {
    let mut close = false;
    egui::Window::new(t.fill("review.title", &[("n", &last.number.to_string())]))
        .collapsible(false)
        .resizable(false)
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            let card = egui::vec2(70.0, 70.0 * 1.45);
            let (rect, response) = ui.allocate_exact_size(egui::vec2(card.x * 3.4, card.y * 2.3), egui::Sense::click());
            let c = rect.center();
            for (i, &(seat, _)) in last.plays.iter().enumerate() {
                let offset = match seat {
                    klaverjas::Seat::North => egui::vec2(0.0, -card.y * 0.6),
                    klaverjas::Seat::South => egui::vec2(0.0, card.y * 0.6),
                    klaverjas::Seat::West => egui::vec2(-card.x * 1.15, 0.0),
                    klaverjas::Seat::East => egui::vec2(card.x * 1.15, 0.0),
                };
                let r = egui::Rect::from_center_size(c + offset, card);
                paint_part(ui.painter(), faces[i], r, egui::Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)));
                if seat == last.winner {
                    ui.painter().rect_stroke(
                        r,
                        CornerRadius::same(4),
                        Stroke::new(3.0, Color32::from_rgb(255, 200, 40)),
                        StrokeKind::Outside,
                    );
                }
            }
            let leader = last.plays[0].0;
            let words =
                t.fill("review.who", &[("leader", &seat_name(t, leader)), ("winner", &seat_name(t, last.winner))]);
            ui.label(RichText::new(words).size(15.0));
            close = ui
                .add_sized(
                    [120.0, crate::screens::at_least_a_finger(ui, 40.0)],
                    egui::Button::new(RichText::new(t.get("review.close")).size(16.0)),
                )
                .clicked()
                || response.clicked();
        });
    close
}

/// The sheet as the table shows it: a deal's line appears when its last
/// trick has landed, not while the cards still move.
fn shown_sheet(seats: &Seats, show: &Show) -> ScoreSheet {
    let mut sheet = seats.m.sheet().clone();
    if seats.game().result().is_some() && show.shown.result.is_none() {
        sheet.rows.pop();
    }
    sheet
}

/// The contract in words under the pile, with the trump's symbol.
fn indicator(
    p: &egui::Painter,
    t: &crate::i18n::Texts,
    rules: &klaverjas::Rules,
    show: &Show,
    layout: &Layout,
    symbol: Option<egui::TextureId>,
    race: Option<PerTeam<u16>>,
) {
    let at = layout.indicator();
    let mut text = match (show.shown.contract, show.shown.face_up) {
        // The last card dealt makes trump once it has been dealt.
        (Some(_), Some(_)) if show.shown.dealing.is_some() => t.get("table.dealing"),
        (Some(c), Some(card)) => t.fill(
            "table.trump_only",
            &[("suit", &suit_name(t, c.trump)), ("card", &crate::words::card_name(t, card, Some(c.trump)))],
        ),
        (Some(c), None) => {
            t.fill("table.contract", &[("suit", &suit_name(t, c.trump)), ("seat", &seat_name(t, c.declarer))])
        }
        (None, _) => t.get("table.bidding"),
    };
    // In a boem: each side's count towards 100 (the top bar has strokes).
    if let Some(tally) = race {
        text += "\n";
        text += &t.fill("table.race", &[("ns", &tally.ns.to_string()), ("ew", &tally.ew.to_string())]);
    }
    if let Some(c) = show.shown.contract {
        let times = klaverjas::Stakes::multiplier(rules, c.trump, show.shown.doubles);
        if times > 1 {
            text += "\n";
            text += &match show.shown.doubles {
                0 => t.fill("table.counts", &[("times", &times.to_string())]),
                n => t.fill("table.doubled", &[("double", &double_name(t, n)), ("times", &times.to_string())]),
            };
        }
    }
    // Under the turned cards; on a table too low for that (a phone held
    // sideways) beside them, clear of West's hand.
    let below = Pos2::new(layout.area.min.x + 10.0, at.y + layout.small().y * 0.5 + 8.0);
    let galley = p.layout(text.clone(), FontId::proportional(14.0), Color32::WHITE, layout.small().x * 2.8);
    let west = layout.hand_positions(Seat::West, 8);
    let west_top = west.iter().map(|w| w.y).fold(f32::MAX, f32::min) - layout.hand_card(Seat::West).x * 0.5;
    let (origin, galley) = if below.y + galley.size().y + 44.0 <= west_top {
        (below, galley)
    } else {
        let beside = Pos2::new(layout.turned_card(1).x + layout.small().x * 0.6 + 10.0, layout.area.min.y + 6.0);
        let north = layout.hand_positions(Seat::North, 8);
        let north_left = north.first().map_or(layout.area.center().x, |n| n.x) - layout.small().x * 0.5;
        let wrap = (north_left - beside.x - 8.0).max(90.0);
        (beside, p.layout(text, FontId::proportional(14.0), Color32::WHITE, wrap))
    };
    let text_height = galley.size().y;
    p.galley(origin, galley, Color32::WHITE);
    if let Some(symbol) = symbol {
        let centre = origin + egui::vec2(18.0, text_height + 22.0);
        p.circle_filled(centre, 17.0, Color32::from_rgb(252, 250, 244));
        paint_suit(p, symbol, centre, 13.0);
    }
}

/// Draws the match's score sheet and says where: rows as players write
/// them, points then roem marks, a dash for nothing. A deal where the coach
/// helped (a practice game's hints, or a card taken back) is starred, and a
/// line under the sheet says so.
pub fn sheet_grid(ui: &mut egui::Ui, t: &crate::i18n::Texts, m: &Match) -> egui::Rect {
    let sheet = m.sheet();
    let aided = |i: usize| m.aids(i + 1).any();
    if !m.rules().players.partnerships() {
        return sheet_alone(ui, t, m);
    }
    // Rows of text, not of buttons: as tight on a phone as elsewhere.
    let rect = egui::Grid::new("sheet")
        .min_row_height(ui.text_style_height(&egui::TextStyle::Body))
        .striped(true)
        .num_columns(3)
        .spacing([24.0, 4.0])
        .show(ui, |ui| {
            ui.label("");
            ui.label(RichText::new(team_name(t, Team::NS)).color(team_ink(Team::NS)).strong());
            ui.label(RichText::new(team_name(t, Team::EW)).color(team_ink(Team::EW)).strong());
            ui.end_row();
            for (i, row) in sheet.rows.iter().enumerate() {
                let times = row.stakes.multiplier;
                let times = if times > 1 { format!(" ×{times}") } else { String::new() };
                ui.label(format!("{}{}{times}", i + 1, if aided(i) { "*" } else { "" }));
                for team in Team::BOTH {
                    let points =
                        if row.total(team) == 0 { "-".to_string() } else { row.sheet_points[team].to_string() };
                    // A side that went on the boem draws its strokes, one
                    // slash each, as on the boem's tree.
                    let on = row.going_on.filter(|on| on.team == team).map_or(0, |on| on.strokes as usize);
                    let strokes = if on > 0 { format!(" {}", "/".repeat(on)) } else { String::new() };
                    // Points right-aligned as in the sums below, roem marks after.
                    ui.label(RichText::new(format!("{points:>4} {}{strokes}", row.marks(team))).monospace());
                }
                ui.end_row();
            }
            let sums = [
                (t.get("sheet.points"), sheet.points()),
                (t.get("sheet.roem"), sheet.roem()),
                (t.get("sheet.total"), sheet.totals()),
            ];
            // A boem is counted in strokes, and within a game towards 100:
            // sums over games already won would say nothing.
            let sums = match m.rules().races_to_the_boem() {
                true => vec![
                    (t.get("sheet.to_100"), sheet.carry().unwrap_or_default().map(u32::from)),
                    (t.get("sheet.strokes"), sheet.strokes().map(u32::from)),
                ],
                false => sums.to_vec(),
            };
            for (label, sum) in sums {
                ui.label(RichText::new(label).strong());
                ui.label(RichText::new(format!("{:>4}", sum.ns)).monospace().strong());
                ui.label(RichText::new(format!("{:>4}", sum.ew)).monospace().strong());
                ui.end_row();
            }
        })
        .response
        .rect;
    if (0..sheet.rows.len()).any(aided) {
        ui.label(RichText::new(t.get("sheet.aided")).size(14.0).color(Color32::from_gray(70)));
    }
    rect
}

/// The sheet where each plays alone: a column a player, the trump
/// maker's score starred where it was nat.
fn sheet_alone(ui: &mut egui::Ui, t: &crate::i18n::Texts, m: &Match) -> egui::Rect {
    let sheet = m.sheet();
    let players = m.rules().players;
    let seats = players.seats();
    let rect = egui::Grid::new("sheet")
        .min_row_height(ui.text_style_height(&egui::TextStyle::Body))
        .striped(true)
        .num_columns(seats.len() + 1)
        .spacing([24.0, 4.0])
        .show(ui, |ui| {
            ui.label("");
            for &seat in seats {
                ui.label(RichText::new(seat_name(t, seat)).color(seat_ink(players, seat)).strong());
            }
            ui.end_row();
            for (i, row) in sheet.rows.iter().enumerate() {
                let aided = if m.aids(i + 1).any() { "*" } else { "" };
                ui.label(format!("{}{aided}", i + 1));
                let each = row.players.unwrap_or_default();
                for &seat in seats {
                    let score = each.score[seat.index()];
                    let text = if score == 0 { "-".to_string() } else { score.to_string() };
                    let maker = if row.contract.declarer == seat { "★" } else { " " };
                    ui.label(RichText::new(format!("{text:>4} {maker}")).monospace());
                }
                ui.end_row();
            }
            let totals = sheet.player_totals();
            ui.label(RichText::new(t.get("sheet.total")).strong());
            for &seat in seats {
                ui.label(RichText::new(format!("{:>4}", totals[seat.index()])).monospace().strong());
            }
            ui.end_row();
        })
        .response
        .rect;
    if (0..sheet.rows.len()).any(|i| m.aids(i + 1).any()) {
        ui.label(RichText::new(t.get("sheet.aided")).size(14.0).color(Color32::from_gray(70)));
    }
    rect
}

/// The deal's code, to replay it or send it to a friend, with Copy.
pub fn share_code(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    code: String,
    coach: &mut MessageWriter<crate::coach::CoachCommand>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(t.fill("share.code", &[("code", &code)])).size(15.0));
        if ui.button(t.get("share.copy")).clicked() {
            coach.write(crate::coach::CoachCommand::CopyCode(code));
        }
    });
}

/// The card points and roem behind a deal's result.
fn points_line(t: &crate::i18n::Texts, r: &DealResult, rules: &Rules) -> String {
    // Roem from the hands is announced, not called.
    let hand = rules.roem_source == klaverjas::RoemSource::Hand;
    t.fill(
        if hand { "result.points_announced" } else { "result.points" },
        &[
            ("ns", &r.points.ns.to_string()),
            ("ew", &r.points.ew.to_string()),
            ("rns", &r.roem.ns.to_string()),
            ("rew", &r.roem.ew.to_string()),
        ],
    )
}

/// The deal in words: who played which trump, how it went, then the card
/// points and roem behind it.
/// `tally`: each side's count towards 100 as the hand ended, in a boem.
fn result_line(
    t: &crate::i18n::Texts,
    r: &DealResult,
    rules: &klaverjas::Rules,
    tally: Option<PerTeam<u16>>,
) -> String {
    if let Some(on) = r.going_on {
        let went_on = crate::show::Notice { text: NoticeText::WentOn(on), seat: None, until: 0.0, warning: false };
        let words = notice(&went_on, t, Some(r.contract.trump));
        let tally = tally.map_or(String::new(), |c| {
            let tricks = (r.tricks.ns + r.tricks.ew).to_string();
            "\n".to_string()
                + &t.fill("result.tally", &[("ns", &c.ns.to_string()), ("ew", &c.ew.to_string()), ("tricks", &tricks)])
        });
        return words + &tally + "\n" + &points_line(t, r, rules);
    }
    if let Some(each) = r.players {
        let maker = r.contract.declarer;
        let mine = each.points[maker.index()] + each.roem[maker.index()];
        let all: u16 = (0..4).map(|i| each.points[i] + each.roem[i]).sum();
        let mut s = t.fill(
            match (r.nat, rules.players.count()) {
                (false, _) => "result.alone_made",
                // At two there is one other to write it all.
                (true, 2) => "result.alone_nat_two",
                (true, _) => "result.alone_nat",
            },
            &[
                ("seat", &seat_name(t, maker)),
                ("suit", &suit_name(t, r.contract.trump)),
                ("own", &mine.to_string()),
                ("all", &all.to_string()),
            ],
        );
        for &seat in rules.players.seats() {
            let i = seat.index();
            s += "\n";
            s += &t.fill(
                "result.alone_player",
                &[
                    ("seat", &seat_name(t, seat)),
                    ("points", &each.points[i].to_string()),
                    ("roem", &each.roem[i].to_string()),
                    ("score", &each.score[i].to_string()),
                ],
            );
        }
        return s;
    }
    if !rules.has_playing_team() && r.stakes.doubles == 0 {
        let key = if rules.races_to_the_boem() { "result.old_play" } else { "result.both_count" };
        let own = PerTeam::new(r.total(Team::NS), r.total(Team::EW));
        let verdict = t.fill(
            key,
            &[("suit", &suit_name(t, r.contract.trump)), ("ns", &own.ns.to_string()), ("ew", &own.ew.to_string())],
        );
        return verdict + "\n" + &points_line(t, r, rules);
    }
    let playing = r.contract.playing_team();
    let own = r.points[playing] + r.roem[playing];
    let other = r.points[playing.other()] + r.roem[playing.other()];
    let verdict = t.fill(
        if r.nat { "result.nat" } else { "result.made" },
        &[
            ("team", &team_name(t, playing)),
            ("suit", &suit_name(t, r.contract.trump)),
            ("own", &own.to_string()),
            ("other", &other.to_string()),
            ("all", &(own + other).to_string()),
        ],
    );
    let mut s = verdict + "\n" + &points_line(t, r, rules);
    if let Some(team) = r.pit {
        s += "\n";
        s += &t.fill("result.pit", &[("team", &team_name(t, team))]);
    }
    let times = r.stakes.multiplier.to_string();
    match (r.stakes.challenger, r.takes_all()) {
        (Some(doubler), Some(winner)) => {
            s += "\n";
            s += &t.fill(
                if doubler == winner { "result.double_won" } else { "result.double_lost" },
                &[
                    ("doubler", &team_name(t, doubler)),
                    ("team", &team_name(t, winner)),
                    ("times", &times),
                    ("total", &r.total(winner).to_string()),
                ],
            );
        }
        _ if r.stakes.multiplier > 1 => {
            s += "\n";
            s += &t.fill("result.counts", &[("times", &times)]);
        }
        _ => {}
    }
    s
}
