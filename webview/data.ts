// The profile as the views need it: validated by the host (this side trusts it), trees built on demand and cached per
// (CPU or allocations, thread, only-my-code, collapse-recursion, inverted).
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

export class ProfileData {
  /** The profile with the chosen mode's tree as every thread's root (see useTree). */
  profile: Profile;
  /** Which mode's data the views show now, and which the profile holds. */
  kind: TreeKind;
  readonly kinds: TreeKind[];
  private readonly base: Profile;
  private readonly trees = new Map<string, FrameTree>();
  private readonly roots = new Map<string, MctNode>();
  private readonly mine = new Map<number, boolean>();
  private readonly include: string[];

  constructor(readonly file: ProfileFile, readonly title: string) {
    // validated once by the host where the bytes came in (the webview trusts what the host sends)
    this.base = timed('index', () => trustedProfile(file));
    this.kinds = treesIn(this.base);
    this.kind = defaultTree(this.base);
    this.profile = withTree(this.base, this.kind);
    this.include = includePatterns(file.meta.options);
  }

  /** Shows another mode's data ('auto': exact when present); an absent kind falls back to the default. */
  useTree(kind: TreeKind | 'auto'): void {
    const k = kind !== 'auto' && this.kinds.includes(kind) ? kind : defaultTree(this.base);
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
    const key = `${cpu}|${o.thread}|${o.myCode}|${o.collapseRecursion}|${o.inverted}`;
    let t = this.trees.get(key);
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
