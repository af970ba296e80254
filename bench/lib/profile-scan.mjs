// A streaming scan of a .heaplens profile (docs/format.md) that never holds the whole document: profiles of large
// programs exceed what JSON.parse (or even one JS string) can take. It sums the allocation records
// [site, type, count, elements, bytes] per thread, counts MCT nodes, and parses the small top-level values
// (format, version, meta, transform, agent) whole. Written for speed: no allocation per token.
// With { byType: true } it also sums the records per tree (a thread's `root`, `sites`, `sampled`) and type id, and
// parses the `types` table whole (see sampled-error.mjs).
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const Q = 0x22, BS = 0x5c, LB = 0x7b, RB = 0x7d, LS = 0x5b, RS = 0x5d, COLON = 0x3a, COMMA = 0x2c;
// key codes
const K_OTHER = 0, K_A = 1, K_C = 2, K_ROOT = 3, K_THREADS = 4, K_NAME = 5, K_META = 6, K_TRANSFORM = 7, K_AGENT = 8,
  K_FORMAT = 9, K_VERSION = 10, K_SAMPLED = 11, K_SITES = 12, K_TYPES = 13, K_INDEX = -1;
const NAMED = [['root', K_ROOT], ['threads', K_THREADS], ['name', K_NAME], ['meta', K_META], ['transform', K_TRANSFORM],
  ['agent', K_AGENT], ['format', K_FORMAT], ['version', K_VERSION],
  ['sampled', K_SAMPLED], ['sites', K_SITES], ['types', K_TYPES]].map(([s, k]) => [Buffer.from(s), k, s]);
const CAPTURED = new Map([[K_META, 'meta'], [K_TRANSFORM, 'transform'], [K_AGENT, 'agent']]);
const CAPTURED_WITH_TYPES = new Map([...CAPTURED, [K_TYPES, 'types']]);
// the trees whose records byType sums, by the thread's key that holds them
const TREES = new Map([[K_ROOT, 'root'], [K_SITES, 'sites'], [K_SAMPLED, 'sampled']]);

function keyCode(b, s, e) {
  const len = e - s;
  if (len === 1) return b[s] === 0x61 ? K_A : b[s] === 0x63 ? K_C : K_OTHER;
  outer: for (const [lit, k] of NAMED) {
    if (lit.length !== len) continue;
    for (let i = 0; i < len; i++) if (b[s + i] !== lit[i]) continue outer;
    return k;
  }
  return K_OTHER;
}

export function scanProfile(file, chunkSize = 1 << 24, { byType = false } = {}) {
  const captured = byType ? CAPTURED_WITH_TYPES : CAPTURED;
  // per tree name: Map type id → { count, elements, bytes, invSize, sizes }; invSize sums count² / bytes per record
  // (Σ 1/size when the record's objects have one size), sizes maps a record's mean size (bytes / count) → count
  const perType = byType ? Object.fromEntries([...TREES.values()].map((t) => [t, new Map()])) : null;
  let recType = 0, recCount = 0, recElements = 0;
  const addType = (tree, n) => {
    const name = TREES.get(tree);
    if (!name) return;
    const m = perType[name];
    let e = m.get(recType);
    if (!e) m.set(recType, (e = { count: 0, elements: 0, bytes: 0, invSize: 0, sizes: new Map() }));
    e.count += recCount;
    e.elements += recElements;
    e.bytes += n;
    if (n > 0) e.invSize += (recCount * recCount) / n;
    if (recCount > 0) { const sz = n / recCount; e.sizes.set(sz, (e.sizes.get(sz) ?? 0) + recCount); }
  };
  const fd = openSync(file, 'r');
  // A gzip-compressed profile (docs/format.md "Compression"; the agent compresses large final writes) is inflated
  // whole, then scanned in the same chunks: its text is a few tens of MB where the file is a few MB.
  const magic = Buffer.alloc(2);
  const inflated = readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b ? gunzipSync(readFileSync(file)) : null;
  let buf = inflated ? null : Buffer.allocUnsafe(chunkSize);
  const readChunk = (at) => {
    if (!inflated) return readSync(fd, buf, 0, chunkSize, at);
    buf = inflated.subarray(at, at + chunkSize);
    return buf.length;
  };
  let cap = 1 << 16;
  let sObj = new Uint8Array(cap), sSlot = new Int8Array(cap), sKey = new Int8Array(cap), sIdx = new Int32Array(cap);
  let d = 0; // stack depth; frame d-1 is the innermost container
  const top = {};
  const threads = [];
  let th = null; // the thread being read
  let expectKey = false;
  let inStr = false, esc = false, strParts = null, strStart = 0, strKey = false;
  let inTok = false, tokStart = 0, tokCarry = '';
  let capt = null, captStart = 0;

  const number = (raw) => {
    if (d === 1) { if (sKey[0] === K_VERSION) top.version = Number(raw); return; }
    if (th && d >= 3 && !sObj[d - 1] && sSlot[d - 2] === K_A && !sObj[d - 2]) {
      const i = sIdx[d - 1];
      if (i === 2) {
        const n = Number(raw);
        th.objects += n;
        recCount = n;
      } else if (i === 4) {
        const n = Number(raw);
        th.bytes += n;
        if (sSlot[d - 3] === K_ROOT) th.rootBytes += n;
        if (byType) addType(sSlot[3], n); // frame 3 is the tree's top node, its slot the thread's key for it
      } else if (byType) {
        if (i === 1) recType = Number(raw);
        else if (i === 3) recElements = Number(raw);
      }
    }
  };

  let pos = 0;
  try {
    for (;;) {
      const n = readChunk(pos);
      if (n <= 0) break;
      pos += n;
      captStart = 0;
      strStart = 0;
      let i = 0;
      if (inStr && esc) { i = 1; esc = false; } // an escaped byte carried over from the previous chunk
      for (; i < n; i++) {
        if (inStr) {
          // jump to the closing quote: one preceded by an even run of backslashes
          let j = i;
          for (;;) {
            j = buf.indexOf(Q, j);
            if (j < 0 || j >= n) break;
            let k = j - 1, bs = 0;
            while (k >= i && buf[k] === BS) { bs++; k--; }
            if ((bs & 1) === 0) break;
            j++;
          }
          if (j < 0 || j >= n) { // the string goes on in the next chunk
            let k = n - 1, bs = 0;
            while (k >= i && buf[k] === BS) { bs++; k--; }
            esc = (bs & 1) === 1;
            i = n;
            break;
          }
          inStr = false;
          if (strKey) {
            let code;
            if (strParts) { strParts.push(buf.subarray(strStart, j)); const b = Buffer.concat(strParts); code = keyCode(b, 0, b.length); } else code = keyCode(buf, strStart, j);
            sKey[d - 1] = code;
            expectKey = false;
          } else if (strParts) {
            strParts.push(buf.subarray(strStart, j));
            const v = JSON.parse(`"${Buffer.concat(strParts).toString('utf8')}"`);
            if (d === 1) top.format = v;
            else if (th) th.name = v;
          }
          strParts = null;
          i = j;
          continue;
        }
        const c = buf[i];
        if (inTok) {
          if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45 || (c >= 0x61 && c <= 0x7a)) continue;
          inTok = false;
          if (d === 1 || (th && d >= 3 && !sObj[d - 1])) number(tokCarry + buf.toString('latin1', tokStart, i));
        }
        switch (c) {
          case Q:
            inStr = true;
            strKey = expectKey;
            strStart = i + 1;
            // value strings kept: the document's format, a thread's name
            strParts = strKey ? null
              : (d === 1 && sKey[0] === K_FORMAT) || (th && d === 3 && sObj[2] && sKey[2] === K_NAME) ? [] : null;
            break;
          case LB: case LS: {
            if (d === cap) {
              cap *= 2;
              const grow = (a, T) => { const x = new T(cap); x.set(a); return x; };
              sObj = grow(sObj, Uint8Array); sSlot = grow(sSlot, Int8Array); sKey = grow(sKey, Int8Array); sIdx = grow(sIdx, Int32Array);
            }
            const slot = d === 0 ? K_OTHER : sObj[d - 1] ? sKey[d - 1] : K_INDEX;
            const parentIsThreads = d === 2 && !sObj[1] && sSlot[1] === K_THREADS;
            const parentIsC = d > 0 && !sObj[d - 1] && sSlot[d - 1] === K_C;
            sObj[d] = c === LB ? 1 : 0;
            sSlot[d] = slot;
            sKey[d] = K_OTHER;
            sIdx[d] = 0;
            d++;
            if (d === 2 && captured.has(slot)) { capt = { key: captured.get(slot), parts: [] }; captStart = i; }
            if (c === LB) {
              expectKey = true;
              if (parentIsThreads) th = { name: null, bytes: 0, objects: 0, nodes: 0, rootBytes: 0 };
              if (th && (slot === K_ROOT || parentIsC)) th.nodes++;
            }
            break;
          }
          case RB: case RS:
            d--;
            if (capt && d === 1) {
              capt.parts.push(buf.subarray(captStart, i + 1));
              top[capt.key] = JSON.parse(Buffer.concat(capt.parts).toString('utf8'));
              capt = null;
            }
            if (th && d === 2 && sObj[d]) { threads.push(th); th = null; }
            expectKey = false;
            break;
          case COMMA:
            if (sObj[d - 1]) expectKey = true;
            else sIdx[d - 1]++;
            break;
          case COLON: case 0x20: case 0x0a: case 0x0d: case 0x09:
            break;
          default:
            inTok = true;
            tokStart = i;
            tokCarry = '';
        }
      }
      if (inTok) { tokCarry += buf.toString('latin1', tokStart, n); tokStart = 0; }
      if (inStr && (strKey || strParts)) { // a key or a kept value split across chunks: keep its bytes
        strParts = strParts || [];
        strParts.push(Buffer.from(buf.subarray(Math.min(strStart, n), n)));
      }
      if (capt) capt.parts.push(Buffer.from(buf.subarray(captStart, n)));
    }
  } finally {
    closeSync(fd);
  }
  return byType ? { top, threads, perType } : { top, threads };
}
