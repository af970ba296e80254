package io.heaplens.agent.collect;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The first section of a hand-made two-thread tree at 1/10: the same text as core/profile/first-section.ts writes for
 * the same tree (test/unit/data/first-section-tree.json; both tests compare with first-section-expected.json).
 */
class FirstSectionTest {
    private static final String[][] METHODS = {
        null,
        { "a.A", "main", "true" }, { "a.B", "two", "true" }, { "a.B", "three", "true" },
        { "java.util.Arrays", "copyOf", "false" }, { "a.B", "five", "true" },
    };

    private static final FirstSection.Methods NAMES = new FirstSection.Methods() {
        @Override public String key(int m) { return METHODS[m][0] + '.' + METHODS[m][1] + "()V"; }
        @Override public String className(int m) { return METHODS[m][0]; }
        @Override public boolean profiled(int m) { return Boolean.parseBoolean(METHODS[m][2]); }
        @Override public String name(int m) { return METHODS[m][1]; }
        @Override public String desc(int m) { return "()V"; }
        @Override public String file(int m) { return m == 3 ? "B.java" : null; }
        @Override public int line(int m) { return m == 3 ? 7 : -1; }
    };

    /** The tree of first-section-tree.json as the walker hands it: pre-order, thread after thread. */
    static FirstSection handMade() {
        FirstSection s = new FirstSection();
        s.reset(TreeWalker.ROOT, null);
        // depth, method, objects, arrays, elements, bytes, calls
        s.add(0, -1, 0, 0, 0, 0, 0);
        s.add(1, 1, 100, 0, 0, 1600, 1);
        s.add(2, 2, 5, 0, 0, 80, 10);
        s.add(2, 3, 0, 50, 500, 4000, 2);
        s.add(3, 4, 1, 0, 0, 16, 1);
        s.add(0, -1, 0, 0, 0, 0, 0);
        s.add(1, 1, 10, 0, 0, 160, 1);
        s.add(2, 2, 3, 0, 0, 48, 1);
        s.add(2, 5, 1, 0, 0, 16, 1);
        return s;
    }

    private static String written(FirstSection s, int divisor) throws IOException {
        StringWriter out = new StringWriter();
        Json j = new Json(out);
        s.write(j, divisor, "exact", List.of("exact"), new long[][] { { 1 }, { 2 } }, new String[] { "main", "worker" }, NAMES);
        j.flush();
        return out.toString();
    }

    @Test
    void sameSectionAsTheTypeScriptWriter() throws IOException {
        String expected = Files.readString(Path.of("..", "test", "unit", "data", "first-section-expected.json"), StandardCharsets.UTF_8).trim();
        assertEquals(expected, written(handMade(), 10));
    }

    @Test
    void atTheDefaultDivisorNoNodeOfTheSmallTreeIsLeftOut() throws IOException {
        String text = written(handMade(), FirstSection.DIVISOR);
        // [m, depth, more, self, total, gap] in allocations (objects + arrays): every node, none left out, no gap
        assertEquals(true, text.contains("\"metric\":\"allocations\",\"divisor\":7680,\"widest\":3840,\"deepest\":3,"
            + "\"nodes\":[[-1,0,0,0,170,0],[1,1,0,110,170,0],[5,2,0,1,1,0],[3,2,0,50,51,0],[4,3,0,1,1,0],[2,2,0,8,8,0]]"), text);
        assertEquals(7680, FirstSection.DIVISOR);
    }
}
