// node scripts/panel-replay/live-cost.cjs [REPS] (after measure-views.mjs --nodes 100000 wrote its profile): a live update, text against built.
// A live update's cost, text against built, host and page side (the page's steps run here in Node's V8), CPU ms.
const path = require('path');
const O = path.join(__dirname, '..', '..', 'out');
const { parseProfile } = require(O + '/core/profile/parse');
const { trustedProfile } = require(O + '/core/profile/trusted');
const { profileMessage } = require(O + '/extension/panels/profile-message');
const { mergeShared } = require(O + '/core/views/merge-shared');
const { frameTree } = require(O + '/core/views/frames');
const { decodeFrameColumns, decodeFrameRecords } = require(O + '/core/views/frame-columns');
const fs = require('fs');
const reps = Number(process.argv[2] ?? 15);
const big = JSON.parse(fs.readFileSync(path.join(O, '..', 'build', 'views-bench', 'generated-100000.heaplens'), 'utf8'));
/** the generated profile cut to its first n nodes in pre-order */
function cut(file, n) {
  let left = n;
  const copy = (node) => {
    const out = { ...node };
    delete out.c;
    left--;
    if (node.c) { const c = []; for (const k of node.c) { if (left <= 0) break; c.push(copy(k)); } if (c.length) out.c = c; }
    return out;
  };
  const f = JSON.parse(JSON.stringify({ ...big, threads: [] }));
  f.threads = big.threads.map((t) => ({ ...t, root: copy(t.root) }));
  return f;
}
const sizes = { sample: JSON.parse(fs.readFileSync(path.join(O, '..', 'test', 'unit', 'data', 'sample.heaplens'), 'utf8')), n2000: cut(big, 2000), n20000: cut(big, 20000) };
const cpu = (f) => { const a = process.cpuUsage(); const r = f(); const b = process.cpuUsage(a); return [(b.user + b.system) / 1000, r]; };
const med = (a) => { const s = [...a].sort((x, y) => x - y); return Math.round(s[s.length >> 1] * 100) / 100; };
for (const [name, file] of Object.entries(sizes)) {
  const p = parseProfile(JSON.stringify(file));
  const r = { hostText: [], hostBuilt: [], pageText: [], pageBuilt: [] };
  for (let i = 0; i < reps; i++) {
    for (const built of i % 2 ? [true, false] : [false, true]) {
      const [h, m] = cpu(() => profileMessage(p, { title: 't', live: true, build: built }));
      const msg = structuredClone(m);
      const [pg] = cpu(() => {
        if (!built) {
          const prof = trustedProfile(JSON.parse(msg.json));
          return frameTree(mergeShared(prof.threads.map((t) => t.root)), prof.methods, prof.types);
        }
        const prof = trustedProfile(JSON.parse(msg.json).profile);
        const t = decodeFrameColumns(msg.built.columns);
        return [prof, t, decodeFrameRecords(msg.built.records)];
      });
      r[built ? 'hostBuilt' : 'hostText'].push(h);
      r[built ? 'pageBuilt' : 'pageText'].push(pg);
    }
  }
  console.log(JSON.stringify({ profile: name, nodes: p.file.agent?.nodes, reps, medians: Object.fromEntries(Object.entries(r).map(([k, v]) => [k, med(v)])), load: fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0] }));
}
