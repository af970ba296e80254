// Where things live. Everything generated goes under bench/work/ (gitignored); results under bench/results/.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const BENCH = dirname(dirname(fileURLToPath(import.meta.url)));
export const ROOT = dirname(BENCH);
export const WORK = process.env.HEAPLENS_BENCH_WORK || join(BENCH, 'work');
export const RESULTS = join(BENCH, 'results');
export const SHARE_JAVA = '/usr/share/java';
export const JDKS = {
  17: '/usr/lib/jvm/java-17-openjdk-amd64',
  25: '/usr/lib/jvm/temurin-25-jdk-amd64',
};

// The agent jar: HEAPLENS_AGENT, else dist/, else the Maven output.
export function agentJarCandidates() {
  return [process.env.HEAPLENS_AGENT, join(ROOT, 'dist/heaplens-agent.jar'), join(ROOT, 'agent/target/heaplens-agent.jar')]
    .filter(Boolean);
}
