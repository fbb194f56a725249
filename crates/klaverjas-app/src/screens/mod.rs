//! The menu screens, one module and plugin each, drawn with egui under
//! `run_if(in_state(..))`; the table is [`crate::table`]. Egui draws a
//! screen anew each frame, so a menu has nothing to spawn on `OnEnter` or
//! to despawn on `OnExit`: those hooks are used where something happens,
//! the table spawning its cards (which despawn on leaving it) and dealing
//! a fresh deal, the new-game form starting from the rules in play.

pub mod lessons;
pub mod new_game;
pub mod rules;
pub mod settings;
pub mod title;

use crate::platform::TOUCH_TARGET;
use crate::table::layout::zoom_for;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use klaverjas::Preset;

pub const FELT: egui::Color32 = egui::Color32::from_rgb(22, 96, 58);
/// The face of a card: dialogs and forms lie on the felt like cards.
pub const CARD: egui::Color32 = egui::Color32::from_rgb(252, 249, 240);
const INK: egui::Color32 = egui::Color32::from_rgb(30, 34, 32);
const GOLD: egui::Color32 = egui::Color32::from_rgb(214, 168, 52);

/// Ordered so the zoom is set before any screen draws.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Zoom;

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, set_zoom.in_set(Zoom))
        .add_systems(
            PreUpdate,
            keep_clear_of_system_bars
                .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        )
        .add_plugins((title::plugin, lessons::plugin, new_game::plugin, settings::plugin, rules::plugin));
}

/// The table's look for every menu and dialog: felt behind, card-coloured
/// panels with dark ink, buttons like card backs' cream, text large enough
/// to read at arm's length.
pub fn table_look(ctx: &egui::Context) {
    use egui::{Color32, CornerRadius, FontId, Stroke, TextStyle};
    let mut v = egui::Visuals::light();
    v.panel_fill = FELT;
    v.window_fill = CARD;
    v.window_stroke = Stroke::new(2.0, GOLD);
    v.window_corner_radius = CornerRadius::same(14);
    v.faint_bg_color = Color32::from_rgb(240, 234, 218);
    v.extreme_bg_color = Color32::WHITE;
    v.selection.bg_fill = GOLD;
    v.selection.stroke = Stroke::new(1.5, INK);
    v.override_text_color = Some(INK);
    let widget = |fill: Color32, edge: Color32| (fill, Stroke::new(1.0, edge));
    for (w, (fill, stroke)) in [
        (&mut v.widgets.inactive, widget(Color32::from_rgb(236, 226, 198), Color32::from_rgb(150, 130, 90))),
        (&mut v.widgets.hovered, widget(Color32::from_rgb(248, 232, 180), GOLD)),
        (&mut v.widgets.active, widget(GOLD, INK)),
        (&mut v.widgets.open, widget(Color32::from_rgb(248, 232, 180), GOLD)),
    ] {
        w.bg_fill = fill;
        w.weak_bg_fill = fill;
        w.bg_stroke = stroke;
        w.fg_stroke = Stroke::new(1.5, INK);
        w.corner_radius = CornerRadius::same(8);
    }
    v.widgets.noninteractive.fg_stroke = Stroke::new(1.0, INK);
    v.widgets.noninteractive.bg_stroke = Stroke::new(1.0, Color32::from_rgb(210, 196, 160));
    // Both themes: the table looks the same whatever the system prefers.
    ctx.all_styles_mut(|style| {
        style.visuals = v.clone();
        style.text_styles = [
            (TextStyle::Heading, FontId::proportional(28.0)),
            (TextStyle::Body, FontId::proportional(17.0)),
            (TextStyle::Button, FontId::proportional(18.0)),
            (TextStyle::Small, FontId::proportional(13.0)),
            (TextStyle::Monospace, FontId::monospace(16.0)),
        ]
        .into();
        style.spacing.button_padding = egui::vec2(12.0, 6.0);
        style.spacing.interact_size.y = 30.0;
        style.spacing.icon_width = 22.0;
        style.spacing.icon_width_inner = 12.0;
    });
}

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
    egui::CentralPanel::default().frame(egui::Frame::new().fill(FELT).inner_margin(12.0)).show(
        &mut root_ui(ctx),
        |ui| {
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
                            ui.heading(heading);
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
                                            egui::Frame::new()
                                                .inner_margin(egui::Margin { top: 4, ..Default::default() }),
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
        },
    );
}

/// Text and buttons grow with the window (see [`zoom_for`]). On a touched
/// screen everything a finger hits is at least [`TOUCH_TARGET`] high.
fn set_zoom(
    mut contexts: EguiContexts,
    windows: Query<&Window>,
    device: Res<crate::platform::Device>,
    mut styled: Local<bool>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !*styled {
        table_look(ctx);
        if device.touch() {
            // egui times a press by its frames, so a tap across one slow
            // frame (a busy phone, a software renderer) would read as a
            // long press, which egui takes for a secondary click and the
            // button never fires. Nothing here has a context menu: a
            // finger held still on a button presses it when lifted, as
            // Android's buttons do.
            ctx.options_mut(|o| o.input_options.max_click_duration = f64::INFINITY);
        }
        *styled = true;
    }
    if let Some(w) = windows.iter().next() {
        let scale = zoom_for(w.width(), w.height(), device.touch());
        if (ctx.zoom_factor() - scale).abs() > 0.01 {
            // The window as the game sees it: a browser's page reports its
            // size and pixel ratio late, so the log says what was used.
            info!(
                "zoom {scale:.2} for a window of {}x{} at {:.3} pixels to the point",
                w.width(),
                w.height(),
                w.scale_factor()
            );
            ctx.set_zoom_factor(scale);
            if device.touch() {
                ctx.all_styles_mut(|style| touch_sizes(style, scale));
            }
        }
    }
    Ok(())
}

/// A finger's sizes at egui's `zoom`: buttons, check boxes and lists at
/// least [`TOUCH_TARGET`] logical pixels high. Text is not selected by a finger: a touch on words is no target.
pub fn touch_sizes(style: &mut egui::Style, zoom: f32) {
    style.spacing.interact_size.y = (TOUCH_TARGET / zoom).ceil();
    style.interaction.selectable_labels = false;
    style.spacing.item_spacing.y = style.spacing.item_spacing.y.max(6.0);
}

/// Where the system draws its bars: egui keeps its windows, and
/// [`root_ui`] its pages and the table, inside the rest
/// (`Context::content_rect`).
pub fn keep_clear_of_system_bars(
    windows: Query<&Window>,
    device: Res<crate::platform::Device>,
    mut inputs: Query<&mut bevy_egui::EguiInput>,
) {
    let Some(w) = windows.iter().next() else { return };
    let safe = crate::platform::safe_area(device.0, w.width(), w.height());
    let zoom = zoom_for(w.width(), w.height(), device.touch());
    let insets = egui::SafeAreaInsets(egui::epaint::MarginF32 {
        left: safe.left / zoom,
        right: safe.right / zoom,
        top: safe.top / zoom,
        bottom: safe.bottom / zoom,
    });
    for mut input in &mut inputs {
        input.0.safe_area_insets = Some(insets);
    }
}

/// Under `--phone`, the system's bars as a phone draws them over the game:
/// the status bar with the camera's hole, and the gesture bar's handle.
pub fn draw_phone_bars(
    mut contexts: EguiContexts,
    windows: Query<&Window>,
    device: Res<crate::platform::Device>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(w) = windows.iter().next() else { return Ok(()) };
    let zoom = zoom_for(w.width(), w.height(), device.touch());
    let safe = crate::platform::safe_area(device.0, w.width(), w.height());
    let screen = ctx.viewport_rect();
    // A painter keeps inside the content rect unless told otherwise.
    let mut p = ctx.debug_painter();
    p.set_clip_rect(screen);
    let shade = egui::Color32::from_black_alpha(110);
    if safe.top > 0.0 {
        let bar = egui::Rect::from_min_size(screen.min, egui::vec2(screen.width(), safe.top / zoom));
        p.rect_filled(bar, 0.0, shade);
        p.circle_filled(bar.center(), bar.height() * 0.2, egui::Color32::BLACK);
    }
    let side = |x: f32| {
        egui::Rect::from_min_max(egui::pos2(x, screen.top()), egui::pos2(x + safe.left / zoom, screen.bottom()))
    };
    if safe.left > 0.0 {
        p.rect_filled(side(screen.left()), 0.0, shade);
        p.rect_filled(side(screen.right() - safe.right / zoom), 0.0, shade);
    }
    let handle = egui::Rect::from_center_size(
        egui::pos2(screen.center().x, screen.bottom() - safe.bottom / zoom / 2.0),
        egui::vec2(screen.width().min(screen.height()) * 0.3, 4.0),
    );
    p.rect_filled(handle, 2.0, egui::Color32::from_white_alpha(200));
    Ok(())
}

/// A UI over the window less the system's bars, below egui's windows and
/// areas.
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.content_rect()),
    )
}

pub fn big_button(ui: &mut egui::Ui, text: String) -> egui::Response {
    let width = ui.available_width().min(280.0);
    ui.add_sized([width, at_least_a_finger(ui, TOUCH_TARGET)], egui::Button::new(RichText::new(text).size(20.0)))
}

/// A control's height: `height`, or on a touched screen a finger's if
/// that is more.
pub fn at_least_a_finger(ui: &egui::Ui, height: f32) -> f32 {
    height.max(ui.spacing().interact_size.y)
}

/// Whether a form must put each control under its label (a phone held
/// upright), and how wide its drop-down lists are.
pub fn narrow_layout(ui: &egui::Ui) -> (bool, f32) {
    let width = ui.available_width();
    if width < 560.0 { (true, width - 24.0) } else { (false, 300.0) }
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
    // Four, the Dutch games in a row, or two: three would leave one alone.
    let columns = if width + gap >= 4.0 * (92.0 + gap) { 4 } else { 2 };
    let cell = (width - gap * (columns - 1) as f32) / columns as f32;
    let height = at_least_a_finger(ui, TOUCH_TARGET);
    let mut chosen = None;
    let mut button = |ui: &mut egui::Ui, p: Preset| {
        let name = RichText::new(t.get(&format!("home.{}", p.name()))).size(17.0).strong();
        let response = ui
            .add_sized([cell, height], egui::Button::new(name).selected(selected == Some(p)).wrap())
            .on_hover_text(t.get(&format!("first.{}", p.name())));
        mark_target(ui, &format!("preset.{}", p.name()), &response);
        if response.clicked() {
            chosen = Some(p);
        }
    };
    let caption = |ui: &mut egui::Ui, key: &str| {
        ui.label(RichText::new(t.get(key)).size(14.0).strong().color(egui::Color32::from_rgb(110, 90, 50)));
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
    let id = egui::Id::new(("target", name));
    let rects = (response.rect, response.interact_rect);
    ui.ctx().data_mut(|d| d.insert_temp(id, rects));
}

/// Where [`mark_target`] last saw the control `name`: its rect and the
/// part of it that shows.
pub fn target(ctx: &egui::Context, name: &str) -> Option<(egui::Rect, egui::Rect)> {
    ctx.data(|d| d.get_temp(egui::Id::new(("target", name))))
}
