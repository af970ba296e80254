// Outlines of open Java documents, cached per document version: from the Java language server's document
// symbols when one answers, else from HeapLens's own parse (java-parser). A document that does not parse
// (being typed) keeps its last good outline.
import * as vscode from 'vscode';
import { JavaOutline } from './outline';
import { ParserHost } from './parser-host';
import { outlineFromSymbols, SymbolLike } from './symbols';

export type RangeSource = 'auto' | 'languageServer' | 'parser';

const SYMBOL_TIMEOUT_MS = 3000;

function toSpan(r: vscode.Range): SymbolLike['range'] {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

function toSymbolLike(s: vscode.DocumentSymbol): SymbolLike {
  return { name: s.name, detail: s.detail, kind: s.kind, range: toSpan(s.range), selectionRange: toSpan(s.selectionRange), children: s.children?.map(toSymbolLike) };
}

export class Outlines implements vscode.Disposable {
  private readonly cache = new Map<string, { version: number; outline: Promise<JavaOutline | undefined> }>();
  private readonly lastGood = new Map<string, JavaOutline>();
  private readonly sub: vscode.Disposable;
  private readonly parser: ParserHost;

  /** `workerFile`: dist/outline-worker.js (the parser runs in the calling thread without it) */
  constructor(private readonly mode: () => RangeSource, private readonly log: (m: string) => void, workerFile?: string) {
    this.parser = new ParserHost(workerFile, log);
    this.sub = vscode.workspace.onDidCloseTextDocument((d) => {
      this.cache.delete(d.uri.toString());
      this.lastGood.delete(d.uri.toString());
    });
  }

  /** The outline of a document's current version (computed once per version, also when asked concurrently). */
  get(doc: vscode.TextDocument): Promise<JavaOutline | undefined> {
    const key = doc.uri.toString();
    const hit = this.cache.get(key);
    if (hit && hit.version === doc.version) return hit.outline;
    const outline = this.compute(doc);
    this.cache.set(key, { version: doc.version, outline });
    return outline;
  }

  private async compute(doc: vscode.TextDocument): Promise<JavaOutline | undefined> {
    const mode = this.mode();
    const text = doc.getText();
    if (mode !== 'parser') {
      const fromLs = await this.fromSymbols(doc, text);
      if (fromLs || mode === 'languageServer') return fromLs;
    }
    const key = doc.uri.toString();
    try {
      const outline = await this.parser.parse(text);
      this.lastGood.set(key, outline);
      return outline;
    } catch (e) {
      this.log(`editor: ${vscode.workspace.asRelativePath(doc.uri)} does not parse (${(e as Error).message.split('\n')[0]}); keeping its last outline`);
      return this.lastGood.get(key);
    }
  }

  private async fromSymbols(doc: vscode.TextDocument, text: string): Promise<JavaOutline | undefined> {
    try {
      const symbols = await Promise.race([
        vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation>>('vscode.executeDocumentSymbolProvider', doc.uri),
        new Promise<undefined>((r) => setTimeout(() => r(undefined), SYMBOL_TIMEOUT_MS)),
      ]);
      const tree = (symbols ?? []).filter((s): s is vscode.DocumentSymbol => 'children' in s && 'selectionRange' in s);
      return outlineFromSymbols(tree.map(toSymbolLike), text);
    } catch {
      return undefined;
    }
  }

  dispose(): void {
    this.sub.dispose();
    this.parser.dispose();
  }
}
