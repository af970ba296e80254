// The two JDKs the end-to-end suite runs on, and the repository's paths.
// Both JDKs are required: a missing one fails the suite loudly (no skipping).
import * as fs from 'fs';
import * as path from 'path';

export interface Jdk {
  /** short label used in test names: "17" or "25" */
  name: string;
  java: string;
  javac: string;
  /** what the profile's meta.jvm.version must start with, proving the CLI really ran this JDK */
  versionPrefix: string;
}

export const JDK17: Jdk = {
  name: '17',
  java: process.env.HEAPLENS_E2E_JDK17 ? path.join(process.env.HEAPLENS_E2E_JDK17, 'bin/java') : '/usr/bin/java',
  javac: process.env.HEAPLENS_E2E_JDK17 ? path.join(process.env.HEAPLENS_E2E_JDK17, 'bin/javac') : '/usr/bin/javac',
  versionPrefix: '17.',
};

const JDK25_HOME = process.env.HEAPLENS_E2E_JDK25 ?? '/usr/lib/jvm/temurin-25-jdk-amd64';
export const JDK25: Jdk = {
  name: '25',
  java: path.join(JDK25_HOME, 'bin/java'),
  javac: path.join(JDK25_HOME, 'bin/javac'),
  versionPrefix: '25',
};

export const JDKS: readonly Jdk[] = [JDK17, JDK25];

/** Throws (failing the calling hook/test) when a JDK's java or javac is missing. */
export function requireJdk(jdk: Jdk): void {
  for (const exe of [jdk.java, jdk.javac]) {
    try {
      fs.accessSync(exe, fs.constants.X_OK);
    } catch {
      throw new Error(`JDK ${jdk.name} is required by the e2e suite but ${exe} is not an executable`);
    }
  }
}

/**
 * The repository root: the nearest ancestor of this file holding package.json with name "heaplens" and
 * bin/heaplens (a compiled out/ tree may hold a copy of package.json).
 */
export const ROOT: string = (() => {
  let dir = __dirname;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && fs.existsSync(path.join(dir, 'bin', 'heaplens'))) {
      try {
        if (JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'heaplens') return dir;
      } catch {
        /* keep looking */
      }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the heaplens repository root above ${__dirname}`);
    dir = up;
  }
})();

export const FIXTURE_SOURCES = path.join(ROOT, 'test', 'fixtures', 'java');
export const FIXTURE_BUILD = path.join(ROOT, 'build', 'fixtures');
export const PROFILE_DIR = path.join(ROOT, 'build', 'e2e-profiles');
export const CLI = path.join(ROOT, 'bin', 'heaplens');

/** The application's own ASM (plain org.objectweb.asm) that the bundledasm fixture ships. */
export const APP_ASM_JAR = process.env.HEAPLENS_E2E_ASM_JAR
  ?? path.join(process.env.HOME ?? '/root', '.m2/repository/org/ow2/asm/asm/9.2/asm-9.2.jar');
