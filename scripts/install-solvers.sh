#!/bin/sh
# Installs what satgen's external runs use: CaDiCaL (`--solver-cmd cadical`) and GNU
# parallel (to run `satgen cubes` manifests, README). Debian/Ubuntu packages; run as root
# (or with sudo). Installs only what is missing.
set -eu
missing=""
command -v cadical >/dev/null 2>&1 || missing="$missing cadical"
command -v parallel >/dev/null 2>&1 || missing="$missing parallel"
if [ -z "$missing" ]; then
    echo "already installed: $(command -v cadical) $(command -v parallel)"
    exit 0
fi
apt-get update
# shellcheck disable=SC2086 # one word per package
apt-get install -y $missing
