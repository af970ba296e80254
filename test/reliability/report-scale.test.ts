// Issue 20, item 6: every report format on a profile of 1,000,000 threads and on a call tree 1,000,000 calls deep.
// Before: `--format text` died with "Maximum call stack size exceeded" on the threads (a spread of one argument per
// row), `--format html` on the deep tree (JSON.stringify recurses), and collapsed/speedscope took time and memory
// growing with the square of the depth (a whole stack per node).
import * as assert from 'assert/strict';
import { describe, it } from 'node:test';
import { collapsedText, EXPORT_FRAMES_MAX, FOLDED_FRAME } from '../../core/export/collapsed';
import { validateProfile } from '../../core/profile/parse';
import { reportText } from '../../extension/cli/report-text';
import { speedscope } from '../../core/export/speedscope';
import { embeddedFirstTree } from '../../extension/panels/first-tree';
import { joinTrees } from '../../core/profile/tree-split';
import { reportHtml } from '../../extension/panels/html';
import { iterativeJson } from '../../core/protocol/deep-json';

const THREADS = 1_000_000;
const DEPTH = 1_000_000;

function base(threads: unknown[]): Record<string, unknown> {
  return {
    format: 'heaplens-profile', version: 1,
    meta: { agentVersion: 'test', mode: 'exact', jvm: { name: 'test', vendor: 'test', version: '17', javaHome: '/' }, pid: 1, command: 'scale.Main',
      jvmArgs: [], startTime: 0, writeTime: 1, final: true, sequence: 1, options: {},
      layout: { objectHeader: 12, arrayHeader: 16, reference: 4, alignment: 8, compressedOops: true, source: 'test' } },
    types: [{ id: 1, name: 'java.lang.Object', array: false, size: 16 }, { id: 2, name: 'int[]', array: true, size: null, elementSize: 4, elementCode: 'I' }],
    methods: [{ id: 1, class: 'scale.Main', name: 'run', desc: '()V', file: 'Main.java', line: 3, profiled: true },
      { id: 2, class: 'scale.Main', name: 'rec', desc: '(I)V', file: 'Main.java', line: 9, profiled: true }],
    sites: [{ id: 1, method: 1, bci: 0, line: 4, kind: 'new', type: 1 }, { id: 2, method: 2, bci: 0, line: 10, kind: 'newarray', type: 2 }],
    threads,
    transform: { classesTransformed: 0, classesSkipped: 0, classesFailed: 0, retransformed: 0, methodsProfiled: 0, sites: 0, failures: [], warnings: [] },
    agent: { threads: 0, nodes: 0, writeMillis: 0, bytesWritten: 0, collectorCycles: 0 },
  };
}

/** Every format the CLI writes from the allocation data, as text. */
function allFormats(doc: Record<string, unknown>): Record<string, string> {
  const profile = validateProfile(doc);
  return {
    text: reportText(profile, {}),
    collapsedObjects: collapsedText(profile, { metric: 'objects', threads: false }),
    collapsedArrays: collapsedText(profile, { metric: 'arrays', threads: false }),
    speedscope: JSON.stringify(speedscope(profile, { metric: 'bytes', name: 'scale' })),
    // with the first tree built here, as `heaplens report` writes it
    html: reportHtml({ js: '/* bundle */', css: '', codiconCss: '' }, { title: 'scale', profile: doc, tree: 'exact', firstTree: embeddedFirstTree(profile, 'exact') }),
  };
}

function htmlData(html: string): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  const m = /<script type="application\/json" id="heaplens-data"[^>]*>(.*?)<\/script>/s.exec(html);
  assert.ok(m, 'the data element is there');
  const data = JSON.parse(m[1]);
  // the call trees travel apart from the rest (tree-split.ts)
  const trees = /<script type="application\/json" id="heaplens-trees"[^>]*>(.*?)<\/script>/s.exec(html);
  // a long text is written in parts (html.ts): the first in #heaplens-trees, the rest after it, in order
  const rest = [...html.matchAll(/<script type="application\/json" class="heaplens-trees-part">(.*?)<\/script>/gs)].map((m) => m[1]).join('');
  return trees ? { ...data, profile: joinTrees(data.profile, JSON.parse(trees[1] + rest)) } : data;
}

describe('every report format at scale (issue 20)', () => {
  it(`${THREADS.toLocaleString('en-US')} threads, one object each`, () => {
    const threads = [];
    for (let i = 0; i < THREADS; i++) {
      threads.push({ id: i + 1, name: `t-${i}`, daemon: false, alive: false, root: { a: [], c: [{ m: 1, calls: 1, a: [[1, 1, 1, 0, 16]], c: [] }] } });
    }
    const out = allFormats(base(threads));
    assert.match(out.text, /objects 1,000,000, arrays 0/);
    assert.match(out.text, /^t-999999 +ended +1 +0 +0 +16$/m, 'the last thread has its row');
    assert.equal(out.collapsedObjects, 'scale.Main.run;java.lang.Object 1000000\n');
    assert.equal(out.collapsedArrays, '');
    const ss = JSON.parse(out.speedscope);
    assert.equal(ss.profiles.length, THREADS);
    assert.equal(ss.profiles[THREADS - 1].endValue, 16);
    assert.equal(htmlData(out.html).profile.threads.length, THREADS);
  });

  it(`a call tree ${DEPTH.toLocaleString('en-US')} calls deep, an int[4] at every call`, () => {
    // built from the bottom up: no recursion here either
    let node: Record<string, unknown> = { m: 2, calls: 1, a: [[2, 2, 1, 4, 32]], c: [] };
    for (let d = 1; d < DEPTH; d++) node = { m: 2, calls: 1, a: [[2, 2, 1, 4, 32]], c: [node] };
    const doc = base([{ id: 1, name: 'main', daemon: false, alive: false, root: { a: [], c: [node] } }]);
    const out = allFormats(doc);
    assert.match(out.text, /objects 0, arrays 1,000,000, array elements 4,000,000, est\. bytes 32,000,000/);
    const lines = out.collapsedArrays.trimEnd().split('\n');
    // one line per depth up to the bound, then everything deeper in one folded line
    assert.equal(lines.length, EXPORT_FRAMES_MAX + 1);
    const folded = lines.filter((l) => l.includes(FOLDED_FRAME));
    assert.equal(folded.length, 1);
    assert.ok(folded[0].endsWith(`;${FOLDED_FRAME};int[] ${DEPTH - EXPORT_FRAMES_MAX}`), folded[0].slice(-80));
    assert.equal(folded[0].split(';').length, EXPORT_FRAMES_MAX + 2);
    const sum = lines.reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    assert.equal(sum, DEPTH, 'every array counted once');
    const ss = JSON.parse(out.speedscope);
    assert.equal(ss.profiles[0].endValue, 32 * DEPTH);
    assert.equal(ss.profiles[0].samples.length, EXPORT_FRAMES_MAX + 1);
    // the page's data is the whole tree, a million levels, and parses back
    let depth = 0;
    for (let n = htmlData(out.html).profile.threads[0].root; n.c?.length; n = n.c[0]) depth++;
    assert.equal(depth, DEPTH);
  });

  it('the iterative JSON writer writes what JSON.stringify writes', () => {
    const v = { a: [1, -0.5, 'x"\u2028<', null, undefined, true, { b: undefined, c: NaN, d: [] }], e: {}, f: 'é', g: Infinity };
    assert.equal(iterativeJson(v), JSON.stringify(v));
    assert.equal(iterativeJson([[[]]]), '[[[]]]');
  });
});
