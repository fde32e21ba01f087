//! Tools that build what the evaluation and the search read, kept apart from them: the
//! labelled positions ([`datagen`]), the least-squares fit of the pattern weights
//! ([`fit`]) and the measurement of ProbCut's error model ([`probcut`](mod@probcut)).
//! The `engine datagen`, `train` and `probcut` commands run them.

pub mod datagen;
pub mod fit;
pub mod probcut;
