// `heaplens run --java X`: X must be the java of a JDK 17 or newer, checked before the program is launched
// (`--java /bin/true` used to "succeed", `--java /usr/bin/python3` ran Python).
import { javaVersion, majorOf, MIN_JAVA } from '../launch/jdk';
import { UsageError } from './args';

/** Throws a UsageError naming the problem unless `java` reports a Java version of at least MIN_JAVA. */
export function requireJdk(java: string): void {
  const v = javaVersion(java);
  const major = v.version !== undefined ? majorOf(v.version) : undefined;
  if (major === undefined) {
    throw new UsageError(`${java} is not a Java runtime (asked for its version, it said: ${(v.error ?? 'nothing').slice(0, 200)}); give the java of a JDK ${MIN_JAVA} or newer with --java`);
  }
  if (major < MIN_JAVA) throw new UsageError(`${java} is Java ${v.version}; HeapLens needs Java ${MIN_JAVA} or newer (--java)`);
}
