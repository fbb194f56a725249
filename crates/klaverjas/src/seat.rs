//! Seats and partnerships. Dutch play runs clockwise N, E, S, W, South
//! African play the other way ([`Direction`]); partners sit opposite, so the
//! teams are North-South and East-West.

use crate::card::ParseError;
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Seat {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

impl Seat {
    pub const ALL: [Seat; 4] = [Seat::North, Seat::East, Seat::South, Seat::West];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Seat {
        match i & 3 {
            0 => Seat::North,
            1 => Seat::East,
            2 => Seat::South,
            _ => Seat::West,
        }
    }

    /// The next seat clockwise: the player on this seat's left.
    pub const fn next(self) -> Seat {
        Seat::from_index(self as usize + 1)
    }

    /// The seat `n` places further clockwise.
    pub const fn after(self, n: usize) -> Seat {
        Seat::from_index(self as usize + n)
    }

    /// How many places clockwise the table turns to bring this seat to
    /// South: a table shown from this seat's chair.
    pub const fn turn_to_south(self) -> usize {
        (Seat::South as usize + 4 - self as usize) % 4
    }

    pub const fn partner(self) -> Seat {
        Seat::from_index(self as usize + 2)
    }

    pub const fn team(self) -> Team {
        if (self as usize).is_multiple_of(2) { Team::NS } else { Team::EW }
    }

    pub const fn letter(self) -> char {
        ['N', 'E', 'S', 'W'][self as usize]
    }

    pub const fn name(self) -> &'static str {
        ["North", "East", "South", "West"][self as usize]
    }
}

/// Which way the turn passes (RULES section 2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Direction {
    /// To the left: North, East, South, West (Dutch play).
    #[default]
    Clockwise,
    /// To the right: North, West, South, East (South African Klawerjas,
    /// 002: "Dealer cuts to the left and deals to the right", and the
    /// "Player to the right of dealer plays first").
    AntiClockwise,
}

impl Direction {
    /// The seat `n` turns after `seat`.
    pub const fn step(self, seat: Seat, n: usize) -> Seat {
        match self {
            Direction::Clockwise => seat.after(n),
            Direction::AntiClockwise => seat.after(3 * n),
        }
    }

    /// The seat whose turn follows `seat`'s.
    pub const fn next(self, seat: Seat) -> Seat {
        self.step(seat, 1)
    }
}

/// Who sits at the table (RULES section 8). Every game uses the same four
/// chairs; the games for fewer players leave some empty, so a seat keeps
/// its name and its place on the screen in every game. North stays empty
/// at three: the talon lies there.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Players {
    /// Two partnerships, partners opposite.
    #[default]
    Four,
    /// East, South and West, each playing and scoring alone (001: "Each
    /// player plays and scores independently in the three hand version").
    Three,
    /// Klaberjass (003): South and West, each alone. They sit in different
    /// teams, so a team's column and its hand roem are one player's; North
    /// holds the stock.
    Two,
}

impl Players {
    pub const ALL: [Players; 3] = [Players::Four, Players::Three, Players::Two];

    /// The seats taken, in clockwise order.
    pub const fn seats(self) -> &'static [Seat] {
        match self {
            Players::Four => &Seat::ALL,
            Players::Three => &[Seat::East, Seat::South, Seat::West],
            Players::Two => &[Seat::South, Seat::West],
        }
    }

    pub const fn count(self) -> usize {
        self.seats().len()
    }

    /// Tricks in a deal: every card is played, but the talon's two at
    /// three; at two, nine each, and the stock keeps the other fourteen
    /// (003: "until all nine tricks have been captured").
    pub const fn tricks(self) -> u8 {
        match self {
            Players::Two => 9,
            _ => (32 / self.count()) as u8,
        }
    }

    /// Whether someone sits at `seat`.
    pub fn seats_at(self, seat: Seat) -> bool {
        self.seats().contains(&seat)
    }

    /// Whether the players sit in partnerships, so that a seat's partner
    /// is at the table.
    pub const fn partnerships(self) -> bool {
        matches!(self, Players::Four)
    }

    /// The seated player `n` turns after `seat` going `direction`, empty
    /// chairs skipped.
    #[inline(always)]
    pub fn step(self, direction: Direction, seat: Seat, n: usize) -> Seat {
        if let Players::Four = self {
            return direction.step(seat, n);
        }
        let seats = self.seats();
        let k = seats.len();
        // An empty chair turns to the seat after it, as if it sat there.
        let at = seats
            .iter()
            .position(|&s| s == seat)
            .unwrap_or_else(|| seats.iter().position(|&s| s.index() > seat.index()).unwrap_or(0) + k - 1);
        let moved = match direction {
            Direction::Clockwise => at + n,
            Direction::AntiClockwise => at + (k - 1) * n,
        };
        seats[moved % k]
    }

    /// The seated player whose turn follows `seat`'s.
    pub fn next(self, direction: Direction, seat: Seat) -> Seat {
        self.step(direction, seat, 1)
    }

    /// `seat` where someone sits there, else the next seat that is taken:
    /// a deal or a turn given to an empty chair passes on, as at a table.
    pub fn seated(self, direction: Direction, seat: Seat) -> Seat {
        if self.seats_at(seat) { seat } else { self.next(direction, seat) }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Seat {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Seat, ParseError> {
        let t = s.trim();
        Seat::ALL
            .into_iter()
            .find(|seat| t.eq_ignore_ascii_case(&seat.letter().to_string()) || t.eq_ignore_ascii_case(seat.name()))
            .ok_or_else(|| ParseError::new("seat", t))
    }
}

/// A partnership.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Team {
    NS = 0,
    EW = 1,
}

impl Team {
    pub const BOTH: [Team; 2] = [Team::NS, Team::EW];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn other(self) -> Team {
        match self {
            Team::NS => Team::EW,
            Team::EW => Team::NS,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Team::NS => "NS",
            Team::EW => "EW",
        }
    }
}

impl FromStr for Team {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Team, ParseError> {
        let t = s.trim();
        Team::BOTH
            .into_iter()
            .find(|team| t.eq_ignore_ascii_case(&team.to_string()))
            .ok_or_else(|| ParseError::new("team", t))
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value per team, indexed by [`Team`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PerTeam<T> {
    #[cfg_attr(feature = "serde", serde(rename = "NS"))]
    pub ns: T,
    #[cfg_attr(feature = "serde", serde(rename = "EW"))]
    pub ew: T,
}

impl<T> PerTeam<T> {
    pub fn new(ns: T, ew: T) -> Self {
        PerTeam { ns, ew }
    }

    pub fn map<U>(self, f: impl Fn(T) -> U) -> PerTeam<U> {
        PerTeam { ns: f(self.ns), ew: f(self.ew) }
    }
}

impl<T> std::ops::Index<Team> for PerTeam<T> {
    type Output = T;
    fn index(&self, team: Team) -> &T {
        match team {
            Team::NS => &self.ns,
            Team::EW => &self.ew,
        }
    }
}

impl<T> std::ops::IndexMut<Team> for PerTeam<T> {
    fn index_mut(&mut self, team: Team) -> &mut T {
        match team {
            Team::NS => &mut self.ns,
            Team::EW => &mut self.ew,
        }
    }
}
