#!/usr/bin/env node
// Are two exact-mode profiles of the same program the same for the application's frames? Compares, per calling
// context (the chain of method names from the thread's root), the calls of every application method, the line of the
// call that entered it (format version 2 files expanded first: profile-version2.mjs) and the allocation counts (objects/arrays, elements, bytes) recorded in it per site and type. JDK frames (java., javax.,
// jdk., sun., com.sun.) are left out: the JDK's own work varies with JIT and class-loading timing.
//
//   node bench/compare-profiles.mjs before.heaplens after.heaplens      exits 1 when they differ
import { readProfileText } from './lib/profile-text.mjs';
import { expandVersion2 } from './lib/profile-version2.mjs';

const JDK = /^(java|javax|jdk|sun|com\.sun)\./;

const CONTEXTS = new Map();

function contexts(file) {
  const p = JSON.parse(readProfileText(file));
  expandVersion2(p);
  const methods = new Map(p.methods.map((m) => [m.id, m]));
  const sites = new Map(p.sites.map((s) => [s.id, s]));
  const types = new Map(p.types.map((t) => [t.id, t]));
  const name = (id) => { const m = methods.get(id); return m ? `${m.class}.${m.name}${m.desc}` : `#${id}`; };
  const out = new Map();
  const add = (k, v) => out.set(k, (out.get(k) ?? 0) + v);
  // A calling context is named by a number: (parent's number, method name) → number, the same in both files for
  // the same chain of names; whole chains as strings would not fit in memory for trees a million nodes deep.
  const walk = (n, path, app, todo) => {
    let here = path;
    let isApp = app;
    if (n.m !== undefined) {
      const step = `${path}>${name(n.m)}`;
      if (!CONTEXTS.has(step)) CONTEXTS.set(step, CONTEXTS.size);
      here = `#${CONTEXTS.get(step)}`;
      isApp = !JDK.test(methods.get(n.m)?.class ?? '');
      if (isApp) {
        add(`${here} calls`, n.calls);
        add(`${here} line`, n.line ?? 0);
      }
    }
    if (isApp && n.a) {
      for (const [site, type, count, elements, bytes] of n.a) {
        const s = sites.get(site), m = methods.get(s?.method);
        const at = `${m ? `${m.class}.${m.name}` : '?'}@${s?.bci}:${types.get(type)?.name ?? type}`;
        add(`${here} alloc ${at} count`, count);
        add(`${here} alloc ${at} elements`, elements);
        add(`${here} alloc ${at} bytes`, bytes);
      }
    }
    for (const c of n.c ?? []) todo.push([c, here, isApp]);
  };
  // iterative: trees can be deeper than the JS stack
  for (const t of p.threads) {
    const todo = [[t.root, t.name.replace(/\d+/g, 'N'), false]];
    while (todo.length) {
      const [n, path, app] = todo.pop();
      walk(n, path, app, todo);
    }
  }
  return out;
}

const [a, b] = process.argv.slice(2);
if (!a || !b) { console.error('usage: node bench/compare-profiles.mjs before.heaplens after.heaplens'); process.exit(2); }
const ca = contexts(a), cb = contexts(b);
let diffs = 0;
for (const k of new Set([...ca.keys(), ...cb.keys()])) {
  const x = ca.get(k) ?? 0, y = cb.get(k) ?? 0;
  if (x !== y) { if (diffs < 10) console.log(`differs: context ${k}: ${x} vs ${y}`); diffs++; }
}
console.log(`${ca.size} vs ${cb.size} application values (calls, lines and allocation counts per calling context); ${diffs} differ`);
process.exit(diffs ? 1 : 0);
