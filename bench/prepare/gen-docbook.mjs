#!/usr/bin/env node
// Writes a deterministic DocBook 4.5 book of about TARGET bytes (no DOCTYPE, so no DTD is fetched).
// usage: node gen-docbook.mjs OUT.xml TARGET_BYTES [SEED]
import { writeFileSync } from 'node:fs';
import { rng, vocabulary, word, sentence } from '../lib/rng.mjs';

export function generateBook(targetBytes, seed = 42) {
  const r = rng(seed);
  const vocab = vocabulary(r);
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const ids = [];
  let size = 0;
  const parts = [];
  const out = (s) => { parts.push(s); size += s.length; };

  const inline = () => {
    const n = r.int(2, 6);
    const bits = [];
    for (let i = 0; i < n; i++) {
      const k = r.next();
      if (k < 0.08) bits.push(`<emphasis>${word(r, vocab)} ${word(r, vocab)}</emphasis>`);
      else if (k < 0.13) bits.push(`<literal>${word(r, vocab)}()</literal>`);
      else if (k < 0.16 && ids.length > 2) bits.push(`see <xref linkend="${ids[r.int(0, ids.length - 2)]}"/>`);
      else if (k < 0.19) bits.push(`<indexterm><primary>${word(r, vocab)}</primary></indexterm>${word(r, vocab)}`);
      else if (k < 0.2) bits.push(`<footnote><para>${sentence(r, vocab, 4, 10)}</para></footnote>`);
      else bits.push(sentence(r, vocab));
    }
    return bits.join(' ');
  };
  const block = () => {
    const k = r.next();
    if (k < 0.62) return `<para>${inline()}</para>\n`;
    if (k < 0.72) {
      const items = Array.from({ length: r.int(2, 6) }, () => `<listitem><para>${sentence(r, vocab, 3, 12)}</para></listitem>`);
      return `<${k < 0.67 ? 'itemizedlist' : 'orderedlist'}>${items.join('')}</${k < 0.67 ? 'itemizedlist' : 'orderedlist'}>\n`;
    }
    if (k < 0.8) {
      const lines = Array.from({ length: r.int(3, 12) }, () => `    ${word(r, vocab)}.${word(r, vocab)}(${r.int(0, 999)}, "${word(r, vocab)}");`);
      return `<programlisting>${esc(`void ${word(r, vocab)}() {\n${lines.join('\n')}\n}`)}</programlisting>\n`;
    }
    if (k < 0.86) {
      const cols = r.int(2, 4);
      const rows = Array.from({ length: r.int(2, 8) }, () =>
        `<row>${Array.from({ length: cols }, () => `<entry>${word(r, vocab)} ${r.int(0, 9999)}</entry>`).join('')}</row>`);
      const head = `<row>${Array.from({ length: cols }, (_, i) => `<entry>Col ${i + 1}</entry>`).join('')}</row>`;
      return `<table><title>${sentence(r, vocab, 2, 5)}</title><tgroup cols="${cols}"><thead>${head}</thead><tbody>${rows.join('')}</tbody></tgroup></table>\n`;
    }
    if (k < 0.92) {
      const entries = Array.from({ length: r.int(2, 5) }, () =>
        `<varlistentry><term>${word(r, vocab)}</term><listitem><para>${sentence(r, vocab, 4, 14)}</para></listitem></varlistentry>`);
      return `<variablelist>${entries.join('')}</variablelist>\n`;
    }
    const kind = r.pick(['note', 'tip', 'warning', 'important']);
    return `<${kind}><para>${inline()}</para></${kind}>\n`;
  };

  out('<?xml version="1.0" encoding="UTF-8"?>\n<book lang="en">\n<bookinfo><title>The Generated Handbook</title>' +
    '<author><firstname>Heap</firstname><surname>Lens</surname></author></bookinfo>\n');
  let ch = 0;
  while (size < targetBytes) {
    ch++;
    const cid = `ch${ch}`;
    out(`<chapter id="${cid}"><title>${sentence(r, vocab, 2, 5).slice(0, -1)}</title>\n`);
    for (let i = 0; i < r.int(1, 2); i++) out(block());
    const secs = r.int(3, 7);
    for (let s = 1; s <= secs; s++) {
      const sid = `${cid}s${s}`;
      out(`<section id="${sid}"><title>${sentence(r, vocab, 2, 6).slice(0, -1)}</title>\n`);
      for (let b = r.int(3, 9); b > 0; b--) out(block());
      if (r.next() < 0.4) {
        out(`<section id="${sid}x"><title>${sentence(r, vocab, 2, 4).slice(0, -1)}</title>\n`);
        for (let b = r.int(2, 5); b > 0; b--) out(block());
        out('</section>\n');
        ids.push(`${sid}x`);
      }
      out('</section>\n');
      ids.push(sid);
    }
    out('</chapter>\n');
    ids.push(cid);
  }
  out('<index/>\n</book>\n');
  return parts.join('');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [outFile, target, seed] = process.argv.slice(2);
  writeFileSync(outFile, generateBook(Number(target), Number(seed ?? 42)));
}
