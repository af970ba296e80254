#!/bin/bash
# checkstyle on 40 java.util sources: plain, base, new, alternating; one line per run (load next to it)
CP=$(cat /tmp/exact28-cs-cp.txt); FILES=$(cd /work/wt-exact28 && sed "s|^|/work/wt-exact28/|" /tmp/exact28-cs-files.txt)
for round in 1; do
for cfg in plain base new; do
  d=/tmp/exact28-cs/$cfg-r$round; rm -rf $d; mkdir -p $d; cd $d
  case $cfg in plain) A="";; base) A="-javaagent:/tmp/base32/heaplens-agent.jar=out=$d/profile.heaplens";; new) A="-javaagent:/tmp/exact28-new/heaplens-agent.jar=out=$d/profile.heaplens";; esac
  L0=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S %M" -o time.txt /usr/lib/jvm/java-17-openjdk-amd64/bin/java $A -cp $CP com.puppycrawl.tools.checkstyle.Main -c /google_checks.xml -o $d/report.txt $FILES > out.txt 2> err.txt
  L1=$(cut -d' ' -f1 /proc/loadavg)
  DIG=$(grep -E '^\[(WARN|ERROR)\]' report.txt | sed -E 's/( has parse error\. .*) \[\w+\]$/\1/' | sha256sum | cut -c1-12)
  N=$(grep -cE '^\[(WARN|ERROR)\]' report.txt)
  read W U S M < time.txt
  echo "$cfg r$round: wall $W s cpu $(echo "$U + $S" | bc) s rss $((M/1024)) MB violations $N digest $DIG load $L0→$L1"
done; done
