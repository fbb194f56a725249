//! The score after a deal: the deal in words, the match's score sheet as
//! players write it, the winner at the match's end, Next deal, the review
//! and the deal's code to share.

use super::felt::race;
use super::paint::Drawn;
use super::view::{Seen, TableView};
use crate::coach::{CoachCommand, DealReview};
use crate::look::Pt;
use crate::look::{seat_ink, team_ink};
use crate::seats::{Seats, TableCommand};
use crate::show::{Notice, NoticeText, Show};
use crate::words::{notice, seat_name, suit_name, team_name};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Align2, Color32, Pos2, RichText};
use klaverjas::{DealResult, Match, PerTeam, Rules, ScoreSheet, Team};

/// The score window once the deal's last trick has landed; the deal's
/// review takes its place until it is closed.
pub fn score_window(
    mut contexts: EguiContexts,
    view: TableView,
    deal_review: Res<DealReview>,
    mut drawn: ResMut<Drawn>,
    mut coach: MessageWriter<CoachCommand>,
    mut commands: MessageWriter<TableCommand>,
) -> Result {
    let Some(Seen { seats, show, t, layout, now }) = view.seen() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?.clone();
    let game = seats.game();
    let reviewing = deal_review.showing(seats) == Some(seats.m.deal_number());
    let (Some(result), true, false) = (show.shown.result, show.idle(now), reviewing) else {
        return Ok(());
    };
    // Never wider or taller than the screen: at a large text size its
    // words wrap, it scrolls, and the sheet goes over to a line a deal.
    let screen = ctx.content_rect();
    let window = egui::Window::new(t.get("result.title"))
        .collapsible(false)
        .resizable(false)
        .max_width(screen.width() - 24.0)
        .max_height(screen.height() - 24.0)
        .vscroll(crate::look::scaled(&ctx, 1.0) > 1.0);
    // A lesson's bubble, which talks about the sheet, stands left of the
    // trick on a wide table and above it on a tall one: the sheet goes
    // right of it or below it.
    let beside = (layout.lesson_bubble_right(), layout.lesson_bubble_bottom());
    let window = match beside {
        (Some(right), _) if seats.lesson() => {
            window.pivot(Align2::LEFT_CENTER).fixed_pos(Pos2::new(right + 28.0, layout.trick_centre().y))
        }
        (_, Some(bottom)) if seats.lesson() => {
            window.pivot(Align2::CENTER_TOP).fixed_pos(Pos2::new(layout.area.center().x, bottom + 12.0))
        }
        _ => window.anchor(Align2::CENTER_CENTER, [0.0, 0.0]),
    };
    window.show(&ctx, |ui| {
        ui.label(RichText::new(result_line(t, &result, seats.m.rules(), race(seats))).pt(16.0));
        // The fair shuffle, checked here: the deal's code against the seal
        // the table announced before the deal.
        let opened = seats.remote().and_then(|r| r.told.opened.clone());
        let opened = opened.filter(|(deal, ..)| *deal == seats.m.deal_number());
        if let Some((_, code, holds)) = opened.clone() {
            let key = if holds { "table.seal_holds" } else { "table.seal_broken" };
            let colour =
                if holds { egui::Color32::from_rgb(30, 100, 50) } else { egui::Color32::from_rgb(170, 20, 20) };
            ui.label(RichText::new(t.fill(key, &[("code", &code)])).pt(13.0).color(colour));
        }
        ui.separator();
        // The room the window may grow to, not what it has now: it takes the
        // size of what it holds.
        let style = ui.style();
        let frame = style.spacing.window_margin.sum().x + 2.0 * style.visuals.window_stroke.width;
        let room = screen.width() - 24.0 - frame - style.spacing.scroll.allocated_width();
        drawn.sheet = Some(sheet_grid(ui, t, &seats.m, room));
        let legend = match (seats.m.rules().races_to_the_boem(), seats.m.rules().players.partnerships()) {
            (true, _) => "sheet.legend_boem",
            (false, true) => "sheet.legend",
            (false, false) => "sheet.legend_alone",
        };
        ui.label(RichText::new(t.get(legend)).pt(14.0).color(Color32::from_gray(70)));
        ui.separator();
        if seats.m.is_over() {
            let winner = match (seats.m.rules().players.partnerships(), seats.m.winner(), seats.m.winning_player()) {
                (true, Some(team), _) => t.fill("result.winner", &[("team", &team_name(t, team))]),
                (false, _, Some(seat)) => t.fill("result.winner_alone", &[("seat", &seat_name(t, seat))]),
                _ => t.get("result.tie"),
            };
            ui.label(RichText::new(winner).pt(20.0).strong());
            // At a table with friends the host asks for another match.
            let asks = seats.remote().is_none_or(|r| r.told.host);
            if !asks {
                ui.label(RichText::new(t.get("friends.wait_for_rematch")).pt(16.0));
            } else if !seats.demo()
                && !seats.lesson()
                && ui.button(RichText::new(t.get("menu.new_game")).pt(18.0)).clicked()
            {
                commands.write(TableCommand::NewMatch);
            }
        } else if !seats.demo() && !seats.lesson() && ui.button(RichText::new(t.get("result.next")).pt(18.0)).clicked()
        {
            commands.write(TableCommand::NextDeal);
        }
        if !seats.demo() && !seats.lesson() {
            if ui.button(RichText::new(t.get("result.review")).pt(16.0)).clicked() {
                coach.write(CoachCommand::Review);
            }
            // At a table with friends, the table's own code (the one its
            // seal was made of), not the deal turned to this chair.
            share_code(ui, t, opened.map_or_else(|| game.deal().code(), |(_, code, _)| code));
        }
    });
    Ok(())
}

/// The sheet as the table shows it: a deal's line appears when its last
/// trick has landed, not while the cards still move.
pub fn shown_sheet(seats: &Seats, show: &Show) -> ScoreSheet {
    let mut sheet = seats.m.sheet().clone();
    if seats.game().result().is_some() && show.shown.result.is_none() {
        sheet.rows.pop();
    }
    sheet
}

/// Draws the match's score sheet and says where: rows as players write
/// them, points then roem marks, a dash for nothing. A deal where the coach
/// helped (a practice game's hints, or a card taken back) is starred, and a
/// line under the sheet says so. `room`: how wide it may be, in columns,
/// before it goes over to a line a deal.
pub fn sheet_grid(ui: &mut egui::Ui, t: &crate::i18n::Texts, m: &Match, room: f32) -> egui::Rect {
    let sheet = m.sheet();
    let aided = |i: usize| m.aids(i + 1).any();
    let number = |i: usize, times: u16| {
        let times = if times > 1 { format!(" ×{times}") } else { String::new() };
        format!("{}{}{times}", i + 1, if aided(i) { "*" } else { "" })
    };
    let ink = ui.visuals().text_color();
    let mono = mono(ui, ink);
    let drawn = match m.rules().players.partnerships() {
        true => {
            let rows = sheet.rows.iter().enumerate().map(|(i, row)| {
                // Points right-aligned as in the sums below; the roem marks
                // after them on a gold ground, where a bare "I" read as a
                // rule between the columns; a side that went on the boem
                // draws its strokes, one slash each, as on the boem's tree.
                let cells = Team::BOTH.map(|team| {
                    let points = if row.total(team) == 0 { "-".into() } else { row.sheet_points[team].to_string() };
                    let mut job = egui::text::LayoutJob::default();
                    job.append(&format!("{points:>4} "), 0.0, mono.clone());
                    let marks = row.marks(team);
                    if !marks.is_empty() {
                        let ground = crate::look::GOLD.gamma_multiply(0.45);
                        job.append(&format!(" {marks} "), 0.0, egui::TextFormat { background: ground, ..mono.clone() });
                    }
                    let on = row.going_on.filter(|on| on.team == team).map_or(0, |on| on.strokes as usize);
                    if on > 0 {
                        job.append(&format!(" {}", "/".repeat(on)), 0.0, mono.clone());
                    }
                    job
                });
                (number(i, row.stakes.multiplier), cells.to_vec())
            });
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
            Columns {
                sides: Team::BOTH.map(|team| (team_name(t, team), team_ink(team))).to_vec(),
                rows: rows.collect(),
                sums: sums.into_iter().map(|(label, sum)| (label, vec![sum.ns, sum.ew])).collect(),
            }
        }
        // Each alone: a column a player, the trump maker's score starred
        // where it was nat.
        false => {
            let players = m.rules().players;
            let seats = players.seats();
            let rows = sheet.rows.iter().enumerate().map(|(i, row)| {
                let each = row.players.unwrap_or_default();
                let cells = seats.iter().map(|&seat| {
                    let score = each.score[seat.index()];
                    let text = if score == 0 { "-".to_string() } else { score.to_string() };
                    let maker = if row.contract.declarer == seat { "★" } else { " " };
                    egui::text::LayoutJob::single_section(format!("{text:>4} {maker}"), mono.clone())
                });
                (number(i, row.stakes.multiplier), cells.collect())
            });
            let totals = sheet.player_totals();
            Columns {
                sides: seats.iter().map(|&seat| (seat_name(t, seat), seat_ink(players, seat))).collect(),
                rows: rows.collect(),
                sums: vec![(t.get("sheet.total"), seats.iter().map(|s| totals[s.index()]).collect())],
            }
        }
    }
    .draw(ui, room);
    if (0..sheet.rows.len()).any(aided) {
        ui.label(RichText::new(t.get("sheet.aided")).pt(14.0).color(Color32::from_gray(70)));
    }
    drawn
}

fn mono(ui: &egui::Ui, colour: Color32) -> egui::TextFormat {
    egui::TextFormat { font_id: egui::TextStyle::Monospace.resolve(ui.style()), color: colour, ..Default::default() }
}

/// A score sheet: a column a side (its name and ink), a row a deal (its
/// number and a cell a side), then the sums.
struct Columns {
    sides: Vec<(String, Color32)>,
    rows: Vec<(String, Vec<egui::text::LayoutJob>)>,
    sums: Vec<(String, Vec<u32>)>,
}

impl Columns {
    /// As columns where they fit in `room`; else (large text, a narrow
    /// phone, roem marks) a line a deal, its number and each side's cell
    /// whole, wrapped under each other where they do not fit side by side.
    fn draw(self, ui: &mut egui::Ui, room: f32) -> egui::Rect {
        const SPACING: f32 = 24.0;
        let body = egui::TextStyle::Body.resolve(ui.style());
        let wide = |job: egui::text::LayoutJob| ui.painter().layout_job(job).size().x;
        let words =
            |text: &str| wide(egui::text::LayoutJob::simple_singleline(text.into(), body.clone(), Color32::WHITE));
        let sum = |n: u32| RichText::new(format!("{n:>4}")).monospace().strong();
        let names = self.rows.iter().map(|(n, _)| words(n)).chain(self.sums.iter().map(|(label, _)| words(label)));
        // Each side's column as wide as its widest cell, roem marks and all.
        let column = |side: usize| {
            let cells = self.rows.iter().map(|(_, cells)| wide(cells[side].clone()));
            cells.fold(words(&self.sides[side].0), f32::max)
        };
        let across = names.fold(0.0, f32::max) + (0..self.sides.len()).map(|s| column(s) + SPACING).sum::<f32>();
        if across <= room {
            // Rows of text, not of buttons: as tight on a phone as elsewhere.
            return egui::Grid::new("sheet")
                .min_row_height(ui.text_style_height(&egui::TextStyle::Body))
                .striped(true)
                .num_columns(self.sides.len() + 1)
                .spacing([SPACING, 4.0])
                .show(ui, |ui| {
                    ui.label("");
                    for (name, ink) in &self.sides {
                        ui.label(RichText::new(name).color(*ink).strong());
                    }
                    ui.end_row();
                    for (number, cells) in self.rows {
                        ui.label(number);
                        for cell in cells {
                            // One label, so the row stays as high as its text.
                            ui.label(cell);
                        }
                        ui.end_row();
                    }
                    for (label, sums) in self.sums {
                        ui.label(RichText::new(label).strong());
                        for n in sums {
                            ui.label(sum(n));
                        }
                        ui.end_row();
                    }
                })
                .response
                .rect;
        }
        ui.vertical(|ui| {
            ui.spacing_mut().interact_size.y = 0.0;
            for (number, cells) in self.rows {
                ui.horizontal_wrapped(|ui| {
                    ui.add(egui::Label::new(format!("{number}.")).extend());
                    // The side's name with its points, then its marks and
                    // its strokes each whole: a long run of marks (a pit,
                    // doubled) moves to the next line, not past the edge.
                    for ((name, ink), cell) in self.sides.iter().zip(cells) {
                        for (i, section) in cell.sections.iter().enumerate() {
                            let text = &cell.text[section.byte_range.start.0..section.byte_range.end.0];
                            let mut job = egui::text::LayoutJob::default();
                            if i == 0 {
                                let name_format =
                                    egui::TextFormat { font_id: body.clone(), color: *ink, ..Default::default() };
                                job.append(&format!("{name} "), 0.0, name_format);
                            }
                            let text = if i == 0 { text.trim_start() } else { text };
                            job.append(text, 0.0, section.format.clone());
                            ui.add(egui::Label::new(job).extend());
                        }
                    }
                });
            }
            for (label, sums) in self.sums {
                let sides = self.sides.iter().zip(sums).map(|((name, _), n)| format!("{name} {n}"));
                ui.label(RichText::new(format!("{label}: {}", sides.collect::<Vec<_>>().join(", "))).strong());
            }
        })
        .response
        .rect
    }
}

/// The deal's code, to replay it or send it to a friend, with Copy.
pub fn share_code(ui: &mut egui::Ui, t: &crate::i18n::Texts, code: String) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(t.fill("share.code", &[("code", &code)])).pt(15.0));
        crate::forms::copy_button(ui, t, ("share.copy", "share.copied"), &code, None);
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
pub fn result_line(
    t: &crate::i18n::Texts,
    r: &DealResult,
    rules: &klaverjas::Rules,
    tally: Option<PerTeam<u16>>,
) -> String {
    if let Some(on) = r.going_on {
        let went_on = Notice { text: NoticeText::WentOn(on), seat: None, until: 0.0, warning: false, trick: 0 };
        let words = notice(&went_on, t, Some(r.contract.trump), None);
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
