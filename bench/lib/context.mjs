// The environment of one bench run: JDK under test, agent jar, machine facts.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
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
  const agentJar = findAgentJar();
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
    agentSha: agentJar ? sha256(readFileSync(agentJar)).slice(0, 12) : null,
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, memGB: Math.round(totalmem() / 2 ** 30) },
    gitCommit,
    jfc: {},
  };
}
