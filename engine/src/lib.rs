//! The Othello core shared by every tool of the project (rules, bitboards, formats, perft)
//! and, on top of it, the alpha-beta engine: its evaluation, search and training, behind
//! the default cargo feature `search`, which the tools that need only the rules (satgen,
//! retro) leave off, and the command-line plumbing behind the default feature `cli`.
//!
//! The rules, from the ground up: [`square`], [`bitboard`], [`wordops`] (move generation
//! and the table-free flip over any word, also satgen's), [`flip`] (the fast flip),
//! [`board`], [`position`] (colours, moves, `Board::children`), [`stability`],
//! [`reference`](mod@reference) (the slow rules every fast routine is tested against), [`perft`], and
//! [`cpu`] (the instruction set the hot code runs) and [`memory`] (large tables).
//!
//! Formats and input: [`obf`], [`game`] (move lists), [`ggf`], [`wthor`], [`input`]
//! (positions as users give them), [`error`], [`display`]; what the tools write and read
//! back: [`seal`] (checksums that make a file checkable, files written whole) and
//! [`clock`] (processor time, the measure of work).
//!
//! With the default feature `cli`: `cli`, what the four binaries share (clap's arguments,
//! progress bars, signals, the checks of a merge). Off, the library compiles no clap.
//!
//! With `search`: `eval` (the evaluations), `search` (one file per stage, as Edax: `tt`,
//! `ordering`, `endgame`, `root`, `midgame`, `probcut`, `wld`) and `train` (the tools that
//! build the weights and error tables).

#![warn(missing_docs)]

pub mod bitboard;
pub mod board;
#[cfg(feature = "cli")]
pub mod cli;
pub mod clock;
pub mod cpu;
pub mod display;
pub mod error;
#[cfg(feature = "search")]
pub mod eval;
pub mod flip;
pub mod game;
pub mod ggf;
pub mod input;
pub mod memory;
pub mod obf;
pub mod perft;
pub mod position;
pub mod reference;
pub mod seal;
#[cfg(feature = "search")]
pub mod search;
pub mod square;
pub mod stability;
#[cfg(feature = "search")]
pub mod train;
pub mod wordops;
pub mod wthor;

pub use bitboard::Bitboard;
pub use board::Board;
pub use error::{ParseError, ParseErrorKind};
pub use game::Game;
pub use obf::Obf;
pub use position::{Color, Move, Position};
pub use square::Square;
