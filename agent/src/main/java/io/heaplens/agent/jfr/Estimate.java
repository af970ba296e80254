package io.heaplens.agent.jfr;

/**
 * What one TLAB event stands for (Horvitz-Thompson: each sampled allocation weighs 1 / its inclusion probability).
 * With a fixed TLAB of T bytes that is always retired when an allocation does not fit, an allocation of s < T bytes
 * opens a new TLAB with probability s / T, so it stands for T / s allocations and T bytes; one of s ≥ T (or outside
 * any TLAB: T = 0) is always seen and stands for itself. The variance terms are the estimator's own (Σ over events
 * of w (w − 1) for counts, Σ T (T − s) for bytes), from which the interval of a total follows.
 */
final class Estimate {
    final double count, bytes, countVariance, bytesVariance;

    private Estimate(double count, double bytes, double countVariance, double bytesVariance) {
        this.count = count;
        this.bytes = bytes;
        this.countVariance = countVariance;
        this.bytesVariance = bytesVariance;
    }

    /** size: the allocation's bytes; tlab: T, the TLAB size it was sampled against (0: an allocation outside TLABs). */
    static Estimate of(long size, long tlab) {
        if (size <= 0) throw new IllegalArgumentException("allocation size " + size);
        if (tlab <= size) return new Estimate(1, size, 0, 0);
        double w = tlab / (double) size;
        return new Estimate(w, tlab, w * (w - 1), (double) tlab * (tlab - size));
    }
}
