// A small, strict XML 1.0 parser for the tests: elements, attributes, text, the five predefined entities and
// character references; an XML declaration and comments are allowed. Anything not well-formed throws.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_:][\w.:-]*/;

function decode(s: string, where: number): string {
  if (s.includes('<')) throw new Error(`"<" in text or attribute value near offset ${where}`);
  return s.replace(/&([^;]*);?/g, (all, ent: string) => {
    if (!all.endsWith(';')) throw new Error(`unterminated entity near offset ${where}`);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (ent in named) return named[ent];
    const m = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(ent);
    if (!m) throw new Error(`unknown entity &${ent}; near offset ${where}`);
    return String.fromCodePoint(m[1].startsWith('x') ? parseInt(m[1].slice(1), 16) : Number(m[1]));
  });
}

export function parseXml(text: string): XmlElement {
  let i = 0;
  const skipMisc = (): void => {
    for (;;) {
      while (/\s/.test(text[i] ?? '')) i++;
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i);
        if (end < 0) throw new Error('unterminated comment');
        i = end + 3;
      } else return;
    }
  };
  if (text.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    if (end < 0) throw new Error('unterminated XML declaration');
    i = end + 2;
  }
  skipMisc();
  const element = (): XmlElement => {
    if (text[i] !== '<') throw new Error(`expected "<" at offset ${i}`);
    i++;
    const name = NAME.exec(text.slice(i))?.[0];
    if (!name) throw new Error(`expected an element name at offset ${i}`);
    i += name.length;
    const el: XmlElement = { name, attrs: {}, children: [], text: '' };
    for (;;) {
      const ws = /^\s*/.exec(text.slice(i))![0].length;
      i += ws;
      if (text.startsWith('/>', i)) {
        i += 2;
        return el;
      }
      if (text[i] === '>') {
        i++;
        break;
      }
      if (ws === 0) throw new Error(`expected whitespace before an attribute at offset ${i}`);
      const an = NAME.exec(text.slice(i))?.[0];
      if (!an) throw new Error(`expected an attribute name at offset ${i}`);
      i += an.length;
      if (text[i] !== '=' || (text[i + 1] !== '"' && text[i + 1] !== "'")) throw new Error(`attribute ${an} needs ="value" at offset ${i}`);
      const q = text[i + 1];
      const end = text.indexOf(q, i + 2);
      if (end < 0) throw new Error(`unterminated attribute ${an}`);
      if (an in el.attrs) throw new Error(`attribute ${an} given twice on <${name}>`);
      el.attrs[an] = decode(text.slice(i + 2, end), i);
      i = end + 1;
    }
    for (;;) {
      const lt = text.indexOf('<', i);
      if (lt < 0) throw new Error(`<${name}> is not closed`);
      el.text += decode(text.slice(i, lt), i);
      i = lt;
      if (text.startsWith('<!--', i)) {
        skipMisc();
        continue;
      }
      if (text.startsWith('</', i)) {
        const close = `</${name}>`;
        if (!text.startsWith(close, i)) throw new Error(`expected ${close} at offset ${i}`);
        i += close.length;
        return el;
      }
      el.children.push(element());
    }
  };
  const root = element();
  skipMisc();
  if (i !== text.length) throw new Error(`unexpected content after the root element at offset ${i}`);
  return root;
}

/** Every descendant element (depth first) with this name. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    out.push(...findAll(c, name));
  }
  return out;
}
