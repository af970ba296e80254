// Reads a .heaplens profile (docs/format.md) and sums what the benchmark reports.
import { readFileSync, statSync, existsSync } from 'node:fs';

export function fileSize(f) {
  return existsSync(f) ? statSync(f).size : null;
}

// Sums allocation records [site, type, count, elements, bytes] over a node's subtree.
function sumTree(node, acc) {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop();
    acc.nodes++;
    for (const a of n.a || []) { acc.objects += a[2]; acc.bytes += a[4]; }
    for (const c of n.c || []) stack.push(c);
  }
  return acc;
}

// threadFilter(thread) → false leaves a thread out (AllocMeter's own threads).
export function readProfile(file, { threadFilter = () => true, skipMainRootRecords = false } = {}) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  if (p.format !== 'heaplens-profile') throw new Error(`${file}: format is ${JSON.stringify(p.format)}, not heaplens-profile`);
  const acc = { nodes: 0, objects: 0, bytes: 0 };
  let threads = 0;
  let rootBytes = 0;
  for (const t of p.threads || []) {
    if (!threadFilter(t)) continue;
    threads++;
    if (skipMainRootRecords && t.name === 'main') {
      // Allocations of the main thread outside any profiled frame happen before the wrapped program starts.
      for (const a of t.root.a || []) rootBytes += a[4];
    }
    sumTree(t.root, acc);
  }
  const tr = p.transform || {};
  return {
    final: p.meta?.final ?? null,
    sequence: p.meta?.sequence ?? null,
    mode: p.meta?.mode ?? null,
    agentVersion: p.meta?.agentVersion ?? null,
    threads,
    nodes: acc.nodes,
    objects: acc.objects,
    bytes: acc.bytes - rootBytes,
    mainRootBytes: rootBytes,
    transform: {
      classesTransformed: tr.classesTransformed ?? null,
      classesFailed: tr.classesFailed ?? null,
      classesSkipped: tr.classesSkipped ?? null,
      retransformed: tr.retransformed ?? null,
      failures: (tr.failures || []).slice(0, 5),
      warnings: (tr.warnings || []).slice(0, 5),
    },
    agent: p.agent || null,
  };
}
