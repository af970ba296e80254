// Fixture `stacktrace`: a recursion until StackOverflowError. Under the agent the error's trace must look as
// without it (issue 20, item 2): the probes' frames are hidden (@Hidden) and the entry probe carries the method's
// first line, so no deep() frame loses its line.
import { it } from 'node:test';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';

const fx = new Fixture({ name: 'stacktrace' });

describeRuns(fx, 'stacktrace', (run) => {
  it('the StackOverflowError trace has deep frames only, each with its line, and no agent frame', () => {
    assertCleanRun(run(), 'stacktrace', 'trace frames 1024, deep frames over 100');
    assertCleanRun(run(), 'stacktrace', 'agent frames 0');
    assertCleanRun(run(), 'stacktrace', 'deep frames without a line 0');
    assertCleanRun(run(), 'stacktrace', 'deep frames on other lines 0');
  });
});
