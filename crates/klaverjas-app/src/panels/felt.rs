//! What is painted on the felt itself: the players' name plates, the
//! trick counts beside the piles, and the contract's words under the
//! turned cards with the trump's symbol.

use super::paint::{egui_rect, keep_inside, paint_suit, pos, suit_texture};
use super::view::{Seen, TableView};
use crate::look::seat_colour;
use crate::pictures::CardImages;
use crate::seats::Seats;
use crate::show::Show;
use crate::state::PlayerSettings;
use crate::table::cards::LIFT;
use crate::table::layout::Layout;
use crate::table::outline::{hand_box, on_table, open_cards};
use crate::words::{double_name, suit_name};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Align2, Color32, CornerRadius, FontId, Pos2, Stroke, StrokeKind};
use klaverjas::{PerTeam, Rules, Seat, Team};

/// The felt's words, on egui's background layer under every window.
pub fn felt_words(
    mut contexts: EguiContexts,
    view: TableView,
    images: Res<CardImages>,
    settings: Res<PlayerSettings>,
    mut drawn: ResMut<super::paint::Drawn>,
) -> Result {
    let Some(seen) = view.seen() else { return Ok(()) };
    let (waiting, my_turn) = (seen.waiting(), seen.my_turn());
    let Seen { seats, show, t, layout, .. } = seen;
    let ctx = contexts.ctx_mut()?.clone();
    let trump = show.shown.contract.map(|c| c.trump);
    let p = ctx.layer_painter(egui::LayerId::background());
    let short = drawn.contract_in_bar;
    let cards = card_places(&layout, show.shown.players);
    drawn.plates = name_plates(&p, t, show, (&layout, &cards), (waiting, my_turn), seats.remote(), short);
    // A table out of reach, for now or for good, says so across its top.
    if let Some(remote) = seats.remote() {
        let trouble = remote.told.trouble.as_ref().map(|why| t.fill("friends.closed", &[("why", why)]));
        if let Some(words) = remote.told.reconnecting.then(|| t.get("table.reconnecting")).or(trouble) {
            banner(&p, words, &layout);
        }
    }
    let points = settings.0.show_points.then(|| seats.m.rules());
    drawn.counts = trick_counts(&p, t, show, (&layout, &cards, &drawn.plates), points);
    let trump_symbol = trump.map(|s| suit_texture(&mut contexts, &images, s));
    (drawn.trump_mark, drawn.contract_words) = indicator(&p, t, seats, show, &layout, &cards, trump_symbol);
    let in_bar = drawn.contract_words.is_none();
    if drawn.contract_in_bar != in_bar {
        // The top bar takes the words, or gives them back, at once.
        drawn.contract_in_bar = in_bar;
        ctx.request_repaint();
    }
    Ok(())
}

/// In a boem, each side's count towards 100 in this deal.
pub fn race(seats: &Seats) -> Option<PerTeam<u16>> {
    let g = seats.game();
    g.rules().races_to_the_boem().then(|| PerTeam::new(g.tally(Team::NS), g.tally(Team::EW)))
}

/// `words` across the top of the table: "Reconnecting…", or why the table
/// cannot be reached.
fn banner(p: &egui::Painter, words: String, layout: &Layout) {
    let area = egui_rect(layout);
    let galley = p.layout(
        words,
        FontId::proportional(crate::look::scaled(p.ctx(), 20.0)),
        Color32::BLACK,
        (area.width() * 0.8).max(200.0),
    );
    let at = egui::pos2(area.center().x, area.top() + layout.card.y * 0.2);
    let rect = Align2::CENTER_TOP.anchor_size(at, galley.size() + egui::vec2(24.0, 10.0));
    p.rect_filled(rect, CornerRadius::same(8), Color32::from_rgb(255, 225, 160));
    p.galley(rect.min + egui::vec2(12.0, 5.0), galley, Color32::BLACK);
}

/// Names, team colours, the dealer, the playing side, who is to act; at a
/// table with friends, their names, who is away and where a bot plays.
/// Where each plate was drawn, by seat, clear of `cards` where it can be
/// ([`card_places`]). `waiting`: who is to act, and whether that is the
/// player. `short`: the top bar names the dealer (in the bidding), and the
/// player's lit plate alone says that it is their turn (a table too small
/// for the words at the player's text size).
fn name_plates(
    p: &egui::Painter,
    t: &crate::i18n::Texts,
    show: &Show,
    (layout, cards): (&Layout, &[egui::Rect]),
    (waiting, my_turn): (Option<klaverjas::Seat>, bool),
    remote: Option<&crate::seats::Remote>,
    short: bool,
) -> [Option<egui::Rect>; 4] {
    let players = show.shown.players;
    let mut plates = [None; 4];
    // The player's own plate first: it says whose turn it is.
    let mut seats = players.seats().to_vec();
    seats.sort_by_key(|&seat| seat != crate::seats::HUMAN);
    for seat in seats {
        let person = person(seat, remote);
        let mut name = who(t, seat, remote);
        // A newcomer sees the lit plate, and reads whose turn it is.
        if my_turn && seat == crate::seats::HUMAN && !short {
            name = format!("{name}: {}", t.get("table.your_turn"));
        }
        if let Some(p) = person {
            if let Some(s) = p.bot_in {
                name = format!("{name}  ({})", t.fill("table.away", &[("s", &s.to_string())]));
            } else if p.stood_in {
                name = format!("{name}  ({})", t.get("table.bot_stands_in"));
            }
        }
        if seat == show.shown.dealer && !short {
            name = format!("{name}  ({})", t.get("table.dealer"));
        }
        if show.shown.contract.is_some_and(|c| c.declarer == seat) {
            name = format!("{name}  ★");
        }
        let font = FontId::proportional(crate::look::scaled(p.ctx(), (layout.card.y * 0.13).clamp(14.0, 30.0)));
        let galley = p.layout_no_wrap(name, font, Color32::BLACK);
        let size = galley.size() + egui::vec2(16.0, 6.0);
        let taken: Vec<egui::Rect> = plates.iter().flatten().copied().collect();
        let spots = plate_spots(layout, seat, size)
            .map(|at| keep_inside(egui::Rect::from_center_size(pos(at), size), egui_rect(layout)));
        let free = |r: &egui::Rect| {
            let inside = r.top() >= layout.area.min.y && r.bottom() <= layout.area.max.y;
            inside && clear_of(cards, *r) && clear_of(&taken, *r)
        };
        let rect = spots.iter().copied().find(free).unwrap_or(spots[0]);
        let active = waiting == Some(seat);
        p.rect(
            rect,
            CornerRadius::same(6),
            seat_colour(players, seat),
            Stroke::new(if active { 3.0 } else { 0.0 }, Color32::WHITE),
            StrokeKind::Outside,
        );
        p.galley(rect.min + egui::vec2(8.0, 3.0), galley, Color32::BLACK);
        plates[seat.index()] = Some(rect.expand(3.0));
    }
    plates
}

/// Where a name plate of `size` may stand, best first: the layout's place
/// (below a side hand, above the others); where large text makes it
/// lie over cards or another plate, on the hand's other side, then beside
/// it.
fn plate_spots(layout: &Layout, seat: Seat, size: egui::Vec2) -> [Vec2; 3] {
    let centre = layout.hand_centre(seat);
    let hand = hand_box(layout, seat, 8);
    let (above, below) = (hand.min.y - size.y / 2.0 - 4.0, hand.max.y + size.y / 2.0 + 4.0);
    let (left, right) = (hand.min.x - size.x / 2.0 - 6.0, hand.max.x + size.x / 2.0 + 6.0);
    let first = layout.name_plate(seat);
    match seat {
        Seat::South => [first, Vec2::new(first.x, above), Vec2::new(layout.area.min.x + size.x / 2.0 + 4.0, above)],
        Seat::North => [first, Vec2::new(first.x, below), Vec2::new(right, centre.y)],
        Seat::West => [first, Vec2::new(first.x, above), Vec2::new(right, centre.y)],
        Seat::East => [first, Vec2::new(first.x, above), Vec2::new(left, centre.y)],
    }
}

/// Where cards may lie: each hand of `players` full, the player's with a
/// card lifted, and the trick.
fn card_places(layout: &Layout, players: klaverjas::Players) -> Vec<egui::Rect> {
    let backs = players.seats().iter().filter(|&&seat| seat != crate::seats::HUMAN);
    backs.map(|&seat| hand_box(layout, seat, 8)).chain(open_cards(layout, players)).collect()
}

/// Whether `r` lies over none of `rects` (edges may touch).
fn clear_of(rects: &[egui::Rect], r: egui::Rect) -> bool {
    !rects.iter().any(|c| c.intersects(r.shrink(1.0)))
}

/// Who the table with friends says sits in another seat than the player's.
fn person(seat: klaverjas::Seat, remote: Option<&crate::seats::Remote>) -> Option<&crate::seats::Person> {
    remote.filter(|_| seat != crate::seats::HUMAN).map(|r| &r.told.people[seat.index()])
}

/// Who sits in `seat`, as its plate names them: at a table with friends
/// the person, or the bot by its chair on the table's compass.
fn who(t: &crate::i18n::Texts, seat: klaverjas::Seat, remote: Option<&crate::seats::Remote>) -> String {
    crate::words::seat_called(t, seat, remote.map(|r| &r.told.people))
}

/// Where each pile's count was drawn, by the pile's seat: below its pile,
/// else beside or above it, clear of the cards, the name plates and the
/// piles; where large text leaves no such place, the count without its
/// points, then the bare number; where even that finds none, the same
/// places over the cards (still clear of names, piles and other counts),
/// and last below the pile (beside it where the table or the player's
/// hand ends first).
fn trick_counts(
    p: &egui::Painter,
    t: &crate::i18n::Texts,
    show: &Show,
    (layout, cards, plates): (&Layout, &[egui::Rect], &[Option<egui::Rect>; 4]),
    points: Option<&Rules>,
) -> [Option<egui::Rect>; 4] {
    let players = show.shown.players;
    let piles: Vec<egui::Rect> = show.shown.piles().into_iter().map(|pile| pile_box(layout, players, pile)).collect();
    // Never over a name, a pile or another count; over the cards only
    // where no place is clear of them too.
    let mut firm: Vec<egui::Rect> = plates.iter().flatten().chain(&piles).copied().collect();
    let mut counts = [None; 4];
    for pile in show.shown.piles() {
        let n = show.shown.tricks_won(pile);
        if n == 0 {
            continue;
        }
        let colour = seat_colour(players, pile);
        let font = FontId::proportional(crate::look::scaled(p.ctx(), 15.0));
        let tricks = t.fill("table.tricks", &[("n", &n.to_string())]);
        // The bare number last: beside its pile it still counts the tricks.
        let labels = match points {
            Some(rules) => {
                let points = t.count("table.points", ("n", show.shown.points(pile, rules) as i64), &[]);
                vec![format!("{tricks}\n{points}"), tricks, n.to_string()]
            }
            None => vec![tricks, n.to_string()],
        };
        let b = pile_box(layout, players, pile);
        let spots = [
            (Align2::CENTER_TOP, pos(layout.pile(players, pile)) + egui::vec2(0.0, layout.small().x * 0.6)),
            (Align2::LEFT_CENTER, b.right_center() + egui::vec2(6.0, 0.0)),
            (Align2::CENTER_BOTTOM, b.center_top() - egui::vec2(0.0, 4.0)),
            (Align2::RIGHT_CENTER, b.left_center() - egui::vec2(6.0, 0.0)),
        ];
        let inside = |r: &egui::Rect| egui_rect(layout).expand(0.5).contains_rect(*r);
        let clear_of_all = |taken: &[egui::Rect]| {
            labels.iter().find_map(|label| {
                let galley = p.layout_no_wrap(label.clone(), font.clone(), colour);
                // Each spot, then slid along the pile's side in steps.
                let slides = [0.0, -8.0, 8.0, -16.0, 16.0, -24.0, 24.0, -32.0, 32.0];
                let place = spots
                    .iter()
                    .flat_map(|(align, at)| {
                        let across = align.x() == egui::Align::Center;
                        slides.map(|d| {
                            let d = if across { egui::vec2(d, 0.0) } else { egui::vec2(0.0, d) };
                            align.anchor_size(*at + d, galley.size())
                        })
                    })
                    .find(|r| inside(r) && clear_of(taken, *r))?;
                Some((galley, place))
            })
        };
        let with_cards: Vec<egui::Rect> = cards.iter().chain(&firm).copied().collect();
        let clear = clear_of_all(&with_cards).or_else(|| clear_of_all(&firm));
        let (galley, rect) = clear.unwrap_or_else(|| {
            let galley = p.layout_no_wrap(labels[0].clone(), font, colour);
            let mut rect = Align2::CENTER_TOP.anchor_size(spots[0].1, galley.size());
            let hand_top = layout.hand_centre(Seat::South).y - layout.card.y * (0.5 + LIFT);
            if rect.bottom() > layout.area.max.y || (layout.portrait && pile == Seat::South && rect.bottom() > hand_top)
            {
                rect = Align2::LEFT_CENTER.anchor_size(spots[1].1, galley.size());
            }
            (galley, keep_inside(rect, egui_rect(layout)))
        });
        p.galley(rect.min, galley, colour);
        firm.push(rect);
        counts[pile.index()] = Some(rect);
    }
    counts
}

/// The box a pile of won tricks takes, eight of them stacked (as
/// `table::cards` lays them: a fifth smaller than the small cards, ours
/// lying across, each trick 2 up and right of the one before).
fn pile_box(layout: &Layout, players: klaverjas::Players, pile: Seat) -> egui::Rect {
    let card = layout.small() * 0.8;
    let size = if pile == Seat::South { Vec2::new(card.y, card.x) } else { card };
    let first = on_table(layout.pile(players, pile), size);
    first.union(first.translate(egui::vec2(14.0, -14.0)))
}

/// The contract in words: the trump, the playing side, a boem's race and
/// what doubling made of the stakes. The felt shows them under the
/// turned cards, or the top bar where the felt has no room.
pub fn contract_words(t: &crate::i18n::Texts, seats: &Seats, show: &Show) -> String {
    let rules = seats.game().rules();
    let mut text = match (show.shown.contract, show.shown.face_up) {
        // The last card dealt makes trump once it has been dealt.
        (Some(_), Some(_)) if show.shown.dealing.is_some() => t.get("table.dealing"),
        (Some(c), Some(card)) => t.fill(
            "table.trump_only",
            &[("suit", &suit_name(t, c.trump)), ("card", &crate::words::card_name(t, card, Some(c.trump)))],
        ),
        (Some(c), None) => {
            // The playing side by name, and by team where there are teams.
            let mut side = who(t, c.declarer, seats.remote());
            if rules.players.partnerships() && c.declarer != crate::seats::HUMAN {
                side = format!("{side} ({})", crate::words::team_name(t, c.declarer.team()));
            }
            t.fill("table.contract", &[("suit", &suit_name(t, c.trump)), ("seat", &side)])
        }
        // The turned card above proposes its suit.
        (None, _) if !show.shown.turned.is_empty() => t.get("table.bidding_turned"),
        (None, _) => t.get("table.bidding"),
    };
    // In a boem: each side's count towards 100 (the top bar has strokes).
    if let Some(tally) = race(seats) {
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
    text
}

/// The contract's words for the top bar where the felt has no room for
/// them, and the dealer until there is a contract: once the cards are
/// played the dealer matters no more than a line of the little room there
/// is between the bar and the cards.
pub fn bar_words(t: &crate::i18n::Texts, seats: &Seats, show: &Show) -> String {
    let contract = contract_words(t, seats, show);
    match show.shown.contract {
        Some(_) => contract,
        None => {
            let dealer = t.fill("table.dealer_is", &[("seat", &who(t, show.shown.dealer, seats.remote()))]);
            format!("{contract}\n{dealer}")
        }
    }
}

/// The trump's mark and the contract's words under the pile: where each
/// was drawn. Where the words would lie over a hand or the trick (large
/// text on a small phone) the top bar shows them (`None` here), and where
/// the mark would too, it is left out.
fn indicator(
    p: &egui::Painter,
    t: &crate::i18n::Texts,
    seats: &Seats,
    show: &Show,
    layout: &Layout,
    cards: &[egui::Rect],
    symbol: Option<egui::TextureId>,
) -> (Option<egui::Rect>, Option<egui::Rect>) {
    let text = contract_words(t, seats, show);
    let at = layout.indicator();
    // Under the turned cards; on a table too low for that (a phone held
    // sideways) beside them, clear of West's hand. The trump's mark, large,
    // comes first, the words beside it.
    let mark = if symbol.is_some() { 52.0 } else { 0.0 };
    let font = FontId::proportional(crate::look::scaled(p.ctx(), 16.0));
    let below = Pos2::new(layout.area.min.x + 10.0, at.y + layout.small().y * 0.5 + 8.0);
    // As wide as the corner is, up to North's hand.
    let north = layout.hand_positions(Seat::North, 8);
    let north_left = north.first().map_or(layout.area.center().x, |n| n.x) - layout.small().x * 0.5;
    let corner = (north_left - layout.area.min.x - 18.0 - mark).max(layout.small().x * 3.2 - mark);
    // Never narrower than its longest word (large text).
    let longest = text
        .split_whitespace()
        .map(|w| p.layout_no_wrap(w.to_string(), font.clone(), Color32::WHITE).size().x)
        .fold(0.0, f32::max);
    let corner = corner.max(longest);
    let west = layout.hand_positions(Seat::West, 8);
    let west_top = west.iter().map(|w| w.y).fold(f32::MAX, f32::min) - layout.hand_card(Seat::West).x * 0.5;
    // A narrow corner (a phone held upright): the words under the mark,
    // below North's hand; without a mark they stay in the corner.
    let (origin, galley, under) = if corner < 120.0 {
        let wrap = if mark > 0.0 { layout.area.width() * 0.55 } else { corner };
        (below, p.layout(text, font, Color32::WHITE, wrap), true)
    } else {
        let galley = p.layout(text.clone(), font.clone(), Color32::WHITE, corner);
        if below.y + galley.size().y.max(mark) + 8.0 <= west_top {
            (below, galley, false)
        } else {
            let beside = Pos2::new(layout.turned_card(1).x + layout.small().x * 0.6 + 10.0, layout.area.min.y + 6.0);
            let wrap = (north_left - beside.x - 8.0 - mark).max(90.0);
            (beside, p.layout(text, font, Color32::WHITE, wrap), false)
        }
    };
    let words_at = match under {
        true => origin + egui::vec2(0.0, mark + if mark > 0.0 { 4.0 } else { 0.0 }),
        false => origin + egui::vec2(mark, 0.0),
    };
    let words = egui::Rect::from_min_size(words_at, galley.size());
    let marked = (mark > 0.0).then(|| egui::Rect::from_min_size(origin, egui::vec2(mark, mark)));
    let marked = marked.filter(|&m| clear_of(cards, m));
    if marked.is_some() {
        paint_mark(p, origin, symbol);
    }
    if !clear_of(cards, words) {
        return (marked, None);
    }
    p.galley(words_at, galley, Color32::WHITE);
    (marked, Some(words))
}

/// The trump's mark, large, its top left corner at `origin`.
fn paint_mark(p: &egui::Painter, origin: Pos2, symbol: Option<egui::TextureId>) {
    if let Some(symbol) = symbol {
        let centre = origin + egui::vec2(22.0, 22.0);
        p.circle(centre, 22.0, Color32::from_rgb(252, 250, 244), Stroke::new(2.0, crate::look::GOLD));
        paint_suit(p, symbol, centre, 17.0);
    }
}
