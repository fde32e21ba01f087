#!/usr/bin/env bash
# The tests, as CI runs them (`.ci/run`): the form and lints first (quick to fail), the
# docs, the whole workspace's tests in release mode (search is involved), and last the
# builds of satgen with each in-process solver (off by default: they compile C/C++
# sources and need libclang, which scripts/install-build-deps.sh installs where it is
# missing; the two cannot be linked together).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all --check
cargo clippy --release --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
cargo test --release --workspace
# The rules build and pass their tests without the search (as satgen and retro use them).
cargo test --release -p engine --no-default-features
scripts/install-build-deps.sh
cargo build --release -p satgen --features cadical
cargo build --release -p satgen --features kissat
