// Start-up cost: a hello-world class, plain and under each configuration, interleaved; medians of wall time.
import { join } from 'node:path';
import { compileHarness } from '../prepare/harness.mjs';
import { measure } from './measure.mjs';
import { runDirFor, tail } from './runone.mjs';
import { median } from './stats.mjs';

export function measureStartup(ctx, configs, reps = 5) {
  const classes = compileHarness(ctx, 'Hello');
  const wl = { name: 'startup' };
  const runs = Object.fromEntries(configs.map((c) => [c.name, []]));
  const errors = {};
  for (let i = 0; i < reps; i++) {
    for (const cfg of configs) {
      const dir = runDirFor(ctx, wl, cfg.name, `i${i}`);
      const argv = [ctx.java, ...cfg.jvmArgs({ ...ctx, profile: join(dir, 'profile') }), '-cp', classes, 'Hello'];
      const m = measure(argv, { dir, timeoutMs: 120_000 });
      if (m.exit !== 0) errors[cfg.name] = `exit ${m.exit}: ${tail(join(dir, 'stderr.txt'), 600)}`;
      runs[cfg.name].push(m);
    }
  }
  const out = {};
  for (const cfg of configs) {
    const r = runs[cfg.name];
    out[cfg.name] = {
      wall: median(r.map((x) => x.wall)),
      cpu: median(r.map((x) => x.cpu)),
      rssMB: median(r.map((x) => x.rssMB)),
      walls: r.map((x) => x.wall),
      error: errors[cfg.name] || null,
    };
  }
  const base = out.plain?.wall;
  for (const k of Object.keys(out)) out[k].added = base != null && out[k].wall != null ? out[k].wall - base : null;
  return { reps, configs: out };
}
