// The configurations a workload runs under. Each is { name, jvmArgs(ctx) }, where ctx has
// { agentJar, profile (file to write, without extension), jfc: { alloc } }; `profile` says what kind of file it writes.
// A new agent mode is one more line: heaplens('sites'), heaplens('sampled', 'rate=1024'), …

export const plain = { name: 'plain', jvmArgs: () => [] };

export function heaplens(mode, extra = '') {
  const opts = (p) => [`out=${p}`, mode === 'exact' ? null : `mode=${mode}`, extra || null].filter(Boolean).join(',');
  return {
    name: `heaplens-${mode}`, profile: 'heaplens', ext: '.heaplens', needsAgent: true,
    jvmArgs: (c) => [`-javaagent:${c.agentJar}=${opts(c.profile + '.heaplens')}`],
  };
}

export function jfr(name, settings) {
  return {
    name, profile: 'jfr', ext: '.jfr',
    jvmArgs: (c) => [`-XX:StartFlightRecording=settings=${settings(c)},filename=${c.profile}.jfr`],
  };
}

export const CONFIGS = [
  plain,
  heaplens('exact'),
  jfr('jfr-profile', () => 'profile'),
  jfr('jfr-alloc', (c) => c.jfc.alloc),
  heaplens('sites'),
  heaplens('sampled'),
  heaplens('paused'),
  heaplens('lifetime', 'sampleEvery=1000'),
];

export const configByName = (n) => CONFIGS.find((c) => c.name === n);
