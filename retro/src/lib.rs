//! Retrospective Othello: which positions a legal game from the start can reach.
//!
//! [`enumerate`](mod@enumerate) counts the distinct positions level by level (by plies or by discs), in
//! bounded memory (its `sorted` sets spill to disk); [`maxmob`] finds the largest mobility within
//! a number of plies with a witness game; [`decide`](mod@decide) answers whether a game reaches a
//! position, racing [`reach`](mod@reach) (backward to the frontier) against SAT solvers on satgen's
//! question after the cheap [`refute`](mod@refute)s; [`sample`] draws the positions of random
//! games and uniformly random boards; [`estimate`] turns the answers for random boards into the
//! number of legal positions.

#![warn(missing_docs)]

pub mod decide;
pub mod enumerate;
pub mod estimate;
pub mod maxmob;
pub mod reach;
pub mod refute;
pub mod sample;
mod sorted;
mod unmove;

pub use decide::{decide, Decision, Method, Options, SatSolver};
pub use enumerate::{Convention, Level, LevelCount};
pub use maxmob::{max_mobility, MaxMobility};
pub use reach::{reach, Frontier, Halted, Reach};
pub use refute::refute;
