#!/usr/bin/env bash
# Reproduces the headline answers of results/README.md, one name per row of its table.
#
#   scripts/reproduce.sh NAME...          the row's own command (long: each says how long)
#   scripts/reproduce.sh --quick [NAME...]  a small form of each row (about a minute for all),
#                                         its answers compared with results/expected/NAME.txt
#   scripts/reproduce.sh --quick --bless NAME...   rewrite those expected answers
#   scripts/reproduce.sh --list           the names
#
# A shell script rather than a justfile or Makefile: it needs nothing beyond bash and
# python3 (for reading JSON Lines), and the rows are a list of commands, not a graph of
# files to rebuild. Binaries come from $BIN_DIR (default target/release, built if missing);
# the quick forms compare answers only (scores, counts, verdicts), never times.
set -euo pipefail
cd "$(dirname "$0")/.."

NAMES=(ffo-1-19 ffo-20-39 ffo-40-59 perft enumerate estimate mobility33 mobility34
    candidates34 curve random-games dfpn)
BIN_DIR=${BIN_DIR:-target/release}
QUICK=0
BLESS=0
ARGS=()
for arg in "$@"; do
    case "$arg" in
    --quick) QUICK=1 ;;
    --bless) BLESS=1 ;;
    --list) printf '%s\n' "${NAMES[@]}"; exit 0 ;;
    -h | --help) sed -n '2,13p' "$0" | cut -c3-; exit 0 ;;
    -*) echo "reproduce.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    *) ARGS+=("$arg") ;;
    esac
done
if [ ${#ARGS[@]} -eq 0 ]; then
    if [ $QUICK -eq 0 ]; then
        echo "reproduce.sh: name a row (--list), or give --quick for all" >&2
        exit 2
    fi
    ARGS=("${NAMES[@]}")
fi
for name in "${ARGS[@]}"; do
    case " ${NAMES[*]} " in
    *" $name "*) ;;
    *) echo "reproduce.sh: no row named $name (--list gives them)" >&2; exit 2 ;;
    esac
done
if [ ! -x "$BIN_DIR/engine" ] || [ ! -x "$BIN_DIR/retro" ]; then
    cargo build --release --workspace
fi
engine() { "$BIN_DIR/engine" "$@"; }
dfpn() { "$BIN_DIR/dfpn" "$@"; }
satgen() { "$BIN_DIR/satgen" "$@"; }
retro() { "$BIN_DIR/retro" "$@"; }

# The named fields of each JSON line (rows, or the summary with --summary), one line each,
# rows in the order of their positions (batch commands write them as they finish).
fields() {
    python3 -c '
import json, sys
summary = sys.argv[1] == "--summary"
keys = sys.argv[2:] if summary else sys.argv[1:]
rows = [json.loads(line) for line in sys.stdin]
rows = [r for r in rows if bool(r.get("summary")) == summary]
rows.sort(key=lambda r: r.get("index", 0))
for row in rows:
    print(" ".join(f"{k}={json.dumps(row.get(k))}" for k in keys))
' "$@"
}

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The 27 plies of the published game that reach 33 legal moves for white.
M33=$(grep -v '^%' problems/mobility33-witnesses.txt | head -1 | cut -d';' -f2 | tr -d ' ' | cut -c1-54)

quick() {
    case "$1" in
    ffo-1-19) engine solve problems/fforum-1-19.obf --check-all-answers --json | fields index score expected_ok ;;
    ffo-20-39) engine solve problems/fforum-20-39.obf --json | fields index score expected_ok ;;
    ffo-40-59) head -4 problems/fforum-40-59.obf | engine solve - --json | fields index score expected_ok ;;
    perft) engine perft 9 --json | fields depth leaves passes finished games ;;
    enumerate) retro enumerate --plies 9 --canonical --json | fields ply positions canonical ;;
    estimate)
        # The stored answers of the 10^6 boards (written before rows were sealed) merged
        # again, then 200 new boards decided.
        zcat results/reach/random-boards-1m/*.gz | retro merge --unsealed - --estimate --json |
            fields --summary reachable unreachable unknown estimate
        retro sample --random-boards --count 200 --seed 3 >"$WORK/boards.obf"
        retro check "$WORK/boards.obf" --json --whole-first --time-limit 20 |
            fields --summary positions reachable unreachable unknown
        ;;
    mobility33)
        engine show "$M33" | grep '^legal moves'
        retro reach --board "$M33" --json | fields reachable
        ;;
    mobility34) satgen solve --mobility 34 --plies 6 --by-ply --proof "$WORK/proofs" --json | fields result proof_checked cubes_in_all ;;
    candidates34) retro check problems/mobility34-candidates.csv --json | fields --summary positions reachable unreachable unknown ;;
    curve) retro maxmob --plies 10 --by-ply --json | fields ply side max ;;
    random-games) sed -n 2,11p problems/random-games.obf | retro check - --json | fields index reachable ;;
    dfpn) head -4 problems/fforum-40-59.obf | dfpn wld - --json | fields index wld expected_ok ;;
    esac
}

full() {
    case "$1" in
    ffo-1-19) engine solve problems/fforum-1-19.obf --check-all-answers ;;
    ffo-20-39) engine solve problems/fforum-20-39.obf --threads 1 ;;
    ffo-40-59)
        echo "# about 4 minutes on 2 cores" >&2
        engine solve problems/fforum-40-59.obf --threads 2
        ;;
    perft)
        echo "# about 9 CPU-hours and 8 GiB a shard: the 8 shards one after another here; a cluster runs them at once" >&2
        for i in $(seq 8); do engine perft 17 --shard "$i/8" --hash-mb 8192 --json >"$WORK/perft-$i.jsonl"; done
        engine merge "$WORK"/perft-*.jsonl
        ;;
    enumerate)
        echo "# about 4 CPU-hours, 6 GiB of memory and 16 GB of disk for level 13 (kept in ./levels)" >&2
        retro enumerate --plies 13 --levels levels --memory-mb 8192
        for i in $(seq 16); do retro enumerate --plies 14 --canonical --levels levels --shard "$i/16" --memory-mb 8192 --json >"$WORK/ply14-$i.jsonl"; done
        retro merge "$WORK"/ply14-*.jsonl
        ;;
    estimate)
        echo "# 10^6 boards: about 38 CPU-hours for the first pass, up to 93 for the long pass (a cluster's job: retro/README.md)" >&2
        retro sample --random-boards --count 1000000 --seed 1 >"$WORK/boards.obf"
        for i in $(seq 100); do retro check "$WORK/boards.obf" --shard "$i/100" --json --cpu-limit 120 --whole-first >"$WORK/part$i.jsonl"; done
        retro merge "$WORK"/part*.jsonl --estimate
        ;;
    mobility33) satgen solve --mobility 33 --by-ply --solver-cmd kissat ;;
    mobility34)
        echo "# about 30 minutes on 2 cores and 3.4 GB of proofs (in ./m34-proofs); needs CaDiCaL (scripts/install-solvers.sh)" >&2
        satgen solve --mobility 34 --by-ply --solver-cmd cadical --proof m34-proofs --checker both
        ;;
    candidates34) retro check problems/mobility34-candidates.csv ;;
    curve)
        echo "# ply 17 alone: 11.2 T lines, a cluster's job (results/maxmob-by-ply.md); here plies 0-15 in about 30 minutes" >&2
        retro maxmob --plies 15 --by-ply --enumerate-to 13
        ;;
    random-games)
        echo "# up to 60 s a position, 600 positions: about 80 minutes on 2 cores; needs Kissat and CaDiCaL" >&2
        retro check problems/random-games.obf
        ;;
    dfpn)
        echo "# about 7 minutes on 2 cores" >&2
        dfpn bench problems/fforum-40-59.obf
        ;;
    esac
}

failed=0
for name in "${ARGS[@]}"; do
    if [ $QUICK -eq 0 ]; then
        full "$name"
        continue
    fi
    expected="results/expected/$name.txt"
    start=$(date +%s.%N)
    quick "$name" >"$WORK/$name.txt"
    seconds=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
    if [ $BLESS -eq 1 ]; then
        mkdir -p results/expected
        cp "$WORK/$name.txt" "$expected"
        echo "$name: written to $expected (${seconds} s)"
    elif diff -u "$expected" "$WORK/$name.txt" >"$WORK/$name.diff"; then
        echo "$name: as expected (${seconds} s)"
    else
        echo "$name: DIFFERS from $expected:" >&2
        cat "$WORK/$name.diff" >&2
        failed=1
    fi
done
exit $failed
