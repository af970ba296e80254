package io.heaplens.runtime;

/**
 * Binder 2006 §5, Figure 4: the arrays a {@code multianewarray} allocates.
 * Level i (1-based) of an allocation with dimensions dim(1..allocDim) creates prod(dim(1..i-1)) arrays holding
 * prod(dim(1..i)) elements in all. Figure 4 sums the levels by element type (R for every level whose elements
 * are references, the base type t for the innermost level of a fully allocated primitive array); the recorder
 * keeps the levels apart (each has its own Java type) and {@link #figure4} gives the paper's aggregation.
 */
public final class MultiArrays {
    private MultiArrays() {}

    /** {arrays, elements} per level, levels 1..dims.length, following Figure 4 steps 2–3 (long arithmetic). */
    public static long[][] levels(int[] dims) {
        long[][] out = new long[dims.length][2];
        long prod = 1;
        for (int i = 0; i < dims.length; i++) {
            out[i][0] = prod;                // (b) arr := arr + prod
            prod = prod * dims[i];           // (d) prod := prod * dim(i)
            out[i][1] = prod;                // (e) el := el + prod
        }
        return out;
    }

    /**
     * Figure 4 exactly: the profileArrays(c, type, arrays, elements) calls for one multianewarray.
     * @param arrayDim dimensions of the array type; @param baseType its base type code (B C D F I J S Z, or R for objects)
     * @return one or two rows {typeCode, arrays, elements}
     */
    public static long[][] figure4(int[] dims, int arrayDim, char baseType) {
        int allocDim = dims.length;
        boolean primitiveLeaf = allocDim == arrayDim && baseType != 'R';
        long prod = 1, arr = 0, el = 0;
        long[][] calls = new long[primitiveLeaf ? 2 : 1][];
        for (int i = 1; i <= allocDim; i++) {
            if (i == allocDim && primitiveLeaf) {
                calls[0] = new long[] {'R', arr, el};
                arr = 0;
                el = 0;
            }
            arr += prod;
            prod *= dims[i - 1];
            el += prod;
        }
        calls[calls.length - 1] = new long[] {primitiveLeaf ? baseType : 'R', arr, el};
        return calls;
    }
}
