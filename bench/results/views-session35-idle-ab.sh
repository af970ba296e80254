#!/bin/bash
# usage: ab.sh PAIRS OUT ARGS...  (interleaved: base first on odd pairs, new first on even)
pairs=$1; out=$2; shift 2
ARGS=("$@")
run() { # label dir
  local l=$(cut -d' ' -f1- /proc/loadavg | awk '{print $1}')
  local r=$(cd $2 && node scripts/measure-views.mjs "${ARGS[@]}" --json 2>&1 | tail -1)
  echo "{\"bundle\":\"$1\",\"load\":$l,\"args\":\"${ARGS[*]}\",\"at\":\"$(date +%H:%M:%S)\",\"fig\":$r}" >> $out
}
for i in $(seq 1 $pairs); do
  if [ $((i % 2)) -eq 1 ]; then run base ${BASE:-/tmp/paint35-base}; run new /work/main; else run new /work/main; run base ${BASE:-/tmp/paint35-base}; fi
done
