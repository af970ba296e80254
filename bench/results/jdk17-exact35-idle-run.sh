#!/bin/sh
# usage: run.sh NAME JAR ; the collector's CPU while the program idles 20 s after javac built its tree
n=$1; j=$2
rm -f /tmp/exact35-idle/$n.heaplens
java -javaagent:$j=out=/tmp/exact35-idle/$n.heaplens -cp /tmp/exact35-idle Idle /tmp/exact35-idle/out /work/wt-exact35/agent/src/main/java/io/heaplens/agent/collect/TreeWalker.java 20000 /tmp/exact35-idle/$n.heaplens 2>&1 | grep -v warning | tail -1
python3 -c "
import json,gzip,sys
b=open('/tmp/exact35-idle/$n.heaplens','rb').read()
b=gzip.decompress(b) if b[:2]==b'\x1f\x8b' else b
d=json.loads(b); print('  $n sequence', d['meta']['sequence'], 'nodes', d['agent']['nodes'], 'lastWriteMs', d['agent']['writeMillis'], 'bytes', d['agent']['bytesWritten'], 'load', open('/proc/loadavg').read().split()[0])"
