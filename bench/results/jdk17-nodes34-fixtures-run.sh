#!/bin/sh
# compare-profiles inputs: each fixture under the base and the new agent, with budgets small enough to fold
set -e
for jar in base:/tmp/base34/heaplens-agent.jar new:/tmp/nodes34-new/heaplens-agent.jar; do
  n=${jar%%:*}; j=${jar#*:}
  java -javaagent:$j=out=/tmp/nodes34-fx/budget-$n.heaplens,maxNodes=1000 -cp budget budget.Main > /dev/null
  java -javaagent:$j=out=/tmp/nodes34-fx/recursion-$n.heaplens,maxDepth=100 -cp recursion recursion.Main > /dev/null
  java -javaagent:$j=out=/tmp/nodes34-fx/catchblock-$n.heaplens -cp catchblock catchblock.Main > /dev/null
  java -XX:CompileCommand=quiet -XX:CompileCommand=BackgroundCompilation,hot.Main::*,false -javaagent:$j=out=/tmp/nodes34-fx/hot-$n.heaplens -cp hot hot.Main > /dev/null
done
