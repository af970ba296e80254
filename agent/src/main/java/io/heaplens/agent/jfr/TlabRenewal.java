package io.heaplens.agent.jfr;

/**
 * The probability that one allocation of a thread opens a new TLAB, hence is seen by jdk.ObjectAllocationInNewTLAB.
 * With the flags of {@link JfrSampling#TLAB_FLAGS} HotSpot gives every new TLAB the same usable space T after the
 * allocation that opened it, and retires the TLAB whenever an allocation does not fit. A thread's TLAB is therefore a
 * renewal process: from u = 0 bytes used, each allocation of s bytes either fits (u += s) or, when u + s > T, opens
 * the next TLAB and is seen (u = 0 again; its own bytes are outside T). The chance of being seen is not s / T: an
 * allocation close to T in size ends a TLAB early, so small ones seldom find u near T (measured on a fixture with
 * 12 KB arrays among small objects: T / s weights put the small types 8–13 % low). When the sizes arrive in an order
 * independent of u, the expected number of allocations that find u used is the renewal density h(u) (h(0) = 1,
 * h(u) = Σ_s h(u − s) q(s), q the distribution of sizes), and an allocation of s is seen with probability
 * π(s) = Σ_{u > T − s} h(u) / Σ_u h(u). q is what is being estimated: it follows from the seen sizes weighted by 1 / π,
 * so q and π are solved together by fixed-point iteration (a few rounds). The estimator then weighs each seen
 * allocation 1 / π(s) (Horvitz-Thompson), unbiased per type under that independence. Sizes in 8-byte words.
 */
final class TlabRenewal {
    private final int t;                     // usable TLAB after the opening allocation, in words
    private final long[] seen;               // seen allocations per size in words; index t + 1: larger than T (always seen)
    private final double[] pi;               // current π per size in words (index 1..t), 1 beyond
    private long events, nextUpdate = 64;

    /** tlabWords: T in 8-byte words. */
    TlabRenewal(int tlabWords) {
        if (tlabWords < 8) throw new IllegalArgumentException("TLAB of " + tlabWords + " words");
        t = tlabWords;
        seen = new long[t + 2];
        pi = new double[t + 2];
        for (int w = 1; w <= t; w++) pi[w] = Math.min(1.0, w / (double) t);
        pi[t + 1] = 1;
    }

    private int index(long bytes) {
        long w = (bytes + 7) >>> 3;
        return w > t ? t + 1 : (int) Math.max(1, w);
    }

    /** One seen allocation of this many bytes; refreshes π as the sizes seen double (then every 4096). */
    void add(long bytes) {
        seen[index(bytes)]++;
        if (++events >= nextUpdate) {
            solve(4);
            nextUpdate = events + Math.min(events, 4096);
        }
    }

    /** π for an allocation of this many bytes. */
    double inclusion(long bytes) {
        return pi[index(bytes)];
    }

    /** Rounds of: sizes q from the seen ones weighted 1 / π; renewal density h; new π. */
    void solve(int rounds) {
        int n = 0;
        for (int w = 1; w <= t; w++) if (seen[w] > 0) n++;
        int[] sizes = new int[n];
        n = 0;
        for (int w = 1; w <= t; w++) if (seen[w] > 0) sizes[n++] = w;
        double[] q = new double[n];
        double[] h = new double[t + 1];
        for (int r = 0; r < rounds; r++) {
            double total = seen[t + 1];                   // π = 1 beyond T
            for (int i = 0; i < n; i++) total += q[i] = seen[sizes[i]] / pi[sizes[i]];
            if (total <= 0) return;
            for (int i = 0; i < n; i++) q[i] /= total;
            java.util.Arrays.fill(h, 0);
            h[0] = 1;
            for (int u = 1; u <= t; u++) {
                double v = 0;
                for (int i = 0; i < n && sizes[i] <= u; i++) v += h[u - sizes[i]] * q[i];
                h[u] = v;
            }
            double all = 0;
            for (int u = 0; u <= t; u++) all += h[u];
            // above[k] = Σ_{u ≥ k} h(u): π(w) = above[t − w + 1] / all
            double above = 0;
            for (int w = 1; w <= t; w++) {
                above += h[t - w + 1];
                pi[w] = Math.max(1e-9, Math.min(1.0, above / all));
            }
        }
    }
}
