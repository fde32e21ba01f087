//! The `satgen` binary as a user runs it: solve, emit + decode round trip, rejected models.
//!
//! One module per command (or group of commands), `common` the helpers they share.

mod check_proof;
mod common;
mod cubes;
mod curve;
mod emit;
mod solve;
mod target;
mod usage;
