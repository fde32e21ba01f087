#!/usr/bin/env bash
# The tests, as CI runs them (`.ci/run`): the form and lints first (quick to fail), the
# docs, the whole workspace's tests optimised (search is involved; the `ci` profile of
# Cargo.toml: release without link-time optimisation, which compiles in less than half
# the time), and last the builds of satgen with each in-process solver (off by default:
# they compile C/C++ sources and need libclang, which scripts/install-build-deps.sh
# installs where it is missing; the two cannot be linked together).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all --check
cargo clippy --release --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
# cake_lpr, the verified LRAT checker, so that the tests of `--checker cake_lpr|both` run
# it (they test its absence where it is not installed).
scripts/install-cake-lpr.sh
cargo test --profile ci --workspace
# The headline answers of results/README.md, each in its small form, against the values
# committed in results/expected/ (about a minute): a report's commands cannot rot unseen.
cargo build --profile ci --workspace --bins
BIN_DIR=target/ci scripts/reproduce.sh --quick
# The rules build and pass their tests without the search (as satgen and retro use them),
# and every library builds without the command line, compiling no clap.
cargo test --profile ci -p engine --no-default-features
cargo build --profile ci -p engine -p dfpn -p satgen -p retro --no-default-features
if cargo tree -p engine -p dfpn -p satgen -p retro --no-default-features -e normal | grep -E '^.* (clap|indicatif|plotters) v'; then
    echo "a library without its feature cli compiles the CLI's dependencies above" >&2
    exit 1
fi
scripts/install-build-deps.sh
cargo build --profile ci -p satgen --features cadical
cargo build --profile ci -p satgen --features kissat
