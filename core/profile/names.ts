// Frame names for views: short and full forms, packages, and which frames are "my code".
import { MethodEntry } from './types';

/** `com.acme.Parser$Inner` → `com.acme`; the default package is `""`. */
export function packageOf(cls: string): string {
  const dot = cls.lastIndexOf('.');
  return dot < 0 ? '' : cls.slice(0, dot);
}

/** `com.acme.Parser$Inner` → `Parser$Inner`. */
export function shortClass(cls: string): string {
  return cls.slice(cls.lastIndexOf('.') + 1);
}

/** `Parser$Inner.parse` (no package). */
export function shortFrame(m: MethodEntry): string {
  return `${shortClass(m.class)}.${m.name}`;
}

/** `com.acme.Parser$Inner.parse`. */
export function fullFrame(m: MethodEntry): string {
  return `${m.class}.${m.name}`;
}

/** `com.acme.Parser$Inner.parse(Ljava/lang/String;)V (Parser.java:42)`. */
export function frameTitle(m: MethodEntry): string {
  const where = m.file ? ` (${m.file}${m.line !== undefined ? `:${m.line}` : ''})` : '';
  return `${m.class}.${m.name}${m.desc}${where}`;
}

const JDK_PREFIXES = ['java.', 'javax.', 'jdk.', 'sun.', 'com.sun.', 'org.ietf.jgss.', 'org.w3c.dom.', 'org.xml.sax.'];

/** Classes of the JDK's own packages. */
export function isJdkClass(cls: string): boolean {
  return JDK_PREFIXES.some((p) => cls.startsWith(p));
}

/** Whether a class matches an agent package pattern (`com.acme`, `com.acme.*`, `*`), docs/agent-options.md. */
export function matchesPattern(cls: string, pattern: string): boolean {
  if (pattern === '*') return true;
  const pkg = packageOf(cls);
  if (pattern.endsWith('.*')) {
    const base = pattern.slice(0, -2);
    return pkg === base || pkg.startsWith(base + '.');
  }
  return pkg === pattern;
}

/** The agent's `include` option as a pattern list (it separates items with `:`). */
export function includePatterns(options: Record<string, unknown> | undefined): string[] {
  const v = options?.include;
  if (typeof v === 'string') return v.split(/[:,]/).map((s) => s.trim()).filter((s) => s !== '');
  if (Array.isArray(v)) return v.filter((s): s is string => typeof s === 'string');
  return [];
}

/**
 * "My code": a profiled method outside the JDK's packages and, when the profile was taken with an
 * `include` filter, inside it. Everything else (the JDK, boundary frames such as ClassLoader.loadClass or
 * MethodHandleNatives.linkCallSite, libraries outside the filter) is folded by "only my code".
 */
export function isMyCode(m: MethodEntry | undefined, include: readonly string[] = []): boolean {
  if (!m || !m.profiled || isJdkClass(m.class)) return false;
  return include.length === 0 || include.some((p) => matchesPattern(m.class, p));
}
