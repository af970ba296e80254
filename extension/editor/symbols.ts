// A Java language server's document symbols (vscode.executeDocumentSymbolProvider) → the outline.
// Eclipse JDT LS names methods `add(String, int...)` and constructors `Entry(String, int)`, anonymous
// classes `new Runnable() {...}`, and gives no package, so the package comes from the source text.
// Structural types only (no `vscode` import) so it can be unit-tested.
import { JavaOutline, OutlineMethod, OutlineType, packageOfSource, Span, TypeKind } from './outline';

/** vscode.SymbolKind values used here */
export const SYMBOL_KIND = { Package: 3, Class: 4, Method: 5, Constructor: 8, Enum: 9, Interface: 10, Function: 11, Struct: 22 } as const;

export interface SymbolLike {
  name: string;
  detail?: string;
  kind: number;
  range: Span;
  selectionRange: Span;
  children?: SymbolLike[];
}

const TYPE_KINDS: Record<number, TypeKind> = {
  [SYMBOL_KIND.Class]: 'class', [SYMBOL_KIND.Enum]: 'enum', [SYMBOL_KIND.Interface]: 'interface', [SYMBOL_KIND.Struct]: 'record',
};

/** `Map.Entry<String, Integer>[]` → `Entry[]`; `int...` → `int[]`; `T` (a likely type variable) → `?`. */
export function simpleParam(text: string): string {
  let t = text.trim().replace(/@\w+(\([^)]*\))?\s*/g, '').replace(/\bfinal\s+/, '');
  let depth = 0;
  let out = '';
  for (const ch of t) {
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    else if (depth === 0) out += ch;
  }
  // a parameter name after the type (`String name`) is dropped
  const words = out.trim().split(/\s+/);
  if (words.length > 1 && /^[a-z_$][\w$]*$/.test(words[words.length - 1])) words.pop();
  t = words.join('').replace(/\.\.\.$/, '[]');
  const dims = /(\[\])*$/.exec(t)?.[0] ?? '';
  const base = t.slice(0, t.length - dims.length).split('.').pop() ?? t;
  return (/^[A-Z][A-Z0-9]?$/.test(base) ? '?' : base) + dims;
}

function splitParams(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of list) {
    if (ch === '<') depth++;
    if (ch === '>') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  if (cur.trim()) out.push(cur);
  return out;
}

function methodOf(s: SymbolLike, typeName: string): OutlineMethod | undefined {
  const open = s.name.indexOf('(');
  const bare = (open < 0 ? s.name : s.name.slice(0, open)).trim();
  if (/^static\b/.test(bare) || bare === 'static {...}') return { name: '<clinit>', params: [], span: s.range, nameSpan: s.selectionRange };
  if (open < 0) return undefined;
  const close = s.name.lastIndexOf(')');
  const params = splitParams(s.name.slice(open + 1, close < 0 ? undefined : close)).map(simpleParam);
  const name = s.kind === SYMBOL_KIND.Constructor || bare === typeName ? '<init>' : bare;
  return { name, params, span: s.range, nameSpan: s.selectionRange };
}

function typeOf(s: SymbolLike, name: string, kind: TypeKind): OutlineType {
  const t: OutlineType = { name, kind, span: s.range, nameSpan: s.selectionRange, methods: [], types: [] };
  let anonymous = 0;
  const locals = new Map<string, number>();
  const visit = (kids: readonly SymbolLike[], inCode: boolean): void => {
    for (const k of [...kids].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character)) {
      if (/^new\s/.test(k.name)) {
        t.types.push(typeOf(k, String(++anonymous), 'anonymous'));
        continue;
      }
      const tk = TYPE_KINDS[k.kind];
      if (tk) {
        let n = k.name.replace(/<.*$/, '').trim();
        if (inCode) {
          const i = (locals.get(n) ?? 0) + 1;
          locals.set(n, i);
          n = `${i}${n}`;
        }
        t.types.push(typeOf(k, n, inCode ? 'local' : tk));
        continue;
      }
      if (k.kind === SYMBOL_KIND.Method || k.kind === SYMBOL_KIND.Constructor || k.kind === SYMBOL_KIND.Function) {
        const m = methodOf(k, name);
        if (m) t.methods.push(m);
      }
      // anonymous classes inside methods are the method's children; fields and locals may hold some too
      if (k.children?.length) visit(k.children, true);
    }
  };
  visit(s.children ?? [], false);
  return t;
}

/** The outline from symbols, or undefined when they name no type (no Java language server answered). */
export function outlineFromSymbols(symbols: readonly SymbolLike[] | undefined, text: string): JavaOutline | undefined {
  if (!symbols?.length) return undefined;
  const types: OutlineType[] = [];
  const visitTop = (list: readonly SymbolLike[]): void => {
    for (const s of list) {
      const tk = TYPE_KINDS[s.kind];
      if (tk) types.push(typeOf(s, s.name.replace(/<.*$/, '').trim(), tk));
      else if (s.kind === SYMBOL_KIND.Package && s.children) visitTop(s.children);
    }
  };
  visitTop(symbols);
  if (types.length === 0) return undefined;
  return { package: packageOfSource(text), types, source: 'symbols' };
}
