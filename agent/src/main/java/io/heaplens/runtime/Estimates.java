package io.heaplens.runtime;

import java.util.HashMap;
import java.util.Map;

/**
 * The interval of each type's estimate in the sampled mode when the JVM chooses the samples (sampler=jfr or jvmti):
 * per type id, the samples seen, the estimated count and bytes and their Horvitz-Thompson variances, summed over the
 * run. The profile writes them as {@code agent.jfrTypes} (docs/format.md); both JVM-fed samplers add here.
 */
public final class Estimates {
    private static final Map<Integer, double[]> PER_TYPE = new HashMap<>();

    private Estimates() {}

    /** One sample of type {@code typeId}: its weighted count and bytes and their variances. */
    public static void add(int typeId, double count, double countVariance, double bytes, double bytesVariance) {
        synchronized (PER_TYPE) {
            double[] v = PER_TYPE.get(typeId);
            if (v == null) PER_TYPE.put(typeId, v = new double[5]);
            v[0]++;
            v[1] += count;
            v[2] += countVariance;
            v[3] += bytes;
            v[4] += bytesVariance;
        }
    }

    /** Per type id: {seen, count, count variance, bytes, bytes variance}, a copy. */
    public static Map<Integer, double[]> perType() {
        synchronized (PER_TYPE) {
            Map<Integer, double[]> copy = new HashMap<>();
            for (Map.Entry<Integer, double[]> en : PER_TYPE.entrySet()) copy.put(en.getKey(), en.getValue().clone());
            return copy;
        }
    }
}
