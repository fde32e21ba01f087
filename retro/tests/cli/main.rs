//! The `retro` binary as a user runs it: output formats, exit codes, one-line errors.
//!
//! One module per command (or group of commands), `common` the helpers they share.

mod check;
mod common;
mod enumerate;
mod maxmob;
mod merge;
mod usage;
