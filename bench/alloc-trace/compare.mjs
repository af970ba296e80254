// Per (type, allocating method): the allocations allocs.c saw in a plain run against a profile's records (thread main),
// largest differences first. A call-site allocation (clone, Array.newInstance, boxing, Arrays.copyOf with a class,
// a lambda proxy) shows twice: missing in the callee, extra at its caller.
//   node bench/alloc-trace/compare.mjs ALLOCS.txt PROFILE.heaplens [ROWS]
import { readFileSync } from 'node:fs';
const prim = { B: 'byte', C: 'char', I: 'int', J: 'long', S: 'short', Z: 'boolean', F: 'float', D: 'double' };
function norm(s) { let d = 0; while (s[d] === '[') d++; let b = s.slice(d); b = b[0] === 'L' ? b.slice(1, -1).replace(/\//g, '.') : prim[b]; return b + '[]'.repeat(d); }
const strip = (t) => t.replace(/\$\$Lambda.*$/, '$$$$Lambda');
const truth = new Map();
const add = (m, k, b, i) => { const v = m.get(k) ?? [0, 0, 0, 0]; v[i] += b; v[i + 1]++; m.set(k, v); };
for (const l of readFileSync(process.argv[2], 'utf8').split('\n')) {
  if (!l) continue; const [sig, size, st] = l.split('\t');
  const frames = [...(st || '').matchAll(/L([^;]+);\.([^@]+?)(\[n\])?@(-?\d+);/g)];
  const f = frames.find((x) => !x[3] && x[1] !== 'java/lang/reflect/Array' && x[1] !== 'jdk/internal/misc/Unsafe') ?? frames[0];
  const meth = f ? f[1].replace(/\//g, '.') + '.' + f[2] : '?';
  add(truth, strip(norm(sig)) + ' @ ' + meth, Number(size), 0);
}
const p = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const types = {}; for (const t of p.types) types[t.id] = t;
const methods = {}; for (const m of p.methods) methods[m.id] = m;
const sites = {}; for (const s of p.sites) sites[s.id] = s;
function walk(n) {
  for (const r of n.a || []) { const t = types[r[1]]; const s = sites[r[0]]; const m = s ? methods[s.method] : null;
    const k = strip(t?.name ?? '?') + ' @ ' + (m ? m.class + '.' + m.name : '?');
    const v = truth.get(k) ?? [0, 0, 0, 0]; v[2] += r[4]; v[3] += r[2]; truth.set(k, v); }
  for (const c of n.c || []) walk(c);
}
for (const t of p.threads) if (t.name === 'main' && t.root) walk(t.root);
const rows = [...truth].map(([k, v]) => [k, ...v, v[2] - v[0]]).sort((a, b) => Math.abs(b[5]) - Math.abs(a[5]));
let neg = 0, pos = 0; for (const r of rows) { if (r[5] < 0) neg += r[5]; else pos += r[5]; }
console.log(`missing ${neg} extra ${pos}`);
for (const r of rows.slice(0, Number(process.argv[4] ?? 60))) console.log(`${r[5]}\ttruth ${r[1]}/${r[2]}\tprof ${r[3]}/${r[4]}\t${r[0]}`);
