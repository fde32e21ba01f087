#!/bin/sh
# Installs cake_lpr, the LRAT proof checker verified in CakeML that the SAT competition
# trusts (`--checker cake_lpr|both` of satgen check-proof, satgen solve/curve and
# retro reach/check). Not part of the project: its compiled x86-64 assembly and C shim
# (BSD-style licence) are built with gcc, from ../shared/reference beside the checkout
# where it is there (CI), else from its public repository at a pinned commit, each file
# checked against a pinned SHA-256.
#   scripts/install-cake-lpr.sh [DIR]   # default /usr/local/bin where writable, else ~/.local/bin
# Installs only what is missing. The default heap is 4 GiB; for larger proofs set
#   CAKE_CFLAGS="-DCML_HEAP_SIZE=16384 -DCML_STACK_SIZE=4096" (MiB).
set -eu
if command -v cake_lpr >/dev/null 2>&1; then
    echo "cake_lpr: $(command -v cake_lpr)"
    exit 0
fi
if [ $# -ge 1 ]; then
    out=$1
elif [ -w /usr/local/bin ]; then
    out=/usr/local/bin
else
    out=$HOME/.local/bin
fi
here=$(cd "$(dirname "$0")/.." && pwd)
shared=$here/../shared/reference
commit=a4323b203cc9ecd584ba7da9e3fff08135a09d5f
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$shared/cake_lpr" ]; then
    cp "$shared/cake_lpr/cake_lpr.S" "$shared/cake_lpr/basis_ffi.c" "$work/"
else
    curl -fsSL "https://github.com/tanyongkiam/cake_lpr/archive/$commit.tar.gz" -o "$work/cake_lpr.tar.gz"
    tar -xzf "$work/cake_lpr.tar.gz" -C "$work"
    cp "$work/cake_lpr-$commit/cake_lpr.S" "$work/cake_lpr-$commit/basis_ffi.c" "$work/"
fi
(
    cd "$work"
    sha256sum -c - <<'EOF'
3fbd8f31c380e7fb40fede74496ff8b7fb63043645b1afff1e5f26aacdccfa69  basis_ffi.c
2f3af32d55083839b3fa0e693afd817679c0b8944bef41def05a8b0ec72b7d4a  cake_lpr.S
EOF
)
# shellcheck disable=SC2086 # the flags are words
gcc -O2 ${CAKE_CFLAGS:-} "$work/basis_ffi.c" "$work/cake_lpr.S" -o "$work/cake_lpr" -std=c99 -Wl,-z,noexecstack
mkdir -p "$out"
install -m 755 "$work/cake_lpr" "$out/cake_lpr"
echo "cake_lpr: $out/cake_lpr"
case ":$PATH:" in
*":$out:"*) ;;
*) echo "add $out to PATH (or set CAKE_LPR=$out/cake_lpr)" ;;
esac
