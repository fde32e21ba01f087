//! satgen: is there a legal game from the start reaching a position where the side to move
//! has at least N legal moves? As CNF for SAT solvers, solved inside (varisat) or outside
//! (any DIMACS solver), every model decoded and replayed by the core.
//!
//! [`formula`] (clauses, Tseitin gates, rustsat's cardinality and at-most-one encodings),
//! [`encode`](mod@encode) (the game under the variant rules), [`target`] (reachability of
//! a given position, and its parts by passes), [`accounting`] (the flip accounting, a
//! relaxation without time that refutes most random boards), [`cubes`] (a question split
//! into independent parts), [`curve`] (the most legal moves after each ply), [`dimacs`]
//! (files and solver output), [`decode`](mod@decode) (models back to checked games),
//! [`solve`] (varisat and external solvers), [`lrat`] (the proof checker behind
//! [`proof`]), and, inside the crate, `wordops` (words of literals for the core's
//! table-free rules).

#![warn(missing_docs)]

// Both vendored solvers carry Kissat's `kitten` module: linked together, its symbols clash.
#[cfg(all(feature = "cadical", feature = "kissat"))]
compile_error!(
    "the features `cadical` and `kissat` cannot be combined (both define kitten_*): build with one"
);

pub mod accounting;
pub mod cubes;
pub mod curve;
pub mod decode;
pub mod dimacs;
pub mod encode;
pub mod formula;
pub mod lrat;
pub mod proof;
pub mod solve;
pub mod target;
mod wordops;

pub use decode::{decode, DecodeError, Decoded};
pub use encode::{encode, Encoded, Encoding, Layout, Question, SideFilter};
pub use target::{decode_target, encode_target, Cube, Target};
