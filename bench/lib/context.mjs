// The environment of one bench run: JDK under test, agent jar, machine facts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { JDKS, ROOT, WORK, agentJarCandidates } from './paths.mjs';
import { sh } from './sh.mjs';
import { sha256 } from './digest.mjs';

export function findAgentJar() {
  const envJar = process.env.HEAPLENS_AGENT;
  if (envJar) return existsSync(envJar) ? envJar : null; // an explicit override is never second-guessed
  return agentJarCandidates().find((f) => existsSync(f)) || null;
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
    mkdirSync(join(WORK, 'agent'), { recursive: true });
    agentJar = join(WORK, 'agent', `heaplens-agent-${agentSha}.jar`);
    if (!existsSync(agentJar)) writeFileSync(agentJar, bytes);
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
