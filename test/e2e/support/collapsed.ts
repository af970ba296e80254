// Parsing `heaplens report --format collapsed` output and selecting the lines of one fixture.
import * as assert from 'assert/strict';

/** `frame;…;TYPE COUNT` lines → stack → count. Throws on a malformed line or a duplicate stack. */
export function parseCollapsed(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line === '') continue;
    const sp = line.lastIndexOf(' ');
    if (sp <= 0) throw new Error(`malformed collapsed line (no count): ${JSON.stringify(line)}`);
    const stack = line.slice(0, sp);
    const countText = line.slice(sp + 1);
    if (!/^[0-9]+$/.test(countText)) throw new Error(`malformed collapsed count in ${JSON.stringify(line)}`);
    if (out.has(stack)) throw new Error(`duplicate collapsed stack: ${stack}`);
    out.set(stack, Number(countText));
  }
  return out;
}

/**
 * The lines at or below `prefix` (a `;`-joined frame path), keyed by what follows `prefix;`:
 * `TYPE` for allocations charged to the prefix's last frame itself, `callee;…;TYPE` below it.
 */
export function under(lines: Map<string, number>, prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  const p = prefix + ';';
  for (const key of [...lines.keys()].sort()) {
    if (key.startsWith(p)) out[key.slice(p.length)] = lines.get(key) as number;
  }
  return out;
}

/** Sum of all lines at or below `prefix`, optionally only those whose TYPE (last element) passes `typeFilter`. */
export function sumUnder(lines: Map<string, number>, prefix: string, typeFilter?: (type: string) => boolean): number {
  let n = 0;
  for (const [k, v] of Object.entries(under(lines, prefix))) {
    const type = k.slice(k.lastIndexOf(';') + 1);
    if (!typeFilter || typeFilter(type)) n += v;
  }
  return n;
}

/** Sum over every line whose last element (the type) equals `type` and whose stack contains `frame`. */
export function sumType(lines: Map<string, number>, type: string, frame?: string): number {
  let n = 0;
  for (const [k, v] of lines) {
    const parts = k.split(';');
    if (parts[parts.length - 1] !== type) continue;
    if (frame !== undefined && !parts.slice(0, -1).includes(frame)) continue;
    n += v;
  }
  return n;
}

/** Asserts that the lines at or below `prefix` are exactly `expected` (see `under`). */
export function assertUnder(lines: Map<string, number>, prefix: string, expected: Record<string, number>, what = ''): void {
  const got = under(lines, prefix);
  const sorted: Record<string, number> = {};
  for (const k of Object.keys(expected).sort()) sorted[k] = expected[k];
  assert.deepEqual(got, sorted, `${what ? what + ': ' : ''}collapsed lines under ${prefix}`);
}

/** Binder 2006's element code of an array type name (`int[]` → I, `int[][]` → R, `java.lang.Object[]` → R). */
export function elementCode(typeName: string): string | undefined {
  if (!typeName.endsWith('[]')) return undefined;
  const component = typeName.slice(0, -2);
  const codes: Record<string, string> = {
    byte: 'B', char: 'C', double: 'D', float: 'F', int: 'I', long: 'J', short: 'S', boolean: 'Z',
  };
  return codes[component] ?? 'R';
}
