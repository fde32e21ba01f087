#!/bin/sh
# Installs what satgen's external runs use: CaDiCaL (`--solver-cmd cadical`, and the LRAT
# proofs of `--proof`), Kissat (`--solver-cmd kissat`) and GNU parallel (to run `satgen
# cubes` manifests, README). parallel is a Debian/Ubuntu package. Debian 12 packages no
# Kissat and a CaDiCaL too old for LRAT (sc2021; LRAT came in 1.9): both are built with
# the C/C++ compilers from the sources that rustsat-kissat (Kissat 4.0.4) and
# rustsat-cadical (CaDiCaL 2.2.1) vendor, fetched from crates.io and checked against a
# pinned SHA-256, into /usr/local/bin.
# Run as root (or with sudo). Installs only what is missing.
set -eu
missing=""
command -v parallel >/dev/null 2>&1 || missing="$missing parallel"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v c++ >/dev/null 2>&1 || missing="$missing g++"
command -v curl >/dev/null 2>&1 || missing="$missing curl"
if [ -n "$missing" ]; then
    apt-get update
    # shellcheck disable=SC2086 # one word per package
    apt-get install -y $missing
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# fetch NAME VERSION SHA256: the crate unpacked in $work/NAME-VERSION.
fetch() {
    curl -fsSL "https://static.crates.io/crates/$1/$1-$2.crate" -o "$work/$1.crate"
    echo "$3  $work/$1.crate" | sha256sum -c -
    tar -xzf "$work/$1.crate" -C "$work"
}

if ! command -v kissat >/dev/null 2>&1; then
    fetch rustsat-kissat 0.7.5 dd632a1a42fd94dd44331f7235def994e16948cc48365dfd304865f2b8aaa97e
    src="$work/rustsat-kissat-0.7.5/csrc"
    # Kissat's own build writes build.h; these are the macros its sources read.
    printf '#define VERSION "%s"\n#define COMPILER "cc -O3"\n#define ID "rel-%s"\n#define BUILD "install-solvers.sh"\n#define DIR "."\n' \
        "$(cat "$src/VERSION")" "$(cat "$src/VERSION")" > "$src/src/build.h"
    cc -O3 -DNDEBUG -w -I"$src/src" "$src"/src/*.c -o /usr/local/bin/kissat -lm
fi

# CaDiCaL 1.9 or later: the version is its first line, e.g. "2.2.1" (Debian's says sc2021).
if ! cadical --version 2>/dev/null | grep -Eq '^([2-9]|1\.(9|[1-9][0-9]))\.'; then
    fetch rustsat-cadical 0.7.5 36c1940036a11c1ff492fdbdad940ba100220f50a0ecabea1f2de08c18aa3a90
    src="$work/rustsat-cadical-0.7.5/cppsrc/src"
    # The solver's sources without its C and IPASIR interfaces (rustsat's extension of
    # them is not vendored whole) and the model-based tester; kitten is C.
    mkdir "$work/obj"
    for f in "$src"/*.cpp; do
        case $(basename "$f") in ccadical.cpp | ipasir.cpp | mobical.cpp) continue ;; esac
        echo "$f"
    done | xargs -P "$(nproc)" -I{} sh -c \
        'c++ -O3 -DNDEBUG -DNBUILD -w -I"$1/../../cpp-extension" -c "$2" -o "$3/$(basename "$2" .cpp).o"' \
        _ "$src" {} "$work/obj"
    cc -O3 -DNDEBUG -w -c "$src/kitten.c" -o "$work/obj/kitten.o"
    c++ "$work"/obj/*.o -o /usr/local/bin/cadical
fi
hash -r
echo "cadical: $(command -v cadical) ($(cadical --version)), kissat: $(command -v kissat) ($(kissat --version)), parallel: $(command -v parallel)"
