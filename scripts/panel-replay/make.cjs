// Writes the message a panel posts (base: the text; this: the built tree) as a script the test page replays.
const O = require('path').join(__dirname, '..', '..', 'out');
const { parseProfile } = require(O + '/core/profile/parse');
const { profileMessage } = require(O + '/extension/panels/profile-message');
const { deepJson } = require(O + '/core/protocol/deep-json');
const fs = require('fs');
const [file, outDir] = process.argv.slice(2);
const p = parseProfile(fs.readFileSync(file, 'utf8'));
const write = (name, msg) => {
  const bufs = [];
  const text = JSON.stringify(msg, (k, v) => (v instanceof Uint8Array ? { $$b: bufs.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')) - 1 } : v));
  fs.writeFileSync(`${outDir}/${name}.js`, `window.__msgText=${JSON.stringify(text)};window.__msgBufs=${JSON.stringify(bufs)};`);
};
write('base', { type: 'profile', json: deepJson(p.file), title: 'x.heaplens', live: false, keepState: true });
write('this', profileMessage(p, { title: 'x.heaplens', live: false, build: true }));
