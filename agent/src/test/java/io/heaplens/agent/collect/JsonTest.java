package io.heaplens.agent.collect;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Numbers are written digit by digit from a scratch buffer (no String per number): the text must be Long.toString's. */
class JsonTest {
    private static String write(ThrowingWrite body) throws IOException {
        StringWriter out = new StringWriter();
        body.write(new Json(out));
        return out.toString();
    }

    interface ThrowingWrite { void write(Json j) throws IOException; }

    @Test
    void numbersAreLongToStringsText() throws IOException {
        assertEquals("[0,7,-7,10,-10,1234567890123,-9223372036854775808,9223372036854775807]",
            write(j -> j.numbers(0, 7, -7, 10, -10, 1234567890123L, Long.MIN_VALUE, Long.MAX_VALUE)));
        assertEquals("{\"a\":0,\"b\":-1,\"c\":[]}",
            write(j -> j.begin('{').field("a", 0).field("b", -1).name("c").numbers().end('}')));
    }

    @Test
    void rowsOfFiveSixAndSevenNumbersAreCommaSeparatedInAList() throws IOException {
        assertEquals("[[1,2,3,0,40],[5,6,7,8,9,10],[11,12,13,14,15,16,-1],[1,2]]",
            write(j -> j.begin('[').row(1, 2, 3, 0, 40).row(5, 6, 7, 8, 9, 10).row(11, 12, 13, 14, 15, 16, -1).numbers(1, 2).end(']')));
        assertEquals("{\"a\":[[100,2,3,4,5]]}",
            write(j -> j.begin('{').name("a").begin('[').row(100, 2, 3, 4, 5).end(']').end('}')));
    }

    @Test
    void textLongerThanTheBufferArrivesWholeAndInOrder() throws IOException {
        StringBuilder expected = new StringBuilder("[");
        String longName = "n".repeat(20_000);
        expected.append('"').append(longName).append('"');
        for (int i = 0; i < 5_000; i++) expected.append(',').append(i * 1_000_003L);
        expected.append(']');
        assertEquals(expected.toString(), write(j -> {
            j.begin('[').value(longName);
            for (int i = 0; i < 5_000; i++) j.value(i * 1_000_003L);
            j.end(']');
        }));
        assertEquals("\"a\\\"b\"", write(j -> j.value("a\"b")));
        assertEquals("null", write(Json::nullValue));
        assertEquals("\"tab\\there \\\\ \\n \\u0001 \\ud800 \ud83d\ude00 \u00e9\"", write(j -> j.value("tab\there \\ \n \u0001 \ud800 \ud83d\ude00 \u00e9")));
    }
}
