// The offset-keeping JSON parser behind `check --update` (and usable for editor diagnostics).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyEdits, member, parseJsonTree, ruleNodes, setMember } from '../../core/budget/json-locate';

test('parses what JSON.parse parses, with offsets', () => {
  const text = ' {"a": [1, -2.5e3, true, null, "x\\"y\\u00e9"], "b": {}} ';
  const root = parseJsonTree(text);
  assert.equal(root.kind, 'object');
  assert.deepEqual([root.start, root.end], [1, text.length - 1]);
  const a = member(root, 'a')!.value;
  assert.equal(a.kind, 'array');
  if (a.kind !== 'array') return;
  assert.deepEqual(a.items.map((n) => (n.kind === 'object' || n.kind === 'array' ? n.kind : n.value)), [1, -2500, true, null, 'x"yé']);
  for (const n of a.items) assert.equal(JSON.stringify(JSON.parse(text.slice(n.start, n.end))), JSON.stringify(n.kind === 'object' || n.kind === 'array' ? null : n.value));
  assert.equal(member(root, 'b')!.value.kind, 'object');
  assert.equal(member(root, 'c'), undefined);
});

test('refuses malformed JSON with a line number', () => {
  for (const [bad, msg] of [
    ['{"a": 1,}', /expected a field name at line 1/], ['{"a" 1}', /expected ":"/], ['[1 2]', /expected "," or "]"/],
    ['{"a": tru}', /expected a value/], ['{}\n{}', /unexpected text after the JSON value at line 2/], ['"abc', /unterminated string/],
    ['{\n"a": 01}', /expected "," or "}" at line 2/],
  ] as const) {
    assert.throws(() => parseJsonTree(bad), msg, bad);
  }
});

test('setMember replaces a value or adds a member in the object\'s style', () => {
  const text = '{"rules": [{}, {"a": 1}, {\n  "a": 1\n}]}';
  const [empty, inline, multi] = ruleNodes(parseJsonTree(text));
  const out = applyEdits(text, [setMember(text, empty, 'max', '3'), setMember(text, inline, 'a', '2'), setMember(text, multi, 'max', '4')]);
  assert.equal(out, '{"rules": [{ "max": 3 }, {"a": 2}, {\n  "a": 1,\n  "max": 4\n}]}');
  assert.deepEqual(JSON.parse(out).rules, [{ max: 3 }, { a: 2 }, { a: 1, max: 4 }]);
  assert.deepEqual(ruleNodes(parseJsonTree('{"x": 1}')), []);
});
