//! The Klaverjas rules engine: pure rules, no I/O, no clock.
//!
//! ```
//! use klaverjas::{Action, Deal, Game, Rules, Seat};
//!
//! let mut game = Game::new(Rules::classic(), Deal::shuffled(7, Seat::North)).unwrap();
//! while let Some(seat) = game.to_act() {
//!     // A seat sees only its own view; here every seat takes its first option.
//!     let action = game.view(seat).legal[0];
//!     game.apply(action).unwrap();
//! }
//! let result = game.result().unwrap();
//! assert_eq!(result.points.ns + result.points.ew, 162);
//! ```

pub mod bidding;
pub mod card;
pub mod deal;
pub mod entered;
pub mod game;
pub mod keypad;
pub mod play;
pub mod position;
pub mod roem;
pub mod rules;
pub mod score;
pub mod seat;
pub mod session;
pub mod view;

pub use bidding::{Bid, BidError, Contract};
pub use card::{Card, CardSet, CardValues, ParseError, Rank, Suit};
pub use deal::{Deal, DealCodeError, PileCard, Rng, Stock};
pub use entered::{EnteredDeal, EntryError, KeptSheet, Out, SheetError, SheetLine, score_entered, score_entered_after};
pub use game::{
    Action, ActionError, AnnounceError, Announcement, ClaimError, Event, Game, GameRecord, NewGameError, Phase,
    ReplayError, SwapError, TrickRecord,
};
pub use play::{PlayError, PlayRule, PlayState, Trick, TrickResult, legal_cards};
pub use position::{Position, PositionError};
pub use roem::TrickRoem;
pub use rules::{
    Bidding, Following, MatchLength, Preset, RoemClaim, RoemSource, RoemTable, RuleOptionError, Rules, Undertrump,
};
pub use score::{BOEM_TARGET, DealResult, GoingOn, PlayerScores, ScoreSheet, Stakes, TWO_STROKES_UNDER};
pub use seat::{Direction, PerTeam, Players, Seat, Team};
pub use session::{AidError, Aids, Match, MatchDealsError, MatchRecord, deal_seed};
pub use view::{PlayerView, StockShown};
