package io.heaplens.agent.wire;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

class MiniJsonTest {
    @Test
    void parsesRequests() {
        Object o = MiniJson.parse("{\"type\":\"request\",\"id\":7,\"op\":\"define\",\"methods\":[1,2],\"x\":-1.5e2,\"s\":\"a\\\"\\u0041\",\"t\":true,\"n\":null}");
        Map<?, ?> m = (Map<?, ?>) o;
        assertEquals("request", m.get("type"));
        assertEquals(7L, m.get("id"));
        assertEquals(List.of(1L, 2L), m.get("methods"));
        assertEquals(-150.0, m.get("x"));
        assertEquals("a\"A", m.get("s"));
        assertEquals(Boolean.TRUE, m.get("t"));
        assertTrue(m.containsKey("n"));
        assertNull(m.get("n"));
    }

    @Test
    void rejectsEveryKindOfBrokenInput() {
        for (String bad : new String[] {"", "{", "{\"a\"}", "{\"a\":}", "[1,]", "{\"a\":1}x", "tru", "\"unterminated",
                "{\"a\":\"\\x\"}", "{\"a\":01a}", "[".repeat(100) + "]".repeat(100), "\"\u0001\""}) {
            assertThrows(IllegalArgumentException.class, () -> MiniJson.parse(bad), bad);
        }
    }

    @Test
    void randomInputNeverEscapesAsAnythingButIllegalArgument() {
        Random r = new Random(42);
        String alphabet = "{}[]\":,0123456789-.eEtruefalsn\\u ab";
        int rejected = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int len = r.nextInt(40);
            for (int k = 0; k < len; k++) b.append(alphabet.charAt(r.nextInt(alphabet.length())));
            try {
                MiniJson.parse(b.toString());
            } catch (IllegalArgumentException e) {
                rejected++;
            }
        }
        assertTrue(rejected > 19_000, "almost all random strings are rejected: " + rejected);
    }
}
