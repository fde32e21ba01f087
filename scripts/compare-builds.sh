#!/usr/bin/env bash
# Times two engine builds on the same positions, alternating runs so that the machine's
# noise hits both alike:
#   scripts/compare-builds.sh [--whole] FILE REPS ENGINE_A ENGINE_B
# Default: per position, the best of REPS alternating runs of each build, then the totals.
# --whole: REPS alternating runs of the whole file per build, then the median and the best
# of the totals. THREADS (default 1) sets --threads. Node counts are printed too: with one
# thread they are exact, so a change that should not alter the search must keep them.
# Stops if either build's answers disagree with those the file carries.
set -euo pipefail
whole=0
if [[ ${1:-} == --whole ]]; then whole=1; shift; fi
file=$1 reps=$2 a=$3 b=$4 threads=${THREADS:-1}

# seconds and nodes of one run: solve --json prints an object per position, then a summary.
run() { "$1" solve "${@:2}" --threads "$threads" --json | tail -1 | python3 -c '
import json, sys
summary = json.load(sys.stdin)
# Where the file carries answers, a build that disagrees with them is not worth timing.
assert summary["mismatches"] == 0, f"answers differ from the file: {summary}"
print(summary["seconds"], summary["nodes"])'; }

if ((whole)); then
  for ((r = 0; r < reps; r++)); do
    echo "A $(run "$a" "$file")"
    echo "B $(run "$b" "$file")"
  done
else
  while IFS= read -r line; do
    for ((r = 0; r < reps; r++)); do
      echo "A $(run "$a" --board "$line") $line"
      echo "B $(run "$b" --board "$line") $line"
    done
  done < "$file"
fi | python3 -c '
import statistics, sys
whole = sys.argv[1] == "1"
runs = {"A": {}, "B": {}}
for row in sys.stdin:
    side, seconds, nodes, *position = row.split(maxsplit=3)
    key = position[0] if position else "file"
    runs[side].setdefault(key, []).append((float(seconds), int(nodes)))
for side, name in (("A", sys.argv[2]), ("B", sys.argv[3])):
    per = runs[side]
    nodes = sum(r[0][1] for r in per.values())
    if whole:
        totals = [s for s, _ in per["file"]]
        print(f"{side} {name}: median {statistics.median(totals):.3f} s, best {min(totals):.3f} s, {nodes} nodes")
    else:
        best = sum(min(s for s, _ in r) for r in per.values())
        print(f"{side} {name}: {best:.3f} s (best of each position), {nodes} nodes")
' "$whole" "$a" "$b"
