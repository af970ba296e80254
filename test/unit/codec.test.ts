// Frame codec: round trips, splitting, limits, and a fuzz test (random and mutated frames).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodePayload, encodeFrame, Frame, FrameDecoder, MAX_FRAME, ProtocolError } from '../../extension/channel/codec';
import { parseAgentMessage } from '../../extension/channel/messages';

test('frames round-trip, whole or split at every byte', () => {
  const msgs: Frame[] = [{ type: 'hello', protocol: 1, token: 'x', client: 'é✓' }, { type: 'delta', seq: 1, time: 2, full: true, nodes: [] }];
  const bytes = Buffer.concat(msgs.map((m) => Buffer.from(encodeFrame(m))) as unknown as Uint8Array[]);
  assert.deepEqual(new FrameDecoder().push(bytes), msgs);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const d = new FrameDecoder();
    const got = [...d.push(bytes.subarray(0, cut)), ...d.push(bytes.subarray(cut))];
    assert.deepEqual(got, msgs, `cut at ${cut}`);
    assert.equal(d.pending, 0);
  }
});

test('an oversized length prefix is rejected at once, before the payload arrives', () => {
  const d = new FrameDecoder();
  const head = Buffer.alloc(4);
  head.writeUInt32BE(MAX_FRAME + 1, 0);
  assert.throws(() => d.push(head), (e: Error) => e instanceof ProtocolError && /exceeds the 16777216-byte limit/.test(e.message));
  assert.throws(() => d.push(Buffer.from([1])), ProtocolError, 'a failed decoder stays failed');
  const ok = Buffer.alloc(4);
  ok.writeUInt32BE(MAX_FRAME, 0);
  assert.deepEqual(new FrameDecoder().push(ok), [], 'exactly 16 MiB is allowed (waits for the payload)');
  assert.throws(() => encodeFrame({ type: 'x', big: 'y'.repeat(MAX_FRAME) }), /exceeds/);
});

test('payloads that are not a JSON object with a string type are rejected', () => {
  for (const text of ['', '[]', '1', 'null', '"x"', '{}', '{"type":1}', '{"type":""}', '{"type":"a"', '\u00ff']) {
    assert.throws(() => decodePayload(Buffer.from(text)), ProtocolError, text);
  }
  assert.throws(() => decodePayload(Buffer.from([0x7b, 0xc3, 0x28, 0x7d])), /UTF-8/);
  assert.throws(() => parseAgentMessage({ type: 'delta', seq: 1, time: 1, nodes: [{ t: 1, n: 1, p: 5 }] }), /bad node/);
  assert.throws(() => parseAgentMessage({ type: 'nope' }), /unknown frame type/);
});

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALID: Frame[] = [
  { type: 'welcome', protocol: 1, pid: 7, meta: { mode: 'exact' } },
  { type: 'define', types: [{ id: 1, name: 'int[]', array: true, size: null }], methods: [{ id: 2, class: 'A', name: 'b', desc: '()V', profiled: true }] },
  { type: 'delta', seq: 3, time: 1, full: false, nodes: [{ t: 1, n: 2, p: -1 }, { t: 1, n: 3, p: 2, m: 2, calls: 4, a: [[1, 1, 2, 3, 4]] }], stats: { objects: 1 } },
  { type: 'response', id: 1, ok: false, error: 'no' },
  { type: 'event', event: 'paused' },
];

test('fuzz: thousands of random and mutated frames are rejected with an Error or accepted, never a crash or hang', () => {
  const rand = rng(20240601);
  const int = (n: number): number => Math.floor(rand() * n);
  let accepted = 0;
  let rejected = 0;
  let frames = 0;
  const t0 = Date.now();
  const feed = (bytes: Uint8Array): void => {
    const d = new FrameDecoder();
    try {
      // deliver in random chunk sizes
      for (let i = 0; i < bytes.length;) {
        const n = 1 + int(Math.min(64, bytes.length - i));
        for (const f of d.push(bytes.subarray(i, i + n))) {
          parseAgentMessage(f);
          frames++;
        }
        i += n;
      }
      accepted++;
    } catch (e) {
      assert.ok(e instanceof Error, `threw a non-Error: ${String(e)}`);
      rejected++;
    }
  };
  const N = 5000;
  for (let i = 0; i < N; i++) {
    const kind = i % 4;
    let bytes: Uint8Array;
    if (kind === 0) {
      // pure random bytes
      bytes = Uint8Array.from({ length: int(200) }, () => int(256));
    } else if (kind === 1) {
      // a random length prefix (small or huge) followed by random bytes
      const body = Uint8Array.from({ length: int(100) }, () => int(256));
      const head = Buffer.alloc(4);
      head.writeUInt32BE(rand() < 0.5 ? int(120) : int(0xffffffff), 0);
      bytes = Buffer.concat([head, body] as unknown as Uint8Array[]) as unknown as Uint8Array;
    } else {
      // valid frames, then mutated: flipped/inserted/deleted bytes, truncated, or JSON-level edits
      const seq = Array.from({ length: 1 + int(3) }, () => VALID[int(VALID.length)]);
      const b = Buffer.concat(seq.map((f) => Buffer.from(encodeFrame(f))) as unknown as Uint8Array[]);
      const m = Buffer.from(b as unknown as Uint8Array);
      const edits = kind === 2 ? 1 + int(4) : 0;
      for (let e = 0; e < edits; e++) m[int(m.length)] = int(256);
      bytes = (kind === 3 && rand() < 0.5 ? m.subarray(0, int(m.length)) : m) as unknown as Uint8Array;
      if (kind === 3 && rand() < 0.5) {
        const text = JSON.stringify(seq[0]).replace(/\d+/, () => String(rand() < 0.5 ? -1 : 'x'));
        bytes = encodeFrameRaw(text);
      }
    }
    feed(bytes);
  }
  const ms = Date.now() - t0;
  assert.equal(accepted + rejected, N, 'every input was either accepted or rejected');
  assert.ok(rejected > N / 4, `many inputs rejected (${rejected})`);
  assert.ok(accepted > N / 10, `many inputs accepted (${accepted}), frames decoded ${frames}`);
  assert.ok(frames > 1000, `valid frames decoded (${frames})`);
  assert.ok(ms < 20000, `no hang (${ms} ms)`);
});

function encodeFrameRaw(text: string): Uint8Array {
  const body = Buffer.from(text);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body] as unknown as Uint8Array[]) as unknown as Uint8Array;
}
