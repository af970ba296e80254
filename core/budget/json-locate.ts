// A JSON parser that keeps source offsets, so a file can be edited in place (only the changed numbers
// change, formatting and field order stay) and a value can be pointed at (editor diagnostics).

export type JsonNode =
  | { kind: 'object'; start: number; end: number; members: JsonMember[] }
  | { kind: 'array'; start: number; end: number; items: JsonNode[] }
  | { kind: 'string' | 'number' | 'boolean' | 'null'; start: number; end: number; value: unknown };

export interface JsonMember {
  key: string;
  keyStart: number;
  value: JsonNode;
}

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/** Parses JSON text (RFC 8259) into a tree of nodes with [start, end) offsets. */
export function parseJsonTree(text: string): JsonNode {
  let i = 0;
  const fail = (what: string): never => {
    const line = text.slice(0, i).split('\n').length;
    throw new JsonSyntaxError(`${what} at line ${line}`, i);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('control character in a string');
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail('bad escape in a string');
    }
  };
  /** The comma-separated entries after an opening bracket (at `i`) up to `close`; `i` ends after `close`. */
  const list = <T>(close: string, entry: () => T): T[] => {
    i++;
    const out: T[] = [];
    ws();
    if (text[i] === close) {
      i++;
      return out;
    }
    for (;;) {
      out.push(entry());
      ws();
      if (text[i] === ',') { i++; continue; }
      if (text[i] === close) { i++; return out; }
      fail(`expected "," or "${close}"`);
    }
  };
  const value = (): JsonNode => {
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      const members = list('}', (): JsonMember => {
        ws();
        if (text[i] !== '"') fail('expected a field name');
        const keyStart = i;
        const key = str();
        ws();
        if (text[i] !== ':') fail('expected ":"');
        i++;
        return { key, keyStart, value: value() };
      });
      return { kind: 'object', start, end: i, members };
    }
    if (c === '[') {
      const items = list(']', value);
      return { kind: 'array', start, end: i, items };
    }
    if (c === '"') {
      const v = str();
      return { kind: 'string', start, end: i, value: v };
    }
    const lit = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (!lit) return fail('expected a value');
    i += lit[0].length;
    const v = JSON.parse(lit[0]) as unknown;
    return { kind: v === null ? 'null' : typeof v === 'boolean' ? 'boolean' : 'number', start, end: i, value: v };
  };
  const root = value();
  ws();
  if (i < text.length) fail('unexpected text after the JSON value');
  return root;
}

export function member(node: JsonNode | undefined, key: string): JsonMember | undefined {
  return node?.kind === 'object' ? node.members.find((m) => m.key === key) : undefined;
}

/** The nodes of the `rules` array of a budget file, in order (empty when there is none). */
export function ruleNodes(root: JsonNode): JsonNode[] {
  const rules = member(root, 'rules')?.value;
  return rules?.kind === 'array' ? rules.items : [];
}

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping edits. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/**
 * The edit that sets `key` of an object node to the JSON `value`: replaces the existing value, or adds the
 * member after the last one, on its own line with the same indentation when the object spans lines.
 */
export function setMember(text: string, obj: JsonNode, key: string, value: string): TextEdit {
  if (obj.kind !== 'object') throw new Error('not an object');
  const have = obj.members.find((m) => m.key === key);
  if (have) return { start: have.value.start, end: have.value.end, text: value };
  const field = `${JSON.stringify(key)}: ${value}`;
  const last = obj.members[obj.members.length - 1];
  if (!last) return { start: obj.start + 1, end: obj.end - 1, text: ` ${field} ` };
  const lineStart = text.lastIndexOf('\n', last.keyStart) + 1;
  const before = text.slice(lineStart, last.keyStart);
  const sep = /^[ \t]*$/.test(before) ? `,\n${before}` : ', ';
  return { start: last.value.end, end: last.value.end, text: `${sep}${field}` };
}
