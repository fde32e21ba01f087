//! Search, one file per stage as in Edax: `tt` (transposition table), `ordering`,
//! `endgame` (exact null-window and PV search), `root`, `midgame` (depth-limited search
//! with the evaluation); the stable discs they cut with are rules ([`crate::stability`]).

pub mod endgame;
pub mod midgame;
pub mod ordering;
pub mod probcut;
pub mod root;
pub mod tt;
pub mod wld;

pub use root::{Solution, Solver};
pub use wld::Wld;
