// The profile as the views need it: validated by the host (this side trusts it), trees built on demand and cached per
// (CPU or allocations, thread, only-my-code, collapse-recursion, inverted). Built here, or — for a profile the load
// worker holds (webview/load/) — asked of the worker: then tree() throws TreePending until the tree has arrived, and
// the app draws again when it does.
import { Accounts, accountsOf } from '../core/views/accounts';
import { CpuProfile, cpuProfile } from '../core/views/cpu-flame';
import { FrameTree, frameTree } from '../core/views/frames';
import { includePatterns, isMyCode } from '../core/profile/names';
import { trustedProfile } from '../core/profile/trusted';
import { collapseRecursion, foldFrames } from '../core/views/transform';
import { mergeShared } from '../core/views/merge-shared';
import { invertPruned } from '../core/views/invert-pruned';
import { defaultTree, TreeKind, treesIn, withTree } from '../core/profile/modes';
import { MctNode, MethodEntry, Profile, ProfileFile } from '../core/profile/types';
import { timed } from './timing';

export interface TreeOptions {
  thread: number;
  myCode: boolean;
  collapseRecursion: boolean;
  inverted: boolean;
  /** the threads profile's CPU samples instead of the allocation data (see cpu()) */
  cpu?: boolean;
}

/** tree() of a worker-held profile before the tree arrived: the app shows progress and renders again on arrival. */
export class TreePending extends Error {
  constructor() {
    super('the tree is being built');
  }
}

/** Where a worker-held profile's trees come from (webview/load/loader.ts). */
export interface RemoteTrees {
  kinds: TreeKind[];
  defaultKind: TreeKind;
  /** asks for a tree; the answer comes through ProfileData.accept */
  request(data: ProfileData, kind: TreeKind, key: string, o: TreeOptions): void;
  /** the whole profile file, parsed here (on this thread) for the few uses that need the call trees themselves */
  fullFile(): ProfileFile;
}

/** A worker that builds some trees of a profile parsed on the page too (loader.ts, prepare): those it offers. */
export interface TreeHelper {
  offers(kind: TreeKind, key: string): boolean;
  request(data: ProfileData, kind: TreeKind, key: string, o: TreeOptions): void;
}

export function treeKey(o: TreeOptions, cpu = !!o.cpu): string {
  return `${cpu}|${o.thread}|${o.myCode}|${o.collapseRecursion}|${o.inverted}`;
}

export class ProfileData {
  /** The profile with the chosen mode's tree as every thread's root (see useTree). */
  profile: Profile;
  /** Which mode's data the views show now, and which the profile holds. */
  kind: TreeKind;
  readonly kinds: TreeKind[];
  /** the kind shown when the user did not choose */
  readonly defaultKind: TreeKind;
  private readonly base: Profile;
  private local?: ProfileData;
  /** builds the trees it offers (the inverted one, ahead) for a profile parsed here */
  helper?: TreeHelper;
  private readonly trees = new Map<string, FrameTree>();
  private readonly roots = new Map<string, MctNode>();
  private readonly mine = new Map<number, boolean>();
  private readonly include: string[];

  /** `remote`: the file has no call trees (`root: {}`); the worker that holds them builds the trees */
  /**
   * `partial`: only a first section's tree (webview/load/first-paint.ts), until the whole profile replaces it: the
   * views other than the flame tree say the profile is loading
   */
  constructor(readonly file: ProfileFile, readonly title: string, private readonly remote?: RemoteTrees, kind?: TreeKind,
    readonly partial = false) {
    // validated once by the host where the bytes came in (the webview trusts what the host sends)
    this.base = timed('index', () => trustedProfile(file));
    this.kinds = remote ? remote.kinds : treesIn(this.base);
    this.defaultKind = remote ? remote.defaultKind : defaultTree(this.base);
    this.kind = kind && this.kinds.includes(kind) ? kind : this.defaultKind;
    this.profile = withTree(this.base, this.kind);
    this.include = includePatterns(file.meta.options);
  }

  /** Shows another mode's data ('auto': exact when present); an absent kind falls back to the default. */
  useTree(kind: TreeKind | 'auto'): void {
    const k = kind !== 'auto' && this.kinds.includes(kind) ? kind : this.defaultKind;
    if (k === this.kind) return;
    this.kind = k;
    this.profile = withTree(this.base, k);
    this.trees.clear();
    this.roots.clear();
  }

  /** Whether the method is "my code" (profiled, outside the JDK, inside the include filter); CPU frames too. */
  isMine(method: number): boolean {
    let v = this.mine.get(method);
    if (v === undefined) {
      const m = this.profile.methods.get(method) ?? this.cpu()?.profile.methods.get(method);
      this.mine.set(method, (v = isMyCode(m, this.include)));
    }
    return v;
  }

  /** isMine for a class of the whole tree a first section lists (its methods are not all in the section). */
  isMineClass(cls: string, profiled: boolean): boolean {
    return isMyCode({ id: -1, class: cls, name: '', desc: '', profiled }, this.include);
  }

  private cpuCache?: { value: CpuProfile | undefined };

  /** The CPU samples as a profile of call trees (cpu-flame.ts), undefined when the profile has none. */
  cpu(): CpuProfile | undefined {
    if (!this.cpuCache) this.cpuCache = { value: timed('cpu', () => cpuProfile(this.base, this.file.threadsProfile)) };
    return this.cpuCache.value;
  }

  /** The profile whose trees the options ask for: the CPU one, or the chosen mode's allocations. */
  private source(cpu: boolean | undefined): Profile {
    return (cpu && this.cpu()?.profile) || this.profile;
  }

  /** The methods the frames of `tree({ cpu })` name (the CPU trees add methods the agent never registered). */
  methods(cpu?: boolean): ReadonlyMap<number, MethodEntry> {
    return this.source(cpu).methods;
  }

  /** The threads of the allocation data, or those with CPU samples. */
  threads(cpu?: boolean): Profile['threads'] {
    return this.source(cpu).threads;
  }

  /** The thread's tree (all threads merged for -1; an unknown thread id falls back to the merge). */
  root(thread: number, cpu?: boolean): MctNode {
    if (this.remote && !(cpu && this.cpu())) {
      // the call trees are in the worker: parse the file here once (the diff's after side needs the nodes themselves)
      this.local ??= new ProfileData(this.remote.fullFile(), this.title);
      this.local.useTree(this.kind);
      return this.local.root(thread);
    }
    const key = `${cpu ? 'cpu' : ''}${thread}`;
    let r = this.roots.get(key);
    if (!r) {
      const threads = this.threads(cpu);
      const t = threads.find((x) => x.id === thread);
      // shared merge: subtrees only one thread has are not copied (merge-shared.ts)
      r = t ? t.root : timed('merge', () => mergeShared(threads.map((x) => x.root)));
      this.roots.set(key, r);
    }
    return r;
  }

  tree(o: TreeOptions): FrameTree {
    const cpu = !!o.cpu && !!this.cpu();
    const key = treeKey(o, cpu);
    let t = this.trees.get(key);
    if (!t && ((this.remote && !cpu) || this.helper?.offers(this.kind, key))) {
      (this.remote ?? this.helper)!.request(this, this.kind, key, { ...o, cpu: false });
      throw new TreePending();
    }
    if (!t) {
      let root = this.root(o.thread, cpu);
      if (o.myCode) root = foldFrames(root, (m) => this.isMine(m));
      if (o.collapseRecursion) root = collapseRecursion(root);
      // grouped inversion: callers holding under 1/10,000 of every metric stay folded into the frame above (invert-pruned.ts)
      if (o.inverted) root = timed('invert', () => invertPruned(root, this.source(cpu).types));
      const from = root;
      const p = this.source(cpu);
      t = timed('flatten', () => frameTree(from, p.methods, p.types));
      this.trees.set(key, t);
    }
    return t;
  }

  /** A tree the worker built (dropped when the shown kind changed meanwhile). */
  accept(kind: TreeKind, key: string, tree: FrameTree): void {
    if (kind === this.kind) this.trees.set(key, tree);
  }

  /** Whether the tree is here already (tree() would not throw TreePending). */
  has(o: TreeOptions): boolean {
    return this.trees.has(treeKey(o, !!o.cpu && !!this.cpu()));
  }

  /** Drops a cached tree (the worker, after handing its buffers to the page). */
  forget(o: TreeOptions): void {
    this.trees.delete(treeKey(o, !!o.cpu && !!this.cpu()));
  }

  private accountsCache?: { value: Accounts | undefined };

  /** The memory accounts section (validated once), undefined when the launch defined none. */
  accounts(): Accounts | undefined {
    if (!this.accountsCache) this.accountsCache = { value: accountsOf(this.file) };
    return this.accountsCache.value;
  }

  threadName(thread: number, cpu?: boolean): string {
    return this.threads(cpu).find((t) => t.id === thread)?.name ?? 'all threads';
  }
}
