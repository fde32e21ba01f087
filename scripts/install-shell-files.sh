#!/bin/sh
# Installs the shell completions (bash, zsh, fish) and man pages of engine, dfpn, satgen and
# retro under PREFIX (default: ~/.local), made by the tools themselves from their command
# lines (clap_complete, clap_mangen), so they always match the build. Build first:
#   cargo build --release && scripts/install-shell-files.sh [PREFIX]
# bash-completion, zsh (with PREFIX/share/zsh/site-functions in fpath), fish and man
# (MANPATH or ~/.local/share/man) find them there.
set -eu
prefix=${1:-$HOME/.local}
bin=$(cd "$(dirname "$0")/.." && pwd)/target/release
share=$prefix/share
mkdir -p "$share/bash-completion/completions" "$share/zsh/site-functions" \
    "$share/fish/vendor_completions.d" "$share/man/man1"
for tool in engine dfpn satgen retro; do
    "$bin/$tool" completions bash > "$share/bash-completion/completions/$tool"
    "$bin/$tool" completions zsh > "$share/zsh/site-functions/_$tool"
    "$bin/$tool" completions fish > "$share/fish/vendor_completions.d/$tool.fish"
    "$bin/$tool" manual "$share/man/man1" > /dev/null
done
echo "completions and man pages of engine, dfpn, satgen, retro installed under $share"
