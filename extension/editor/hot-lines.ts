// Hot allocation lines: the top N allocation lines of the active profile get a gutter mark scaled by
// rank, a background from a contributed theme colour, an after-line text, and a hover with the breakdown
// by type and the top calling contexts (links to the flame tree).
import * as vscode from 'vscode';
import { Totals, totals } from '../../core/views/aggregate';
import { hotLines, LineMetric, LineScope, LineTotals } from '../../core/views/by-line';
import { Profile } from '../../core/profile/types';
import { hotLineHover } from './hover-text';
import { heatLevel, hotLineText } from './lens-text';
import { FOCUS_COMMAND } from './refs';
import { documentSourceKey, isJavaDocument } from './lenses';
import { ProfileSource, ProfileSources } from './sources';

export interface HotLineSettings {
  enabled: boolean;
  count: number;
  metric: LineMetric;
  /** 'application': lines of classes outside the JDK; 'all': every line */
  scope: LineScope;
  afterText: boolean;
}

export interface ShownHotLine {
  /** 1-based */
  line: number;
  rank: number;
  level: number;
  text: string;
  hover: string;
}

const LEVELS = [1, 2, 3, 4, 5];

function background(level: number): vscode.ThemeColor {
  return new vscode.ThemeColor(level >= 4 ? 'heaplens.hotLineHighBackground' : level >= 2 ? 'heaplens.hotLineMediumBackground' : 'heaplens.hotLineLowBackground');
}

interface Ranked { profile: Profile; lines: LineTotals[]; total: Totals }

export class HotLines implements vscode.Disposable {
  private readonly types = new Map<number, vscode.TextEditorDecorationType>();
  private ranked: Ranked | undefined;
  private rankedKey = '';
  /** what each editor shows, by document URI (for the tests and the API) */
  private readonly shown = new Map<string, ShownHotLine[]>();

  constructor(mediaUri: vscode.Uri, private readonly sources: ProfileSources, private readonly settings: () => HotLineSettings) {
    for (const level of LEVELS) {
      this.types.set(level, vscode.window.createTextEditorDecorationType({
        gutterIconPath: vscode.Uri.joinPath(mediaUri, `heat-${level}.svg`),
        gutterIconSize: 'contain',
        backgroundColor: background(level),
        isWholeLine: true,
        overviewRulerColor: new vscode.ThemeColor('heaplens.hotLineRulerForeground'),
        overviewRulerLane: vscode.OverviewRulerLane.Right,
        after: { color: new vscode.ThemeColor('heaplens.hotLineAnnotationForeground'), margin: '0 0 0 3em', fontStyle: 'italic' },
      }));
    }
  }

  /** The ranked lines of the active profile (cached per source revision and settings). */
  private rankedFor(source: ProfileSource, s: HotLineSettings): Ranked | undefined {
    const key = `${source.id}#${source.revision}#${s.count}#${s.metric}#${s.scope}`;
    if (key === this.rankedKey && this.ranked) return this.ranked;
    const profile = source.profile();
    if (!profile) return undefined;
    this.ranked = { profile, lines: hotLines(profile, { scope: s.scope, metric: s.metric, limit: s.count }), total: totals(profile) };
    this.rankedKey = key;
    return this.ranked;
  }

  /** Redraws every visible Java editor. */
  update(): void {
    const s = this.settings();
    const source = this.sources.active();
    // the profile is read only for a visible Java editor: opening a profile's own editor does not parse it here
    const java = vscode.window.visibleTextEditors.some((e) => isJavaDocument(e.document));
    const ranked = java && s.enabled && source ? this.rankedFor(source, s) : undefined;
    this.shown.clear();
    for (const editor of vscode.window.visibleTextEditors) {
      if (!isJavaDocument(editor.document)) continue;
      const byLevel = new Map<number, vscode.DecorationOptions[]>(LEVELS.map((l) => [l, []]));
      if (ranked && source) {
        const key = documentSourceKey(editor.document);
        const shown: ShownHotLine[] = [];
        ranked.lines.forEach((l, i) => {
          if (l.source !== key || l.line < 1 || l.line > editor.document.lineCount) return;
          const rank = i + 1;
          const level = heatLevel(rank, ranked.lines.length);
          const text = hotLineText(l);
          const hover = hotLineHover({ profile: ranked.profile, line: l, rank, of: ranked.lines.length, total: ranked.total, sourceLabel: source.label, source: source.ref });
          const md = new vscode.MarkdownString(hover, true);
          md.isTrusted = { enabledCommands: [FOCUS_COMMAND] };
          const range = editor.document.lineAt(l.line - 1).range;
          byLevel.get(level)!.push({ range, hoverMessage: md, renderOptions: s.afterText ? { after: { contentText: text } } : undefined });
          shown.push({ line: l.line, rank, level, text, hover });
        });
        if (shown.length) this.shown.set(editor.document.uri.toString(), shown);
      }
      for (const [level, opts] of byLevel) editor.setDecorations(this.types.get(level)!, opts);
    }
  }

  shownIn(uri: vscode.Uri): ShownHotLine[] {
    return this.shown.get(uri.toString()) ?? [];
  }

  dispose(): void {
    for (const t of this.types.values()) t.dispose();
  }
}
