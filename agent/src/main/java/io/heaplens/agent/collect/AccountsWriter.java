package io.heaplens.agent.collect;

import io.heaplens.agent.core.AccountPatterns;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.Registry.TypeInfo;
import io.heaplens.agent.core.Types;
import io.heaplens.runtime.Accounts;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Node;
import io.heaplens.runtime.ThreadState;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Memory-account snapshots (Bouché et al. 2009 §4–5, docs/format.md "accounts"): per account and class, the objects and
 * estimated bytes allocated so far and — with liveness on — the objects still alive (exact, or a sample scaled up)
 * and how many garbage collections they survived. Kept in memory as a series and written with every profile.
 *
 * Allocated counts come from each thread's per-account flat nodes (accounts mode) or from the call tree (exact
 * mode: a node's account is its method's class's account, or its parent's when that class is not accounted).
 */
public final class AccountsWriter {
    /** Beyond this many snapshots, the oldest after the first is dropped (the first is the baseline). */
    static final int MAX_SNAPSHOTS = 240;

    static final class Row {
        final int account;
        final String cls;
        long allocObjects, allocBytes, liveObjects, liveBytes, oldObjects, maxGenerations;
        /** Live objects that were tracked as a sample (each standing for the sampling period): the estimate's basis. */
        long liveSampled;
        Row(int account, String cls) { this.account = account; this.cls = cls; }
    }

    static final class Snapshot {
        int seq, gcs;
        long time;
        String reason;
        boolean gc;
        List<Row> rows;
    }

    private final AccountPatterns patterns;
    private final boolean accountsMode;
    private final String liveness;
    private final int every;
    private final long exactFirst;
    private final Registry registry;
    private final TypeSizes sizes;
    private final Instrumentation inst;
    private final TreeWalker walker;
    private final List<Snapshot> snapshots = new ArrayList<>();
    private final Map<Class<?>, String> names = new IdentityHashMap<>();
    private final Map<Class<?>, Long> instanceSizes = new IdentityHashMap<>();
    private final Map<String, Integer> accountByClass = new HashMap<>();
    private int seq;
    /** After the shutdown snapshot no other is taken: it stays the last one (the collector may still be cycling). */
    private boolean closed;

    public AccountsWriter(AccountPatterns patterns, boolean accountsMode, String liveness, int every, long exactFirst,
                          Registry registry, TypeSizes sizes, Instrumentation inst) {
        this.patterns = patterns;
        this.accountsMode = accountsMode;
        this.liveness = accountsMode ? liveness : "off";
        this.every = this.liveness.equals("sampled") || this.liveness.equals("auto") ? every : 1;
        this.exactFirst = this.liveness.equals("auto") ? exactFirst : 0;
        this.registry = registry;
        this.sizes = sizes;
        this.inst = inst;
        this.walker = new TreeWalker(registry, sizes);
    }

    public boolean tracksLiveness() { return !liveness.equals("off"); }

    /** Takes a snapshot now (on an agent thread). */
    public synchronized void take(String reason, boolean gc) {
        if (closed) return;
        closed = reason.equals("shutdown");
        if (gc) System.gc();
        LivenessThread.updateEpoch();
        Map<String, Row> rows = new TreeMap<>();
        if (accountsMode) allocatedFromAccountNodes(rows); else allocatedFromTrees(rows);
        if (tracksLiveness()) live(rows);
        Snapshot s = new Snapshot();
        s.seq = ++seq;
        s.time = System.currentTimeMillis();
        s.reason = reason;
        s.gc = gc;
        s.gcs = Accounts.gcEpoch;
        s.rows = new ArrayList<>(rows.values());
        snapshots.add(s);
        if (snapshots.size() > MAX_SNAPSHOTS) snapshots.remove(1);
    }

    private static Row row(Map<String, Row> rows, int account, String cls) {
        String k = account + "\u0000" + cls;
        Row r = rows.get(k);
        if (r == null) { r = new Row(account, cls); rows.put(k, r); }
        return r;
    }

    private void charge(Map<String, Row> rows, int account, long[] rec) {
        if (rec == null) return;
        for (int b = 0; b < rec.length; b += 4) {
            if (rec[b] == 0) continue;
            int key = (int) (rec[b] - 1);
            TypeInfo t = registry.typeById(Keys.type(key));
            long count = rec[b + 1];
            Row r = row(rows, account, t.name);
            r.allocObjects += count;
            r.allocBytes += Tables.bytes(t, sizes, count, rec[b + 3]);
        }
    }

    private void allocatedFromAccountNodes(Map<String, Row> rows) {
        for (ThreadState ts : ThreadState.snapshot()) {
            if (ts.agentThread) continue;
            Node[] nodes = ts.accountsSnapshot();
            for (int a = 0; a < nodes.length; a++) if (nodes[a] != null) charge(rows, a, nodes[a].recordsSnapshot());
        }
    }

    private void allocatedFromTrees(Map<String, Row> rows) {
        try {
            walker.roots(ThreadState.snapshot(), new AccountTree(rows));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);      // sums only: nothing is written here
        }
    }

    /**
     * The exact call trees charged to accounts: a node's account is its method's class's account, or its parent's when
     * that class is not accounted.
     */
    private final class AccountTree implements TreeOutput {
        private final Map<String, Row> rows;
        private final ArrayDeque<Integer> accounts = new ArrayDeque<>();

        AccountTree(Map<String, Row> rows) { this.rows = rows; }

        @Override public void node(Node n, int callLine, long[] records, List<long[]> recordRows, boolean hasChildren) {
            int account = accounts.isEmpty() ? 0 : accounts.peek();
            if (n.method >= 0) {
                String owner = registry.methodById(n.method).owner;
                Integer a = accountByClass.get(owner);
                if (a == null) { a = patterns.accountOf(owner); accountByClass.put(owner, a); }
                if (a > 0) account = a;
            }
            if (recordRows != null) {
                for (int i = 0, size = recordRows.size(); i < size; i++) {
                    long[] r = recordRows.get(i);
                    TypeInfo t = registry.typeById(Keys.type((int) r[RecordRows.KEY]));
                    Row row = row(rows, account, t.name);
                    row.allocObjects += r[RecordRows.COUNT];
                    row.allocBytes += r[RecordRows.ESTIMATE];
                }
            }
            accounts.push(account);
        }

        @Override public void endNode(Node n, boolean hasChildren) { accounts.pop(); }
    }

    /** Walks the tracked objects: those still reachable are live, scaled up when sampled. */
    private void live(Map<String, Row> rows) {
        int now = Accounts.gcEpoch;
        Accounts.forEachTracked(new Accounts.Visitor() { @Override public void visit(Accounts.Tracked t) {
            Object o = t.get();
            if (o == null) return;                       // reclaimed, its refund is on the queue
            Class<?> c = o.getClass();
            String name = names.get(c);
            if (name == null) { name = Types.javaName(c.descriptorString()); names.put(c, name); }
            long size;
            if (c.isArray()) size = inst.getObjectSize(o);
            else {
                Long known = instanceSizes.get(c);
                if (known == null) { known = inst.getObjectSize(o); instanceSizes.put(c, known); }
                size = known;
            }
            int generations = now - t.born;
            int weight = t.weight;
            Row r = row(rows, t.account, name);
            r.liveObjects += weight;
            r.liveBytes += size * weight;
            if (weight > 1) r.liveSampled++;
            if (generations > 0) r.oldObjects += weight;
            if (generations > r.maxGenerations) r.maxGenerations = generations;
        } });
    }

    public synchronized void write(Json j) throws IOException {
        j.name("accounts").begin('{').field("mode", accountsMode ? "accounts" : "exact");
        j.name("names").begin('[');
        for (String n : patterns.names()) j.value(n);
        j.end(']');
        long[] counts = Accounts.counts();
        // Auto liveness is written as what it turned out to be: exact when it never sampled, else sampled after
        // the first exactFirst objects (docs/format.md).
        String kind = liveness.equals("auto") ? (Accounts.sampling() ? "sampled" : "exact") : liveness;
        j.name("liveness").begin('{').field("kind", kind).field("every", kind.equals("exact") ? 1 : every);
        if (liveness.equals("auto")) j.field("exactFirst", exactFirst);
        j.field("tracked", counts[0]).field("refunded", counts[1]).end('}');
        j.field("gcs", Accounts.gcEpoch);
        j.name("snapshots").begin('[');
        for (Snapshot s : snapshots) {
            j.begin('{').field("seq", s.seq).field("time", s.time).field("reason", s.reason).field("gc", s.gc).field("gcs", s.gcs);
            j.name("rows").begin('[');
            for (Row r : s.rows) {
                j.begin('[').value(r.account).value(r.cls).value(r.allocObjects).value(r.allocBytes);
                if (tracksLiveness()) j.value(r.liveObjects).value(r.liveBytes).value(r.oldObjects).value(r.maxGenerations).value(r.liveSampled);
                j.end(']');
            }
            j.end(']').end('}');
        }
        j.end(']').end('}');
    }
}
