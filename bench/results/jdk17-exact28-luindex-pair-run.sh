#!/bin/bash
# luindex, exact: new then base (reverse order of the bench round), /usr/bin/time
CP=/usr/share/java/lucene-core-8.7.0.jar:/usr/share/java/lucene-demo-8.7.0.jar:/usr/share/java/lucene-analyzers-common-8.7.0.jar:/usr/share/java/lucene-queryparser-8.7.0.jar
for cfg in new base; do
  d=/tmp/exact28-lu/$cfg; rm -rf $d; mkdir -p $d; cd $d
  jar=$([ $cfg = base ] && echo /tmp/base32/heaplens-agent.jar || echo /tmp/exact28-new/heaplens-agent.jar)
  L0=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S %M" -o time.txt /usr/lib/jvm/java-17-openjdk-amd64/bin/java -javaagent:$jar=out=$d/profile.heaplens -cp $CP org.apache.lucene.demo.IndexFiles -index $d/index -docs /work/wt-exact28/bench/work/luindex/docs > out.txt 2> err.txt
  L1=$(cut -d' ' -f1 /proc/loadavg)
  read W U S M < time.txt
  echo "luindex $cfg: wall $W s cpu $(echo "$U + $S" | bc) s rss $((M/1024)) MB adding-lines $(grep -c '^adding' out.txt) load $L0→$L1"
done
