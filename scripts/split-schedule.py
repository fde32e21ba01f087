#!/usr/bin/env python3
"""What a split question costs when a scheduler follows `dfpn join --status`.

Reads a `dfpn split` directory after its jobs ran under GNU parallel (`--joblog DIR/joblog`:
each job's time; DIR/job-N.json: each job's proof) and replays the run on W workers that
take jobs in the file's order and start one only when `dfpn join --status` lists it:
`needed` (any job whose answer the root may still need) or `ready` (the needed jobs of each
node's eldest move first, the others once it is decided: young brothers wait). Running jobs
are stopped once the root is decided. Prints the jobs started, their processor time and
the wall time. The rules are dfpn's own (`dfpn` on the PATH); this only keeps the clock.

Usage: scripts/split-schedule.py DIR WORKERS needed|ready
"""
import csv
import heapq
import json
import subprocess
import sys

directory, workers, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
jobs = len(json.load(open(f"{directory}/split.json"))["jobs"])
runtime = {}
for row in csv.DictReader(open(f"{directory}/joblog"), delimiter="\t"):
    job = int(row["Command"].split("job-")[1].split(".json")[0])
    runtime[job] = float(row["JobRuntime"])


def status(done):
    parts = [f"{directory}/job-{job}.json" for job in sorted(done)]
    out = subprocess.run(
        ["dfpn", "join", f"{directory}/split.json", *parts, "--status", "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    return json.loads(out)


clock, cpu, started = 0.0, 0.0, 0
running, done, taken = [], set(), set()
while True:
    now = status(done)
    if now["holds"] is not None:
        break
    allowed = [job for job in now[mode] if job not in taken]
    while len(running) < workers and allowed:
        job = allowed.pop(0)
        taken.add(job)
        heapq.heappush(running, (clock + runtime[job], job))
        cpu += runtime[job]
        started += 1
    if not running:
        break
    clock, job = heapq.heappop(running)
    done.add(job)
# The jobs still running when the root is decided are stopped: their time left unspent.
cpu -= sum(end - clock for end, _ in running)
print(f"{directory}: {jobs} jobs; {mode} on {workers} workers: {started} started, "
      f"{cpu:.1f} s of processor time, {clock:.1f} s wall")
