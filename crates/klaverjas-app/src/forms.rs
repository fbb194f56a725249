//! The menu screens' building blocks: a page on the felt with its heading
//! and footer, big buttons, two-column forms that fold to one on a phone,
//! the presets as buttons, and the marks tests use to find a control.

use crate::look::Pt;
use crate::look::{CARD, GOLD, REFUSED, at_least_a_finger, on_the_felt, root_ui};
use crate::platform::TOUCH_TARGET;
use bevy_egui::egui::{self, RichText};
use klaverjas::Preset;

/// A menu page: the felt, and on it a card-like panel with the page's
/// heading and its content, scrolling when it does not fit.
pub fn page(ctx: &egui::Context, heading: String, content: impl FnOnce(&mut egui::Ui)) {
    page_with_footer(ctx, heading, content, None);
}

/// `draw` as a closure that can be passed by `&mut` (the page measures
/// what it draws that way); it draws the first time it is called.
fn once<'a>(draw: impl FnOnce(&mut egui::Ui) + 'a) -> impl FnMut(&mut egui::Ui) + 'a {
    let mut draw = Some(draw);
    move |ui| {
        if let Some(draw) = draw.take() {
            draw(ui);
        }
    }
}

/// A line of a page's panel that a player must see, whatever the window:
/// kept at the panel's foot, below what scrolls.
pub type Footer<'a> = Option<Box<dyn FnOnce(&mut egui::Ui) + 'a>>;

/// [`page`], with a `footer` kept in view at the bottom of the panel,
/// which then reaches the window's foot.
pub fn page_with_footer(ctx: &egui::Context, heading: String, content: impl FnOnce(&mut egui::Ui), footer: Footer<'_>) {
    on_the_felt(12.0).show(&mut root_ui(ctx), |ui| {
        // Centred by hand: egui centres a frame by last frame's size, and a
        // window that redraws only on input has no next frame to fix it.
        let area = ui.available_rect_before_wrap();
        // A narrow window gives the panel all but a thin edge of felt,
        // and the panel thinner margins.
        let (felt, margin) = if area.width() < 600.0 { (0.0, 10.0) } else { (20.0, 18.0) };
        let frame = 2.0 * margin + 4.0;
        let width = (area.width() - felt - frame).min(760.0);
        let left = area.left() + ((area.width() - width - frame) / 2.0).max(0.0);
        let column =
            egui::Rect::from_min_max(egui::pos2(left, area.top()), egui::pos2(left + width + frame, area.bottom()));
        ui.scope_builder(
            egui::UiBuilder::new().max_rect(column).layout(egui::Layout::top_down(egui::Align::LEFT)),
            |ui| {
                egui::Frame::new()
                    .fill(CARD)
                    .stroke(egui::Stroke::new(2.0, GOLD))
                    .corner_radius(14.0)
                    .inner_margin(margin)
                    .show(ui, |ui| {
                        ui.set_width(width);
                        // Each page keeps its own scroll position.
                        let scroll = egui::ScrollArea::vertical().id_salt(&heading);
                        // The footer follows the content where both fit
                        // (by last pass's heights), else it is kept at the
                        // foot while the content scrolls above it.
                        let heights = egui::Id::new(("page-heights", &heading));
                        // A long word in large print is made to fit.
                        let size = whole_words(ui, &heading, 28.0, width);
                        ui.label(RichText::new(&heading).size(size));
                        ui.add_space(margin / 3.0);
                        let room = ui.available_height();
                        let (content_high, footer_high): (f32, f32) =
                            ui.ctx().data(|d| d.get_temp(heights)).unwrap_or((f32::INFINITY, 0.0));
                        let measured = |ui: &mut egui::Ui, draw: &mut dyn FnMut(&mut egui::Ui)| {
                            let top = ui.cursor().top();
                            draw(ui);
                            ui.cursor().top() - top
                        };
                        let mut draw_content = once(content);
                        let measure = match footer {
                            Some(footer) if content_high + footer_high + 12.0 <= room => {
                                let mut draw_footer = once(footer);
                                scroll
                                    .show(ui, |ui| {
                                        let content = measured(ui, &mut draw_content);
                                        ui.add_space(8.0);
                                        (content, measured(ui, &mut draw_footer))
                                    })
                                    .inner
                            }
                            Some(footer) => {
                                let kept = egui::Panel::bottom("page-footer")
                                    .frame(
                                        egui::Frame::new().inner_margin(egui::Margin { top: 4, ..Default::default() }),
                                    )
                                    .show_separator_line(false)
                                    .show(ui, footer);
                                let footer = kept.response.rect.height();
                                (scroll.show(ui, |ui| measured(ui, &mut draw_content)).inner, footer)
                            }
                            None => {
                                scroll.show(ui, |ui| draw_content(ui));
                                (0.0, 0.0)
                            }
                        };
                        ui.ctx().data_mut(|d| d.insert_temp(heights, measure));
                    });
            },
        );
    });
}

pub fn big_button(ui: &mut egui::Ui, text: String) -> egui::Response {
    let width = ui.available_width().min(280.0);
    ui.add_sized([width, at_least_a_finger(ui, TOUCH_TARGET)], egui::Button::new(RichText::new(text).pt(20.0)))
}

/// A Copy button for `text` (found by tests as `target`) and, beside it,
/// what became of the copy: the words of `copied` once the clipboard
/// holds it, why not where it was refused, nothing while a browser has not
/// yet answered (the window keeps looking until it does). What a copy
/// became is kept by egui, per target and text. Drawn in the caller's
/// row, which wraps them where the line is full; its words at `size`, or
/// the size of the row's own buttons.
pub fn copy_button(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    (target, copied): (&str, &str),
    text: &str,
    size: Option<f32>,
) {
    // In points at the player's text size, as the button's style is.
    let size =
        size.map_or_else(|| egui::TextStyle::Button.resolve(ui.style()).size, |s| crate::look::scaled(ui.ctx(), s));
    let id = egui::Id::new(("copying", target, text));
    let response = ui.button(RichText::new(t.get("share.copy")).size(size));
    mark_target(ui, target, &response);
    if response.clicked() {
        let copying = crate::platform::copy_to_clipboard(text);
        ui.ctx().data_mut(|d| d.insert_temp(id, copying));
    }
    let Some(copying) = ui.ctx().data(|d| d.get_temp::<crate::platform::Copying>(id)) else { return };
    let words = match copying.outcome() {
        None => return ui.ctx().request_repaint(),
        Some(Ok(())) => RichText::new(t.get(copied)),
        Some(Err(reason)) => RichText::new(t.fill("copy.refused", &[("reason", &reason)])).color(REFUSED),
    };
    ui.label(words.size(size * 0.85));
}

/// Whether a form must put each control under its label (a phone held
/// upright, or text too large for two columns), and how wide its
/// drop-down lists are.
pub fn narrow_layout(ui: &egui::Ui) -> (bool, f32) {
    let width = ui.available_width();
    // Large text needs the room of a narrow screen.
    if width < crate::look::scaled(ui.ctx(), 560.0) { (true, width - 24.0) } else { (false, 300.0) }
}

/// A form of labels and controls: two columns, the labels' at least
/// `label_width` wide (so a change of language moves no control), or on a
/// narrow screen one column, each label wrapped above its control.
pub fn form<R>(ui: &mut egui::Ui, id: &str, narrow: bool, label_width: f32, rows: impl FnOnce(&mut egui::Ui) -> R) {
    if narrow {
        ui.vertical(|ui| {
            ui.spacing_mut().item_spacing.y = 8.0;
            rows(ui)
        });
    } else {
        egui::Grid::new(id).num_columns(2).min_col_width(label_width).spacing([16.0, 10.0]).show(ui, rows);
    }
}

/// A form's label: beside its control, or above it on a narrow screen.
pub fn option_label(ui: &mut egui::Ui, text: String, narrow: bool) {
    ui.label(text);
    if narrow {
        ui.end_row();
    }
}

/// The presets by the tables they are played at, as a player looks for
/// theirs: the Dutch games, then South Africa's, then the games for three
/// and for two.
pub const PRESET_GROUPS: [(&str, &[Preset]); 4] = [
    ("group.dutch", &[Preset::Classic, Preset::Amsterdam, Preset::Rotterdam, Preset::WildeBoom]),
    ("group.south_african", &[Preset::Klawerjas]),
    ("group.three", &[Preset::Three]),
    ("group.two", &[Preset::Klaberjass]),
];

/// Buttons of the seven presets, `selected` lit, each at least a finger
/// high, in four columns where the width holds them, else two: the Dutch
/// games together, then the other tables, with each group's name above it
/// where `captions`. A preset's own line shows on hover. Returns the
/// preset touched.
pub fn preset_buttons(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    selected: Option<Preset>,
    captions: bool,
) -> Option<Preset> {
    let gap = 8.0;
    let width = ui.available_width();
    // Four, the Dutch games in a row, or two: three would leave one alone;
    // one where large text leaves no room for a name's word in two.
    ui.spacing_mut().button_padding = egui::vec2(4.0, 2.0);
    let names: Vec<String> = Preset::ALL.iter().map(|p| t.get(&format!("home.{}", p.name()))).collect();
    let four = width + gap >= 4.0 * (92.0 + gap);
    let choices: &[usize] = if four { &[4, 2, 1] } else { &[2, 1] };
    // At the usual size as ever (the first screens fit a phone held
    // sideways without scrolling); larger text takes fewer columns.
    let columns = match crate::look::scaled(ui.ctx(), 1.0) > 1.0 {
        true => columns_for(ui, &names, 17.0, width, gap, choices),
        false => choices[0],
    };
    let cell = (width - gap * (columns - 1) as f32) / columns as f32;
    let height = at_least_a_finger(ui, TOUCH_TARGET);
    let mut chosen = None;
    let mut button = |ui: &mut egui::Ui, p: Preset| {
        let name = RichText::new(t.get(&format!("home.{}", p.name()))).pt(17.0).strong();
        let response = ui
            .add_sized([cell, height], egui::Button::new(name).selected(selected == Some(p)).wrap())
            .on_hover_text(t.get(&format!("first.{}", p.name())));
        mark_target(ui, &format!("preset.{}", p.name()), &response);
        if response.clicked() {
            chosen = Some(p);
        }
    };
    let caption = |ui: &mut egui::Ui, key: &str| {
        ui.label(RichText::new(t.get(key)).pt(14.0).strong().color(egui::Color32::from_rgb(110, 90, 50)));
    };
    ui.spacing_mut().item_spacing = egui::vec2(gap, 6.0);
    // Names, not padding, fill the narrow buttons of four columns.
    ui.spacing_mut().button_padding = egui::vec2(4.0, 2.0);
    let [(dutch, dutch_presets), others @ ..] = PRESET_GROUPS;
    if captions {
        caption(ui, dutch);
    }
    for row in dutch_presets.chunks(columns) {
        ui.horizontal(|ui| row.iter().for_each(|&p| button(ui, p)));
    }
    ui.add_space(if captions { 4.0 } else { 0.0 });
    for row in others.chunks(columns) {
        ui.horizontal(|ui| {
            for &(key, presets) in row {
                ui.vertical(|ui| {
                    ui.set_width(cell);
                    if captions {
                        caption(ui, key);
                    }
                    presets.iter().for_each(|&p| button(ui, p));
                });
            }
        });
    }
    chosen
}

/// Remembers where a control the player must find was drawn this pass,
/// under `name`: the whole rect and the part of it not clipped away (a
/// scrolled page hides what lies below its edge). Tests read it with
/// [`target`].
pub fn mark_target(ui: &egui::Ui, name: &str, response: &egui::Response) {
    mark_area(ui.ctx(), name, response.rect, response.interact_rect);
}

/// [`mark_target`] for a text field, whose text and caret `--targets`
/// also logs as they change (`field NAME "TEXT" caret N`, and `painted`
/// where the caret shows): a browser check sees each letter typed on a
/// phone show, and where the caret is.
pub fn mark_field(ui: &egui::Ui, name: &str, response: &egui::Response, text: &str) {
    mark_target(ui, name, response);
    let caret = egui::TextEdit::load_state(ui.ctx(), response.id)
        .and_then(|s| s.cursor.char_range())
        .map(|r| r.primary.index.0);
    // egui paints the caret of the focused field while its window has the
    // focus (in a browser, its canvas or the hidden input typed into).
    let painted = response.has_focus() && ui.input(|i| i.focused);
    // One entry a field: without `--targets` nobody takes them away.
    ui.ctx().data_mut(|d| {
        let fields = d.get_temp_mut_or_default::<Vec<FieldSeen>>(egui::Id::new(FIELDS));
        fields.retain(|f| f.0 != name);
        fields.push((name.to_owned(), text.to_owned(), caret, painted));
    });
    // Only a page takes them away (each frame), to find a touched field.
    #[cfg(target_arch = "wasm32")]
    crate::web_text::note_field(ui.ctx(), crate::web_text::FieldPlace::of(response, text));
}

/// The width a field leaves beside it for its Paste button (none where
/// fields have none).
pub fn beside_field(ui: &egui::Ui) -> f32 {
    match crate::look::fields_have_a_paste_button(ui.ctx()) {
        true => PASTE_WIDTH + ui.spacing().item_spacing.x,
        false => 0.0,
    }
}

/// The Paste button's width: its word in each language, and room around it.
const PASTE_WIDTH: f32 = 80.0;

/// The Paste button after the field `name` (drawn as `field`), where
/// fields have one: the clipboard's text at the field's end, at most
/// `limit` characters in all, the field focused with its caret behind it.
pub fn paste_button(
    ui: &mut egui::Ui,
    t: &crate::i18n::Texts,
    name: &str,
    field: &egui::Response,
    text: &mut String,
    limit: usize,
) {
    if !crate::look::fields_have_a_paste_button(ui.ctx()) {
        return;
    }
    let button =
        ui.add_sized([PASTE_WIDTH, crate::look::at_least_a_finger(ui, 0.0)], egui::Button::new(t.get("paste.button")));
    mark_target(ui, &format!("{name}.paste"), &button);
    if !button.clicked() {
        return;
    }
    match crate::platform::paste_from_clipboard() {
        Ok(pasted) => {
            text.extend(crate::platform::one_line(&pasted).chars().take(limit.saturating_sub(text.chars().count())));
            let place = crate::web_text::FieldPlace::of(field, text);
            crate::web_text::focus_field(ui.ctx(), place, crate::web_text::Caret::AtTheEnd);
        }
        Err(e) => bevy::log::warn!("nothing to paste: {e}"),
    }
}

/// A field as [`mark_field`] saw it: its name, text, caret and whether the
/// caret is painted.
type FieldSeen = (String, String, Option<usize>, bool);

/// The fields [`mark_field`] saw since [`log_targets`] last looked.
const FIELDS: &str = "fields seen this frame";

/// [`mark_target`] for what egui does not draw (a card of the hand):
/// `whole`, and `shown`, the part of it a touch reaches.
pub fn mark_area(ctx: &egui::Context, name: &str, whole: egui::Rect, shown: egui::Rect) {
    let id = egui::Id::new(("target", name));
    let rects = (whole, shown);
    ctx.data_mut(|d| {
        d.insert_temp(id, rects);
        let seen = d.get_temp_mut_or_default::<Vec<String>>(egui::Id::new(SEEN));
        if !seen.iter().any(|n| n == name) {
            seen.push(name.to_owned());
        }
    });
}

/// The names [`mark_target`] saw since [`log_targets`] last looked.
const SEEN: &str = "targets seen this frame";

/// `--targets`: each marked control's place as a log line when it shows,
/// moves or goes, `target NAME X,Y` (its centre in the window's physical
/// pixels) or `target NAME gone`, so that a check from outside (a browser
/// page) can touch what a player sees without knowing the layout.
pub fn targets_plugin(app: &mut bevy::app::App) {
    app.add_systems(bevy::app::Last, log_targets);
}

fn log_targets(
    mut contexts: bevy_egui::EguiContexts,
    mut logged: bevy::ecs::system::Local<Vec<(String, [i32; 2])>>,
    mut fields: bevy::ecs::system::Local<Vec<FieldSeen>>,
) -> bevy::ecs::error::Result {
    let ctx = contexts.ctx_mut()?.clone();
    let seen = ctx.data_mut(|d| d.remove_temp::<Vec<FieldSeen>>(egui::Id::new(FIELDS)));
    for field in seen.unwrap_or_default() {
        if !fields.contains(&field) {
            let (name, text, caret, painted) = &field;
            let caret = caret.map_or("none".to_string(), |c| c.to_string());
            let painted = if *painted { " painted" } else { "" };
            bevy::log::info!("field {name} {text:?} caret {caret}{painted}");
            fields.retain(|f| f.0 != *name);
            fields.push(field);
        }
    }
    let seen = ctx.data_mut(|d| d.remove_temp::<Vec<String>>(egui::Id::new(SEEN))).unwrap_or_default();
    let scale = ctx.pixels_per_point();
    let now: Vec<(String, [i32; 2])> = seen
        .into_iter()
        .filter_map(|name| {
            let (_, shown) = target(&ctx, &name)?;
            let at = shown.center() * scale;
            Some((name, [at.x.round() as i32, at.y.round() as i32]))
        })
        .collect();
    for (name, at) in &now {
        if !logged.contains(&(name.clone(), *at)) {
            bevy::log::info!("target {name} {},{}", at[0], at[1]);
        }
    }
    for (name, _) in logged.iter().filter(|(name, _)| !now.iter().any(|(n, _)| n == name)) {
        bevy::log::info!("target {name} gone");
    }
    *logged = now;
    Ok(())
}

/// The size, at most `size` points at the player's text size, at which
/// no word of `text` is wider than `width`: large text wraps between
/// words, never through one.
pub fn whole_words(ui: &egui::Ui, text: &str, size: f32, width: f32) -> f32 {
    let full = crate::look::scaled(ui.ctx(), size);
    let widest = text
        .split_whitespace()
        .map(|w| {
            ui.painter().layout_no_wrap(w.to_string(), egui::FontId::proportional(full), egui::Color32::BLACK).size().x
        })
        .fold(0.0, f32::max);
    if widest > width && widest > 0.0 { full * width / widest } else { full }
}

/// How many of `columns` (widest first) hold buttons of `names` at `size`
/// points, `gap` apart, in `width`, without breaking a word.
pub fn columns_for(ui: &egui::Ui, names: &[String], size: f32, width: f32, gap: f32, columns: &[usize]) -> usize {
    let padding = 2.0 * ui.spacing().button_padding.x + 2.0;
    let fits = |n: usize| {
        let cell = (width - gap * (n - 1) as f32) / n as f32 - padding;
        names.iter().all(|name| whole_words(ui, name, size, cell) >= crate::look::scaled(ui.ctx(), size) - 0.01)
    };
    columns.iter().copied().find(|&n| fits(n)).unwrap_or(1)
}

/// Where [`mark_target`] last saw the control `name`: its rect and the
/// part of it that shows.
pub fn target(ctx: &egui::Context, name: &str) -> Option<(egui::Rect, egui::Rect)> {
    ctx.data(|d| d.get_temp(egui::Id::new(("target", name))))
}

/// A question that must be answered before something is lost: `question`
/// in a window over the screen, `keep` (the safe answer, first) and `go`
/// (in red). Returns the answer once given.
pub fn confirm(ctx: &egui::Context, title: String, question: String, keep: String, go: String) -> Option<bool> {
    let mut answer = None;
    egui::Window::new(title).collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(
        ctx,
        |ui| {
            ui.set_max_width(420.0);
            ui.label(RichText::new(question).pt(16.0));
            ui.horizontal_wrapped(|ui| {
                let height = at_least_a_finger(ui, 0.0);
                let keep = egui::Button::new(RichText::new(keep).pt(16.0)).min_size(egui::vec2(0.0, height));
                let keep = ui.add(keep);
                mark_target(ui, "confirm.keep", &keep);
                if keep.clicked() {
                    answer = Some(false);
                }
                let go = RichText::new(go).pt(16.0).color(egui::Color32::from_rgb(200, 40, 40));
                let go = ui.add(egui::Button::new(go).min_size(egui::vec2(0.0, height)));
                mark_target(ui, "confirm.go", &go);
                if go.clicked() {
                    answer = Some(true);
                }
            });
        },
    );
    answer
}

/// `text`, then a result's marks, one a deal, in the colours a chat shows
/// them in: one label, which wraps as words do.
pub fn with_marks(ui: &mut egui::Ui, text: &str, marks: &[klaverjas_ai::daily::Mark], size: f32) {
    let mut job = egui::text::LayoutJob::default();
    let font = egui::FontId::proportional(crate::look::scaled(ui.ctx(), size));
    job.append(text, 0.0, egui::TextFormat::simple(font.clone(), ui.visuals().text_color()));
    for (i, m) in marks.iter().enumerate() {
        let colour = if *m == klaverjas_ai::daily::Mark::AtLeast {
            egui::Color32::from_rgb(30, 140, 60)
        } else {
            egui::Color32::from_rgb(200, 40, 40)
        };
        let gap = if i == 0 { 8.0 } else { 2.0 };
        job.append(&m.symbol().to_string(), gap, egui::TextFormat::simple(font.clone(), colour));
    }
    ui.label(job);
}

/// A line to share (a day's result, a score sheet), with Share (a phone's
/// share sheet), Copy (a desktop, a browser) or words to copy it by hand;
/// its words and targets are `prefix`'s (`daily.share`, `daily.copy`...).
pub fn share_line(ui: &mut egui::Ui, t: &crate::i18n::Texts, prefix: &str, line: &str) {
    let key = |k: &str| format!("{prefix}.{k}");
    ui.label(RichText::new(t.get(&key("share"))).pt(16.0).strong());
    egui::Frame::new().fill(egui::Color32::from_gray(245)).corner_radius(6.0).inner_margin(8.0).show(ui, |ui| {
        ui.set_max_width(ui.available_width().min(560.0));
        let text = RichText::new(line).pt(15.0).color(egui::Color32::BLACK);
        // A sheet's columns line up in a fixed-width font.
        let text = if line.contains('\n') { text.monospace() } else { text };
        ui.add(egui::Label::new(text).selectable(true).wrap());
    });
    if crate::platform::HAS_SHARE_SHEET {
        let response = ui.button(RichText::new(t.get(&key("share_button"))).pt(18.0));
        mark_target(ui, &key("share"), &response);
        if response.clicked()
            && let Err(e) = crate::platform::share(line)
        {
            bevy::log::warn!("{prefix}: the line could not be shared: {e}");
        }
    } else if crate::platform::HAS_CLIPBOARD {
        ui.horizontal_wrapped(|ui| copy_button(ui, t, (&key("copy"), &key("copied")), line, Some(18.0)));
    } else {
        ui.label(RichText::new(t.get(&key("copy_by_hand"))).pt(14.0));
    }
}
