package io.heaplens.agent.wire;

import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.Registry.MethodInfo;
import io.heaplens.agent.collect.Json;
import io.heaplens.agent.collect.RecordRows;
import io.heaplens.agent.collect.Tables;
import io.heaplens.agent.collect.TreeOutput;
import io.heaplens.agent.collect.TreeWalker;
import io.heaplens.agent.collect.TypeSizes;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Node;
import io.heaplens.runtime.ThreadState;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the connected client has been sent, per node, so each cycle sends only what changed (docs/protocol.md:
 * absolute values, so a skipped cycle is simply folded into the next). Owned by one connection.
 */
final class DeltaTracker {
    private static final class Mirror {
        final long id;
        long calls, folded;
        /** by RecordRows.mergeKey */
        final Map<List<Long>, long[]> records = new HashMap<>();
        Mirror(long id) { this.id = id; }
    }

    private final Registry registry;
    private final TypeSizes sizes;
    private final TreeWalker walker;
    private final Map<Node, Mirror> mirrors = new IdentityHashMap<>();
    private final BitSet methodsSent = new BitSet(), sitesSent = new BitSet(), typesSent = new BitSet();
    private final Map<Long, String> threadsSent = new HashMap<>();
    private long nextNodeId;
    private boolean full = true;
    long objects, arrays, bytes, nodes;

    DeltaTracker(Registry registry, TypeSizes sizes) {
        this.registry = registry;
        this.sizes = sizes;
        this.walker = new TreeWalker(registry, sizes);
    }

    /** After a reset: the next delta is full. Definitions stay known to the client. */
    synchronized void forgetNodes() {
        mirrors.clear();
        full = true;
    }

    /** @return the define frame (or null) and the delta frame (or null when nothing changed) */
    /** What of the memory chart this client has been sent. */
    private final io.heaplens.agent.collect.MemorySampler.Cursor memoryCursor = new io.heaplens.agent.collect.MemorySampler.Cursor();

    synchronized byte[][] next(long seq, Map<String, Object> stats) throws IOException {
        BitSet newMethods = new BitSet(), newSites = new BitSet(), newTypes = new BitSet();
        ByteArrayOutputStream delta = new ByteArrayOutputStream();
        boolean wasFull = full;
        int changed = 0;
        boolean memory = false;
        objects = 0; arrays = 0; bytes = 0; nodes = 0;
        try (Writer w = new OutputStreamWriter(delta, StandardCharsets.UTF_8)) {
            Json j = new Json(w);
            j.begin('{').field("type", "delta").field("seq", seq).field("time", System.currentTimeMillis()).field("full", wasFull);
            j.name("nodes").begin('[');
            ChannelTree out = new ChannelTree(j, newMethods, newSites, newTypes);
            walker.all(ThreadState.snapshot(), out);
            changed = out.emitted;
            j.end(']');
            stats.put("objects", objects);
            stats.put("arrays", arrays);
            stats.put("bytes", bytes);
            stats.put("nodes", nodes);
            j.name("stats").begin('{');
            for (Map.Entry<String, Object> e : stats.entrySet()) {
                if (e.getValue() instanceof Boolean) j.field(e.getKey(), (Boolean) e.getValue());
                else if (e.getValue() instanceof String) j.field(e.getKey(), (String) e.getValue());
                else j.field(e.getKey(), ((Number) e.getValue()).longValue());
            }
            j.end('}');
            // the memory chart's news (samples, collections, marks) since the last delta
            io.heaplens.agent.collect.MemorySampler ms = io.heaplens.agent.collect.MemorySampler.get();
            if (ms != null && ms.writeSince(j, memoryCursor)) memory = true;
            j.end('}');
        }
        full = false;
        byte[] define = defineFrame(newMethods, newSites, newTypes, true);
        byte[] deltaFrame = changed > 0 || wasFull || memory ? Frames.encode(delta.toByteArray()) : null;
        return new byte[][] {define, deltaFrame};
    }

    /**
     * The nodes that changed since the client's copy (docs/protocol.md "delta"): flat, each with its thread, id and
     * parent id, only the records whose values moved; a node is new to the client when it has no mirror yet.
     */
    private final class ChannelTree implements TreeOutput {
        private final Json j;
        private final BitSet newMethods, newSites, newTypes;
        private final ArrayDeque<Long> parents = new ArrayDeque<>();
        private ThreadState ts;
        private String tree;
        int emitted;

        ChannelTree(Json j, BitSet newMethods, BitSet newSites, BitSet newTypes) {
            this.j = j;
            this.newMethods = newMethods;
            this.newSites = newSites;
            this.newTypes = newTypes;
        }

        @Override public void beginTree(ThreadState ts, String tree) {
            this.ts = ts;
            this.tree = tree;
        }

        @Override public void node(Node n, int callLine, long[] records, List<long[]> rows, boolean hasChildren) throws IOException {
            nodes++;
            long parentId = parents.isEmpty() ? -1 : parents.peek();
            Mirror m = mirrors.get(n);
            boolean fresh = m == null;
            if (fresh) {
                m = new Mirror(nextNodeId++);
                mirrors.put(n, m);
            }
            long calls = n.calls, folded = n.folded;
            boolean changed = fresh || calls != m.calls || folded != m.folded;
            List<long[]> recs = null;
            if (rows != null) {
                for (long[] r : rows) {
                    int key = (int) r[RecordRows.KEY];
                    long line = r[RecordRows.LINE], callee = r[RecordRows.CALLEE];
                    long count = r[RecordRows.COUNT], elements = r[RecordRows.ELEMENTS], est = r[RecordRows.ESTIMATE];
                    int site = Keys.site(key), type = Keys.type(key);
                    if (registry.typeById(type).array) arrays += count; else objects += count;
                    bytes += est;
                    List<Long> recordKey = RecordRows.mergeKey(r);
                    long[] sent = m.records.get(recordKey);
                    if (sent != null && sent[0] == count && sent[1] == elements && sent[2] == est) continue;
                    m.records.put(recordKey, new long[] {count, elements, est});
                    if (recs == null) recs = new java.util.ArrayList<>();
                    recs.add(line > 0 && callee >= 0 ? new long[] {site, type, count, elements, est, line, callee}
                        : line > 0 ? new long[] {site, type, count, elements, est, line} : new long[] {site, type, count, elements, est});
                    if (line > 0 && callee >= 0) needMethod((int) callee, newMethods);
                    need(site, type, newSites, newTypes);
                }
            }
            if (changed || recs != null) {
                m.calls = calls;
                m.folded = folded;
                j.begin('{').field("t", ts.id).field("n", m.id).field("p", parentId);
                if (parentId < 0) j.field("tree", tree);
                if (n.method >= 0) {
                    j.field("m", n.method).field("calls", calls);
                    needMethod(n.method, newMethods);
                }
                if (folded > 0 || !fresh) j.field("folded", folded);
                if (recs != null) {
                    j.name("a").begin('[');
                    for (long[] r : recs) j.numbers(r);
                    j.end(']');
                }
                j.end('}');
                emitted++;
            }
            parents.push(m.id);
        }

        @Override public void endNode(Node n, boolean hasChildren) { parents.pop(); }
    }

    private void need(int site, int type, BitSet newSites, BitSet newTypes) {
        if (!sitesSent.get(site)) {
            newSites.set(site);
            Registry.SiteInfo s = registry.siteById(site);
            if (!typesSent.get(s.type)) newTypes.set(s.type);
        }
        if (!typesSent.get(type)) newTypes.set(type);
    }

    private void needMethod(int method, BitSet newMethods) {
        if (!methodsSent.get(method)) newMethods.set(method);
    }

    /** A define frame for the given ids (plus sites' methods and constructors' targets); null when empty. */
    synchronized byte[] defineFrame(BitSet methods, BitSet sites, BitSet types, boolean withThreads) throws IOException {
        for (int s = sites.nextSetBit(0); s >= 0; s = sites.nextSetBit(s + 1)) {
            int method = registry.siteById(s).method;
            if (!methodsSent.get(method)) methods.set(method);
        }
        BitSet targets = new BitSet();
        for (int id = methods.nextSetBit(0); id >= 0; id = methods.nextSetBit(id + 1)) {
            int t = registry.methodById(id).ctorTarget;
            if (t >= 0 && !methodsSent.get(t)) targets.set(t);
        }
        methods.or(targets);
        List<ThreadState> threads = new java.util.ArrayList<>();
        if (withThreads) {
            for (ThreadState ts : ThreadState.snapshot()) {
                if (ts.agentThread) continue;
                String state = ts.thread.getName() + '|' + ts.thread.isAlive();
                if (!state.equals(threadsSent.get(ts.id))) {
                    threads.add(ts);
                    threadsSent.put(ts.id, state);
                }
            }
        }
        if (methods.isEmpty() && sites.isEmpty() && types.isEmpty() && threads.isEmpty()) return null;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
            Json j = new Json(w);
            j.begin('{').field("type", "define");
            j.name("types").begin('[');
            for (int id = types.nextSetBit(0); id >= 0; id = types.nextSetBit(id + 1)) Tables.type(j, registry.typeById(id), sizes);
            j.end(']').name("methods").begin('[');
            for (int id = methods.nextSetBit(0); id >= 0; id = methods.nextSetBit(id + 1)) {
                MethodInfo mi = registry.methodById(id);
                Tables.method(j, mi);
            }
            j.end(']').name("sites").begin('[');
            for (int id = sites.nextSetBit(0); id >= 0; id = sites.nextSetBit(id + 1)) Tables.site(j, registry.siteById(id));
            j.end(']').name("threads").begin('[');
            for (ThreadState ts : threads) Tables.threadHead(j, ts).end('}');
            j.end(']').end('}');
        }
        methodsSent.or(methods);
        sitesSent.or(sites);
        typesSent.or(types);
        return Frames.encode(out.toByteArray());
    }
}
