#!/bin/sh
# Ply 14 of A124005, partition by partition, from level 13 kept in /work/levels.
# A partition whose file has its ply-14 row is done; the others are run (again).
for i in $(seq 1 16); do
  f=/work/ply14/part-$i.jsonl
  grep -q '"ply":14' $f 2>/dev/null && continue
  TMPDIR=/work/tmp /usr/bin/time -v /work/retro-enum enumerate --plies 14 --canonical \
    --levels /work/levels --shard $i/16 --memory-mb 16384 --json > $f.tmp 2> /work/ply14/part-$i.err \
    && mv $f.tmp $f
done
