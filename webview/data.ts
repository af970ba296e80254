// The profile as the views need it: validated once, trees built on demand and cached per
// (thread, only-my-code, collapse-recursion, inverted).
import { Accounts, accountsOf } from '../extension/model/accounts';
import { FrameTree, frameTree } from '../extension/model/frames';
import { includePatterns, isMyCode } from '../extension/model/names';
import { validateProfile } from '../extension/model/parse';
import { collapseRecursion, foldFrames, invert, mergeAll } from '../extension/model/transform';
import { defaultTree, TreeKind, treesIn, withTree } from '../extension/model/modes';
import { MctNode, Profile, ProfileFile } from '../extension/model/types';
import { timed } from './timing';

export interface TreeOptions {
  thread: number;
  myCode: boolean;
  collapseRecursion: boolean;
  inverted: boolean;
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
    this.base = timed('validate', () => validateProfile(file));
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

  /** Whether the method is "my code" (profiled, outside the JDK, inside the include filter). */
  isMine(method: number): boolean {
    let v = this.mine.get(method);
    if (v === undefined) this.mine.set(method, (v = isMyCode(this.profile.methods.get(method), this.include)));
    return v;
  }

  /** The thread's tree (all threads merged for -1; an unknown thread id falls back to the merge). */
  root(thread: number): MctNode {
    const key = String(thread);
    let r = this.roots.get(key);
    if (!r) {
      const t = this.profile.threads.find((x) => x.id === thread);
      r = t ? t.root : timed('merge', () => mergeAll(this.profile.threads.map((x) => x.root)));
      this.roots.set(key, r);
    }
    return r;
  }

  tree(o: TreeOptions): FrameTree {
    const key = `${o.thread}|${o.myCode}|${o.collapseRecursion}|${o.inverted}`;
    let t = this.trees.get(key);
    if (!t) {
      let root = this.root(o.thread);
      if (o.myCode) root = foldFrames(root, (m) => this.isMine(m));
      if (o.collapseRecursion) root = collapseRecursion(root);
      if (o.inverted) root = invert(root);
      const from = root;
      t = timed('flatten', () => frameTree(from, this.profile.methods, this.profile.types));
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

  threadName(thread: number): string {
    return this.profile.threads.find((t) => t.id === thread)?.name ?? 'all threads';
  }
}
