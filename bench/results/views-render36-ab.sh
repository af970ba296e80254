#!/bin/bash
# usage: BASE=DIR NEW=DIR views-render36-ab.sh PAIRS OUT ARGS...
# interleaved: base first on odd pairs, new first on even; each run `node scripts/measure-views.mjs ARGS --json` in that
# directory (its own CLI writes the report, its own bundle draws it), the 1-minute load average before and after it
pairs=$1; out=$2; shift 2
ARGS=("$@")
run() { # label dir
  local l0=$(awk '{print $1}' /proc/loadavg)
  local r=$(cd $2 && node scripts/measure-views.mjs "${ARGS[@]}" --json 2>&1 | tail -1)
  local l1=$(awk '{print $1}' /proc/loadavg)
  echo "{\"bundle\":\"$1\",\"load\":[$l0,$l1],\"args\":\"${ARGS[*]}\",\"at\":\"$(date -u +%H:%M:%S)\",\"fig\":$r}" >> $out
}
for i in $(seq 1 $pairs); do
  if [ $((i % 2)) -eq 1 ]; then run base $BASE; run new $NEW; else run new $NEW; run base $BASE; fi
done
