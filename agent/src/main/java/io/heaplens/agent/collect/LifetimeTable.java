package io.heaplens.agent.collect;

import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Life;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finished lifetime records, aggregated as they arrive (Pan 2001 (HUP) §2.2): per nested allocation site (allocation
 * site key + allocation trace), and inside it per lifetime pattern (first-use trace + last-use site) with a
 * representative object; plus HUP's Figure 5, the in-use/lag/drag/void heap over allocation time. Records are
 * dropped once added, so memory stays bounded by the number of distinct sites and patterns.
 */
public final class LifetimeTable {
    static final int BUCKETS = 256;

    static final class Sums {
        long objects, voids, lagged, dragged, lag, drag, voidSpace, use, total;

        void add(Life l) {
            objects++;
            long u = l.unreachable;
            if (l.firstUse < 0) {
                voids++;
                long v = l.size * Math.max(0, u - l.born);
                voidSpace += v;
                total += v;
                return;
            }
            long lagT = Math.max(0, l.firstUse - l.born), useT = Math.max(0, l.lastUse - l.firstUse), dragT = Math.max(0, u - l.lastUse);
            if (lagT > 0) lagged++;
            if (dragT > 0) dragged++;
            lag += l.size * lagT;
            use += l.size * useT;
            drag += l.size * dragT;
            total += l.size * (lagT + useT + dragT);
        }

        void write(Json j) throws IOException {
            j.field("objects", objects).field("voidObjects", voids).field("laggedObjects", lagged).field("draggedObjects", dragged)
                .field("lag", lag).field("drag", drag).field("void", voidSpace).field("use", use).field("total", total);
        }
    }

    static final class Pattern {
        final Sums sums = new Sums();
        final int firstUseTrace;
        final long lastUseSite;
        Life representative;
        Pattern(int firstUseTrace, long lastUseSite) { this.firstUseTrace = firstUseTrace; this.lastUseSite = lastUseSite; }
    }

    static final class Nested {
        final int key, trace;
        final Sums sums = new Sums();
        final Map<String, Pattern> patterns = new HashMap<>();
        Nested(int key, int trace) { this.key = key; this.trace = trace; }
    }

    private final Map<Long, Nested> nested = new HashMap<>();
    private final Sums all = new Sums();
    private long bucket = 64 * 1024;
    private final double[][] timeline = new double[4][BUCKETS];   // in use, lag, drag, void: byte x byte-time per bucket
    private long finished, reachableAtExit;

    public synchronized void add(Life l) {
        finished++;
        if (l.reachableAtExit) reachableAtExit++;
        all.add(l);
        Nested n = nested.get(((long) l.key << 32) | (l.allocTrace & 0xFFFFFFFFL));
        if (n == null) {
            n = new Nested(l.key, l.allocTrace);
            nested.put(((long) l.key << 32) | (l.allocTrace & 0xFFFFFFFFL), n);
        }
        n.sums.add(l);
        String pk = l.firstUseTrace + ":" + l.lastUseSite;
        Pattern p = n.patterns.get(pk);
        if (p == null) {
            p = new Pattern(l.firstUseTrace, l.lastUseSite);
            n.patterns.put(pk, p);
        }
        p.sums.add(l);
        if (p.representative == null) p.representative = l;
        chart(l);
    }

    private void chart(Life l) {
        long u = l.unreachable;
        while (u >= bucket * BUCKETS) widen();
        if (l.firstUse < 0) { span(3, l.born, u, l.size); return; }
        span(1, l.born, l.firstUse, l.size);
        span(0, l.firstUse, l.lastUse, l.size);
        span(2, l.lastUse, u, l.size);
    }

    private void span(int series, long from, long to, long size) {
        if (to <= from) return;
        for (long k = from / bucket; k <= (to - 1) / bucket && k < BUCKETS; k++) {
            long lo = Math.max(from, k * bucket), hi = Math.min(to, (k + 1) * bucket);
            timeline[series][(int) k] += (double) size * (hi - lo);
        }
    }

    private void widen() {
        for (double[] s : timeline) {
            for (int i = 0; i < BUCKETS / 2; i++) s[i] = s[2 * i] + s[2 * i + 1];
            for (int i = BUCKETS / 2; i < BUCKETS; i++) s[i] = 0;
        }
        bucket *= 2;
    }

    /** Writes the aggregates; marks the sites, types and methods it refers to for the profile's tables. */
    public synchronized void write(Json j, long[][] traces, BitSet sites, BitSet types, BitSet methods) throws IOException {
        j.field("finished", finished).field("reachableAtExit", reachableAtExit);
        j.name("totals").begin('{');
        all.write(j);
        j.end('}');
        BitSet usedTraces = new BitSet();
        j.name("nested").begin('[');
        List<Nested> list = new ArrayList<>(nested.values());
        for (Nested n : list) {
            int site = Keys.site(n.key), type = Keys.type(n.key);
            sites.set(site);
            types.set(type);
            if (n.trace >= 0) usedTraces.set(n.trace);
            j.begin('{').field("site", site).field("type", type).field("trace", n.trace);
            n.sums.write(j);
            j.name("patterns").begin('[');
            for (Pattern p : n.patterns.values()) {
                if (p.firstUseTrace >= 0) usedTraces.set(p.firstUseTrace);
                j.begin('{').field("firstUseTrace", p.firstUseTrace);
                site(j, "lastUseSite", p.lastUseSite, methods);
                p.sums.write(j);
                Life r = p.representative;
                j.name("representative").begin('{').field("size", r.size).field("born", r.born).field("firstUse", r.firstUse)
                    .field("lastUse", r.lastUse).field("firstPut", r.firstPut).field("lastPut", r.lastPut)
                    .field("unreachable", r.unreachable).field("reachableAtExit", r.reachableAtExit).field("uses", r.uses).field("puts", r.puts);
                if (r.array) j.field("length", r.length);
                site(j, "firstUseSite", r.firstUseSite, methods);
                site(j, "lastUseSite", r.lastUseSite, methods);
                site(j, "firstPutSite", r.firstPutSite, methods);
                site(j, "lastPutSite", r.lastPutSite, methods);
                j.end('}').end('}');
            }
            j.end(']').end('}');
        }
        j.end(']');
        j.name("traces").begin('{');
        for (int t = usedTraces.nextSetBit(0); t >= 0 && t < traces.length; t = usedTraces.nextSetBit(t + 1)) {
            long[] fr = traces[t];
            long[] flat = new long[fr.length * 2];
            for (int i = 0; i < fr.length; i++) {
                flat[2 * i] = fr[i] >>> 32;
                flat[2 * i + 1] = (int) fr[i];
                methods.set((int) (fr[i] >>> 32));
            }
            j.name(Integer.toString(t)).numbers(flat);
        }
        j.end('}');
        j.name("timeline").begin('{').field("bucket", bucket);
        String[] names = {"inUse", "lag", "drag", "void"};
        for (int s = 0; s < 4; s++) {
            int last = 0;
            for (int i = 0; i < BUCKETS; i++) for (double[] ser : timeline) if (ser[i] > 0) last = i + 1;
            long[] avg = new long[last];
            for (int i = 0; i < last; i++) avg[i] = Math.round(timeline[s][i] / bucket);   // average heap bytes in the bucket
            j.name(names[s]).numbers(avg);
        }
        j.end('}');
    }

    private static void site(Json j, String name, long site, BitSet methods) throws IOException {
        if (site < 0) { j.name(name).nullValue(); return; }
        methods.set((int) (site >>> 32));
        j.name(name).numbers(site >>> 32, (int) site);
    }
}
