#!/usr/bin/env bash
# Solves each position of an OBF file with two evaluations ordering the moves, one after
# the other per position (so machine noise hits both alike), one thread each:
#   scripts/compare-eval.sh FILE [EVAL_A] [EVAL_B] [FIRST_LINE] [LAST_LINE]
# EVAL_*: hand, trained (default B) or a weights file. Prints nodes and seconds per
# position and the totals; needs target/release/engine (cargo build --release).
# ENGINE_A, ENGINE_B: a binary for each side (default target/release/engine), to compare
# two builds with the same evaluation, e.g. ENGINE_A=old/engine scripts/compare-eval.sh
# FILE trained trained.
set -euo pipefail
file=$1 a=${2:-hand} b=${3:-trained} first=${4:-1} last=${5:-1000000}
engine_a=${ENGINE_A:-target/release/engine} engine_b=${ENGINE_B:-target/release/engine}
printf '%4s %7s %5s %14s %9s %14s %9s %7s\n' '#' empties score "$a nodes" seconds "$b nodes" seconds ratio
awk -v f="$first" -v l="$last" 'NR >= f && NR <= l' "$file" | {
  n=$((first - 1)) ta=0 tb=0 na=0 nb=0
  while IFS= read -r line; do
    n=$((n + 1))
    ra=$("$engine_a" solve --board "$line" --eval "$a" --threads 1 --json | head -1)
    rb=$("$engine_b" solve --board "$line" --eval "$b" --threads 1 --json | head -1)
    python3 - "$n" "$ra" "$rb" <<'PY'
import json, sys
n, a, b = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
assert a["score"] == b["score"], (n, a["score"], b["score"])
print(f'{n:>4} {a["empties"]:>7} {a["score"]:>+5} {a["nodes"]:>14} {a["seconds"]:>9.2f} {b["nodes"]:>14} {b["seconds"]:>9.2f} {a["nodes"] / max(b["nodes"], 1):>7.2f}')
PY
  done
} | awk '{print} {na += $4; sa += $5; nb += $6; sb += $7}
  END {printf "total %28.0f %9.2f %14.0f %9.2f %7.2f\n", na, sa, nb, sb, na / nb}'
