//! df-pn/WPNS threshold solver for Othello: "does the side to move score at least t?",
//! exact scores by binary search over t, win/draw/loss, and proofs that can be checked
//! without trusting this crate's search.
//!
//! One file per part: `table` (bounded proof-number table with garbage collection, inside
//! the crate), [`search`] (the proof-number search), `score` (binary search and
//! win/draw/loss: [`Exact`], [`Step`]), [`proof`] (proof graphs, their files and their
//! checker), [`split`] (one question as jobs for many machines, their proofs joined).

#![warn(missing_docs)]

pub mod proof;
mod score;
pub mod search;
pub mod split;
mod table;

pub use engine::search::Wld;
pub use proof::{check, check_exact, ExactProof, ExactProofFile, Proof, ProofFile};
pub use score::{Exact, Step};
pub use search::{Aggregation, Initial, Options, Prover, Stats};
