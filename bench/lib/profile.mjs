// Reads what the benchmark reports from a .heaplens profile (docs/format.md), streaming (see profile-scan.mjs).
import { existsSync, statSync } from 'node:fs';
import { scanProfile } from './profile-scan.mjs';

export function fileSize(f) {
  return existsSync(f) ? statSync(f).size : null;
}

// threadFilter(thread) → false leaves a thread out (AllocMeter's own threads). skipMainRootRecords leaves out the
// main thread's allocations outside any profiled frame (before the wrapped program starts).
export function readProfile(file, { threadFilter = () => true, skipMainRootRecords = false } = {}) {
  const { top, threads } = scanProfile(file);
  if (top.format !== 'heaplens-profile') throw new Error(`${file}: format is ${JSON.stringify(top.format)}, not heaplens-profile`);
  let nodes = 0, objects = 0, bytes = 0, mainRootBytes = 0, n = 0;
  const perThread = [];
  for (const t of threads) {
    if (!threadFilter(t)) continue;
    n++;
    nodes += t.nodes;
    objects += t.objects;
    bytes += t.bytes;
    const skip = skipMainRootRecords && t.name === 'main' ? t.rootBytes : 0;
    mainRootBytes += skip;
    perThread.push({ name: t.name, bytes: t.bytes - skip, objects: t.objects, nodes: t.nodes });
  }
  const tr = top.transform || {};
  return {
    final: top.meta?.final ?? null,
    sequence: top.meta?.sequence ?? null,
    mode: top.meta?.mode ?? null,
    agentVersion: top.meta?.agentVersion ?? null,
    threads: n,
    nodes,
    objects,
    bytes: bytes - mainRootBytes,
    mainRootBytes,
    perThread,
    transform: {
      classesTransformed: tr.classesTransformed ?? null,
      classesFailed: tr.classesFailed ?? null,
      classesSkipped: tr.classesSkipped ?? null,
      retransformed: tr.retransformed ?? null,
      failures: (tr.failures || []).slice(0, 5),
      warnings: (tr.warnings || []).slice(0, 5),
    },
    agent: top.agent || null,
  };
}
