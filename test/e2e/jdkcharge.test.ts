// Fixture `jdkcharge`: allocations made inside JDK code are charged to the innermost application frame.
// The expected numbers follow from the JDK sources (checked against JDK 17.0.x and 25.0.x src.zip):
// - Integer.valueOf(i) allocates `new Integer(i)` outside the cache [-128, 127].
// - ArrayList(int n) allocates `new Object[n]`; ArrayList() starts empty and grows on add to
//   max(10, size+1), then oldCapacity + (oldCapacity >> 1) via Arrays.copyOf (`new Object[newLength]`):
//   10, 15, 22, 33, 49, 73, 109 for 100 adds.
// - StringBuilder() allocates byte[16] (compact strings, Latin-1); growth via ArraysSupport.newLength(old,
//   min, old + 2): 16 -> 34 -> 70 -> 142 for 10 x 10 chars (+42 chars fits exactly); toString copies
//   the 142 bytes. JDK 17: StringLatin1.newString -> Arrays.copyOfRange -> new byte[142]. JDK 25:
//   new String(asb, null) -> Arrays.copyOfRange, which for a full-range copy returns original.clone():
//   the same numbers, reached through an array clone() in JDK code.
// - HashMap(): table allocated lazily by resize() at the first put (16), doubled when ++size exceeds
//   0.75 x capacity: after the 13th, 25th, 49th and 97th put -> tables 16+32+64+128+256 = 496 elements;
//   one HashMap$Node per distinct key (no collisions: Integer keys 0..99 in distinct bins; never treeified).
// - "v" + i (invokedynamic makeConcatWithConstants, one int argument): one byte[] (2 elements: "v0".."v9")
//   from StringConcatHelper.newArray (Unsafe.allocateUninitializedArray) and one String per evaluation.
//   JDK 17 builds the String in StringConcatHelper.newString (MH_INLINE_SIZED_EXACT strategy), JDK 25 in
//   StringConcatHelper$Concat1.concat(int) (one-argument shortcut of InlineHiddenClassStrategy).
// - TreeMap.put of a new key allocates one TreeMap$Entry (addEntryToEmptyMap / addEntry).
// - IdentityHashMap() calls init(32): table = new Object[64]; 5 puts stay below the resize threshold.
// These are the same on JDK 17 and JDK 25, so one set of expectations serves both.
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { assertUnder } from './support/collapsed';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';

const fx = new Fixture({ name: 'jdkcharge' });
const RUN = 'jdkcharge.Main.main;jdkcharge.Main.run';
const at = (m: string): string => `${RUN};jdkcharge.Main.${m}`;
type Charged = Partial<Record<'objects' | 'arrays' | 'elements', Record<string, number>>>;

/** What each method of Main is charged with: objects, arrays and elements by type (a metric left out is not checked). */
const CHARGES: Array<[title: string, method: string, want: Charged]> = [
  ['charges Integer.valueOf boxing to the calling method: 1000 java.lang.Integer',
    'boxing', { objects: { 'java.lang.Integer': 1000 }, arrays: {} }],
  ['new ArrayList<>(37): 1 ArrayList and 1 Object[] of 37 elements',
    'presized', { objects: { 'java.util.ArrayList': 1 }, arrays: { 'java.lang.Object[]': 1 }, elements: { 'java.lang.Object[]': 37 } }],
  ['ArrayList growth over 100 adds: 7 Object[] of 10+15+22+33+49+73+109 = 311 elements',
    'growing', { objects: { 'java.util.ArrayList': 1 }, arrays: { 'java.lang.Object[]': 7 }, elements: { 'java.lang.Object[]': 311 } }],
  ['StringBuilder: 1 StringBuilder, 1 String, byte[] 16+34+70+142+142 (5 arrays, 404 elements)',
    'building', { objects: { 'java.lang.StringBuilder': 1, 'java.lang.String': 1 }, arrays: { 'byte[]': 5 }, elements: { 'byte[]': 404 } }],
  ['HashMap with 100 puts: 1 HashMap, 100 HashMap$Node, 5 HashMap$Node[] tables of 496 elements',
    'hashing', { objects: { 'java.util.HashMap': 1, 'java.util.HashMap$Node': 100 }, arrays: { 'java.util.HashMap$Node[]': 5 }, elements: { 'java.util.HashMap$Node[]': 496 } }],
  ['string concatenation "v" + i x 10: 10 String and 10 byte[] of 20 elements',
    'concat', { objects: { 'java.lang.String': 10 }, arrays: { 'byte[]': 10 }, elements: { 'byte[]': 20 } }],
  ['TreeMap with 20 puts: 1 TreeMap and 20 TreeMap$Entry',
    'sorted', { objects: { 'java.util.TreeMap': 1, 'java.util.TreeMap$Entry': 20 }, arrays: {} }],
  ['IdentityHashMap: 1 IdentityHashMap and its Object[64] table',
    'identity', { objects: { 'java.util.IdentityHashMap': 1 }, arrays: { 'java.lang.Object[]': 1 }, elements: { 'java.lang.Object[]': 64 } }],
  ['reflective and cloned arrays and objects: Array.newInstance (1 and 2 dimensions), clone()',
    'reflective', {
      objects: {
        'jdkcharge.Sheep': 1, // new Sheep()
        'jdkcharge.Sheep.clone;jdkcharge.Sheep': 1, // super.clone() in Sheep.clone
      },
      arrays: {
        'int[]': 3, // newInstance(int.class, 4) + the 2 rows of newInstance(int.class, {2, 3})
        'int[][]': 2, // newInstance(int.class, {2, 3}) + TWO_D.clone()
        'java.lang.String[]': 1,
      },
      elements: {
        'int[]': 10, // 4 + 2 x 3
        'int[][]': 4, // 2 + 2
        'java.lang.String[]': 5,
      },
    }],
];

describeRuns(fx, 'jdkcharge', (run, jdk) => {
  const charged = async (m: string, want: Charged): Promise<void> => {
    for (const [metric, types] of Object.entries(want)) assertUnder(await run().collapsed(metric as keyof Charged), at(m), types);
  };

  it('runs cleanly', () =>
    assertCleanRun(run(), 'jdkcharge',
      'jdkcharge boxed=1000 presized=37 grown=100 built=142 hashed=100 concat=20 sorted=20 identity=5 reflective=17'));

  for (const [title, method, want] of CHARGES) it(title, () => charged(method, want));

  it('names the JDK sites that made the charged allocations', () => {
    const p = run().profile;
    const node = (m: string) => p.nodes('main', ['jdkcharge.Main.main', 'jdkcharge.Main.run', `jdkcharge.Main.${m}`])[0];
    const siteClasses = (m: string, type: string): string[] => {
      const n = node(m);
      assert.ok(n, `node ${m}`);
      const out = new Set<string>();
      for (const r of n.a ?? []) {
        if (p.typeName(r[1]) !== type) continue;
        const site = p.sites.get(r[0]);
        assert.ok(site, `site ${r[0]} is defined`);
        const method = p.methods.get(site.method);
        assert.ok(method, `method ${site.method} is defined`);
        out.add(`${method.class}.${method.name}`);
      }
      return [...out].sort();
    };
    // Boxing is counted at the call of Integer.valueOf (site kind "box"), not inside it: C2 removes a valueOf
    // whose box is only unboxed, probe included, so only the call site counts the same in every run().
    assert.deepEqual(siteClasses('boxing', 'java.lang.Integer'), ['jdkcharge.Main.boxing']);
    const boxSites = (node('boxing').a ?? []).filter((r) => p.typeName(r[1]) === 'java.lang.Integer').map((r) => p.sites.get(r[0])!.kind);
    assert.deepEqual([...new Set(boxSites)], ['box']);
    assert.deepEqual(siteClasses('presized', 'java.lang.Object[]'), ['java.util.ArrayList.<init>']);
    // the first table comes from ArrayList.grow itself; the others through Arrays.copyOf (counted at a call
    // site in ArrayList.grow or Arrays.copyOf, depending on where the agent counts the copy intrinsic)
    const grown = siteClasses('growing', 'java.lang.Object[]');
    assert.ok(grown.includes('java.util.ArrayList.grow'), `growing sites ${grown}`);
    for (const g of grown) assert.ok(['java.util.ArrayList.grow', 'java.util.Arrays.copyOf'].includes(g), `growing site ${g}`);
    assert.deepEqual(siteClasses('hashing', 'java.util.HashMap$Node'), ['java.util.HashMap.newNode']);
    assert.deepEqual(siteClasses('hashing', 'java.util.HashMap$Node[]'), ['java.util.HashMap.resize']);
    assert.deepEqual(siteClasses('presized', 'java.util.ArrayList'), ['jdkcharge.Main.presized']);
  });

  it(`StringBuilder.toString takes the JDK ${jdk.name} path (same counts, different sites)`, () => {
    const p = run().profile;
    const n = p.nodes('main', ['jdkcharge.Main.main', 'jdkcharge.Main.run', 'jdkcharge.Main.building'])[0];
    assert.ok(n, 'building node');
    const rows = (n.a ?? []).map((r) => {
      const s = p.sites.get(r[0]);
      assert.ok(s, `site ${r[0]}`);
      const m = p.methods.get(s.method);
      assert.ok(m, `method ${s.method}`);
      return `${p.typeName(r[1])} ${r[2]}/${r[3]} ${s.kind} ${m.class}.${m.name}`;
    }).sort();
    // JDK 17: StringBuilder.toString -> StringLatin1.newString -> new String(Arrays.copyOfRange(...)),
    //         copyOfRange always does `new byte[newLength]`.
    // JDK 25: StringBuilder.toString -> new String(this, null) -> Arrays.copyOfRange, which returns
    //         original.clone() when the range is the whole array (142 of 142 here): a `clone` site.
    const copy = jdk.name === '17'
      ? 'byte[] 1/142 newarray java.util.Arrays.copyOfRange'
      : 'byte[] 1/142 clone java.util.Arrays.copyOfRange';
    const str = jdk.name === '17'
      ? 'java.lang.String 1/0 new java.lang.StringLatin1.newString'
      : 'java.lang.String 1/0 new java.lang.StringBuilder.toString';
    assert.deepEqual(rows, [
      'byte[] 1/16 newarray java.lang.AbstractStringBuilder.<init>',
      'byte[] 3/246 newarray java.util.Arrays.copyOf', // 34 + 70 + 142
      copy,
      str,
      'java.lang.StringBuilder 1/0 new jdkcharge.Main.building',
    ].sort());
  });
});
