#!/bin/sh
# compare-profiles inputs (Round 12): each fixture under the base and the new agent, with budgets small enough to fold
set -e
cd /tmp/rss38-fx
for jar in base:/tmp/base38/heaplens-agent.jar new:/tmp/rss38-new/heaplens-agent.jar; do
  n=${jar%%:*}; j=${jar#*:}
  java -javaagent:$j=out=/tmp/rss38-fx/budget-$n.heaplens,maxNodes=1000 -cp budget budget.Main > /dev/null
  java -javaagent:$j=out=/tmp/rss38-fx/recursion-$n.heaplens,maxDepth=100 -cp recursion recursion.Main > /dev/null
  java -javaagent:$j=out=/tmp/rss38-fx/catchblock-$n.heaplens -cp catchblock catchblock.Main > /dev/null
  java -javaagent:$j=out=/tmp/rss38-fx/figure1-$n.heaplens -cp figure1 figure1.Main > /dev/null
  java -javaagent:$j=out=/tmp/rss38-fx/lambdas-$n.heaplens -cp lambdas lambdas.Main > /dev/null
  java -XX:CompileCommand=quiet -XX:CompileCommand=BackgroundCompilation,hot.Main::*,false -javaagent:$j=out=/tmp/rss38-fx/hot-$n.heaplens -cp hot hot.Main > /dev/null
done
for f in budget recursion catchblock figure1 lambdas hot; do
  echo "$f: $(node /work/wt-rss38/bench/compare-profiles.mjs /tmp/rss38-fx/$f-base.heaplens /tmp/rss38-fx/$f-new.heaplens | tail -1)"
done
