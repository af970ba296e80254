#!/bin/bash
export XDG_CACHE_HOME=/tmp/rss38-xdg
S=/usr/share/java
CP=$S/checkstyle.jar:$S/antlr.jar:$S/antlr4-runtime.jar:$S/commons-beanutils.jar:$S/commons-collections3.jar:$S/commons-lang3.jar:$S/commons-logging.jar:$S/guava.jar:$S/picocli.jar:$S/reflections.jar:$S/Saxon-HE.jar:$S/javassist.jar
FILES=$(ls /work/wt-rss38/bench/work/luindex/docs/java.base/java/util/*.java | head -10)
cd /tmp/rss38-cs
run() { # name opts
  /usr/bin/time -v -o $1.time java $2 -cp $CP com.puppycrawl.tools.checkstyle.Main -c /google_checks.xml -o $1.report $FILES > $1.out 2>&1
  echo "$1 rc=$? $(grep -E 'Maximum resident' $1.time | awk '{print $NF}') KB, cpu $(awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{print u+s}' $1.time) s, $(grep -c -E '^\[(WARN|ERROR)\]' $1.report) violations, load $(cut -d' ' -f1-3 /proc/loadavg), $(date +%H:%M:%S)"
}
#run warm-new "-javaagent:/tmp/rss38-new/heaplens-agent.jar=out=/tmp/rss38-cs/warm-new.heaplens"
for r in 1; do
  run plain-$r ""
  run base-$r "-javaagent:/tmp/base38/heaplens-agent.jar=out=/tmp/rss38-cs/base-$r.heaplens"
  run new-$r "-javaagent:/tmp/rss38-new/heaplens-agent.jar=out=/tmp/rss38-cs/new-$r.heaplens"
done
# # round 2, the order reversed (same FILES, CP and run() as above):
# for r in 2; do
#   run new-$r "-javaagent:/tmp/rss38-new/heaplens-agent.jar=out=/tmp/rss38-cs/new-$r.heaplens"
#   run base-$r "-javaagent:/tmp/base38/heaplens-agent.jar=out=/tmp/rss38-cs/base-$r.heaplens"
#   run plain-$r ""
# done
