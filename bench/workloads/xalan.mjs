// Xalan-J (interpretive) runs docbook-xsl's HTML stylesheet over the generated ~1 MB DocBook book.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../lib/digest.mjs';
import { DOCBOOK_XSL, XALAN_CP } from './common.mjs';
import { book } from './docbook.mjs';

export default {
  name: 'xalan',
  description: 'Xalan-J 2.7 transforms a generated 1 MB DocBook book with docbook-xsl html/docbook.xsl',
  packages: ['libxalan2-java', 'libxerces2-java', 'docbook-xsl'],
  prepare(ctx) {
    ctx.state.book = book();
    ctx.state.small = book(120_000);
  },
  command(ctx, runDir, { accuracy = false } = {}) {
    return {
      cp: XALAN_CP, main: 'org.apache.xalan.xslt.Process',
      args: ['-IN', accuracy ? ctx.state.small : ctx.state.book, '-XSL', `${DOCBOOK_XSL}/html/docbook.xsl`, '-OUT', join(runDir, 'book.html')],
    };
  },
  check(ctx, runDir) {
    const html = readFileSync(join(runDir, 'book.html'));
    return { summary: `${html.length} bytes of HTML`, digest: sha256(html) };
  },
};
