//! What the table's panels read: the match, the show, the words, the
//! layout and the time, gathered as one system parameter.

use crate::i18n;
use crate::seats::{HUMAN, Seats};
use crate::show::Show;
use crate::state::Texts;
use crate::table::layout::{Layout, Table};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

#[derive(SystemParam)]
pub struct TableView<'w> {
    seats: Option<Res<'w, Seats>>,
    show: Res<'w, Show>,
    texts: Res<'w, Texts>,
    table: Res<'w, Table>,
    time: Res<'w, Time>,
}

/// The table this pass, with a match at it.
pub struct Seen<'a> {
    pub seats: &'a Seats,
    pub show: &'a Show,
    pub t: &'a i18n::Texts,
    pub layout: Layout,
    pub now: f32,
}

impl TableView<'_> {
    /// The table, or nothing where no match sits at it.
    pub fn seen(&self) -> Option<Seen<'_>> {
        let seats = self.seats.as_deref()?;
        Some(Seen {
            seats,
            show: &self.show,
            t: &self.texts.0,
            layout: self.table.layout(),
            now: self.time.elapsed_secs(),
        })
    }
}

impl Seen<'_> {
    /// The seat the table waits for.
    pub fn waiting(&self) -> Option<klaverjas::Seat> {
        self.seats.waiting_for(self.show.stage(self.now))
    }

    /// Whether the player is to act, and plays their own seat.
    pub fn my_turn(&self) -> bool {
        self.waiting() == Some(HUMAN) && self.seats.is_human(HUMAN)
    }
}
