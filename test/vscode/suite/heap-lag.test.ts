// A measurement, not a check (timings are never asserted): how responsive the real extension host stays while
// the Heap view reads a big dump in its worker. Runs only when asked:
//   java -Xmx3g bench/heap/BigHeap.java /tmp/big.hprof 1
//   HEAPLENS_VSCODE_ONLY=suite HEAPLENS_HEAP_LAG_DUMP=/tmp/big.hprof npm run test:vscode
// The figures go to the report (the terminal) as "heap-lag: …".
import * as assert from 'assert';
import * as fs from 'fs';
import { monitorEventLoopDelay, performance } from 'perf_hooks';
import * as vscode from 'vscode';
import type { RetentionResult } from '../../../extension/panels/heap-panel';

const dump = process.env.HEAPLENS_HEAP_LAG_DUMP;

if (dump) {
  suite('measurement: the extension host while a big dump is analysed', () => {
    test(`showRetention on ${dump}`, async function () {
      this.timeout(600000);
      const lag = monitorEventLoopDelay({ resolution: 10 });
      let ticks = 0;
      let latest = 0;
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        latest = Math.max(latest, now - last - 10);
        last = now;
        ticks++;
      }, 10);
      lag.enable();
      const t = performance.now();
      const r = await vscode.commands.executeCommand<RetentionResult>('heaplens.showRetention', { className: 'BigHeap$Item', file: dump });
      const ms = performance.now() - t;
      await new Promise((res) => setTimeout(res, 30));
      lag.disable();
      clearInterval(timer);
      assert.ok(r && r.instances > 0 && r.paths.length > 0, 'the dump was analysed: BigHeap$Item objects and their paths');
      const line = `heap-lag: ${(ms / 1000).toFixed(1)} s for ${r.instances} BigHeap$Item objects; extension host event-loop delay ` +
        `p50 ${(lag.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms ` +
        `(10 ms resolution); 10 ms timer: ${ticks} ticks, latest ${latest.toFixed(1)} ms late`;
      if (process.env.HEAPLENS_VSCODE_REPORT) fs.appendFileSync(process.env.HEAPLENS_VSCODE_REPORT, `${line}\n`);
      console.log(line);
    });
  });
}
