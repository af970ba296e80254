// The shape of a Java source file as the editor features need it: types (named, nested, local, anonymous)
// with their binary-name segments, and their methods with parameter types as simple names. Built from a
// language server's document symbols (symbols.ts) or HeapLens's own parse (java-outline.ts).
// Positions are 0-based lines and characters, like VS Code's. No `vscode` import.

export interface Pos { line: number; character: number }
export interface Span { start: Pos; end: Pos }

export type TypeKind = 'class' | 'interface' | 'enum' | 'record' | 'annotation' | 'anonymous' | 'local';

export interface OutlineMethod {
  /** the bytecode name: `<init>` for constructors, `<clinit>` for a static initializer block */
  name: string;
  /** parameter types as simple names with dims (`String`, `int[]`, `Entry[][]`); type variables as `?`; undefined when unknown */
  params?: string[];
  span: Span;
  /** where the lens goes and what "reveal" selects */
  nameSpan: Span;
}

export interface OutlineType {
  /** the binary-name segment: `Inner` for a member type, `1` for an anonymous class, `1Local` for a local class */
  name: string;
  kind: TypeKind;
  span: Span;
  nameSpan: Span;
  methods: OutlineMethod[];
  types: OutlineType[];
}

export interface JavaOutline {
  /** the package declaration (`com.acme`), '' for the default package */
  package: string;
  /** top-level types */
  types: OutlineType[];
  /** which source produced it */
  source: 'parser' | 'symbols';
}

export function contains(span: Span, line: number): boolean {
  return span.start.line <= line && line <= span.end.line;
}

/** The binary names (after the package) of every type of the outline, mapped to the type: `Outer$Inner`, `Outer$1`. */
export function typesByBinaryName(outline: JavaOutline): Map<string, OutlineType> {
  const out = new Map<string, OutlineType>();
  const visit = (t: OutlineType, prefix: string): void => {
    const name = prefix ? `${prefix}$${t.name}` : t.name;
    if (!out.has(name)) out.set(name, t);
    for (const k of t.types) visit(k, name);
  };
  for (const t of outline.types) visit(t, '');
  return out;
}

/** The package declared in Java source text, '' when none (a cheap scan, for files not parsed). */
export function packageOfSource(text: string): string {
  // comments before the declaration are skipped with the rest of the leading trivia
  const stripped = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
  const m = /^\s*(?:@[\w.]+(?:\([^)]*\))?\s*)*package\s+([\w.\s]+?)\s*;/.exec(stripped);
  return m ? m[1].replace(/\s+/g, '') : '';
}
