//! The `dfpn` binary as a user runs it: output formats, exit codes, one-line errors.
//!
//! One module per command (or group of commands), `common` the helpers they share.

mod bench;
mod common;
mod compare;
mod proofs;
mod prove;
mod score;
mod split;
mod usage;
