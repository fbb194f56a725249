//! The table's look in egui, shared by the menu screens, the table's
//! panels and the lessons: the felt and card colours, the teams' colours,
//! the zoom that grows text with the window, a finger's sizes on a touch
//! screen, the phone's system bars, and the UI over the window.

use crate::platform::TOUCH_TARGET;
use crate::table::layout::zoom_for;
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32};
use klaverjas::{Players, Seat, Team};

/// The zoom and the finger's sizes before any screen draws, the phone's
/// bars, and egui's input cleaned of what would redraw an idle window.
pub fn plugin(app: &mut App) {
    app.add_systems(bevy_egui::EguiPrimaryContextPass, set_zoom.in_set(Zoom))
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            draw_phone_bars.after(Zoom).run_if(|c: Res<crate::state::Config>| c.0.phone.is_some()),
        )
        .add_systems(Update, felt_colour)
        .add_systems(
            PreUpdate,
            (keep_clear_of_system_bars, drop_unchanged_modifiers)
                .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        );
}

pub const FELT: egui::Color32 = egui::Color32::from_rgb(22, 96, 58);

/// The face of a card: dialogs and forms lie on the felt like cards.
pub const CARD: egui::Color32 = egui::Color32::from_rgb(252, 249, 240);

pub const INK: egui::Color32 = egui::Color32::from_rgb(30, 34, 32);

pub const GOLD: egui::Color32 = egui::Color32::from_rgb(214, 168, 52);

/// Words on a page that say something went wrong or was refused.
pub const REFUSED: egui::Color32 = egui::Color32::from_rgb(160, 30, 30);

/// The window's clear colour is the felt: black in high contrast.
fn felt_colour(settings: Res<crate::state::PlayerSettings>, clear: Option<ResMut<ClearColor>>) {
    let Some(mut clear) = clear else { return };
    let c = felt(Reading::of(&settings.0));
    let colour = Color::srgb_u8(c.r(), c.g(), c.b());
    if settings.is_changed() && clear.0 != colour {
        clear.0 = colour;
    }
}

/// Ordered so the zoom is set before any screen draws.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Zoom;

/// The table's look for every menu and dialog: felt behind, card-coloured
/// panels with dark ink, buttons like card backs' cream, text large enough
/// to read at arm's length.
/// `reading`: the player's text size and contrast (the settings'
/// [`Reading`]); every text style grows with the size, and each size a
/// page names with [`Pt::pt`] is a style of its own, so that one setting
/// grows every word.
pub fn table_look(ctx: &egui::Context, reading: Reading) {
    use egui::{Color32, CornerRadius, FontId, Stroke, TextStyle};
    let big = reading.scale();
    let mut v = egui::Visuals::light();
    v.panel_fill = felt(reading);
    v.window_fill = CARD;
    v.window_stroke = Stroke::new(2.0, GOLD);
    v.window_corner_radius = CornerRadius::same(14);
    v.faint_bg_color = Color32::from_rgb(240, 234, 218);
    v.extreme_bg_color = Color32::WHITE;
    v.selection.bg_fill = GOLD;
    v.selection.stroke = Stroke::new(1.5, INK);
    v.override_text_color = Some(INK);
    // Which window egui last raised is no news to a player (and would make
    // the lesson's bubble change colour as other windows come and go).
    v.window_highlight_topmost = false;
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
    if reading.high_contrast {
        // White on black, black on white and yellow, every edge drawn
        // thick: nothing is told by a pale line or a shade alone.
        v.window_fill = Color32::WHITE;
        v.window_stroke = Stroke::new(3.0, Color32::YELLOW);
        v.extreme_bg_color = Color32::WHITE;
        v.faint_bg_color = Color32::from_gray(235);
        v.override_text_color = Some(Color32::BLACK);
        v.selection.bg_fill = Color32::YELLOW;
        v.selection.stroke = Stroke::new(2.5, Color32::BLACK);
        for (w, fill) in [
            (&mut v.widgets.inactive, Color32::WHITE),
            (&mut v.widgets.hovered, Color32::YELLOW),
            (&mut v.widgets.active, Color32::YELLOW),
            (&mut v.widgets.open, Color32::YELLOW),
        ] {
            w.bg_fill = fill;
            w.weak_bg_fill = fill;
            w.bg_stroke = Stroke::new(2.5, Color32::BLACK);
            w.fg_stroke = Stroke::new(2.0, Color32::BLACK);
        }
        v.widgets.noninteractive.fg_stroke = Stroke::new(1.5, Color32::BLACK);
        v.widgets.noninteractive.bg_stroke = Stroke::new(1.5, Color32::BLACK);
    }
    let mut styles: std::collections::BTreeMap<TextStyle, FontId> = [
        (TextStyle::Heading, FontId::proportional(28.0 * big)),
        (TextStyle::Body, FontId::proportional(17.0 * big)),
        (TextStyle::Button, FontId::proportional(18.0 * big)),
        (TextStyle::Small, FontId::proportional(13.0 * big)),
        (TextStyle::Monospace, FontId::monospace(16.0 * big)),
    ]
    .into();
    for pt in SIZES {
        styles.insert(sized(pt as f32), FontId::proportional(pt as f32 * big));
    }
    ctx.data_mut(|d| d.insert_temp(egui::Id::new(TEXT_SCALE), big));
    // Both themes: the table looks the same whatever the system prefers.
    ctx.all_styles_mut(|style| {
        style.visuals = v.clone();
        style.text_styles = styles.clone();
        style.spacing.button_padding = egui::vec2(12.0, 6.0);
        style.spacing.interact_size.y = 30.0;
        style.spacing.icon_width = 22.0;
        style.spacing.icon_width_inner = 12.0;
    });
}

/// The player's text size and contrast, as every screen draws them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    /// Percent of the usual size.
    pub text_size: u16,
    pub high_contrast: bool,
}

impl Reading {
    pub fn of(settings: &crate::settings::Settings) -> Reading {
        Reading { text_size: settings.text_size, high_contrast: settings.high_contrast }
    }

    /// How much larger text is drawn than usual.
    pub fn scale(self) -> f32 {
        f32::from(self.text_size.clamp(100, crate::settings::LARGEST_TEXT)) / 100.0
    }
}

/// The table's ground: the felt, or black in high contrast.
pub fn felt(reading: Reading) -> Color32 {
    if reading.high_contrast { Color32::BLACK } else { FELT }
}

/// The sizes of text a page may ask for, in points at the usual size.
const SIZES: std::ops::RangeInclusive<u32> = 8..=72;

/// The text style of `size` points at the usual text size; it grows with
/// the player's.
pub fn sized(size: f32) -> egui::TextStyle {
    let pt = (size.round() as u32).clamp(*SIZES.start(), *SIZES.end());
    egui::TextStyle::Name(format!("{pt} pt").into())
}

/// Words at a size that grows with the player's text size: use it where
/// egui's `size` would fix the size.
pub trait Pt {
    fn pt(self, size: f32) -> Self;
}

impl Pt for egui::RichText {
    fn pt(self, size: f32) -> Self {
        self.text_style(sized(size))
    }
}

/// Large text on a narrow screen (a phone held upright at 150 % or 200 %):
/// where rows must give up what they hold side by side.
pub fn cramped(ui: &egui::Ui) -> bool {
    scaled(ui.ctx(), 1.0) > 1.0 && crate::forms::narrow_layout(ui).0
}

/// `size` points of text painted by hand, at the player's text size.
pub fn scaled(ctx: &egui::Context, size: f32) -> f32 {
    size * ctx.data(|d| d.get_temp::<f32>(egui::Id::new(TEXT_SCALE))).unwrap_or(1.0)
}

const TEXT_SCALE: &str = "text scale";

/// Whether text fields have a Paste button beside them: in a phone's app
/// (and under `--phone`, which shows what a phone does), where egui draws
/// the fields with no menu to paste from and the keyboard's own paste does
/// not reach them (a browser's page pastes itself, a desktop with its
/// keys).
pub fn fields_have_a_paste_button(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp::<bool>(egui::Id::new(PASTE_BUTTON))).unwrap_or(false)
}

const PASTE_BUTTON: &str = "fields have a paste button";

/// Text and buttons grow with the window (see [`zoom_for`]). On a touched
/// screen everything a finger hits is at least [`TOUCH_TARGET`] high.
fn set_zoom(
    mut contexts: EguiContexts,
    windows: Query<&Window>,
    device: Res<crate::platform::Device>,
    settings: Res<crate::state::PlayerSettings>,
    mut styled: Local<Option<Reading>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let reading = Reading::of(&settings.0);
    if *styled != Some(reading) {
        table_look(ctx, reading);
        if device.touch() {
            let zoom = ctx.zoom_factor();
            ctx.all_styles_mut(|style| touch_sizes(style, zoom));
        }
        // The tooltip's width below is set again.
        ctx.all_styles_mut(|style| style.spacing.tooltip_width = 0.0);
    }
    if styled.is_none() {
        let phone_app = matches!(device.0, crate::platform::Target::Android | crate::platform::Target::Ios);
        ctx.data_mut(|d| d.insert_temp(egui::Id::new(PASTE_BUTTON), phone_app));
        if device.touch() {
            // egui times a press by its frames, so a tap across one slow
            // frame (a busy phone, a software renderer) would read as a
            // long press, which egui takes for a secondary click and the
            // button never fires. Nothing here has a context menu: a
            // finger held still on a button presses it when lifted, as
            // Android's buttons do.
            ctx.options_mut(|o| o.input_options.max_click_duration = f64::INFINITY);
        }
    }
    *styled = Some(reading);
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
    // egui's tree replaces the window's own: the screen reader names the
    // window by its root.
    ctx.accesskit_node_builder(egui::accesskit_root_id(), |root| root.set_label("Klaverjas"));
    // A tooltip as wide as egui's default (500 points) is cut off by a
    // phone's edge: it is never wider than the screen.
    let width = (ctx.content_rect().width() - 16.0).clamp(160.0, 500.0);
    if (ctx.global_style().spacing.tooltip_width - width).abs() > 0.5 {
        ctx.all_styles_mut(|style| style.spacing.tooltip_width = width);
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

/// A screen's panel over the whole window, `margin` in from its edges,
/// lying on the felt: the felt is the window's clear colour, and painting
/// it again was one more pass over the whole window in every frame.
pub fn on_the_felt(margin: f32) -> egui::CentralPanel {
    egui::CentralPanel::default().frame(egui::Frame::new().inner_margin(margin))
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

/// A control's height: `height`, or on a touched screen a finger's if
/// that is more.
pub fn at_least_a_finger(ui: &egui::Ui, height: f32) -> f32 {
    height.max(ui.spacing().interact_size.y)
}

/// bevy_egui 0.42 reports the modifier keys to egui every frame; egui 0.36
/// answers any input event with a repaint, and so an idle window redrew
/// forever (83% of a core measured). Only a real change is passed on.
fn drop_unchanged_modifiers(mut inputs: Query<&mut bevy_egui::EguiInput>, mut last: Local<Option<egui::Modifiers>>) {
    for mut input in &mut inputs {
        let mut seen = *last;
        input.0.events.retain(|e| match e {
            egui::Event::ModifiersChanged(m) if seen == Some(*m) => false,
            egui::Event::ModifiersChanged(m) => {
                seen = Some(*m);
                true
            }
            _ => true,
        });
        *last = seen;
    }
}

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
