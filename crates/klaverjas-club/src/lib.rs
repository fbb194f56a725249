//! A Klaverjas club evening as arithmetic, for the table server, `kj` and
//! the app alike: [`draw`] seats each round, [`evening`] is the evening's
//! state machine (who may enter, correct or dispute what), [`standings`]
//! ranks the players live, [`season`] adds evenings up.

pub mod draw;
pub mod evening;
pub mod season;
pub mod standings;

pub use draw::{Draw, DrawError, DrawnTable, Leftover};
pub use evening::{
    Cards, Change, Evening, EveningAction, EveningError, EveningSetup, LineNote, Player, Round, SitOutScore,
    TableScore, Who, name_key,
};
pub use season::{Attended, SeasonRow, season};
pub use standings::{Standing, csv};

/// A player of an evening: their place in its check-in order.
pub type PlayerId = u16;

#[cfg(test)]
mod tests;
