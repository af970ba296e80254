// Apache FOP renders the XSL-FO of the generated book (docbook-xsl fo/docbook.xsl, made once) to PDF.
import { join } from 'node:path';
import { sha256 } from '../lib/digest.mjs';
import { sh } from '../lib/sh.mjs';
import { jars } from './common.mjs';
import { bookFo } from './docbook.mjs';

const CP = jars('fop', 'commons-io', 'serializer', 'xalan2', 'xml-apis', 'batik-all', 'commons-logging', 'xercesImpl',
  'xmlgraphics-commons', 'xml-apis-ext', 'fontbox2', '/usr/share/fop/fop-hyph.jar');

export default {
  name: 'fop',
  description: 'Apache FOP 2.8 renders the generated book (XSL-FO from docbook-xsl) to a PDF of ~340 pages',
  packages: ['fop', 'libxalan2-java', 'docbook-xsl', 'poppler-utils'],
  prepare(ctx) {
    ctx.state.fo = bookFo(ctx.java);
  },
  command(ctx, runDir) {
    return { jvmArgs: ['-Djava.awt.headless=true'], cp: CP, main: 'org.apache.fop.cli.Main',
      args: ['-q', '-fo', ctx.state.fo, '-pdf', join(runDir, 'book.pdf')] };
  },
  // PDFs embed dates, so compare the page count and the extracted text instead of bytes.
  check(ctx, runDir) {
    const pdf = join(runDir, 'book.pdf');
    const info = sh('pdfinfo', [pdf]).stdout;
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
    const text = sh('pdftotext', [pdf, '-']).stdout;
    return { summary: `${pages} pages`, digest: `${pages}:${sha256(text)}` };
  },
};
