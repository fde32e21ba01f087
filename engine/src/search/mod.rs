//! Search, one file per stage as in Edax: `tt` (transposition table), `ordering`,
//! `eval` (the evaluation seam), `stability`, `endgame` (exact null-window and PV search), `root`.

pub mod endgame;
pub mod eval;
pub mod ordering;
pub mod root;
pub mod stability;
pub mod tt;

pub use root::{Solution, Solver};
