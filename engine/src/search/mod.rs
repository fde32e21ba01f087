//! Search, one file per stage as in Edax: `tt` (transposition table), `ordering`,
//! `endgame` (exact null-window and PV search), `root`, `midgame` (depth-limited search
//! with the evaluation); the stable discs they cut with are rules ([`crate::stability`]).
//!
//! The public surface is what the tools use: the exact solver ([`Solver`], [`Wld`]), the
//! midgame search ([`midgame`]), and the pieces dfpn builds its leaves and its move order
//! from ([`Bounds`], [`shallow_value`], [`sort_depth`], [`SELECTIVE_MIN`], [`Stop`]). The
//! stages' tuning constants and helpers stay inside the crate.

mod endgame;
pub mod midgame;
mod ordering;
pub(crate) mod probcut;
mod root;
pub(crate) mod tt;
mod wld;

pub use endgame::Stop;
pub use ordering::{shallow_value, sort_depth, SHALLOW_SORT_MIN};
pub use root::{Solution, Solver, SELECTIVE_MIN};
pub use tt::{Bounds, NO_MOVE};
pub use wld::Wld;
