// Allocation budget files in the editor (issue "Allocation budgets in CI"): a CodeLens beside every rule with
// its measured value in the active profile, and a Problems-panel diagnostic for every rule the profile
// exceeds or cannot measure. The evaluation is `heaplens check`'s own (core/budget/budget-annotate.ts).
import * as vscode from 'vscode';
import { annotateBudget, BudgetAnnotations } from '../../core/budget/budget-annotate';
import { ProfileSources } from './sources';

/** The file names `heaplens check` budget files use (also contributed to jsonValidation). */
export function isBudgetFile(uri: vscode.Uri): boolean {
  return /(\.heaplens-budget\.json|(^|\/)heaplens-budgets\.json)$/.test(uri.path);
}

export function registerBudgets(sources: ProfileSources): vscode.Disposable[] {
  const diagnostics = vscode.languages.createDiagnosticCollection('heaplens-budgets');
  const changed = new vscode.EventEmitter<void>();

  const annotate = (doc: vscode.TextDocument): BudgetAnnotations | undefined => {
    const profile = sources.active()?.profile();
    return profile ? annotateBudget(doc.getText(), profile) : undefined;
  };

  const diagnose = (doc: vscode.TextDocument): void => {
    if (!isBudgetFile(doc.uri)) return;
    const a = annotate(doc);
    if (!a) {
      diagnostics.delete(doc.uri);
      return;
    }
    const out: vscode.Diagnostic[] = [];
    if (a.error) {
      const at = doc.positionAt(a.error.offset);
      out.push(new vscode.Diagnostic(new vscode.Range(at, at), `HeapLens budget: ${a.error.message}`, vscode.DiagnosticSeverity.Error));
    }
    for (const r of a.annotations) {
      if (r.verdict !== 'exceeded' && r.verdict !== 'missing') continue;
      const span = r.maxRange ?? r.range;
      const d = new vscode.Diagnostic(new vscode.Range(doc.positionAt(span.start), doc.positionAt(span.end)), `${r.name}: ${r.message}`,
        r.verdict === 'exceeded' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
      d.source = `HeapLens (${sources.active()?.label ?? 'profile'})`;
      out.push(d);
    }
    diagnostics.set(doc.uri, out);
  };

  const refresh = (): void => {
    for (const doc of vscode.workspace.textDocuments) diagnose(doc);
    changed.fire();
  };

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses(doc) {
      if (!isBudgetFile(doc.uri)) return [];
      const a = annotate(doc);
      if (!a) return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: 'HeapLens: open a profile to measure these budgets', command: '' })];
      const label = sources.active()?.label ?? 'profile';
      return a.annotations.map((r) => {
        const at = doc.positionAt(r.range.start);
        const mark = r.verdict === 'exceeded' ? '✗' : r.verdict === 'ok' ? '✓' : '?';
        return new vscode.CodeLens(new vscode.Range(at, at), { title: `${mark} ${r.lens} (${label})`, command: '' });
      });
    },
  };

  return [
    diagnostics, changed,
    vscode.languages.registerCodeLensProvider([{ pattern: '**/*.heaplens-budget.json' }, { pattern: '**/heaplens-budgets.json' }], lenses),
    sources.onDidChange(refresh),
    vscode.workspace.onDidOpenTextDocument(diagnose),
    vscode.workspace.onDidChangeTextDocument((e) => diagnose(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => diagnostics.delete(doc.uri)),
  ];
}
