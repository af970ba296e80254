#!/bin/bash
# usage: run.sh NAME "EXTRA JVM OPTS" [sample]   -- maven compile of the agent sources, as bench/workloads/maven.mjs
NAME=$1; OPTS=$2; SAMPLE=${3:-nmt}
D=/tmp/rss38-m/$NAME; rm -rf $D; mkdir -p $D/project
cp /work/wt-rss38/agent/pom.xml $D/project/; cp -r /work/wt-rss38/agent/src/main $D/project/src-main; mkdir -p $D/project/src; mv $D/project/src-main $D/project/src/main
cd $D/project
M=/usr/share/maven
/usr/bin/time -v -o $D/time.txt ${JAVA:-/usr/bin/java} $OPTS -Xlog:gc*:file=$D/gc.log -Xlog:gc+heap+coops=info:file=$D/coops.log -Dclassworlds.conf=$M/bin/m2.conf -Dmaven.home=$M -Dmaven.multiModuleProjectDirectory=$D/project -cp $M/boot/plexus-classworlds-2.x.jar org.codehaus.plexus.classworlds.launcher.Launcher -o -q -B compile > $D/out.txt 2>&1 &
TP=$!
sleep 0.5
PID=$(pgrep -P $TP java || pgrep -P $TP)
echo "pid $PID" > $D/samples.txt
max=0; i=0
while kill -0 $PID 2>/dev/null; do
  rss=$(awk '/VmRSS/{print $2}' /proc/$PID/status 2>/dev/null)
  echo "$(date +%s.%N) rss_kb=$rss" >> $D/samples.txt
  if [ "$SAMPLE" = nmt ] && [ -n "$rss" ] && [ "$rss" -gt "$max" ]; then
    max=$rss
    jcmd $PID VM.native_memory summary > $D/nmt-$i.txt 2>/dev/null && echo "nmt-$i rss_kb=$rss" >> $D/samples.txt
    i=$((i+1))
  fi
  if [ "$SAMPLE" = histo ] && [ -n "$rss" ] && [ "$rss" -gt "$((max+51200))" ]; then
    max=$rss
    jcmd $PID GC.class_histogram -all > $D/histo-$i.txt 2>/dev/null && echo "histo-$i rss_kb=$rss" >> $D/samples.txt
    i=$((i+1))
  fi
  if [ "$SAMPLE" = live ] && [ -n "$rss" ] && [ "$rss" -gt 520000 ] && [ ! -f $D/live.txt ]; then jcmd $PID GC.class_histogram > $D/live.txt; echo "live rss_kb=$rss" >> $D/samples.txt; fi
  if [ -n "$rss" ] && [ "$rss" -gt "${hmax:-0}" ]; then hmax=$rss; h=$(python3 /tmp/rss38-m/heaprss.py $D/coops.log $PID); echo "heap rss_kb=$h total rss_kb=$rss" >> $D/heap.txt; fi
  sleep 1
done
wait $TP
grep -E 'Maximum resident|User time|System time|Elapsed' $D/time.txt
echo "load: $(uptime)"
