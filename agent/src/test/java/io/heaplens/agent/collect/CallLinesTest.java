package io.heaplens.agent.collect;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Format version 2 writes a node's call line only where it changes for the pair (parent's method, method). */
class CallLinesTest {
    @Test void aLineIsWrittenWhenItChangesForItsPair() {
        CallLines lines = new CallLines();
        assertTrue(lines.changes(1, 2, 11), "first time");
        assertFalse(lines.changes(1, 2, 11), "the same call in another context");
        assertTrue(lines.changes(1, 3, 11), "another callee");
        assertTrue(lines.changes(4, 2, 11), "another caller");
        assertTrue(lines.changes(1, 2, 12), "another line");
        assertFalse(lines.changes(1, 2, 12));
        assertTrue(lines.changes(1, 2, 0), "no line after a line: written as 0");
        assertFalse(lines.changes(1, 2, 0));
        assertFalse(lines.changes(5, 6, 0), "no line for a new pair: nothing to write");
        assertTrue(lines.changes(Integer.MAX_VALUE, 0, 7), "ids keep apart at the ends of their range");
        assertTrue(lines.changes(0, Integer.MAX_VALUE, 8));
        assertFalse(lines.changes(Integer.MAX_VALUE, 0, 7));
    }

    @Test void manyPairsAndAClear() {
        CallLines lines = new CallLines();
        for (int i = 0; i < 100_000; i++) assertTrue(lines.changes(i % 1000, i, 1 + i % 50));
        for (int i = 0; i < 100_000; i++) assertFalse(lines.changes(i % 1000, i, 1 + i % 50), "pair " + i);
        lines.clear();
        assertTrue(lines.changes(0, 0, 1), "each write starts afresh");
        assertFalse(lines.changes(5, 5, 0));
    }
}
