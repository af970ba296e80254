package io.heaplens.agent.collect;

import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.Registry.TypeInfo;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Node;
import io.heaplens.runtime.ThreadState;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The profile's first section (docs/format.md "first"), written right after {@code meta}: of the default mode's tree,
 * all threads merged as the page merges them (children by method), under the page's default metric (allocations =
 * objects + arrays), the nodes whose total is at least 1/{@link #DIVISOR} of the root's — every frame the flame view
 * draws on a canvas up to 3,840 CSS pixels wide (its painter skips frames under half a pixel) — in the page's sibling
 * order, with their self value, total, the total of the siblings left out before each and how many children were left
 * out: that metric's values only, so that the section is small and arrives soon. The same selection as
 * core/profile/first-section.ts (FirstSectionTest and first-section.test.ts check one hand-made tree against both).
 *
 * The nodes are collected by a walk of the same walker over the same trees as the write of the trees that follows
 * (the same rows and estimated bytes); the section is computed from that walk alone.
 */
final class FirstSection implements TreeOutput {
    /** 1/DIVISOR of the root: the narrowest frame drawn at 3,840 pixels (webview/views/flame-paint.ts MIN_WIDTH 0.5). */
    static final int DIVISOR = 7680;
    /** objects, arrays, elements, bytes, calls: the values collected per walked node */
    static final int V = 5;
    /** the section's metric (the page's default, webview/state.ts): the sum of the values 0 and 1 */
    static final String METRIC = "allocations";

    /** What the section needs of a method: its sibling order key, its class, whether it is profiled, its names. */
    interface Methods {
        /** {@code class.name desc}, as the page orders siblings (core/views/frames.ts methodRanks) */
        String key(int method);
        String className(int method);
        boolean profiled(int method);
        String name(int method);
        String desc(int method);
        /** the source file, or null */
        String file(int method);
        /** the first line, or -1 */
        int line(int method);
    }

    // the walked nodes in walk order (pre-order, thread after thread): method, depth, self values
    private int n;
    private int[] method = new int[1024], depth = new int[1024];
    private long[] self = new long[1024 * V];
    private int walkDepth;
    private boolean collecting;
    private String tree = TreeWalker.ROOT;
    private Registry registry;

    /** Forgets the last write's nodes; the walk that follows collects {@code tree}'s (a TreeWalker tree name). */
    void reset(String tree, Registry registry) {
        n = 0;
        this.tree = tree;
        this.registry = registry;
    }

    @Override public void beginTree(ThreadState ts, String name) {
        collecting = name.equals(tree);
        walkDepth = 0;
    }

    @Override public void node(Node node, int callLine, long[] records, List<long[]> rows, boolean hasChildren) {
        if (!collecting) return;
        long objects = 0, arrays = 0, elements = 0, bytes = 0;
        if (rows != null) {
            for (int i = 0, size = rows.size(); i < size; i++) {
                long[] r = rows.get(i);
                TypeInfo t = registry.typeById(Keys.type((int) r[RecordRows.KEY]));
                if (t.array) {
                    arrays += r[RecordRows.COUNT];
                    elements += r[RecordRows.ELEMENTS];
                } else objects += r[RecordRows.COUNT];
                bytes += r[RecordRows.ESTIMATE];
            }
        }
        add(walkDepth++, node.method, objects, arrays, elements, bytes, node.method >= 0 ? node.calls : 0);
    }

    @Override public void endNode(Node node, boolean hasChildren) {
        if (collecting) walkDepth--;
    }

    /** One node of the walk, in pre-order (depth 0: a thread's root). */
    void add(int d, int m, long objects, long arrays, long elements, long bytes, long calls) {
        if (n == method.length) {
            method = Arrays.copyOf(method, n * 2);
            depth = Arrays.copyOf(depth, n * 2);
            self = Arrays.copyOf(self, n * 2 * V);
        }
        method[n] = m;
        depth[n] = d;
        int at = n * V;
        self[at] = objects;
        self[at + 1] = arrays;
        self[at + 2] = elements;
        self[at + 3] = bytes;
        self[at + 4] = calls;
        n++;
    }

    /** Walked node i's allocations (objects + arrays) in {@code values} (self or total, V per node). */
    private static long alloc(long[] values, int i) {
        return values[i * V] + values[i * V + 1];
    }

    /** Nodes collected by the last walk. */
    int nodes() { return n; }

    /** Writes the section as the value of the current name. */
    void write(Json j, String kind, List<String> kinds, long[][] threads, String[] threadNames, Methods methods) throws IOException {
        write(j, DIVISOR, kind, kinds, threads, threadNames, methods);
    }

    /** {@link #write} at another divisor (tests: a hand-made tree at 1/10). */
    void write(Json j, int divisor, String kind, List<String> kinds, long[][] threads, String[] threadNames, Methods methods) throws IOException {
        // subtree ends and totals (children after their parents: one pass backwards)
        int[] end = new int[n], parent = new int[n];
        int[] stack = new int[64];
        for (int i = 0; i < n; i++) {
            int d = depth[i];
            if (d >= stack.length) stack = Arrays.copyOf(stack, Math.max(d + 1, stack.length * 2));
            stack[d] = i;
            parent[i] = d == 0 ? -1 : stack[d - 1];
            end[i] = i + 1;
        }
        long[] total = Arrays.copyOf(self, n * V);
        for (int i = n - 1; i >= 0; i--) {
            int p = parent[i];
            if (p < 0) continue;
            if (end[i] > end[p]) end[p] = end[i];
            for (int v = 0; v < V; v++) total[p * V + v] += total[i * V + v];
        }
        long root = 0;
        int deepest = 0;
        List<Integer> roots = new ArrayList<>();
        // self values per method first (arrays by id: no look-up per node), then per class over the methods
        int maxMethod = 0;
        for (int i = 0; i < n; i++) if (method[i] > maxMethod) maxMethod = method[i];
        long[] perMethod = new long[maxMethod + 1];
        java.util.BitSet seen = new java.util.BitSet(maxMethod + 1);
        for (int i = 0; i < n; i++) {
            if (depth[i] == 0) {
                roots.add(i);
                root += alloc(total, i);
            }
            if (alloc(total, i) > 0 && depth[i] > deepest) deepest = depth[i];
            int m = method[i];
            if (m < 0) continue;
            seen.set(m);
            perMethod[m] += alloc(self, i);
        }
        Map<String, long[]> classes = new TreeMap<>();   // key: class, then profiled ("\0" keeps the class order)
        for (int m = seen.nextSetBit(0); m >= 0; m = seen.nextSetBit(m + 1)) {
            long[] c = classes.computeIfAbsent(methods.className(m) + '\0' + (methods.profiled(m) ? 1 : 0), k -> new long[2]);
            c[0]++;                                       // a class's methods
            c[1] += perMethod[m];
        }
        Selection sel = new Selection(end, total, root, methods, divisor, seen, maxMethod);
        int[] members = new int[roots.size()];
        for (int k = 0; k < members.length; k++) members[k] = roots.get(k);
        sel.visit(-1, 0, members, 0);

        j.begin('{').field("tree", kind).name("kinds").begin('[');
        for (String k : kinds) j.value(k);
        j.end(']').field("metric", METRIC).field("divisor", divisor).field("widest", divisor / 2).field("deepest", deepest)
            .name("nodes").begin('[');
        for (long[] node : sel.out) j.numbers(node);
        // [id, class index, name, desc, file ("": none), line (-1: none)]: the class is written once, in classes
        Map<String, Integer> classIndex = new java.util.HashMap<>();
        for (String k : classes.keySet()) classIndex.put(k, classIndex.size());
        j.end(']').name("methods").begin('[');
        for (int m : new java.util.TreeSet<>(sel.named)) {
            String file = methods.file(m);
            j.begin('[').value(m).value(classIndex.get(methods.className(m) + '\0' + (methods.profiled(m) ? 1 : 0)))
                .value(methods.name(m)).value(methods.desc(m)).value(file == null ? "" : file).value(methods.line(m)).end(']');
        }
        j.end(']').name("classes").begin('[');
        for (Map.Entry<String, long[]> e : classes.entrySet()) {
            String k = e.getKey();
            int cut = k.lastIndexOf('\0');
            long[] c = e.getValue();
            j.begin('[').value(k.substring(0, cut)).value(Long.parseLong(k.substring(cut + 1)));
            for (long x : c) j.value(x);
            j.end(']');
        }
        j.end(']').name("threads").begin('[');
        for (int t = 0; t < threads.length; t++) j.begin('[').value(threads[t][0]).value(threadNames[t]).end(']');
        j.end(']').end('}');
    }

    /** The merged tree's walk: a merged node is the walked nodes with one method path, one of each thread at most. */
    private final class Selection {
        final int[] end;
        final long[] total;
        final long root;
        final int divisor;
        /** each method's place in the page's sibling order (core/views/frames.ts methodRanks: key, then id) */
        final int[] rank;
        final List<long[]> out = new ArrayList<>();
        final List<Integer> named = new ArrayList<>();

        Selection(int[] end, long[] total, long root, Methods methods, int divisor, java.util.BitSet seen, int maxMethod) {
            this.end = end;
            this.total = total;
            this.root = root;
            this.divisor = divisor;
            Integer[] ids = new Integer[seen.cardinality()];
            String[] keys = new String[maxMethod + 1];
            int k = 0;
            for (int m = seen.nextSetBit(0); m >= 0; m = seen.nextSetBit(m + 1)) {
                ids[k++] = m;
                keys[m] = methods.key(m);
            }
            Arrays.sort(ids, (a, b) -> {
                int c = keys[a].compareTo(keys[b]);
                return c != 0 ? c : Integer.compare(a, b);
            });
            rank = new int[maxMethod + 1];
            for (int r = 0; r < ids.length; r++) rank[ids[r]] = r;
        }

        /** Drawn at 3,840 pixels under the section's metric. */
        boolean kept(long t) {
            return t > 0 && t * (double) divisor >= root;
        }

        void visit(int m, int d, int[] members, long gap) throws IOException {
            // the members' children in the page's order, those of one method (one per thread at most) next to each other
            int count = 0;
            for (int i : members) for (int c = i + 1; c < end[i]; c = end[c]) count++;
            long[] kids = new long[count];                 // rank << 32 | walked index: one sort, no boxing
            int k = 0;
            for (int i : members) for (int c = i + 1; c < end[i]; c = end[c]) kids[k++] = (long) rank[method[c]] << 32 | c;
            Arrays.sort(kids);
            // the groups: [from, to) in kids, their sums and whether they are kept
            int groups = 0;
            int[] from = new int[count + 1];
            for (int a = 0; a < count; a++) if (a == 0 || kids[a] >>> 32 != kids[a - 1] >>> 32) from[groups++] = a;
            from[groups] = count;
            long[] sums = new long[groups];
            boolean[] keep = new boolean[groups];
            long more = 0;
            for (int g = 0; g < groups; g++) {
                long t = 0;
                for (int a = from[g]; a < from[g + 1]; a++) t += alloc(total, (int) kids[a]);
                sums[g] = t;
                keep[g] = kept(t);
                if (!keep[g]) more++;
            }
            long[] node = {m, d, more, 0, 0, gap};      // [m, depth, more, self, total, gap]
            for (int i : members) {
                node[3] += alloc(self, i);
                node[4] += alloc(total, i);
            }
            out.add(node);
            if (m >= 0) named.add(m);
            long run = 0;
            for (int g = 0; g < groups; g++) {
                if (keep[g]) {
                    int[] group = new int[from[g + 1] - from[g]];
                    for (int a = 0; a < group.length; a++) group[a] = (int) kids[from[g] + a];
                    visit(method[group[0]], d + 1, group, run);
                    run = 0;
                } else run += sums[g];
            }
        }
    }
}
