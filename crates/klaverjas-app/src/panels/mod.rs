//! What egui draws over the card sprites at the table, a room each: the
//! top bar, the felt's words, the roem buttons, the notices, the bidding
//! box, the last trick, the score, the hint and the review. Each is a
//! system that reads resources and writes messages
//! ([`PlayerAction`](crate::seats::PlayerAction),
//! [`TableCommand`](crate::seats::TableCommand), the coach's); nothing here
//! touches the engine. The table's own run in one chain ([`TablePanels`]),
//! in the order egui stacks them, the top bar first (the area below it is
//! the table's); the hint and the review come after them.

pub mod bidding;
pub mod felt;
pub mod hint;
pub mod last_trick;
pub mod notices;
pub mod paint;
pub mod review;
pub mod roem;
pub mod score;
pub mod told;
pub mod top_bar;
pub mod view;

use crate::state::Screen;
use crate::table::input::PointerOverUi;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// The table's panels, drawn in this order each pass.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TablePanels;

pub fn plugin(app: &mut App) {
    app.init_resource::<paint::Drawn>()
        .add_plugins(told::plugin)
        .add_systems(
            EguiPrimaryContextPass,
            (
                top_bar::begin_pass,
                top_bar::top_bar,
                felt::felt_words,
                // The Roem! button before the words that step aside from it.
                roem::roem_buttons,
                notices::notices,
                bidding::bidding,
                last_trick::last_trick,
                score::score_window,
                told::told,
                pointer_over_ui,
            )
                .chain()
                .in_set(TablePanels)
                // The words' sizes are styles the zoom's pass names: a
                // panel drawn before it at the first frame finds none.
                .after(crate::look::Zoom)
                .run_if(in_state(Screen::Table)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (hint::hint_panel, review::review_window).after(TablePanels).run_if(in_state(Screen::Table)),
        );
}

/// Whether egui has the pointer, so that a tap on a panel is no tap on a
/// card beneath it.
fn pointer_over_ui(
    mut contexts: EguiContexts,
    seats: Option<Res<crate::seats::Seats>>,
    mut over_ui: ResMut<PointerOverUi>,
) -> Result {
    if seats.is_some() {
        let ctx = contexts.ctx_mut()?;
        over_ui.0 = ctx.is_pointer_over_egui() || ctx.egui_wants_pointer_input();
    }
    Ok(())
}
