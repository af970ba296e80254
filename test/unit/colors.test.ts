// The flame tree's colours do what the legend says: my code warm, JDK and libraries cool, packages distinct.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hueOf, packageColor, packagePalette } from '../../webview/core/colors';

const PACKAGES = ['com.acme', 'com.acme.util', 'com.acme.io', 'org.h2.mvstore', 'org.h2.command', 'org.h2.expression',
  'java.util', 'java.lang', 'java.util.concurrent', 'java.io', 'sun.nio.cs', 'jdk.internal.misc'];

test('my code is warm (hue 0–55), JDK and libraries cool (185–264), in every theme', () => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    for (const p of PACKAGES) {
      const warm = hueOf(packageColor(p, true, theme, 'run'));
      const cool = hueOf(packageColor(p, false, theme, 'run'));
      assert.ok(warm >= 0 && warm <= 55, `${p} mine: hue ${warm}`);
      assert.ok(cool >= 185 && cool <= 264, `${p} library: hue ${cool}`);
    }
  }
});

test('a profile\'s packages get distinct colours: hues at least 5° apart or another shade', () => {
  const pkgs = PACKAGES.map((pkg, k) => ({ pkg, mine: k < 6 }));
  const color = packagePalette(pkgs, 'dark');
  const shades = pkgs.map((p) => color(p.pkg, p.mine));
  assert.equal(new Set(shades).size, PACKAGES.length);
  // in name order, my code's 6 packages take hues 0, 34, 13, 47, 26, 5 (golden-ratio steps over 0–55)
  const mine = pkgs.filter((p) => p.mine).map((p) => p.pkg).sort();
  assert.deepEqual(mine.map((p) => hueOf(color(p, true))), [0, 34, 13, 47, 26, 5]);
  for (let a = 0; a < shades.length; a++) {
    for (let b = a + 1; b < shades.length; b++) {
      const same = Math.abs(hueOf(shades[a]) - hueOf(shades[b])) < 5 && shades[a].slice(shades[a].indexOf(',')) === shades[b].slice(shades[b].indexOf(','));
      assert.ok(!same, `${pkgs[a].pkg} and ${pkgs[b].pkg}: ${shades[a]} ~ ${shades[b]}`);
    }
  }
  // a package outside the profile's list still gets its family's colour
  assert.ok(hueOf(color('com.other', true)) <= 55);
  assert.equal(packageColor('org.h2.mvstore', false, 'light'), packageColor('org.h2.mvstore', false, 'light'));
});
