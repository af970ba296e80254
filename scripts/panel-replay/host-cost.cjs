// node scripts/panel-replay/host-cost.cjs PROFILE [REPS]: the extension host CPU of a panel message, text against built.
// host-side cost of the panel's profile message: text (deepJson of the file) vs built (profileMessage build: true)
const { parseProfile } = require(require('path').join(__dirname, '..', '..', 'out') + '/core/profile/parse');
const { profileMessage } = require(require('path').join(__dirname, '..', '..', 'out') + '/extension/panels/profile-message');
const { firstFrameTree } = require(require('path').join(__dirname, '..', '..', 'out') + '/extension/panels/first-tree');
const { encodeFrameColumns, encodeFrameRecords } = require(require('path').join(__dirname, '..', '..', 'out') + '/core/views/frame-columns');
const { splitTrees } = require(require('path').join(__dirname, '..', '..', 'out') + '/core/profile/tree-split');
const { deepJson } = require(require('path').join(__dirname, '..', '..', 'out') + '/core/protocol/deep-json');
const zlib = require('zlib');
const fs = require('fs');
const file = process.argv[2]; const reps = Number(process.argv[3] ?? 5);
const p = parseProfile(fs.readFileSync(file, 'utf8'));
const cpu = (f) => { const a = process.cpuUsage(); const t = performance.now(); const r = f(); const b = process.cpuUsage(a); return [(b.user + b.system) / 1000, performance.now() - t, r]; };
// what VS Code does with the message: JSON.stringify with a replacer for typed arrays
const post = (m) => JSON.stringify(m, (k, v) => (ArrayBuffer.isView(v) ? { ref: 1 } : v)).length;
const rows = [];
for (let i = 0; i < reps; i++) {
  for (const build of i % 2 ? [true, false] : [false, true]) {
    const [c, w, m] = cpu(() => profileMessage(p, { title: 't', live: false, build }));
    const [c2, w2] = cpu(() => post(m));
    const row = { build, msgCpu: Math.round(c), msgWall: Math.round(w), postStringifyCpu: Math.round(c2), json: m.json.length, trees: m.built?.trees.length ?? 0, columns: m.built?.columns.byteLength ?? 0, records: m.built?.records.byteLength ?? 0, load: fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0] };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
}
// the steps of the built message, once
const kind = 'exact';
let t; const [c1, , tree] = cpu(() => firstFrameTree(p, kind));
const [c2, , cols] = cpu(() => encodeFrameColumns(tree));
const [c3, , recs] = cpu(() => encodeFrameRecords(tree));
const [c4] = cpu(() => zlib.gzipSync(recs));
const [c5, , sp] = cpu(() => splitTrees(p.file));
const [c6] = cpu(() => deepJson(sp.trees));
const [c7] = cpu(() => deepJson({ profile: sp.light }));
console.log(JSON.stringify({ steps: { mergeAndFrameTree: Math.round(c1), encodeColumns: Math.round(c2), encodeRecords: Math.round(c3), gzipRecords: Math.round(c4), recordsRaw: recs.byteLength, split: Math.round(c5), treesJson: Math.round(c6), lightJson: Math.round(c7) } }));
