#!/usr/bin/env python3
"""What a split question costs when the jobs the root no longer needs are cancelled.

Reads a `dfpn split` directory after its jobs ran under GNU parallel (`--joblog DIR/joblog`:
each job's time) and their proofs (each job's answer), and replays the run on W workers
that take the jobs in the file's order, start a job only while the root still needs it
(as `dfpn join --status` says), and stop the ones running once the root is decided.
Prints the jobs started, their processor time and the wall time: the cost a scheduler that
cancels by `--status` would pay. Usage: scripts/split-schedule.py DIR [W]
"""
import json, csv, sys, heapq

d = sys.argv[1]; workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
split = json.load(open(f'{d}/split.json'))
rows = list(csv.DictReader(open(f'{d}/joblog'), delimiter='\t'))
runtime = {}
for r in rows:
    cmd = r['Command']; job = int(cmd.split('job-')[1].split('.json')[0])
    runtime[job] = float(r['JobRuntime'])
answer = {}
for job in range(len(split['jobs'])):
    answer[job] = json.load(open(f'{d}/job-{job}.json'))['nodes'][0]['holds']
nodes = split['nodes']
def value(i, known, memo):
    if i in memo: return memo[i]
    n = nodes[i]
    if n['job'] is not None:
        v = known.get(n['job'])
    elif not n['children']:
        v = None  # game end: not in these runs
    else:
        kids = [value(c, known, memo) for _, c in n['children']]
        v = True if False in kids else (False if all(k is True for k in kids) else None)
    memo[i] = v; return v
def needed(known):
    memo = {}; value(0, known, memo)
    need = set(); stack = [0]; seen = set()
    while stack:
        i = stack.pop()
        if i in seen or memo.get(i) is not None: continue
        seen.add(i); n = nodes[i]
        if n['job'] is not None: need.add(n['job'])
        else: stack.extend(c for _, c in n['children'])
    return need, memo[0]
# 2 workers take jobs in file order, skipping those not needed given finished jobs
t = 0.0; running = []; known = {}; queue = list(range(len(split['jobs']))); cpu = 0.0; ran = 0
while True:
    need, root = needed(known)
    if root is not None: break
    while len(running) < workers and queue:
        job = queue.pop(0)
        if job not in need: continue
        heapq.heappush(running, (t + runtime[job], job)); cpu += runtime[job]; ran += 1
    if not running: break
    t, job = heapq.heappop(running); known[job] = answer[job]
# jobs still running at the end are cancelled: subtract their unspent time
for end, job in running: cpu -= (end - t)
print(f'{d}: jobs {len(split["jobs"])}, sum of all {sum(runtime.values()):.1f} s; with cancellation on {workers} workers: {ran} started, cpu {cpu:.1f} s, wall {t:.1f} s; longest job {max(runtime.values()):.1f} s')
