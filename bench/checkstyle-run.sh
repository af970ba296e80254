#!/bin/sh
# Checkstyle (outside the bench's five programs): the bench's checkstyle workload (the first COUNT java.util sources,
# default 120, google_checks.xml) without its untimed warm-up, plain and under one or more agent jars, each under
# /usr/bin/time with the load before and after. One line per run is appended to OUT; the report's digest shows that
# every configuration found the same violations. The exact-mode rounds of docs/benchmark.md ran it (earlier rounds
# kept a copy per round in bench/results/).
#   CONFIGS="plain base:/tmp/base/heaplens-agent.jar new:/tmp/new/heaplens-agent.jar"   (name:jar; "plain" = no agent)
#   OUT=bench/results/jdk17-TAG-checkstyle.txt  DIR=/tmp/TAG-cs  COUNT=120
#   PARALLEL=1 runs the configurations side by side (both see the same load); WITH_JFR=1 adds a default JFR recording.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:?OUT=file for the result lines}
DIR=${DIR:-/tmp/heaplens-checkstyle}
SRC=$ROOT/bench/work/luindex/docs/java.base/java/util
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
for cfg in ${CONFIGS:?CONFIGS=\"plain base:JAR new:JAR\"}; do
  if [ -n "$PARALLEL" ]; then one $cfg & else one $cfg; fi
done
wait
