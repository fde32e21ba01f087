#!/bin/sh
# Installs what satgen's external runs use: CaDiCaL (`--solver-cmd cadical`), Kissat
# (`--solver-cmd kissat`) and GNU parallel (to run `satgen cubes` manifests, README).
# CaDiCaL and parallel are Debian/Ubuntu packages. Kissat is not packaged in Debian 12:
# it is built with the C compiler from the sources rustsat-kissat vendors (Kissat 4.0.4),
# fetched from crates.io and checked against a pinned SHA-256, into /usr/local/bin.
# Run as root (or with sudo). Installs only what is missing.
set -eu
missing=""
command -v cadical >/dev/null 2>&1 || missing="$missing cadical"
command -v parallel >/dev/null 2>&1 || missing="$missing parallel"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v curl >/dev/null 2>&1 || missing="$missing curl"
if [ -n "$missing" ]; then
    apt-get update
    # shellcheck disable=SC2086 # one word per package
    apt-get install -y $missing
fi

if ! command -v kissat >/dev/null 2>&1; then
    crate=rustsat-kissat-0.7.5
    sha256=dd632a1a42fd94dd44331f7235def994e16948cc48365dfd304865f2b8aaa97e
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    curl -fsSL "https://static.crates.io/crates/rustsat-kissat/$crate.crate" -o "$work/k.crate"
    echo "$sha256  $work/k.crate" | sha256sum -c -
    tar -xzf "$work/k.crate" -C "$work"
    src="$work/$crate/csrc"
    # Kissat's own build writes build.h; these are the macros its sources read.
    printf '#define VERSION "%s"\n#define COMPILER "cc -O3"\n#define ID "rel-%s"\n#define BUILD "install-solvers.sh"\n#define DIR "."\n' \
        "$(cat "$src/VERSION")" "$(cat "$src/VERSION")" > "$src/src/build.h"
    cc -O3 -DNDEBUG -w -I"$src/src" "$src"/src/*.c -o /usr/local/bin/kissat -lm
fi
echo "cadical: $(command -v cadical) ($(cadical --version)), kissat: $(command -v kissat) ($(kissat --version)), parallel: $(command -v parallel)"
