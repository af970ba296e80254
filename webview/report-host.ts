// The host of the standalone HTML report (`heaplens report --format html`): the profile is embedded in
// the page; exports download a file; "open source" shows where the frame is; a baseline for the Diff
// view is read from a local file the user picks (no network).
import { collapsedText } from '../core/export/collapsed';
import { cpuExportText } from '../core/export/cpu-export';
import { defaultTree, TreeKind, withTree } from '../core/profile/modes';
import { parseProfile } from '../core/profile/parse';
import { speedscope } from '../core/export/speedscope';
import { pprofBytes } from '../core/export/pprof';
import { ProfileFile } from '../core/profile/types';
import { Host } from './host';
import { BuiltTree, HostMessage, WebviewMessage } from '../core/protocol/webview-protocol';
import { joinTrees, ThreadTrees } from '../core/profile/tree-split';
import { hashState } from './state';

export interface EmbeddedData {
  title: string;
  profile: ProfileFile;
  baseline?: { title: string; profile: ProfileFile };
  /** the mode's data shown first (`heaplens report --tree`); the page can switch to any other */
  tree?: TreeKind;
}

function download(name: string, text: string | Blob, type: string): void {
  const url = URL.createObjectURL(typeof text === 'string' ? new Blob([text], { type }) : text);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function toast(text: string): void {
  let t = document.getElementById('toast');
  if (!t) {
    t = document.createElement('div');
    t.id = 'toast';
    t.setAttribute('role', 'status');
    document.body.append(t);
  }
  t.textContent = text;
  t.hidden = false;
  setTimeout(() => {
    if (t) t.hidden = true;
  }, 6000);
}

/**
 * The report's data as the page has it: the embedded JSON text (parsed by the load worker for the views) and what the
 * page needs before that (the title and first tree, from the script element's attributes). `embedded()` parses the
 * text on this thread, for the exports.
 */
export interface ReportSource {
  title: string;
  tree?: TreeKind;
  text: string;
  /** the first tree built by `heaplens report`; `text` then holds the profile without its call trees */
  built?: BuiltTree;
}

export function reportHost(source: ReportSource): Host {
  let parsed: EmbeddedData | undefined;
  const embedded = (): EmbeddedData => {
    if (!parsed) {
      parsed = JSON.parse(source.text) as EmbeddedData;
      if (source.built) parsed.profile = joinTrees(parsed.profile, JSON.parse(source.built.trees) as ThreadTrees[]);
    }
    return parsed;
  };
  const data = { title: source.title, tree: source.tree, get profile() { return embedded().profile; } };
  let handler: (msg: HostMessage) => void = () => undefined;
  let memory: unknown;
  const stem = data.title.replace(/\.heaplens$/, '').replace(/[^\w.-]+/g, '_') || 'profile';
  const post = (msg: WebviewMessage): void => {
    switch (msg.type) {
      case 'ready':
        // the text as it is (with its baseline, if any): the app hands it to the load worker
        handler({ type: 'profile', json: source.text, title: data.title, live: false, ...(source.built ? { built: source.built } : {}) });
        return;
      case 'navigate': {
        const f = msg.frame;
        const pkg = f.class.includes('.') ? f.class.slice(0, f.class.lastIndexOf('.')).replace(/\./g, '/') + '/' : '';
        toast(`${f.class}.${f.method} — ${f.file ? `${pkg}${f.file}${f.line !== undefined ? `:${f.line}` : ''}` : 'no source file recorded'} (open it in your editor; in VS Code, HeapLens opens it for you)`);
        return;
      }
      case 'export': {
        if (msg.format === 'pprof') {
          // pprof files are gzipped: the browser's own CompressionStream (no zlib in a page)
          const loaded = parseProfile(JSON.stringify(data.profile));
          const raw = new Blob([pprofBytes(withTree(loaded, msg.tree ?? defaultTree(loaded))) as BlobPart]);
          void new Response(raw.stream().pipeThrough(new CompressionStream('gzip'))).blob()
            .then((gz) => download(`${stem}.pb.gz`, gz, 'application/gzip'), (e: Error) => toast(`pprof export failed: ${e.message}`));
          return;
        }
        if (msg.metric === 'samples') {
          try {
            const text = cpuExportText(data.profile.threadsProfile, msg.format, stem);
            if (msg.format === 'collapsed') download(`${stem}.cpu.collapsed`, text, 'text/plain');
            else download(`${stem}.cpu.speedscope.json`, text, 'application/json');
          } catch (e) {
            toast((e as Error).message);
          }
          return;
        }
        const loaded = parseProfile(JSON.stringify(data.profile));
        const profile = withTree(loaded, msg.tree ?? defaultTree(loaded));
        if (msg.format === 'collapsed') download(`${stem}.${msg.metric}.collapsed`, collapsedText(profile, { metric: msg.metric, threads: false }), 'text/plain');
        else download(`${stem}.${msg.metric}.speedscope.json`, JSON.stringify(speedscope(profile, { metric: msg.metric })), 'application/json');
        return;
      }
      case 'snapshot':
        toast('Snapshots are taken from a live session in VS Code.');
        return;
      case 'pickBaseline': {
        const input = document.createElement('input');
        input.type = 'file';
        input.accept = '.heaplens,application/json';
        input.addEventListener('change', () => {
          const file = input.files?.[0];
          if (!file) return;
          file.text().then((text) => {
            handler({ type: 'baseline', profile: JSON.parse(text) as ProfileFile, title: file.name });
          }).catch((e: Error) => toast(`Cannot read ${file.name}: ${e.message}`));
        });
        input.click();
        return;
      }
    }
  };
  return {
    kind: 'report',
    post,
    getState: () => {
      let stored: unknown = memory;
      try {
        stored ??= JSON.parse(sessionStorage.getItem('heaplens-state') ?? 'null');
      } catch {
        // no storage for this page
      }
      return { ...(data.tree ? { data: data.tree } : {}), ...(typeof stored === 'object' && stored !== null ? stored : {}), ...hashState(location.hash) };
    },
    setState: (s) => {
      memory = s;
      try {
        sessionStorage.setItem('heaplens-state', JSON.stringify(s));
      } catch {
        // file:// pages may have no storage: the state then lives for this page only
      }
    },
    onMessage: (h) => {
      handler = h;
    },
  };
}
