// Lifetime hints in the editor (Pan 2001 (HUP) §3.1.1): an Information diagnostic at each allocation line whose objects
// carry at least HINT_SHARE of the profile's lag, drag or void space, saying what was measured and which of HUP's
// transformations it suggests to check. The text comes from core/views/lifetimes.ts (lifetimeHints).
import * as vscode from 'vscode';
import { sourcePathOf } from '../../core/views/by-line';
import { LifetimeHint, lifetimeHints, lifetimesOf } from '../../core/views/lifetimes';
import { Profile } from '../../core/profile/types';
import { documentSourceKey, isJavaDocument } from './lenses';
import { ProfileSources } from './sources';

export function registerLifetimeHints(sources: ProfileSources): vscode.Disposable[] {
  const diagnostics = vscode.languages.createDiagnosticCollection('heaplens-lifetimes');
  let cached: { profile: Profile; hints: LifetimeHint[] } | undefined;

  const hintsFor = (profile: Profile): LifetimeHint[] => {
    if (cached?.profile === profile) return cached.hints;
    let hints: LifetimeHint[] = [];
    try {
      const l = lifetimesOf(profile);
      if (l) hints = lifetimeHints(profile, l, sourcePathOf);
    } catch {
      hints = [];                                    // an invalid section is reported by the views, not here
    }
    cached = { profile, hints };
    return hints;
  };

  const diagnose = (doc: vscode.TextDocument): void => {
    if (!isJavaDocument(doc)) return;
    const source = sources.active();
    const profile = source?.profile();
    if (!profile) {
      diagnostics.delete(doc.uri);
      return;
    }
    const key = documentSourceKey(doc);
    const out: vscode.Diagnostic[] = [];
    for (const h of hintsFor(profile)) {
      if (h.source !== key || h.line < 1 || h.line > doc.lineCount) continue;
      const line = doc.lineAt(h.line - 1);
      const range = new vscode.Range(h.line - 1, line.firstNonWhitespaceCharacterIndex, h.line - 1, line.text.length);
      const d = new vscode.Diagnostic(range, h.message, vscode.DiagnosticSeverity.Information);
      d.source = `HeapLens (${source?.label ?? 'profile'})`;
      d.code = `${h.kind} space`;
      out.push(d);
    }
    diagnostics.set(doc.uri, out);
  };

  const refresh = (): void => {
    for (const doc of vscode.workspace.textDocuments) diagnose(doc);
  };

  return [
    diagnostics,
    sources.onDidChange(refresh),
    vscode.workspace.onDidOpenTextDocument(diagnose),
    vscode.workspace.onDidCloseTextDocument((doc) => diagnostics.delete(doc.uri)),
  ];
}
