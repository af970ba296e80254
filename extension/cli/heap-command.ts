// `heaplens heap FILE --histogram | --dominators | --paths CLASS [--max N]`: reads an HPROF heap dump.
import * as fs from 'fs';
import * as path from 'path';
import { HeapAnalysis, formatPath } from '../heap/analysis';
import { optionValue, parseArgs, UsageError } from './args';
import { CliContext } from './context';

export const HEAP_USAGE = 'heaplens heap FILE.hprof (--histogram | --dominators [--max N] | --paths CLASS [--max N]) [--stats]';

const SPEC = {
  histogram: {},
  dominators: {},
  paths: { value: true },
  max: { value: true },
  stats: {},
};

export function heapCommand(argv: readonly string[], ctx: CliContext): number {
  const p = parseArgs(argv, SPEC);
  if (p.positional.length !== 1) throw new UsageError(`give one heap dump file\nusage: ${HEAP_USAGE}`);
  const chosen = ['histogram', 'dominators', 'paths'].filter((k) => p.options.has(k));
  if (chosen.length !== 1) throw new UsageError(`choose one of --histogram, --dominators, --paths CLASS\nusage: ${HEAP_USAGE}`);
  const maxText = optionValue(p, 'max');
  const max = maxText === undefined ? 10 : Number(maxText);
  if (!Number.isInteger(max) || max < 1) throw new UsageError(`--max must be a positive whole number (got "${maxText}")`);
  const file = path.resolve(ctx.cwd, p.positional[0]);
  if (!fs.existsSync(file)) throw new UsageError(`no such file: ${p.positional[0]}`);
  const started = Date.now();
  const heap = HeapAnalysis.open(file);
  try {
    if (p.options.has('histogram')) {
      const lines = ['class\tobjects\tshallow_bytes\tretained_bytes'];
      for (const r of heap.histogram()) lines.push(`${r.className}\t${r.objects}\t${r.shallowBytes}\t${r.retainedBytes}`);
      ctx.stdout(lines.join('\n') + '\n');
    } else if (p.options.has('dominators')) {
      const lines = ['object\tclass\tshallow_bytes\tretained_bytes'];
      for (const r of heap.dominated(heap.superRoot, max)) lines.push(`${r.id}\t${r.className}\t${r.shallowBytes}\t${r.retainedBytes}`);
      ctx.stdout(lines.join('\n') + '\n');
    } else {
      const result = heap.pathsTo(optionValue(p, 'paths')!, max);
      for (const path of result.paths) ctx.stdout(formatPath(path) + '\n');
      if (result.paths.length === 0) ctx.stderr(`heaplens: no ${result.className} object is reachable from a GC root (${result.instances} in the dump)\n`);
    }
    if (p.options.has('stats')) {
      const mem = process.memoryUsage();
      ctx.stderr(`heaplens: ${heap.objectCount} objects, ${heap.graph.edges.length} references; ` +
        `${Object.entries(heap.timings).map(([k, v]) => `${k} ${v}`).join(', ')}, total ${Date.now() - started} ms; ` +
        `rss ${Math.round(mem.rss / 1048576)} MiB, heap used ${Math.round(mem.heapUsed / 1048576)} MiB, array buffers ${Math.round(mem.arrayBuffers / 1048576)} MiB\n`);
    }
  } finally {
    heap.close();
  }
  return 0;
}
