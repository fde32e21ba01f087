#!/usr/bin/env bash
# Solve times of satgen questions, one JSON line per run (N, encoding, solver, result,
# seconds, or a timeout), for results/satgen.md:
#   scripts/satgen-bench.sh SOLVER ENCODING TIMEOUT_S N...
# SOLVER: varisat (embedded) or an external command such as "cadical" or "cadical --sat".
# Needs target/release/satgen (cargo build --release). 42 plies, first move fixed to f5.
set -uo pipefail
solver=$1 encoding=$2 limit=$3
shift 3
for n in "$@"; do
  if [ "$solver" = varisat ]; then
    cmd=(target/release/satgen solve --mobility "$n" --encoding "$encoding" --json)
  else
    cmd=(target/release/satgen solve --mobility "$n" --encoding "$encoding" --solver-cmd "$solver" --json)
  fi
  start=$(date +%s%N)
  # SIGINT reaches the whole process group (satgen and its solver) at the limit.
  out=$(timeout -s INT "$limit" "${cmd[@]}" 2>/dev/null)
  status=$?
  tenths=$((($(date +%s%N) - start) / 100000000))
  if [ $status -eq 0 ]; then
    echo "{\"n\":$n,\"encoding\":\"$encoding\",\"solver\":\"$solver\",\"answer\":$out}"
  else
    printf '{"n":%s,"encoding":"%s","solver":"%s","status":%s,"seconds":%s.%s}\n' \
      "$n" "$encoding" "$solver" "$status" $((tenths / 10)) $((tenths % 10))
  fi
done
