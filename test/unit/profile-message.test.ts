// The panels' `profile` message (extension/panels/profile-message.ts): the first tree built in the extension host,
// carried through VS Code's postMessage serialization, decoded by the page's decoder (webview/load/built-tree.ts
// builtColumns and builtRecords: frame-columns.ts's decoders; a panel's records are not gzipped) into the tree
// frameTree builds, array for array.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeFrameColumns, decodeFrameRecords } from '../../core/views/frame-columns';
import { frameTree } from '../../core/views/frames';
import { mergeShared } from '../../core/views/merge-shared';
import { joinTrees, ThreadTrees } from '../../core/profile/tree-split';
import { MctNode, ProfileFile } from '../../core/profile/types';
import { BuiltTree } from '../../core/protocol/webview-protocol';
import { fewerNodes, ownBytes, profileMessage } from '../../extension/panels/profile-message';
import { unpackTree } from '../../webview/load/tree-pack';
import { arrType, assertSameFrameTree, method, objType, profileOf, site } from './helpers';

/** Two threads sharing a caller, records of 5, 6 and 7 numbers, a node without records and one with an empty list. */
function handMade(): ReturnType<typeof profileOf> {
  return profileOf({
    types: [objType(1, 'com.acme.Item', 24), arrType(2, 'int[]', 'I', 4)],
    methods: [method(1, 'com.acme.Main', 'main'), method(2, 'com.acme.Store', 'put'), method(3, 'com.acme.Store', 'grow'), method(4, 'java.util.ArrayList', 'add')],
    sites: [site(1, 2, 1), site(2, 3, 2)],
    threads: [
      { id: 1, name: 'main', daemon: false, alive: false, root: { c: [
        { m: 1, line: 3, calls: 1, a: [], c: [
          { m: 2, line: 7, calls: 4, a: [[1, 1, 4, 0, 96]], c: [{ m: 3, line: 9, calls: 2, a: [[2, 2, 2, 300, 1232, 12]] }] },
          { m: 4, calls: 1000 },
        ] },
      ] } },
      { id: 7, name: 'worker-1', daemon: true, alive: true, root: { c: [
        { m: 1, line: 3, calls: 2, c: [{ m: 2, line: 7, calls: 1, a: [[1, 1, 1, 0, 24]] }] },
        { m: 3, calls: 5, a: [[2, 2, 5, 2 ** 33, 2 ** 35 + 80, 40, 4]] },
      ] } },
    ],
  });
}

/**
 * What the webview receives: VS Code's extension host (1.57+, extHostWebview serializeWebviewMessage) stringifies the
 * message with each typed array replaced by a reference to its ArrayBuffer, sent as bytes beside the JSON; the
 * workbench rebuilds a typed array of the same type over a copy of that buffer.
 */
function throughVsCode<T>(msg: T): T {
  const buffers: ArrayBufferLike[] = [];
  const text = JSON.stringify(msg, (_k, v: unknown) => {
    if (ArrayBuffer.isView(v) && v.constructor.name === 'Uint8Array') {
      let index = buffers.indexOf(v.buffer);
      if (index < 0) index = buffers.push(v.buffer) - 1;
      return { $$ref: index, byteOffset: v.byteOffset, byteLength: v.byteLength };
    }
    return v;
  });
  const copies = buffers.map((b) => new Uint8Array(b as ArrayBuffer).slice().buffer);
  return JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && '$$ref' in v) {
      const r = v as { $$ref: number; byteOffset: number; byteLength: number };
      return new Uint8Array(copies[r.$$ref], r.byteOffset, r.byteLength);
    }
    return v;
  }) as T;
}

test('the panel\'s first message carries the built tree as bytes; the page decodes the frameTree of the merged threads', () => {
  const p = handMade();
  const msg = throughVsCode(profileMessage(p, { title: 'hand.heaplens', live: false, build: true }));
  assert.equal(msg.type, 'profile');
  const built = msg.built as BuiltTree;
  assert.ok(built.columns instanceof Uint8Array && built.records instanceof Uint8Array, 'the columns and records arrive as bytes');
  assert.deepEqual([built.kind, built.kinds, built.defaultKind], ['exact', ['exact'], 'exact']);
  // not gzipped (the report's are): "HFR1", encodeFrameRecords' own start, where builtRecords looks for gzip's 1f 8b
  assert.deepEqual([...built.records.subarray(0, 4)], [0x48, 0x46, 0x52, 0x31]);
  const decoded = unpackTree({ ...decodeFrameColumns(built.columns), recs: decodeFrameRecords(built.records) });
  const expected = frameTree(mergeShared(p.threads.map((t) => t.root)), p.methods, p.types);
  // the merged tree by hand: root; Main (both threads); Store.put under it; Store.grow under put; ArrayList.add; Store.grow (worker's)
  assert.deepEqual([...decoded.method], [-1, 1, 2, 3, 4, 3]);
  assert.deepEqual([...decoded.parent], [-1, 0, 1, 2, 1, 0]);
  assert.deepEqual([...decoded.self.calls], [0, 3, 5, 2, 1000, 5]);
  assert.deepEqual([...decoded.total.bytes], [96 + 1232 + 24 + 2 ** 35 + 80, 96 + 1232 + 24, 96 + 1232 + 24, 1232, 0, 2 ** 35 + 80]);
  assert.deepEqual([...decoded.total.elements], [300 + 2 ** 33, 300, 300, 300, 0, 2 ** 33]);
  // the two threads' records of one site and type are summed by the merge, as on the page
  assert.deepEqual(decoded.recs[2], [[1, 1, 5, 0, 120]]);
  assert.deepEqual(decoded.recs[3], [[2, 2, 2, 300, 1232, 12]]);
  assert.deepEqual(decoded.recs[5], [[2, 2, 5, 2 ** 33, 2 ** 35 + 80, 40, 4]]);
  assert.equal(decoded.recs[4], undefined);
  assertSameFrameTree(expected, decoded, (i) => decoded.recs[i]);
});

test('the panel\'s message holds the profile once: the rest as JSON text, the call trees apart; joined, the whole file', () => {
  const p = handMade();
  const msg = throughVsCode(profileMessage(p, { title: 'hand.heaplens', live: true, build: true }));
  assert.deepEqual([msg.title, msg.live], ['hand.heaplens', true]);
  const light = (JSON.parse(msg.json!) as { profile: ProfileFile }).profile;
  assert.deepEqual(light.threads.map((t) => [t.id, t.name, t.root]), [[1, 'main', {}], [7, 'worker-1', {}]]);
  assert.equal(msg.profile, undefined);
  const trees = JSON.parse(msg.built!.trees) as ThreadTrees[];
  assert.deepEqual(joinTrees(light, trees), JSON.parse(JSON.stringify(p.file)));
});

test('an update of a page already drawn, and a profile without a call tree, travel as the whole file\'s text', () => {
  const p = handMade();
  const update = profileMessage(p, { title: 't', live: true, build: false });
  assert.equal(update.built, undefined);
  assert.deepEqual(JSON.parse(update.json!), JSON.parse(JSON.stringify(p.file)));
  // accounts mode records no call tree: the report embeds such a profile as text, and so does the panel
  const accounts = profileOf({ threads: [{ id: 1, name: 'main', daemon: false, alive: false, root: {} }] });
  accounts.file.meta.mode = 'accounts';
  const none = profileMessage(accounts, { title: 'a', live: false, build: true });
  assert.equal(none.built, undefined);
  assert.deepEqual(JSON.parse(none.json!), JSON.parse(JSON.stringify(accounts.file)));
});

test('ownBytes: a plain Uint8Array over exactly its bytes (a Node Buffer would reach the page as a list of numbers)', () => {
  const plain = new Uint8Array([1, 2, 3]);
  assert.equal(ownBytes(plain), plain);
  const pooled = Buffer.from([4, 5, 6]);          // a view into Node's shared 8 KB pool
  const own = ownBytes(new Uint8Array(pooled.buffer, pooled.byteOffset, pooled.byteLength));
  assert.equal(own.constructor, Uint8Array);
  assert.deepEqual([own.byteOffset, own.byteLength, own.buffer.byteLength], [0, 3, 3]);
  assert.deepEqual([...own], [4, 5, 6]);
  assert.deepEqual(JSON.parse(JSON.stringify({ b: pooled })).b, { type: 'Buffer', data: [4, 5, 6] });
});

test('a tree of BUILD_BELOW_NODES or more travels as text (the page\'s load worker reads it): counted with the roots', () => {
  const p = handMade();
  // 2 roots + 4 nodes under main's + 3 under the worker's = 9
  assert.equal(fewerNodes(p, 'exact', 10), true);
  assert.equal(fewerNodes(p, 'exact', 9), false);
  assert.equal(profileMessage(p, { title: 't', live: false, build: true, buildBelow: 10 }).built?.kind, 'exact');
  const large = profileMessage(p, { title: 't', live: false, build: true, buildBelow: 9 });
  assert.equal(large.built, undefined);
  assert.deepEqual(JSON.parse(large.json!), JSON.parse(JSON.stringify(p.file)));
  // a chain a million deep is counted without recursion
  let deep: MctNode = { m: 1 };
  for (let i = 0; i < 1_000_000; i++) deep = { m: 1, c: [deep] };
  const chain = profileOf({ methods: [method(1, 'com.acme.Main', 'main')], threads: [{ id: 1, name: 'main', daemon: false, alive: false, root: {} }] });
  chain.threads[0].root = deep;
  assert.equal(fewerNodes(chain, 'exact', 1_000_002), true);
  assert.equal(fewerNodes(chain, 'exact', 1_000_001), false);
});
