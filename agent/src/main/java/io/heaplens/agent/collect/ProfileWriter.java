package io.heaplens.agent.collect;

import io.heaplens.agent.core.Options;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.Registry.MethodInfo;
import io.heaplens.agent.core.Registry.SiteInfo;
import io.heaplens.agent.core.Registry.TypeInfo;
import io.heaplens.agent.instrument.TransformStats;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Layout;
import io.heaplens.runtime.Node;
import io.heaplens.runtime.ThreadState;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/** Writes the whole profile (docs/format.md) to FILE.tmp and renames it over FILE: readers never see half a file. */
final class ProfileWriter {
    /**
     * 2: a node's call line only where it changes (CallLines), written by the final write only: the periodic writes
     * (every second) stay version 1 and skip the pair map's look-up per node; the file a user keeps is the small one.
     */
    static final int FORMAT_VERSION = 2, PERIODIC_FORMAT_VERSION = 1;

    private final Registry registry;
    private final TransformStats stats;
    private final Options options;
    private final TypeSizes sizes;
    private final AgentInfo info;
    private final TreeWalker walker;
    private final BitSet methods = new BitSet(), sites = new BitSet(), types = new BitSet();
    private final CallLines callLines = new CallLines();
    private final TableTexts tableTexts = new TableTexts();
    /** A Node object with compressed references: header and fields (runtime.Node). */
    private static final long NODE_OBJECT_BYTES = 72;
    private long nodes, treeBytes;
    private final HeapGuard heapGuard;
    long lastWriteMillis, lastBytes;
    /** Memory accounts, when the launch defines any. */
    volatile AccountsWriter accounts;
    /** The lifetime mode's section (null in the other modes). */
    volatile LifetimeWatcher lifetimes;
    /** The memory chart's samples (null with memoryInterval=0). */
    volatile MemorySampler memory;

    TypeSizes sizes() { return sizes; }

    ProfileWriter(Registry registry, TransformStats stats, Options options, TypeSizes sizes, AgentInfo info, HeapGuard heapGuard) {
        this.heapGuard = heapGuard;
        this.registry = registry;
        this.stats = stats;
        this.options = options;
        this.sizes = sizes;
        this.info = info;
        this.walker = new TreeWalker(registry, sizes);
    }

    /** Above this size the final profile is compressed (compress=auto). */
    static final long COMPRESS_ABOVE_BYTES = 4L << 20;

    /**
     * Whether this write is gzip-compressed (docs/format.md "Compression"). With {@code auto} only the final write
     * of a profile whose previous write was large: the periodic writes stay plain (no compression CPU while the
     * program runs) and the file a user keeps is small; readers detect gzip by its magic bytes.
     */
    private boolean compress(boolean fin) {
        switch (options.compress) {
            case "on": return true;
            case "off": return false;
            default: return fin && lastBytes > COMPRESS_ABOVE_BYTES;
        }
    }

    void write(Path out, boolean fin, int sequence, long cycles) throws IOException {
        long t0 = System.nanoTime();
        methods.clear(); sites.clear(); types.clear();
        callLines.clear();
        nodes = 0;
        treeBytes = 0;
        Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
        Path treesTmp = out.resolveSibling(out.getFileName() + ".trees.tmp");
        boolean gzip = compress(fin);
        if (fin) sizes.rescanNextTime();
        // The final write once (gzip's default level: a 35 MB profile became 3.9 MB in 1.3 s, level 1 gave 6.0 MB in
        // 0.6 s); periodic writes with compress=on at the fastest level.
        int level = fin ? Deflater.DEFAULT_COMPRESSION : Deflater.BEST_SPEED;
        ThreadState[] all = ThreadState.snapshot();
        // The final write: the trees first, into a file of their own, and the first section's nodes from the same walk
        // (FirstSection): the section goes before the trees in the profile, and is made of the very rows written. The
        // periodic writes leave the section out (a file read mid-run loads whole, as one without it always did): on a
        // million-node tree it added ~0.2-0.6 s to each write, and the exact mode writes every few seconds.
        boolean section = fin;
        String[] kind = section ? firstKind(all) : null;
        if (section) first.reset(kind[1], registry);
        try {
            if (section) {
                try (BufferedWriter tw = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(treesTmp), StandardCharsets.UTF_8), 1 << 16)) {
                    Json jt = new Json(tw);
                    jt.begin('[');
                    walker.all(all, new Both(new FileTree(jt, fin), first));
                    jt.end(']');
                }
            }
            java.io.OutputStream os = null;
            try (BufferedWriter bw = new BufferedWriter(new OutputStreamWriter(os = gzip ? new GZIPOutputStream(Files.newOutputStream(tmp), 1 << 16) {
                    { def.setLevel(level); }
                } : Files.newOutputStream(tmp), StandardCharsets.UTF_8), 1 << 16)) {
                Json j = new Json(bw);
                j.begin('{').field("format", "heaplens-profile").field("version", fin ? FORMAT_VERSION : PERIODIC_FORMAT_VERSION);
                meta(j, fin, sequence);
                if (section) {
                    long s0 = System.nanoTime();
                    firstSection(j, all, kind);
                    // the trees' text, as written by the walk, copied in as the value of "threads"
                    j.name("threads");
                    j.flush();
                    bw.flush();
                    copy(treesTmp, os);
                    j.raw("");
                    lastSectionMillis = (System.nanoTime() - s0) / 1_000_000;
                } else {
                    lastSectionMillis = 0;
                    j.name("threads").begin('[');
                    walker.all(all, new FileTree(j, fin));
                    j.end(']');
                }
                LifetimeWatcher lw = lifetimes;
                if (lw != null) lw.write(j, sites, types, methods);
                addCtorTargets();
                writeTypes(j);
                writeMethods(j);
                writeSites(j);
                transform(j);
                io.heaplens.agent.threads.ThreadsProfiler tp = io.heaplens.agent.threads.ThreadsProfiler.get();
                if (tp != null) {
                    j.name("threadsProfile");
                    tp.write(j);
                }
                AccountsWriter acc = accounts;
                if (acc != null) acc.write(j);
                MemorySampler mem = memory;
                if (mem != null) {
                    if (fin) mem.sample(System.currentTimeMillis());     // the last point: the heap as the program ended
                    mem.write(j);
                }
                j.name("agent").begin('{').field("threads", all.length).field("nodes", nodes)
                    .field("maxNodes", io.heaplens.runtime.ThreadState.maxNodes).field("nodesCreated", io.heaplens.runtime.ThreadState.nodes)
                    .field("treeBytes", treeBytes).field("heapMax", heapGuard.heapMax()).field("frozenAtNodes", heapGuard.frozenAtNodes())
                    .field("lostTraces", io.heaplens.runtime.Sampler.lostTraces)
                    .field("jfrSamples", io.heaplens.agent.jfr.JfrSampling.counts()[0])
                    .field("jfrDropped", io.heaplens.agent.jfr.JfrSampling.counts()[1])
                    .field("jfrTruncated", io.heaplens.agent.jfr.JfrSampling.counts()[2])
                    .field("jfrTlabBytes", io.heaplens.agent.jfr.JfrSampling.tlabUsableBytes())
                    .field("heapSamples", io.heaplens.runtime.HeapSampler.samples)
                    .field("heapSamplesDropped", io.heaplens.runtime.HeapSampler.dropped)
                    .field("writeMillis", lastWriteMillis).field("firstSectionMillis", lastSectionMillis).field("bytesWritten", lastBytes).field("collectorCycles", cycles);
                String loss = io.heaplens.runtime.Sampler.firstLoss;
                if (loss != null) j.field("firstLostTrace", loss);
                writeJfrIntervals(j);
                j.end('}');
                j.end('}');
            }
        } finally {
            Files.deleteIfExists(treesTmp);
        }
        lastBytes = Files.size(tmp);
        try {
            Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
        }
        lastWriteMillis = (System.nanoTime() - t0) / 1_000_000;
    }

    /**
     * The trees' file into the profile by plain reads and writes: Files.copy between two files goes to
     * FileChannel.transferTo, whose pattern switch JDK 25 links on first use (SwitchBootstraps spinning a class
     * with the class-file API): ~10-30 ms on the exit path of every short run (docs/benchmark.md "Start-up, Round 8").
     */
    private static void copy(Path from, java.io.OutputStream to) throws IOException {
        byte[] buf = new byte[1 << 16];
        try (java.io.InputStream in = Files.newInputStream(from)) {
            for (int n; (n = in.read(buf)) > 0; ) to.write(buf, 0, n);
        }
    }

    private final FirstSection first = new FirstSection();
    /** the last write's first section: its share of writeMillis */
    long lastSectionMillis;

    /** The trees a profile offers, as docs/format.md names them, in TreeWalker's order. */
    private static final String[][] KINDS = {
        { TreeWalker.ROOT, "exact" }, { TreeWalker.SITES, "sites" }, { TreeWalker.SITE_TRACES, "traces" }, { TreeWalker.SAMPLED, "sampled" },
    };

    /**
     * The first section (FirstSection, docs/format.md "first") of the tree the views show first: exact data when there
     * is any, else the sampled, the sites or the traces tree (core/profile/modes.ts defaultTree).
     */
    /** The tree the views show first and its walker name, and the trees the profile holds: {kind, walked, kinds…}. */
    private static String[] firstKind(ThreadState[] all) {
        List<String> kinds = new java.util.ArrayList<>();
        String tree = null;
        for (String[] k : KINDS) if (TreeWalker.holds(all, k[0])) kinds.add(k[1]);
        for (String want : new String[] { "exact", "sampled", "sites", "traces" }) {
            if (tree == null && (kinds.contains(want) || (want.equals("exact") && kinds.isEmpty()))) tree = want;
        }
        String walked = TreeWalker.ROOT;
        for (String[] k : KINDS) if (k[1].equals(tree)) walked = k[0];
        List<String> out = new java.util.ArrayList<>(List.of(tree, walked));
        out.addAll(kinds);
        return out.toArray(new String[0]);
    }

    /** Writes the first section from the nodes the walk collected (FirstSection). */
    private void firstSection(Json j, ThreadState[] all, String[] kind) throws IOException {
        String tree = kind[0];
        List<String> kinds = List.of(kind).subList(2, kind.length);
        List<ThreadState> app = new java.util.ArrayList<>();
        for (ThreadState ts : all) if (!ts.agentThread) app.add(ts);
        long[][] ids = new long[app.size()][];
        String[] names = new String[app.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = new long[] { app.get(i).id };
            names[i] = app.get(i).thread.getName();
        }
        j.name("first");
        first.write(j, tree, kinds, ids, names, new FirstSection.Methods() {
            private final Map<Integer, String> keys = new java.util.HashMap<>();
            @Override public String key(int m) {
                return keys.computeIfAbsent(m, id -> {
                    MethodInfo mi = registry.methodById(id);
                    return mi.owner.replace('/', '.') + '.' + mi.name + mi.desc;
                });
            }
            @Override public String className(int m) { return registry.methodById(m).owner.replace('/', '.'); }
            @Override public boolean profiled(int m) { return registry.methodById(m).profiled; }
            @Override public String name(int m) { return registry.methodById(m).name; }
            @Override public String desc(int m) { return registry.methodById(m).desc; }
            @Override public String file(int m) { return registry.methodById(m).file; }
            @Override public int line(int m) { return registry.methodById(m).line; }
        });
    }

    /** One walk, two outputs: the trees' text and the first section's nodes. */
    private static final class Both implements TreeOutput {
        private final TreeOutput a, b;
        Both(TreeOutput a, TreeOutput b) { this.a = a; this.b = b; }
        @Override public void beginThread(ThreadState ts) throws IOException { a.beginThread(ts); b.beginThread(ts); }
        @Override public void beginTree(ThreadState ts, String tree) throws IOException { a.beginTree(ts, tree); b.beginTree(ts, tree); }
        @Override public void node(Node n, int callLine, long[] records, List<long[]> rows, boolean hasChildren) throws IOException {
            a.node(n, callLine, records, rows, hasChildren);
            b.node(n, callLine, records, rows, hasChildren);
        }
        @Override public void endNode(Node n, boolean hasChildren) throws IOException { a.endNode(n, hasChildren); b.endNode(n, hasChildren); }
        @Override public void endTree(ThreadState ts, String tree) throws IOException { a.endTree(ts, tree); b.endTree(ts, tree); }
        @Override public void endThread(ThreadState ts) throws IOException { a.endThread(ts); b.endThread(ts); }
    }

    private void meta(Json j, boolean fin, int sequence) throws IOException {
        j.name("meta");
        Tables.meta(j, options, info, fin, sequence);
    }

    /** The threads' trees as docs/format.md nests them: {"line", "m", "calls", "folded", "a": rows, "c": children}. */
    private final class FileTree implements TreeOutput {
        private final Json j;
        /** in the exact tree being written: the method of each node on the path from the root (-1: the root) */
        private int[] path = new int[64];
        private int depth;
        private boolean exact;
        /** format version 2's call lines (CallLines) */
        private final boolean compactLines;

        FileTree(Json j, boolean compactLines) {
            this.j = j;
            this.compactLines = compactLines;
        }

        @Override public void beginThread(ThreadState ts) throws IOException { Tables.threadHead(j, ts); }

        @Override public void beginTree(ThreadState ts, String tree) throws IOException {
            j.name(tree);
            exact = compactLines && tree.equals(TreeWalker.ROOT);
            depth = 0;
        }

        @Override public void node(Node n, int callLine, long[] records, List<long[]> rows, boolean hasChildren) throws IOException {
            nodes++;
            treeBytes += NODE_OBJECT_BYTES;
            j.begin('{');
            int parent = depth > 0 ? path[depth - 1] : -1;
            if (depth == path.length) path = Arrays.copyOf(path, depth * 2);
            path[depth++] = n.method;
            if (n.method >= 0) {
                methods.set(n.method);
                // The call's line before the method, and only where it changes for the pair (parent's method, method)
                // (CallLines; "line":-1 says this call has none): the pair "line":L,"m":M recurs wherever the same call
                // is made in another context, and gzip matches it as one string.
                if (exact && parent >= 0 ? callLines.changes(parent, n.method, callLine) : callLine > 0) j.field("line", callLine > 0 ? callLine : -1);
                j.field("m", n.method).field("calls", n.calls);
            }
            if (n.folded > 0) j.field("folded", n.folded);
            if (records != null) {
                treeBytes += 16 + 8L * records.length;
                j.name("a").begin('[');
                for (int i = 0, size = rows.size(); i < size; i++) {
                    long[] r = rows.get(i);
                    int key = (int) r[RecordRows.KEY];
                    int site = Keys.site(key), type = Keys.type(key);
                    long count = r[RecordRows.COUNT], bytes = r[RecordRows.ESTIMATE];
                    sites.set(site);
                    types.set(type);
                    long line = r[RecordRows.LINE], callee = r[RecordRows.CALLEE];
                    if (line > 0 && callee >= 0) {
                        methods.set((int) callee);
                        j.row(site, type, count, r[RecordRows.ELEMENTS], bytes, line, callee);
                    } else if (line > 0) j.row(site, type, count, r[RecordRows.ELEMENTS], bytes, line);
                    else j.row(site, type, count, r[RecordRows.ELEMENTS], bytes);
                }
                j.end(']');
            }
            if (hasChildren) {
                Node[] table = n.childrenSnapshot();             // none for a node with one child
                if (table != null) treeBytes += 2 * (16 + 4L * table.length);   // the node table and its id table
                j.name("c").begin('[');
            }
        }

        @Override public void endNode(Node n, boolean hasChildren) throws IOException {
            depth--;
            if (hasChildren) j.end(']');
            j.end('}');
        }

        @Override public void endThread(ThreadState ts) throws IOException { j.end('}'); }
    }

    private void addCtorTargets() {
        for (int s = sites.nextSetBit(0); s >= 0; s = sites.nextSetBit(s + 1)) methods.set(registry.siteById(s).method);
        // Transitively: a target's own target must be in the table too (lifetime traces name constructors whose
        // chain no call tree node holds).
        for (int before = -1; before != methods.cardinality(); ) {
            before = methods.cardinality();
            BitSet targets = new BitSet();
            for (int m = methods.nextSetBit(0); m >= 0; m = methods.nextSetBit(m + 1)) {
                int t = registry.methodById(m).ctorTarget;
                if (t >= 0) targets.set(t);
            }
            methods.or(targets);
        }
        for (int s = sites.nextSetBit(0); s >= 0; s = sites.nextSetBit(s + 1)) types.set(registry.siteById(s).type);
    }

    /**
     * sampler=jvmti or jfr: per type, [type id, seen allocations, estimated count, its standard deviation, estimated
     * bytes, its standard deviation] over the whole run (all threads and modes' sampled phases): the interval of each
     * estimate. The name is the first sampler's that stated them.
     */
    private void writeJfrIntervals(Json j) throws IOException {
        java.util.Map<Integer, double[]> per = io.heaplens.runtime.Estimates.perType();
        if (per.isEmpty()) return;
        j.name("jfrTypes").begin('[');
        for (java.util.Map.Entry<Integer, double[]> en : new java.util.TreeMap<>(per).entrySet()) {
            if (!types.get(en.getKey())) continue;
            double[] v = en.getValue();
            j.numbers(en.getKey(), (long) v[0], (long) v[1], Math.round(Math.sqrt(v[2])), Math.round(v[3]), Math.round(Math.sqrt(v[4])));
        }
        j.end(']');
    }

    private void writeTypes(Json j) throws IOException {
        j.name("types").begin('[');
        for (int id = types.nextSetBit(0); id >= 0; id = types.nextSetBit(id + 1)) {
            j.raw(tableTexts.type(registry.typeById(id), sizes));
        }
        j.end(']');
    }

    private void writeMethods(Json j) throws IOException {
        j.name("methods").begin('[');
        for (int id = methods.nextSetBit(0); id >= 0; id = methods.nextSetBit(id + 1)) {
            j.raw(tableTexts.method(registry.methodById(id)));
        }
        j.end(']');
    }

    private void writeSites(Json j) throws IOException {
        j.name("sites").begin('[');
        for (int id = sites.nextSetBit(0); id >= 0; id = sites.nextSetBit(id + 1)) {
            j.raw(tableTexts.site(registry.siteById(id)));
        }
        j.end(']');
    }

    private void transform(Json j) throws IOException {
        j.name("transform").begin('{');
        synchronized (stats) {
            j.field("classesTransformed", stats.transformed).field("classesSkipped", stats.skipped)
                .field("classesFailed", stats.failed).field("retransformed", stats.retransformed)
                .field("methodsProfiled", stats.methodsProfiled).field("sites", stats.sites)
                .field("classesSeen", stats.seen).field("transformMillis", stats.nanos / 1_000_000);
        }
        j.name("failures").begin('[');
        for (String[] f : stats.failuresCopy()) j.begin('{').field("class", f[0]).field("loader", f[1]).field("error", f[2]).end('}');
        j.end(']');
        j.name("warnings").begin('[');
        for (String w : stats.warningsCopy()) j.value(w);
        j.end(']');
        j.end('}');
    }
}
