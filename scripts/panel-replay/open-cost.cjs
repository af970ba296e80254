// node scripts/panel-replay/open-cost.cjs PROFILE [REPS]: the extension host's CPU to open a saved profile in its editor,
// before (read the file, un-gzip, parseProfile, the panel's profile message as main's controller builds it, VS Code's
// JSON.stringify of it) against now (the file's meta only: load.ts loadProfileMeta; the page fetches the bytes).
// Interleaved, one JSON row per run. Needs `npx tsc -p tsconfig.test.json` (reads out/).
const path = require('path');
const fs = require('fs');
const out = path.join(__dirname, '..', '..', 'out');
const { profileText, loadProfileMeta } = require(`${out}/core/profile/load`);
const { parseProfile } = require(`${out}/core/profile/parse`);
const { profileMessage } = require(`${out}/extension/panels/profile-message`);

const file = process.argv[2];
const reps = Number(process.argv[3] ?? 5);
const cpu = (f) => {
  const a = process.cpuUsage();
  const t = performance.now();
  f();
  const b = process.cpuUsage(a);
  return [Math.round((b.user + b.system) / 1000), Math.round(performance.now() - t)];
};
const post = (m) => JSON.stringify(m, (k, v) => (ArrayBuffer.isView(v) ? { ref: 1 } : v)).length;
const before = () => post(profileMessage(parseProfile(profileText(fs.readFileSync(file))), { title: 't', live: false, build: true }));
const now = () => loadProfileMeta(file);
for (let i = 0; i < reps; i++) {
  for (const [name, f] of i % 2 ? [['now', now], ['before', before]] : [['before', before], ['now', now]]) {
    const [c, w] = cpu(f);
    console.log(JSON.stringify({ file: path.basename(file), config: name, cpuMs: c, wallMs: w, load: fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0] }));
  }
}
