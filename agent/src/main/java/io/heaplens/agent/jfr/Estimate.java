package io.heaplens.agent.jfr;

/**
 * What one seen allocation stands for (Horvitz-Thompson): with inclusion probability π it weighs 1 / π allocations
 * and s / π bytes. The variance terms are the estimator's own under independent inclusions (per seen allocation
 * (1 − π) / π² for counts, s² (1 − π) / π² for bytes): summed per type they give the interval of its estimate.
 */
final class Estimate {
    final double count, bytes, countVariance, bytesVariance;

    private Estimate(double count, double bytes, double countVariance, double bytesVariance) {
        this.count = count;
        this.bytes = bytes;
        this.countVariance = countVariance;
        this.bytesVariance = bytesVariance;
    }

    /** size: the allocation's bytes; inclusion: the probability it was seen, in (0, 1]. */
    static Estimate of(long size, double inclusion) {
        if (size <= 0) throw new IllegalArgumentException("allocation size " + size);
        if (!(inclusion > 0 && inclusion <= 1)) throw new IllegalArgumentException("inclusion probability " + inclusion);
        double w = 1 / inclusion, v = w * (w - 1);
        return new Estimate(w, size * w, v, (double) size * size * v);
    }
}
