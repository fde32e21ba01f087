#!/usr/bin/env python3
"""Summarises `retro check --json` rows of problems/random-games.obf (50 positions per
disc count, from 20 discs in steps of 4) as a Markdown table: per disc count, positions
decided, by which method, median and largest seconds."""
import json
import statistics
import sys

rows = [json.loads(line) for line in open(sys.argv[1])]
rows = [r for r in rows if "summary" not in r]
by_discs = {}
for r in rows:
    by_discs.setdefault((r["index"] - 1) // 50 * 4 + 20, []).append(r)
print("| discs | positions | reachable | unknown | backward | sat | median s | max s |")
print("|---|---|---|---|---|---|---|---|")
for discs in sorted(by_discs):
    rs = by_discs[discs]
    seconds = [r["seconds"] for r in rs]
    count = lambda f: sum(1 for r in rs if f(r))
    print(
        f"| {discs} | {len(rs)} | {count(lambda r: r['reachable'])} "
        f"| {count(lambda r: r['reachable'] is None)} "
        f"| {count(lambda r: r['method'] == 'backward')} | {count(lambda r: r['method'] == 'sat')} "
        f"| {statistics.median(seconds):.1f} | {max(seconds):.1f} |"
    )
