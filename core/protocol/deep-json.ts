// JSON.stringify for documents of any depth. V8's JSON.stringify recurses and overflows the stack at a few
// thousand levels (a call tree a million calls deep); JSON.parse does not. Same output as JSON.stringify for
// plain data (objects, arrays, strings, numbers, booleans, null; undefined members left out, toJSON not used).

/** JSON.stringify(v), falling back to an iterative writer when the document is too deep for the native one. */
export function deepJson(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return iterativeJson(v);
  }
}

type Frame = { kind: 'a'; items: unknown[]; next: number } | { kind: 'o'; obj: Record<string, unknown>; keys: string[]; next: number; wrote: boolean };

function scalar(v: unknown): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string': return JSON.stringify(v);
    case 'number': return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean': return v ? 'true' : 'false';
    case 'bigint': throw new TypeError('Do not know how to serialize a BigInt');
    default: return undefined;     // undefined, functions, symbols
  }
}

/** The writer with its own stack: depth costs heap, not call stack. */
export function iterativeJson(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  /** Writes a scalar, or opens a container (pushing its frame); false when the value is not representable. */
  const begin = (v: unknown): boolean => {
    const s = scalar(v);
    if (s !== undefined) { out.push(s); return true; }
    if (typeof v !== 'object') return false;
    if (Array.isArray(v)) { out.push('['); stack.push({ kind: 'a', items: v, next: 0 }); return true; }
    out.push('{');
    stack.push({ kind: 'o', obj: v as Record<string, unknown>, keys: Object.keys(v as object), next: 0, wrote: false });
    return true;
  };
  if (!begin(root)) return undefined as unknown as string;
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    if (f.kind === 'a') {
      if (f.next === f.items.length) { out.push(']'); stack.pop(); continue; }
      if (f.next > 0) out.push(',');
      const item = f.items[f.next++];
      if (!begin(item)) out.push('null');
    } else {
      if (f.next === f.keys.length) { out.push('}'); stack.pop(); continue; }
      const key = f.keys[f.next++];
      const val = f.obj[key];
      if (val === undefined || typeof val === 'function' || typeof val === 'symbol') continue;
      out.push(`${f.wrote ? ',' : ''}${JSON.stringify(key)}:`);
      f.wrote = true;
      begin(val);
    }
  }
  return out.join('');
}
