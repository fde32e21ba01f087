//! The `engine` binary as a user runs it: output formats, exit codes, one-line errors.
//!
//! One module per command (or group of commands), `common` the helpers they share.

mod common;
mod merge;
mod nboard;
mod perft;
mod play;
mod show;
mod solve;
mod train;
mod usage;
