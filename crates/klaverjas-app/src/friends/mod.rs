//! Play with friends: a chair at a table on a table server, the socket to
//! it, and on a desktop the table server itself. The screens are
//! `screens::friends` (hosting, joining, the waiting room) and the table's.

pub mod host;
pub mod link;
pub mod sitting;
pub mod socket;

pub use link::plugin;
