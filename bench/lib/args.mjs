// Command-line flags of `npm run bench` (node bench/run.mjs).
export const USAGE = `usage: node bench/run.mjs [flags]
  --smoke            the small workload only, plain + heaplens-exact, 1 round; asserts the harness works
  --quick            the headline ratios in a few minutes: luindex and h2, plain / exact / sampled / sites /
                     paused / JFR allocation profiling, 1 round, start-up with 3 runs each, no accuracy or
                     sampled-error runs (each default can still be set by its own flag)
  --rounds N         rounds per workload (default 3)
  --workloads a,b    javac,xalan,fop,luindex,h2 (default: all five); smoke is the small one
  --configs a,b      plain,heaplens-exact,jfr-profile,jfr-alloc (default: all); any heaplens-MODE works
  --jdk 17|25        the JDK under test (default 17; 25 = Temurin 25)
  --no-startup       skip the start-up measurement
  --startup-only     only the start-up measurement (no workloads, accuracy or sampled-error runs)
  --startup-reps N   hello-world runs per configuration in the start-up measurement (default 5)
  --no-accuracy      skip the -Xint allocation accuracy runs
  --accuracy a,b     workloads for the accuracy runs (default smoke,h2)
  --no-sampled-error skip the sampled mode's per-type error against exact counts
  --sampled-error a,b  workloads for it (default luindex,h2): each runs exact twice and sampled once
  --sample-bytes K   the sampled runs' mean sample interval, agent option sampleBytes (default 16384)
  --sampler S        the sampled-error runs' agent option sampler: probes (default), jvmti or jfr
  --prepare-only     install and prepare the workloads, run nothing
  --timeout S        seconds before a run is killed (default 900)
  --out DIR          where to write the table and JSON (default bench/results for a full default run,
                     bench/work/results otherwise)
  --tag T            name the result files jdkN-T.md/.json`;

/** `--quick`: the workloads and configurations behind the README's cost table. */
export const QUICK_WORKLOADS = ['luindex', 'h2'];
export const QUICK_CONFIGS = ['plain', 'heaplens-exact', 'heaplens-sampled', 'heaplens-sites', 'heaplens-paused', 'jfr-alloc'];

export function parseArgs(argv) {
  const o = { rounds: 3, jdk: '17', startup: true, accuracy: true, timeout: 900, workloads: null, configs: null,
    startupReps: 5, accuracyWorkloads: null,
    sampledError: true, sampledErrorWorkloads: null, sampleBytes: 16384, sampler: 'probes', smoke: false, quick: false, prepareOnly: false, out: null, explicit: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    const list = () => val().split(',').map((s) => s.trim()).filter(Boolean);
    switch (a) {
      case '--smoke': o.smoke = true; break;
      case '--quick': o.quick = true; o.rounds = 1; break;
      case '--rounds': o.rounds = Number(val()); o.explicit.add('rounds'); break;
      case '--workloads': o.workloads = list(); break;
      case '--configs': o.configs = list(); break;
      case '--jdk': o.jdk = val(); break;
      case '--no-startup': o.startup = false; break;
      case '--startup-only': o.startupOnly = true; break;
      case '--startup-reps': o.startupReps = Number(val()); o.explicit.add('startupReps'); break;
      case '--no-accuracy': o.accuracy = false; break;
      case '--accuracy': o.accuracyWorkloads = list(); break;
      case '--no-sampled-error': o.sampledError = false; break;
      case '--sampled-error': o.sampledErrorWorkloads = list(); break;
      case '--sample-bytes': o.sampleBytes = Number(val()); break;
      case '--sampler': o.sampler = val(); break;
      case '--prepare-only': o.prepareOnly = true; break;
      case '--timeout': o.timeout = Number(val()); break;
      case '--out': o.out = val(); break;
      case '--tag': o.tag = val(); break;
      case '-h': case '--help': o.help = true; break;
      default: throw new Error(`unknown flag ${a}\n${USAGE}`);
    }
  }
  if (!Number.isInteger(o.rounds) || o.rounds < 1) throw new Error('--rounds needs a positive integer');
  if (!Number.isInteger(o.startupReps) || o.startupReps < 1) throw new Error('--startup-reps needs a positive integer');
  if (o.startupOnly) {
    o.workloads = [];
    o.startup = true;
    o.accuracy = false;
    o.sampledError = false;
  }
  // the agent accepts sampleBytes from 1 KiB to 1 GiB
  if (!Number.isInteger(o.sampleBytes) || o.sampleBytes < 1024 || o.sampleBytes > 2 ** 30) throw new Error('--sample-bytes needs an integer from 1024 to 1073741824');
  if (!['probes', 'jvmti', 'jfr'].includes(o.sampler)) throw new Error('--sampler needs probes, jvmti or jfr');
  if (o.quick && !o.smoke) {
    // The headline figures of the README's cost table, on the two programs every cost round is measured on.
    o.workloads ??= QUICK_WORKLOADS;
    o.configs ??= QUICK_CONFIGS;
    if (!o.explicit.has('startupReps')) o.startupReps = 3;
    if (!o.accuracyWorkloads) o.accuracy = false;
    if (!o.sampledErrorWorkloads) o.sampledError = false;
  }
  if (o.smoke) {
    o.workloads = ['smoke'];
    o.configs ??= ['plain', 'heaplens-exact'];
    if (!o.explicit.has('rounds')) o.rounds = 1;
    // The smoke test stays short: start-up with 2 repetitions, no -Xint accuracy runs unless --accuracy is given.
    if (!o.explicit.has('startupReps')) o.startupReps = 2;
    if (!o.accuracyWorkloads) o.accuracy = false;
    if (!o.sampledErrorWorkloads) o.sampledError = false;
  }
  return o;
}
