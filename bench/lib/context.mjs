// The environment of one bench run: JDK under test, agent jar, machine facts.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { JDKS, ROOT, WORK, agentJarCandidates } from './paths.mjs';
import { sh } from './sh.mjs';
import { sha256 } from './digest.mjs';

export function findAgentJar() {
  const envJar = process.env.HEAPLENS_AGENT;
  if (envJar) return existsSync(envJar) ? envJar : null; // an explicit override is never second-guessed
  return agentJarCandidates().find((f) => existsSync(f)) || null;
}

/**
 * Where the bench keeps its copy of the agent jar: one directory per build, the file keeping the name the jar's
 * manifest gives in Boot-Class-Path (heaplens-agent.jar), as users run it. A renamed jar takes another start: the
 * application class loader loads the agent, opening every jar of the class path before the agent's own, and the
 * agent copies its recorder out to a temporary jar. That work was the program's (smoke: −4.09 % against HotSpot's
 * counter with the renamed copy, docs/reliability.md §2h).
 */
export function privateAgentJar(sha) {
  return join(WORK, 'agent', sha, 'heaplens-agent.jar');
}

export function makeContext(opts) {
  const jdkHome = JDKS[opts.jdk];
  if (!jdkHome) throw new Error(`--jdk ${opts.jdk}: known JDKs are ${Object.keys(JDKS).join(', ')}`);
  const java = join(jdkHome, 'bin/java');
  if (!existsSync(java)) throw new Error(`${java} not found`);
  const version = sh(java, ['-version']).stderr.trim().split('\n');
  // The runs use a private copy, so a rebuild of dist/ during a long bench cannot change or break the agent midway.
  const found = findAgentJar();
  let agentJar = null, agentSha = null;
  if (found) {
    // A jar being rewritten by a concurrent build has no end-of-central-directory record yet: wait for it.
    let bytes = readFileSync(found);
    for (let i = 0; i < 60 && bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) < 0; i++) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
      bytes = readFileSync(found);
    }
    agentSha = sha256(bytes).slice(0, 12);
    agentJar = privateAgentJar(agentSha);
    mkdirSync(dirname(agentJar), { recursive: true });
    if (!existsSync(agentJar)) writeFileSync(agentJar, bytes);
    // the native heap sampler (sampler=jvmti) lies next to the jar, where the agent looks for it
    for (const f of readdirSync(dirname(found)).filter((n) => /^libheaplens-sampler-.*\.so$/.test(n))) {
      copyFileSync(join(dirname(found), f), join(dirname(agentJar), f));
    }
  }
  let gitCommit = null;
  try { gitCommit = sh('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { allowFail: true }).stdout.trim() || null; } catch { /* no git */ }
  mkdirSync(WORK, { recursive: true });
  return {
    jdk: opts.jdk,
    jdkHome,
    java,
    javaVersion: version[0],
    javaBuild: version[1] || '',
    agentJar,
    agentSource: found,
    agentSha,
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, memGB: Math.round(totalmem() / 2 ** 30) },
    gitCommit,
    jfc: {},
  };
}
