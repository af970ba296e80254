// The generated DocBook book shared by xalan and fop (bench/work/docbook/), and its XSL-FO (made once with Xalan).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateBook } from '../prepare/gen-docbook.mjs';
import { once } from '../lib/stamp.mjs';
import { sh } from '../lib/sh.mjs';
import { WORK } from '../lib/paths.mjs';
import { DOCBOOK_XSL, XALAN_CP } from './common.mjs';

export const BOOK_BYTES = 1_000_000;
const DIR = join(WORK, 'docbook');

export function book(bytes = BOOK_BYTES) {
  const file = join(DIR, `book-${bytes}.xml`);
  once(DIR, `book-${bytes}`, { bytes, seed: 42, v: 1 }, () => writeFileSync(file, generateBook(bytes, 42)));
  return file;
}

export function bookFo(java, bytes = BOOK_BYTES) {
  const xml = book(bytes);
  const fo = join(DIR, `book-${bytes}.fo`);
  once(DIR, `fo-${bytes}`, { bytes, v: 1 }, () => {
    sh(java, ['-cp', XALAN_CP.join(':'), 'org.apache.xalan.xslt.Process', '-IN', xml,
      '-XSL', `${DOCBOOK_XSL}/fo/docbook.xsl`, '-PARAM', 'fop1.extensions', '1', '-OUT', fo]);
  });
  return fo;
}
