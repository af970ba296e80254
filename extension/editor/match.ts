// Profile methods → places in a Java outline: the class's binary name picks the type (package, nested
// `Outer$Inner`, anonymous `Outer$1`), then name + parameter types pick the method among overloads
// (desc → simple names), with the method's first line (LineNumberTable) to settle what names cannot:
// lambdas (`lambda$main$0` → main), synthetic parameters, type variables. What matches no declared
// method (field initializers, implicit constructors, synthetic methods) goes to its type. No `vscode` import.
import { packageOf } from '../../core/profile/names';
import { MethodEntry } from '../../core/profile/types';
import { contains, JavaOutline, OutlineMethod, OutlineType, typesByBinaryName } from './outline';

const PRIMITIVES: Record<string, string> = {
  B: 'byte', C: 'char', D: 'double', F: 'float', I: 'int', J: 'long', S: 'short', Z: 'boolean', V: 'void',
};

/** `(Ljava/util/Map$Entry;[[JI)V` → `['Entry', 'long[][]', 'int']`. */
export function descParams(desc: string): string[] {
  const out: string[] = [];
  const end = desc.indexOf(')');
  let i = desc.startsWith('(') ? 1 : 0;
  while (i < end) {
    let dims = 0;
    while (desc[i] === '[') {
      dims++;
      i++;
    }
    let name: string;
    if (desc[i] === 'L') {
      const semi = desc.indexOf(';', i);
      if (semi < 0) break;
      const binary = desc.slice(i + 1, semi);
      name = binary.slice(Math.max(binary.lastIndexOf('/'), binary.lastIndexOf('$')) + 1);
      i = semi + 1;
    } else {
      name = PRIMITIVES[desc[i]] ?? desc[i];
      i++;
    }
    out.push(name + '[]'.repeat(dims));
  }
  return out;
}

export interface Target {
  /** the type's binary name after the package (`Outer$Inner`) */
  typeName: string;
  type: OutlineType;
  /** undefined: the type itself (initializers, implicit constructors, synthetic methods) */
  method?: OutlineMethod;
}

const isPrimitive = (s: string): boolean => Object.values(PRIMITIVES).includes(s.replace(/(\[\])+$/, ''));

function paramsMatch(source: readonly string[], compiled: readonly string[]): boolean {
  if (source.length !== compiled.length) return false;
  return source.every((s, i) => s === compiled[i] || (s.startsWith('?') && !isPrimitive(compiled[i])
    && compiled[i].endsWith(s.slice(1))));
}

/** The source name a bytecode method belongs to: `lambda$main$0` → main, `lambda$new$1` → `<init>`. */
export function sourceMethodName(name: string): { name: string; lambda: boolean } {
  const m = /^lambda\$(.+)\$\d+$/.exec(name);
  if (!m) return { name, lambda: false };
  const encl = m[1] === 'new' ? '<init>' : m[1] === 'static' ? '<clinit>' : m[1];
  return { name: encl, lambda: true };
}

function byLine(methods: readonly OutlineMethod[], line0: number | undefined): OutlineMethod | undefined {
  if (line0 === undefined) return undefined;
  // the innermost method containing the line (an anonymous class's method sits inside another method)
  return methods.filter((m) => contains(m.span, line0)).sort((a, b) => (b.span.start.line - a.span.start.line))[0];
}

function pickMethod(type: OutlineType, m: MethodEntry): OutlineMethod | undefined {
  const { name, lambda } = sourceMethodName(m.name);
  const line0 = m.line !== undefined ? m.line - 1 : undefined;
  const named = type.methods.filter((x) => x.name === name);
  if (lambda) return byLine(named, line0) ?? (named.length === 1 ? named[0] : undefined) ?? byLine(type.methods, line0);
  if (name === '<clinit>') return byLine(named, line0) ?? named[0];
  if (named.length === 0) return undefined;
  const compiled = descParams(m.desc);
  const exact = named.filter((x) => x.params && paramsMatch(x.params, compiled));
  if (exact.length === 1) return exact[0];
  // constructors of inner classes and enums carry synthetic leading parameters (outer instance, name, ordinal)
  const suffix = name === '<init>'
    ? named.filter((x) => x.params && x.params.length < compiled.length && paramsMatch(x.params, compiled.slice(compiled.length - x.params.length)))
    : [];
  const pool = exact.length ? exact : suffix.length ? suffix : named;
  const hit = byLine(pool, line0) ?? (pool.length === 1 ? pool[0] : undefined);
  if (hit) return hit;
  if (exact.length || suffix.length) return pool[0];
  // parameters unknown (a language server that did not give them) or not understood: arity, then nothing
  const arity = named.filter((x) => !x.params || x.params.length === compiled.length);
  return arity.length === 1 ? arity[0] : undefined;
}

export class OutlineMatcher {
  private readonly types: Map<string, OutlineType>;
  private readonly topNames: Set<string>;

  constructor(readonly outline: JavaOutline) {
    this.types = typesByBinaryName(outline);
    this.topNames = new Set(outline.types.map((t) => t.name));
  }

  /** Whether a class can be declared in this file (package and top-level type). */
  declares(cls: string): boolean {
    if (packageOf(cls) !== this.outline.package) return false;
    const rest = this.outline.package ? cls.slice(this.outline.package.length + 1) : cls;
    return this.topNames.has(rest.split('$')[0]);
  }

  match(m: MethodEntry): Target | undefined {
    if (!this.declares(m.class)) return undefined;
    const rest = this.outline.package ? m.class.slice(this.outline.package.length + 1) : m.class;
    const parts = rest.split('$');
    // the type itself, else the nearest enclosing type the outline knows (an anonymous class it numbered differently)
    for (let n = parts.length; n > 0; n--) {
      const typeName = parts.slice(0, n).join('$');
      const type = this.types.get(typeName);
      if (!type) continue;
      if (n < parts.length) {
        const line0 = m.line !== undefined ? m.line - 1 : undefined;
        if (line0 === undefined) return { typeName, type };
        const t = innermostType(typeName, type, line0);
        return { ...t, method: byLine(t.type.methods, line0) };
      }
      return { typeName, type, method: pickMethod(type, m) };
    }
    return undefined;
  }
}

/** The innermost nested type of `type` whose span contains the line (itself when none). */
function innermostType(typeName: string, type: OutlineType, line0: number): { typeName: string; type: OutlineType } {
  for (const k of type.types) {
    if (contains(k.span, line0)) return innermostType(`${typeName}$${k.name}`, k, line0);
  }
  return { typeName, type };
}
