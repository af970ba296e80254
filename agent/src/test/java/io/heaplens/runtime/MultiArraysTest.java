package io.heaplens.runtime;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Binder 2006 Figure 3, all eight rows, through the Figure 4 algorithm and through the recorder's per-level counts. */
class MultiArraysTest {
    @ParameterizedTest(name = "{0}[{1}][{2}][{3}]")
    @CsvSource({
        // base, d1, d2, d3, R arrays, R elements, t arrays, t elements (-1: no primitive call)
        "R, 2, 3, 5, 9, 38, -1, -1",
        "R, 2, 3, 0, 9, 8, -1, -1",
        "R, 2, 0, 5, 3, 2, -1, -1",
        "R, 0, 3, 5, 1, 0, -1, -1",
        "I, 2, 3, 5, 3, 8, 6, 30",
        "I, 2, 3, 0, 3, 8, 6, 0",
        "I, 2, 0, 5, 3, 2, 0, 0",
        "I, 0, 3, 5, 1, 0, 0, 0",
    })
    void figure3(char base, int d1, int d2, int d3, long rArrays, long rElements, long tArrays, long tElements) {
        int[] dims = {d1, d2, d3};
        long[][] calls = MultiArrays.figure4(dims, 3, base);
        assertArrayEquals(new long[] {'R', rArrays, rElements}, calls[0]);
        if (tArrays < 0) {
            assertEquals(1, calls.length);
        } else {
            assertEquals(2, calls.length);
            assertArrayEquals(new long[] {base, tArrays, tElements}, calls[1]);
        }
        // The recorder keeps one record per level; levels 1..2 hold references, level 3 the base type.
        long[][] levels = MultiArrays.levels(dims);
        long refArrays = 0, refElements = 0;
        int refLevels = base == 'R' ? 3 : 2;
        for (int i = 0; i < refLevels; i++) { refArrays += levels[i][0]; refElements += levels[i][1]; }
        assertEquals(rArrays, refArrays);
        assertEquals(rElements, refElements);
        if (tArrays >= 0) {
            assertEquals(tArrays, levels[2][0]);
            assertEquals(tElements, levels[2][1]);
        }
    }

    @ParameterizedTest
    @CsvSource({"'2,3', 3, 1, 2, 2, 6", "'4', 1, 1, 4, 0, 0"})
    void partialAllocation(String dimList, int arrayDim, long arrays1, long elements1, long arrays2, long elements2) {
        String[] parts = dimList.split(",");
        int[] dims = new int[parts.length];
        for (int i = 0; i < parts.length; i++) dims[i] = Integer.parseInt(parts[i].trim());
        long[][] levels = MultiArrays.levels(dims);
        assertEquals(arrays1, levels[0][0]);
        assertEquals(elements1, levels[0][1]);
        if (dims.length > 1) {
            assertEquals(arrays2, levels[1][0]);
            assertEquals(elements2, levels[1][1]);
            // multianewarray [[[I 2 allocates only reference arrays: one Figure 4 call with R.
            long[][] calls = MultiArrays.figure4(dims, arrayDim, 'I');
            assertEquals(1, calls.length);
            assertArrayEquals(new long[] {'R', arrays1 + arrays2, elements1 + elements2}, calls[0]);
        }
    }

    @ParameterizedTest
    @CsvSource({"100000, 100000"})
    void productsDoNotOverflowInt(int d1, int d2) {
        long[][] levels = MultiArrays.levels(new int[] {d1, d2});
        assertEquals(10_000_000_000L, levels[1][1]);
    }
}
