#!/bin/sh
# Round 14 (handler38), copied from jdk17-exact35-fixtures-run.sh: each fixture under the base and the new agent
# (budgets small enough to fold), then bench/compare-profiles.mjs base against new. Classes from build/fixtures (e2e).
set -e
FX=/work/wt-handler38/build/fixtures
D=/tmp/handler38-fxcmp
mkdir -p $D
for jar in base:/tmp/base38/heaplens-agent.jar new:/tmp/handler38-new/heaplens-agent.jar; do
  n=${jar%%:*}; j=${jar#*:}
  java -javaagent:$j=out=$D/budget-$n.heaplens,maxNodes=1000 -cp $FX/budget budget.Main > /dev/null
  java -javaagent:$j=out=$D/recursion-$n.heaplens,maxDepth=100 -cp $FX/recursion recursion.Main > /dev/null
  java -javaagent:$j=out=$D/catchblock-$n.heaplens -cp $FX/catchblock catchblock.Main > /dev/null
  java -javaagent:$j=out=$D/figure1-$n.heaplens -cp $FX/figure1 figure1.Main > /dev/null
  java -javaagent:$j=out=$D/lambdas-$n.heaplens -cp $FX/lambdas lambdas.Main > /dev/null
  java -XX:CompileCommand=quiet -XX:CompileCommand=BackgroundCompilation,hot.Main::*,false -javaagent:$j=out=$D/hot-$n.heaplens -cp $FX/hot hot.Main > /dev/null
  java -javaagent:$j=out=$D/catchpaths-$n.heaplens -cp $FX/catchpaths catchpaths.Main > /dev/null
  java -Dcatchpaths.mode=budget -javaagent:$j=out=$D/catchpaths-budget-$n.heaplens,maxNodes=1000 -cp $FX/catchpaths catchpaths.Main > /dev/null
  java -Dcatchpaths.mode=depth -javaagent:$j=out=$D/catchpaths-depth-$n.heaplens,maxDepth=20 -cp $FX/catchpaths catchpaths.Main > /dev/null
done
for f in budget recursion catchblock figure1 lambdas hot catchpaths catchpaths-budget catchpaths-depth; do
  echo "$f: $(node /work/wt-handler38/bench/compare-profiles.mjs $D/$f-base.heaplens $D/$f-new.heaplens | tail -1)"
done
