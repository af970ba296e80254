// The HTML report of a real profile, rendered by headless Chromium with no network: the flame tree
// shows the expected top frame, the canvas is painted, search finds the recursive method.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { pathToFileURL } from 'url';
import { collapsed } from '../../core/export/collapsed';
import { loadProfile } from '../../core/profile/load';
import { percent } from '../../core/format';
import { chromium, findChromium } from './support/chromium';
import { CLI, JDK17, PROFILE_DIR } from './support/env';
import { compileFixture, exec, runFixture } from './support/heaplens';

const browser = findChromium();

describe('HTML report in headless Chromium', { skip: browser ? false : 'no Chromium (apt-get install chromium)' }, () => {
  let html: string;
  let profileFile: string;
  before(async () => {
    const classes = await compileFixture('recursion', { jdk: JDK17, release: 17 });
    const run = await runFixture({ jdk: JDK17, classpath: [classes], mainClass: 'recursion.Main', tag: 'report-html' });
    profileFile = run.profileFile;
    html = path.join(PROFILE_DIR, 'report-html.html');
    const r = await exec(process.execPath, [CLI, 'report', run.profileFile, '--format', 'html', '-o', html]);
    assert.equal(r.code, 0, r.stderr);
  });

  const dom = async (hash: string): Promise<string> => {
    const r = await chromium(`${pathToFileURL(html).href}${hash}`, ['--dump-dom', '--window-size=1400,900']);
    assert.match(r.stdout, /<\/html>/, `Chromium printed no page (exit ${r.code})\n${r.stderr.slice(-2000)}`);
    return r.stdout;
  };

  it('is one self-contained file: nothing loaded from elsewhere, a strict CSP', () => {
    const text = fs.readFileSync(html, 'utf8');
    assert.doesNotMatch(text, /<(script|link|img)[^>]+(src|href)=/i, 'no external script, stylesheet or image');
    assert.match(text, /Content-Security-Policy" content="default-src 'none'/);
  });

  it('shows the flame tree of all threads with recursion.Main.main on top', async () => {
    const page = await dom('');
    assert.match(page, /data-zoom="all threads"/);
    const frames = [...page.matchAll(/<li data-frame="([^"]+)"/g)].map((m) => m[1]);
    assert.equal(frames[0], 'recursion.Main.main', `largest frames: ${frames.join(', ')}`);
    const painted = Number(/data-painted="(\d+)"/.exec(page)?.[1] ?? 0);
    assert.ok(painted >= 10, `frames painted on the canvas: ${painted}`);
  });

  it('search finds the recursive method and reports its share', async () => {
    const page = await dom('#q=Main.down&metric=objects');
    const info = /<span class="match-info"[^>]*>([^<]*)</.exec(page)?.[1] ?? '';
    // down(2) from warmup and down(1000)…down(1) from run: 1002 frames; the share is that of every stack through down
    const lines = collapsed(loadProfile(profileFile), { metric: 'objects', threads: false });
    const count = (l: string): number => Number(l.slice(l.lastIndexOf(' ') + 1));
    const all = lines.reduce((n, l) => n + count(l), 0);
    const down = lines.filter((l) => l.includes('recursion.Main.down;')).reduce((n, l) => n + count(l), 0);
    assert.equal(info, `1002 matches · ${percent(down / all)} of the total`);
  });

  it('collapse recursion leaves one down frame under run', async () => {
    const page = await dom('#recursion=1&view=flame');
    const painted = Number(/data-painted="(\d+)"/.exec(page)?.[1] ?? 0);
    assert.ok(painted > 0 && painted < 20, `frames painted: ${painted}`);
  });
});
