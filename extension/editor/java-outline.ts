// HeapLens's own Java outline, for workspaces without a Java language server: java-parser (the Prettier
// Java project's parser, a Chevrotain CST) → types with binary-name segments (member `Inner`, anonymous `1`
// numbered per enclosing class in source order as javac does, local `1Local`) and methods with parameter
// types as simple names. No `vscode` import.
import { parse } from 'java-parser';
import { JavaOutline, OutlineMethod, OutlineType, Pos, Span, TypeKind } from './outline';

// The CST as this module reads it (java-parser's own types are a closed union of named node types).
interface IToken {
  image: string;
  startOffset: number;
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
  tokenType: { name: string };
}
interface CstNode {
  name: string;
  children: Record<string, CstElement[]>;
  location: { startOffset: number; startLine: number; startColumn: number; endLine: number; endColumn: number };
}
type CstElement = CstNode | IToken;

interface Scope {
  type: OutlineType;
  typeParams: Set<string>;
  anonymous: number;
  locals: Map<string, number>;
  /** a record's component types, the parameters of its compact constructor */
  recordParams?: string[];
}

function isToken(e: CstElement): e is IToken {
  return (e as IToken).image !== undefined;
}

function offsetOf(e: CstElement): number {
  return isToken(e) ? e.startOffset : e.location.startOffset;
}

/** Children in source order (the CST groups them by kind). */
function kids(n: CstNode): CstElement[] {
  return Object.values(n.children).flat().sort((a, b) => offsetOf(a) - offsetOf(b));
}

function node(n: CstNode | undefined, key: string): CstNode | undefined {
  const e = n?.children[key]?.[0];
  return e && !isToken(e) ? e : undefined;
}

function nodes(n: CstNode | undefined, key: string): CstNode[] {
  return (n?.children[key] ?? []).filter((e): e is CstNode => !isToken(e));
}

function token(n: CstNode | undefined, key: string): IToken | undefined {
  const e = n?.children[key]?.[0];
  return e && isToken(e) ? e : undefined;
}

/** Every token under a node, in source order. */
function allTokens(n: CstNode): IToken[] {
  const out: IToken[] = [];
  const stack: CstElement[] = [n];
  while (stack.length) {
    const e = stack.pop()!;
    if (isToken(e)) out.push(e);
    else for (const k of Object.values(e.children).flat()) stack.push(k);
  }
  return out.sort((a, b) => a.startOffset - b.startOffset);
}

function pos(line: number, column: number): Pos {
  return { line: line - 1, character: Math.max(0, column - 1) };
}

function spanOf(e: CstElement): Span {
  if (isToken(e)) return { start: pos(e.startLine, e.startColumn), end: pos(e.endLine, e.endColumn + 1) };
  const l = e.location;
  return { start: pos(l.startLine, l.startColumn), end: pos(l.endLine, l.endColumn + 1) };
}

function dimsOf(n: CstNode | undefined): number {
  return n ? allTokens(n).filter((t) => t.tokenType.name === 'LSquare').length : 0;
}

/** `Map.Entry<String, Integer>[]` → `Entry[]`; `int...` → `int[]`; a type variable → `?`. */
function simpleType(unannType: CstNode, extraDims: number, typeParams: ReadonlySet<string>): string {
  const prim = node(unannType, 'unannPrimitiveTypeWithOptionalDimsSuffix');
  if (prim) {
    const name = allTokens(node(prim, 'unannPrimitiveType')!)[0].image;
    return name + '[]'.repeat(dimsOf(node(prim, 'dims')) + extraDims);
  }
  const ref = node(unannType, 'unannReferenceType')!;
  const cls = node(node(ref, 'unannClassOrInterfaceType'), 'unannClassType');
  const ids = (cls?.children.Identifier ?? []).filter(isToken).sort((a, b) => a.startOffset - b.startOffset);
  const last = ids.length ? ids[ids.length - 1].image : '?';
  const name = ids.length === 1 && typeParams.has(last) ? '?' : last;
  return name + '[]'.repeat(dimsOf(node(ref, 'dims')) + extraDims);
}

function paramsOf(list: CstNode | undefined, typeParams: ReadonlySet<string>): string[] {
  return nodes(list, 'formalParameter').map((fp) => {
    const regular = node(fp, 'variableParaRegularParameter');
    if (regular) return simpleType(node(regular, 'unannType')!, dimsOf(node(node(regular, 'variableDeclaratorId'), 'dims')), typeParams);
    const arity = node(fp, 'variableArityParameter')!;
    return simpleType(node(arity, 'unannType')!, 1, typeParams);
  });
}

function typeParamsOf(n: CstNode | undefined): string[] {
  return nodes(node(n, 'typeParameterList'), 'typeParameter')
    .map((tp) => token(node(tp, 'typeIdentifier'), 'Identifier')?.image ?? '')
    .filter((s) => s !== '');
}

class OutlineBuilder {
  readonly types: OutlineType[] = [];
  pkg = '';

  scan(n: CstNode, scope: Scope | undefined, parent: string): void {
    switch (n.name) {
      case 'packageDeclaration':
        this.pkg = (n.children.Identifier ?? []).filter(isToken).map((t) => t.image).join('.');
        return;
      case 'classDeclaration':
      case 'interfaceDeclaration':
        this.declareType(n, scope, parent === 'blockStatement');
        return;
      case 'unqualifiedClassInstanceCreationExpression':
      case 'enumConstant': {
        const body = node(n, 'classBody');
        for (const k of kids(n)) if (k !== body && !isToken(k)) this.scan(k, scope, n.name);
        if (body && scope) {
          const name = String(++scope.anonymous);
          const nameTok = n.name === 'enumConstant' ? token(n, 'Identifier') : token(n, 'New');
          const t = this.newType(name, 'anonymous', n, nameTok ?? n);
          scope.type.types.push(t);
          this.scanBody(body, { type: t, typeParams: scope.typeParams, anonymous: 0, locals: new Map() });
        }
        return;
      }
      case 'methodDeclaration':
      case 'interfaceMethodDeclaration': {
        const header = node(n, 'methodHeader')!;
        const decl = node(header, 'methodDeclarator')!;
        const tps = new Set([...(scope?.typeParams ?? []), ...typeParamsOf(node(header, 'typeParameters'))]);
        this.addMethod(scope, n, token(decl, 'Identifier')!.image, paramsOf(node(decl, 'formalParameterList'), tps), token(decl, 'Identifier')!);
        break;
      }
      case 'constructorDeclaration': {
        const decl = node(n, 'constructorDeclarator')!;
        const tps = new Set([...(scope?.typeParams ?? []), ...typeParamsOf(node(decl, 'typeParameters'))]);
        this.addMethod(scope, n, '<init>', paramsOf(node(decl, 'formalParameterList'), tps), node(decl, 'simpleTypeName')!);
        break;
      }
      case 'compactConstructorDeclaration':
        this.addMethod(scope, n, '<init>', scope?.recordParams ?? [], node(n, 'simpleTypeName')!);
        break;
      case 'staticInitializer':
        this.addMethod(scope, n, '<clinit>', [], token(n, 'Static')!);
        break;
    }
    for (const k of kids(n)) if (!isToken(k)) this.scan(k, scope, n.name);
  }

  private addMethod(scope: Scope | undefined, n: CstNode, name: string, params: string[], nameEl: CstElement): void {
    if (!scope) return;
    const m: OutlineMethod = { name, params, span: spanOf(n), nameSpan: spanOf(nameEl) };
    scope.type.methods.push(m);
  }

  private newType(name: string, kind: TypeKind, n: CstNode, nameEl: CstElement): OutlineType {
    return { name, kind, span: spanOf(n), nameSpan: spanOf(nameEl), methods: [], types: [] };
  }

  /** classDeclaration / interfaceDeclaration (modifiers included in the span) */
  private declareType(n: CstNode, outer: Scope | undefined, local: boolean): void {
    const decl = node(n, 'normalClassDeclaration') ?? node(n, 'enumDeclaration') ?? node(n, 'recordDeclaration')
      ?? node(n, 'normalInterfaceDeclaration') ?? node(n, 'annotationInterfaceDeclaration');
    if (!decl) return;
    const kind: TypeKind = { normalClassDeclaration: 'class', enumDeclaration: 'enum', recordDeclaration: 'record',
      normalInterfaceDeclaration: 'interface', annotationInterfaceDeclaration: 'annotation' }[decl.name] as TypeKind;
    const idTok = token(node(decl, 'typeIdentifier'), 'Identifier');
    if (!idTok) return;
    let name = idTok.image;
    if (local && outer) {
      const k = (outer.locals.get(name) ?? 0) + 1;
      outer.locals.set(name, k);
      name = `${k}${name}`;
    }
    const t = this.newType(name, local ? 'local' : kind, n, idTok);
    if (outer) outer.type.types.push(t);
    else this.types.push(t);
    // a static member type does not see the outer type variables, an inner one does: keep them (best effort)
    const typeParams = new Set([...(outer?.typeParams ?? []), ...typeParamsOf(node(decl, 'typeParameters'))]);
    const scope: Scope = { type: t, typeParams, anonymous: 0, locals: new Map() };
    if (decl.name === 'recordDeclaration') {
      scope.recordParams = nodes(node(node(decl, 'recordHeader'), 'recordComponentList'), 'recordComponent').map((rc) =>
        simpleType(node(rc, 'unannType')!, node(rc, 'variableArityRecordComponent') ? 1 : 0, typeParams));
    }
    for (const k of kids(decl)) {
      if (isToken(k) || k.name === 'typeIdentifier' || k.name === 'typeParameters') continue;
      this.scanBody(k, scope);
    }
  }

  private scanBody(body: CstNode, scope: Scope): void {
    for (const k of kids(body)) if (!isToken(k)) this.scan(k, scope, body.name);
  }
}

/** The outline of a Java compilation unit; throws on source java-parser cannot parse. */
export function parseJavaOutline(text: string): JavaOutline {
  const cst = parse(text) as unknown as CstNode;
  const b = new OutlineBuilder();
  b.scan(cst, undefined, '');
  return { package: b.pkg, types: b.types, source: 'parser' };
}
