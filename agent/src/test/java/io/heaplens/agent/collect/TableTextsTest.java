package io.heaplens.agent.collect;

import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.Registry.MethodInfo;
import io.heaplens.agent.core.Registry.SiteInfo;
import io.heaplens.agent.core.Registry.TypeInfo;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A reused table entry is the text Tables writes for the entry as it is now, changed fields included. */
class TableTextsTest {
    private interface Entry { void write(Json j) throws IOException; }

    private static String tables(Entry e) throws IOException {
        StringWriter w = new StringWriter();
        e.write(new Json(w));
        return w.toString();
    }

    @Test
    void methodsAreEncodedAgainWhenAFieldTheyWriteChanges() throws IOException {
        Registry r = new Registry();
        MethodInfo m = r.method("a/B", "run", "()V");
        TableTexts texts = new TableTexts();
        String first = texts.method(m);
        assertEquals(tables(j -> Tables.method(j, m)), first);
        assertSame(first, texts.method(m), "unchanged: the same text, not encoded again");
        m.file = "B.java";
        m.line = 12;
        m.callLines = new int[] {13, 14};
        assertEquals(tables(j -> Tables.method(j, m)), texts.method(m));
        m.profiled = !m.profiled;
        assertEquals(tables(j -> Tables.method(j, m)), texts.method(m));
        m.ctorTarget = r.method("a/C", "<init>", "()V").id;
        m.ctorWarning = "odd \"constructor\"";
        assertEquals(tables(j -> Tables.method(j, m)), texts.method(m));
    }

    @Test
    void sitesAndTypesAreTablesText() throws IOException {
        Registry r = new Registry();
        MethodInfo m = r.method("a/B", "run", "()V");
        SiteInfo s = r.site(m.id, 7, 12, "new", "Ljava/lang/String;");
        SiteInfo arr = r.site(m.id, 9, 13, "newarray", "[I");
        TableTexts texts = new TableTexts();
        TypeSizes sizes = new TypeSizes(null);
        assertEquals(tables(j -> Tables.site(j, s)), texts.site(s));
        assertEquals(tables(j -> Tables.site(j, arr)), texts.site(arr));
        TypeInfo string = r.type(s), ints = r.type(arr);
        string.size = -1;                      // not known yet
        assertEquals(tables(j -> Tables.type(j, string, sizes)), texts.type(string, sizes));
        string.size = 24;                      // found once its class is loaded
        assertEquals(tables(j -> Tables.type(j, string, sizes)), texts.type(string, sizes));
        assertEquals("{\"id\":" + string.id + ",\"name\":\"java.lang.String\",\"array\":false,\"size\":24}", texts.type(string, sizes));
        assertEquals(tables(j -> Tables.type(j, ints, sizes)), texts.type(ints, sizes));
    }

    @Test
    void rawValuesAreCommaSeparatedLikeTheOthers() throws IOException {
        assertEquals("{\"t\":[{\"a\":1},{\"b\":2}],\"n\":3}",
            tables(j -> j.begin('{').name("t").begin('[').raw("{\"a\":1}").raw("{\"b\":2}").end(']').field("n", 3).end('}')));
    }
}
