import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CONVENTIONAL_ROOTS, expandRoot, findInRoots, relativeSource } from '../../extension/editor/source-roots';

test('relativeSource: package path and the class file\'s source name, nested classes in their outer file', () => {
  assert.equal(relativeSource({ class: 'com.acme.Parser$Inner', file: 'Parser.java' }), 'com/acme/Parser.java');
  assert.equal(relativeSource({ class: 'com.acme.Helper' }), 'com/acme/Helper.java');
  assert.equal(relativeSource({ class: 'Top$1', file: 'Top.java' }), 'Top.java');
});

test('expandRoot: ${workspaceFolder}, relative and absolute paths', () => {
  assert.equal(expandRoot('${workspaceFolder}/src', '/ws'), '/ws/src');
  assert.equal(expandRoot('lib/src', '/ws'), path.join('/ws', 'lib/src'));
  assert.equal(expandRoot('/abs/src', '/ws'), '/abs/src');
  assert.equal(expandRoot('src', undefined), 'src');
});

test('findInRoots: Maven, Gradle, plain layouts; the first root that has the file wins', () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-roots-'));
  try {
    const put = (rel: string): void => {
      fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      fs.writeFileSync(path.join(ws, rel), 'class X {}');
    };
    put('src/main/java/com/acme/Parser.java');
    put('src/test/java/com/acme/ParserTest.java');
    put('src/demo/WordIndex.java');
    put('src/com/acme/Parser.java'); // a stale copy in a plain layout: Maven's comes first
    const roots = CONVENTIONAL_ROOTS.map((r) => path.join(ws, r));
    const find = (cls: string, file?: string): string | undefined =>
      findInRoots({ class: cls, file }, roots, (p) => fs.existsSync(p))?.slice(ws.length + 1);
    assert.equal(find('com.acme.Parser$Inner', 'Parser.java'), path.join('src/main/java/com/acme/Parser.java'));
    assert.equal(find('com.acme.ParserTest', 'ParserTest.java'), path.join('src/test/java/com/acme/ParserTest.java'));
    assert.equal(find('demo.WordIndex$Entry', 'WordIndex.java'), path.join('src/demo/WordIndex.java'));
    assert.equal(find('java.util.HashMap', 'HashMap.java'), undefined);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});
