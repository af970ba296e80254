// The allocation CodeLens above Java methods and constructors: what the method allocated itself (JDK
// code on its behalf included) with its share of the profile, and a second lens (or the tooltip) with
// callees included. A click shows the method in the flame tree (heaplens.focusMethod).
import * as path from 'path';
import * as vscode from 'vscode';
import { sourcePathOf } from '../../core/views/by-line';
import { Profile } from '../../core/profile/types';
import { FOCUS_COMMAND, FocusRequest, frameOf } from './refs';
import { COMMANDS } from '../commands';
import { FileLenses, fileLenses, MethodLens } from './lens-model';
import { hasCallees, inclusiveTitle, lensTitle, lensTooltip } from './lens-text';
import { treeLabel } from '../../core/profile/modes';
import { Outlines } from './outlines';
import { packageOfSource } from './outline';
import { ProfileSource, ProfileSources } from './sources';

export interface LensSettings {
  enabled: boolean;
  /** 'lens': a second lens with the inclusive total (when callees allocated); 'tooltip': only in the tooltip */
  inclusive: 'lens' | 'tooltip';
}

/** `demo/WordIndex.java` for a document whose package is `demo` (what sourcePathOf gives for its classes). */
export function documentSourceKey(doc: vscode.TextDocument): string {
  const pkg = packageOfSource(doc.getText());
  const name = path.basename(doc.uri.path);
  return pkg ? `${pkg.replace(/\./g, '/')}/${name}` : name;
}

export function isJavaDocument(doc: vscode.TextDocument): boolean {
  return doc.languageId === 'java' || doc.uri.path.endsWith('.java');
}

/** Source files (as sourcePathOf names them) that the profile's methods come from, per profile. */
const sourceIndex = new WeakMap<Profile, Set<string>>();
export function profileSources(profile: Profile): Set<string> {
  let s = sourceIndex.get(profile);
  if (!s) {
    s = new Set();
    for (const m of profile.methods.values()) {
      const p = sourcePathOf(m);
      if (p) s.add(p);
    }
    sourceIndex.set(profile, s);
  }
  return s;
}

export class AllocationLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private cache = new Map<string, FileLenses>();
  private cacheKey = '';

  constructor(private readonly sources: ProfileSources, private readonly outlines: Outlines, private readonly settings: () => LensSettings) {}

  refresh(): void {
    this.emitter.fire();
  }

  /** The lenses' data for a document (also used by the tests). */
  async lensesFor(doc: vscode.TextDocument): Promise<{ source: ProfileSource; data: FileLenses } | undefined> {
    const source = this.sources.active();
    const profile = source?.profile();
    if (!source || !profile || !isJavaDocument(doc)) return undefined;
    if (!profileSources(profile).has(documentSourceKey(doc))) return undefined;
    const key = `${source.id}#${source.revision}`;
    if (key !== this.cacheKey) {
      this.cache = new Map();
      this.cacheKey = key;
    }
    const docKey = `${doc.uri.toString()}@${doc.version}`;
    let data = this.cache.get(docKey);
    if (!data) {
      const outline = await this.outlines.get(doc);
      if (!outline) return undefined;
      data = fileLenses(profile, outline);
      this.cache.set(docKey, data);
    }
    return { source, data };
  }

  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const s = this.settings();
    if (!s.enabled) return [];
    const got = await this.lensesFor(doc);
    if (!got) return [];
    const out: vscode.CodeLens[] = [];
    const profile = got.source.profile();
    const estimated = profile?.shown === 'sampled' ? treeLabel('sampled', profile) : undefined;
    for (const l of got.data.lenses) {
      const range = new vscode.Range(l.anchor.start.line, l.anchor.start.character, l.anchor.start.line, l.anchor.start.character);
      const args = [focusRequest(got.source, l)];
      const tooltip = lensTooltip(l, estimated, profile?.file.meta?.options?.leaves === 'keep');
      out.push(new vscode.CodeLens(range, { title: lensTitle(l, !!estimated), tooltip, command: FOCUS_COMMAND, arguments: args }));
      if (s.inclusive === 'lens' && hasCallees(l)) out.push(new vscode.CodeLens(range, { title: inclusiveTitle(l), tooltip, command: FOCUS_COMMAND, arguments: args }));
      out.push(new vscode.CodeLens(range, { title: 'callers & callees', tooltip: 'Who called this method and what it allocated through any path, all its contexts merged', command: COMMANDS.showCallersCallees, arguments: args }));
    }
    return out;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export function focusRequest(source: ProfileSource, l: MethodLens): FocusRequest {
  // the declared method first (its lambdas after), largest first otherwise
  const members = [...l.members].sort((a, b) => Number(a.name.startsWith('lambda$')) - Number(b.name.startsWith('lambda$')));
  return { source: source.ref, frames: members.map(frameOf) };
}
