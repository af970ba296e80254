// A measurement, not a check (timings are never asserted): how responsive the real extension host stays while
// the Heap view reads a big dump in its worker. Runs only when asked:
//   java -Xmx3g bench/heap/BigHeap.java /tmp/big.hprof 1
//   HEAPLENS_VSCODE_ONLY=suite HEAPLENS_HEAP_LAG_DUMP=/tmp/big.hprof npm run test:vscode
// The figures go to the report (the terminal) as "heap-lag: …".
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { RetentionResult } from '../../../extension/panels/heap-panel';
import { measureLoopLag } from './event-loop-lag';

const dump = process.env.HEAPLENS_HEAP_LAG_DUMP;

if (dump) {
  suite('measurement: the extension host while a big dump is analysed', () => {
    test(`showRetention on ${dump}`, async function () {
      this.timeout(600000);
      const m = await measureLoopLag(() =>
        vscode.commands.executeCommand<RetentionResult>('heaplens.showRetention', { className: 'BigHeap$Item', file: dump }));
      const r = m.result;
      assert.ok(r && r.instances > 0 && r.paths.length > 0, 'the dump was analysed: BigHeap$Item objects and their paths');
      const line = `heap-lag: ${(m.ms / 1000).toFixed(1)} s for ${r.instances} BigHeap$Item objects; extension host event-loop delay ` +
        `p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, max ${m.max.toFixed(1)} ms ` +
        `(10 ms resolution); 10 ms timer: ${m.ticks} ticks, latest ${m.latest.toFixed(1)} ms late`;
      if (process.env.HEAPLENS_VSCODE_REPORT) fs.appendFileSync(process.env.HEAPLENS_VSCODE_REPORT, `${line}\n`);
      console.log(line);
    });
  });
}
