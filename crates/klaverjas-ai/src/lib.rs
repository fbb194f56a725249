//! Klaverjas bots and the double-dummy solver.
//!
//! A bot gets a [`klaverjas::PlayerView`] and nothing else: the only code
//! here that sees every hand is the [`solver`], and the expert bot feeds it
//! hands it sampled itself from what its seat has seen.

pub mod solver;
