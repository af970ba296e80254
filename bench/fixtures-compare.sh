#!/bin/sh
# Exact counts, base agent against new agent: six test fixtures run under each jar (budgets small enough that calls
# fold: maxNodes=1000, maxDepth=100), then bench/compare-profiles.mjs prints how many application values differ
# (0 is the rule for an agent change; docs/benchmark.md's exact-mode rounds). Earlier rounds kept a copy of this per
# round in bench/results/.
#   sh bench/fixtures-compare.sh BASE_JAR NEW_JAR [DIR]     (java on the PATH; DIR default /tmp/heaplens-fixtures)
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BASE=${1:?base agent jar}; NEW=${2:?new agent jar}; DIR=${3:-/tmp/heaplens-fixtures}
mkdir -p $DIR
for f in budget recursion catchblock figure1 lambdas hot; do
  mkdir -p $DIR/$f && javac -d $DIR/$f $(find $ROOT/test/fixtures/java/$f -name '*.java')
done
for jar in base:$BASE new:$NEW; do
  n=${jar%%:*}; j=${jar#*:}
  java -javaagent:$j=out=$DIR/budget-$n.heaplens,maxNodes=1000 -cp $DIR/budget budget.Main > /dev/null
  java -javaagent:$j=out=$DIR/recursion-$n.heaplens,maxDepth=100 -cp $DIR/recursion recursion.Main > /dev/null
  java -javaagent:$j=out=$DIR/catchblock-$n.heaplens -cp $DIR/catchblock catchblock.Main > /dev/null
  java -javaagent:$j=out=$DIR/figure1-$n.heaplens -cp $DIR/figure1 figure1.Main > /dev/null
  java -javaagent:$j=out=$DIR/lambdas-$n.heaplens -cp $DIR/lambdas lambdas.Main > /dev/null
  java -XX:CompileCommand=quiet -XX:CompileCommand=BackgroundCompilation,hot.Main::*,false -javaagent:$j=out=$DIR/hot-$n.heaplens -cp $DIR/hot hot.Main > /dev/null
done
for f in budget recursion catchblock figure1 lambdas hot; do
  echo "$f: $(node $ROOT/bench/compare-profiles.mjs $DIR/$f-base.heaplens $DIR/$f-new.heaplens | tail -1)"
done
