#!/bin/sh
# Installs the external SAT solvers satgen can hand its CNF to (`--solver-cmd cadical`).
# Debian/Ubuntu: CaDiCaL from the distribution. Run as root (or with sudo).
set -eu
if command -v cadical >/dev/null 2>&1; then
    echo "cadical already installed: $(command -v cadical)"
    exit 0
fi
apt-get update
apt-get install -y cadical
