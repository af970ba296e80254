package io.heaplens.agent.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The agent's options (docs/agent-options.md). Parsing never throws: errors are collected and reported. */
public final class Options {
    public String out;
    public List<String> include = Collections.emptyList();
    public List<String> exclude = Collections.emptyList();
    public String mode = "exact";
    public int intervalMillis = 1000;
    /** gzip the profile: auto = the final write when the previous write was larger than 4 MB; on; off. */
    public String compress = "auto";
    public int maxDepth = 4096;
    public int maxNodes = 1_000_000;
    /** Whether maxNodes was given; when not, the budget also depends on the heap (collect.HeapGuard). */
    public boolean maxNodesSet;
    /** The option interval was given (else the low-overhead modes write less often: Collector.writeInterval). */
    public boolean intervalSet;
    /** Sampled mode: mean bytes between samples. */
    public int sampleBytes = 512 * 1024;
    /** Sampled mode: where samples come from: the agent's bytecode probes, or JFR's allocation samples (docs/modes.md). */
    /**
     * Where the sampled mode's samples come from: HotSpot's heap sampler through the native library (default; the
     * probes where it cannot load), the agent's bytecode probes, or JFR's TLAB events (docs/modes.md).
     */
    public String sampler = "jvmti";
    /** Whether sampleBytes was given (else each sampler has its own default). */
    public boolean sampleBytesGiven;
    /**
     * sampler=jvmti's mean interval by default. Measured (docs/benchmark.md "Issue 18, round 5"): 16 KiB cost 1.14–1.18×
     * CPU on h2 and luindex and 1.4–1.6× on checkstyle (a million samples of deep stacks); 64 KiB 1.02× and 1.20×, with
     * every type still within its stated interval, each interval twice as wide.
     */
    public static final int HEAP_SAMPLE_BYTES = 64 * 1024;

    /**
     * sampler=jvmti's rate budget, samples a second over the whole process (0: K stays fixed). A deep sample costs
     * ~9 µs (docs/benchmark.md "Issue 18, round 6"), so 5,000 a second hold sampling to at most ~4.5 % of one core,
     * and leave h2 and luindex (2,000–6,000 a second) near their fixed-K accuracy: 2,000 cost the same CPU within the
     * noise and lost them a third of their types within ±10 % ("Issue 18, round 7").
     */
    public int sampleRate = 5000;

    /** The mean interval of HotSpot's heap sampler (sampler=jvmti). */
    public int heapSampleBytes() { return sampleBytesGiven ? sampleBytes : HEAP_SAMPLE_BYTES; }
    /** Lifetime mode: every Nth object is tracked (1: every object). */
    public int sampleEvery = 1;
    /**
     * Lifetime mode: 0 = forced GCs spaced by the time budget (10 % of the run); else the precision as a share of
     * the bytes allocated (lifetimePrecision=1% → 0.01), whatever the forced GCs cost.
     */
    public double lifetimePrecisionShare;
    public boolean jdk = true;
    public boolean verbose;
    /** The start-up cache of transformed JDK classes: auto (the user's cache directory), off, or a directory. */
    public String startCache = "auto";
    public String portFile;
    /** Allocation-free leaf methods get no call-tree node (see ClassInstrumenter.isQuietLeaf). */
    public boolean skipLeaves = true;
    public String tokenFile;
    /** Write an HPROF dump of live objects to this file when the JVM exits. */
    public String heapDumpAtExit;
    /** Thread-aware CPU sampling, monitor contention and deadlock detection (docs/threads.md). */
    public boolean threads;
    public int cpuSampleMillis = 5;
    /** Memory account patterns (docs/accounts.md); {@code accounts=a.b,c.d.*} — later items without '=' continue the list. */
    public List<String> accounts = new ArrayList<>();
    /**
     * Accounts mode: off, sampled (every {@link #liveEvery}th object on average), exact, or auto (the default:
     * exact for the first {@link #liveExactFirst} objects, then sampled).
     */
    public String liveness = "auto";
    public int liveEvery = 32;
    public int liveExactFirst = 100_000;
    /** Accounts snapshots: period in ms (0 = only on request and at shutdown), and whether a full GC precedes each. */
    public int snapshotMillis = 5000;
    /** The memory chart: heap, GC and allocation rate sampled every this many ms (0: off). */
    public int memoryMillis = 500;
    public boolean snapshotGc;
    public final List<String> errors = new ArrayList<>();
    public final Map<String, String> raw = new LinkedHashMap<>();

    public static Options parse(String args) {
        Options o = new Options();
        if (args == null || args.isBlank()) return o;
        String last = null;
        for (String pair : args.split(",")) {
            if (pair.isBlank()) continue;
            int eq = pair.indexOf('=');
            if (eq < 0 && "accounts".equals(last)) {      // accounts=a.b,c.d.*: the list goes on
                o.accounts.addAll(o.patterns("accounts", pair));
                o.raw.put("accounts", o.raw.get("accounts") + "," + pair.trim());
                continue;
            }
            if (eq <= 0) { o.errors.add("option '" + pair + "' is not key=value"); continue; }
            last = pair.substring(0, eq).trim();
            String key = pair.substring(0, eq).trim(), value = pair.substring(eq + 1).trim();
            o.raw.put(key, value);
            switch (key) {
                case "out": o.out = value; break;
                case "include": o.include = o.patterns(key, value); break;
                case "exclude": o.exclude = o.patterns(key, value); break;
                case "mode":
                    if (!java.util.List.of("exact", "sites", "sampled", "paused", "accounts", "lifetime").contains(value)) {
                        o.errors.add("mode '" + value + "' is not supported (exact, sites, sampled, paused, accounts, lifetime)");
                    }
                    o.mode = value;
                    break;
                case "sampleBytes": o.sampleBytes = o.number(key, value, 1024, 1 << 30); o.sampleBytesGiven = true; break;
                case "sampler":
                    if (!java.util.List.of("probes", "jfr", "jvmti").contains(value)) o.errors.add("option 'sampler' must be jvmti, probes or jfr, not '" + value + "'");
                    else o.sampler = value;
                    break;
                case "sampleRate": o.sampleRate = o.number(key, value, 0, 1 << 30); break;
                case "sampleEvery": o.sampleEvery = o.number(key, value, 1, 1 << 30); break;
                case "lifetimePrecision": o.lifetimePrecisionShare = o.share(key, value); break;
                case "compress":
                    if (!java.util.List.of("auto", "on", "off").contains(value)) o.errors.add("option 'compress' must be auto, on or off, not '" + value + "'");
                    else o.compress = value;
                    break;
                case "interval": o.intervalMillis = o.number(key, value, 100, 3_600_000); o.intervalSet = true; break;
                case "maxDepth": o.maxDepth = o.number(key, value, 16, 1_000_000); break;
                case "maxNodes": o.maxNodes = o.number(key, value, 1000, Integer.MAX_VALUE); o.maxNodesSet = true; break;
                case "jdk": o.jdk = o.bool(key, value); break;
                case "verbose": o.verbose = o.bool(key, value); break;
                case "startCache": o.startCache = value.isEmpty() ? "auto" : value; break;
                case "portFile": o.portFile = value; break;
                case "leaves":
                    if (!value.equals("keep") && !value.equals("skip")) o.errors.add("option 'leaves' must be keep or skip, not '" + value + "'");
                    o.skipLeaves = value.equals("skip");
                    break;
                case "tokenFile": o.tokenFile = value; break;
                case "threads": o.threads = o.bool(key, value); break;
                case "cpuSampleMillis": o.cpuSampleMillis = o.number(key, value, 1, 1000); break;
                case "heapDumpAtExit":
                    if (!value.endsWith(".hprof")) o.errors.add("option 'heapDumpAtExit' must name a file ending with .hprof, not '" + value + "'");
                    o.heapDumpAtExit = value;
                    break;
                case "accounts": o.accounts.addAll(o.patterns(key, value)); break;
                case "liveness":
                    if (!java.util.List.of("off", "sampled", "exact", "auto").contains(value)) o.errors.add("option 'liveness' must be off, sampled, exact or auto, not '" + value + "'");
                    else o.liveness = value;
                    break;
                case "liveEvery": o.liveEvery = o.number(key, value, 2, 1 << 20); break;
                case "liveExactFirst": o.liveExactFirst = o.number(key, value, 0, Integer.MAX_VALUE); break;
                case "memoryInterval": o.memoryMillis = value.equals("0") ? 0 : o.number(key, value, 50, 3_600_000); break;
                case "snapshotInterval": o.snapshotMillis = value.equals("0") ? 0 : o.number(key, value, 100, 3_600_000); break;
                case "snapshotGc": o.snapshotGc = o.bool(key, value); break;
                default: o.errors.add("unknown option '" + key + "'");
            }
        }
        if (o.out != null && o.out.isEmpty()) o.errors.add("option 'out' needs a file name");
        if (o.mode.equals("accounts") && o.accounts.isEmpty()) o.errors.add("mode 'accounts' needs account patterns (accounts=a.b,c.d.*)");
        return o;
    }

    private List<String> patterns(String key, String value) {
        List<String> list = new ArrayList<>();
        for (String p : value.split(":")) {
            p = p.trim();
            if (p.isEmpty()) continue;
            if (!PackageFilter.isValidPattern(p)) errors.add("option '" + key + "': '" + p + "' is not a package pattern (a.b, a.b.* or *)");
            else list.add(p);
        }
        return list;
    }

    /** "auto" → 0 (time budget); "N%" with 0.1 ≤ N ≤ 50 → N / 100. */
    private double share(String key, String value) {
        if (value.equals("auto")) return 0;
        if (value.endsWith("%")) {
            try {
                double p = Double.parseDouble(value.substring(0, value.length() - 1));
                if (p >= 0.1 && p <= 50) return p / 100;
            } catch (NumberFormatException ignored) { }
        }
        errors.add("option '" + key + "' must be auto or a share of the bytes allocated from 0.1% to 50%, not '" + value + "'");
        return 0;
    }

    private int number(String key, String value, int min, int max) {
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) return n;
        } catch (NumberFormatException ignored) { }
        errors.add("option '" + key + "' must be a number from " + min + " to " + max + ", not '" + value + "'");
        return min;
    }

    private boolean bool(String key, String value) {
        if (value.equals("true")) return true;
        if (value.equals("false")) return false;
        errors.add("option '" + key + "' must be true or false, not '" + value + "'");
        return false;
    }
}
