#!/bin/sh
# Round 14 (handler38), copied from jdk17-exact35-checkstyle-run.sh; COUNT=N takes the first N sources (default 120); WITH_JFR=1 adds a default JFR recording (deoptimisations).
# Checkstyle (outside the bench), plain / base agent / new agent in turn, each under /usr/bin/time, with the load
# before and after each run: the bench's checkstyle workload (the first 120 java.util sources, google_checks.xml)
# without its untimed warm-up run, which did not fit the session's deadline at load ~30.
# Lines go to bench/results/jdk17-exact35-checkstyle.txt.
# CONFIGS="base:… new:…" PARALLEL=1 runs the given configurations at the same time instead of in turn (at load ~30
# a run in turn took ~30 min of wall; side by side both see the same load).
OUT=${OUT:-/work/wt-handler38/bench/results/jdk17-handler38-checkstyle.txt}
DIR=/tmp/handler38-cs
SRC=/work/wt-handler38/bench/work/luindex/docs/java.base/java/util
FILES=$(ls $SRC/*.java | LC_ALL=C sort | head -${COUNT:-120})
CP=$(echo checkstyle antlr antlr4-runtime commons-beanutils commons-collections3 commons-lang3 commons-logging guava picocli reflections Saxon-HE javassist | tr ' ' '\n' | sed 's|.*|/usr/share/java/&.jar|' | paste -sd:)
mkdir -p $DIR
one() {
  cfg=$1
  n=${cfg%%:*}; j=${cfg#*:}
  JFR=; [ -n "$WITH_JFR" ] && JFR="-XX:StartFlightRecording=filename=$DIR/$n.jfr"
  AGENT=; [ "$n" != plain ] && AGENT="-javaagent:$j=out=$DIR/$n.heaplens"
  L0=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -o $DIR/$n.time -f "%e %U %S %M" java $JFR $AGENT -cp $CP com.puppycrawl.tools.checkstyle.Main -c /google_checks.xml -o $DIR/$n-report.txt $FILES > /dev/null
  L1=$(cut -d' ' -f1 /proc/loadavg)
  D=$(grep -E '^\[(WARN|ERROR)\]' $DIR/$n-report.txt | sed -E '/ has parse error\. /s/ \[\w+\]$//' | sha256sum | cut -c1-12)
  V=$(grep -cE '^\[(WARN|ERROR)\]' $DIR/$n-report.txt)
  set -- $(cat $DIR/$n.time)
  echo "$n wall $1 s cpu $(echo "$2 + $3" | bc) s rss $(($4 / 1024)) MB load $L0 -> $L1 violations $V digest $D" | tee -a $OUT
}
for cfg in ${CONFIGS:-plain base:/tmp/base38/heaplens-agent.jar new:/tmp/handler38-new/heaplens-agent.jar}; do
  if [ -n "$PARALLEL" ]; then one $cfg & else one $cfg; fi
done
wait
