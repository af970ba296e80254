package io.heaplens.agent.collect;

import io.heaplens.agent.core.Registry.MethodInfo;
import io.heaplens.agent.core.Registry.SiteInfo;
import io.heaplens.agent.core.Registry.TypeInfo;

import java.io.IOException;
import java.io.StringWriter;
import java.util.Arrays;

/**
 * The text of each methods, sites and types entry as the last write gave it, reused while the entry is the same:
 * the tables were about a third of the collector's samples on luindex and 40 % of its profile's text, and from one
 * periodic write to the next almost none of their entries change (docs/benchmark.md, "Round 12"). An entry is
 * encoded again when a field it writes has changed (a site never changes; a type's size is found once its class
 * loads; a method gains its file, lines, call lines or constructor target as its class is transformed).
 */
final class TableTexts {
    private final StringWriter scratch = new StringWriter();
    private final Json json = new Json(scratch);
    private MethodText[] methods = new MethodText[0];
    private String[] sites = new String[0];
    private TypeText[] types = new TypeText[0];

    /** A method's text and the values of its changeable fields it was made from. */
    private static final class MethodText {
        String file, ctorWarning, text;
        int line, ctorTarget;
        boolean profiled;
        int[] callLines;

        boolean same(MethodInfo m) {
            return file == m.file && line == m.line && profiled == m.profiled && ctorTarget == m.ctorTarget
                && ctorWarning == m.ctorWarning && callLines == m.callLines;
        }
    }

    private static final class TypeText {
        long size;
        String text;
    }

    String method(MethodInfo m) throws IOException {
        if (m.id >= methods.length) methods = Arrays.copyOf(methods, Math.max(m.id + 1, methods.length * 2));
        MethodText t = methods[m.id];
        if (t != null && t.same(m)) return t.text;
        if (t == null) methods[m.id] = t = new MethodText();
        // the fields first, then the text: a field changed meanwhile makes the next write encode it again
        t.file = m.file; t.line = m.line; t.profiled = m.profiled; t.ctorTarget = m.ctorTarget;
        t.ctorWarning = m.ctorWarning; t.callLines = m.callLines;
        start();
        Tables.method(json, m);
        return t.text = scratch.toString();
    }

    String site(SiteInfo s) throws IOException {
        if (s.id >= sites.length) sites = Arrays.copyOf(sites, Math.max(s.id + 1, sites.length * 2));
        String text = sites[s.id];
        if (text != null) return text;
        start();
        Tables.site(json, s);
        return sites[s.id] = scratch.toString();
    }

    String type(TypeInfo t, TypeSizes sizes) throws IOException {
        if (t.id >= types.length) types = Arrays.copyOf(types, Math.max(t.id + 1, types.length * 2));
        long size = sizes.sizeOf(t);
        TypeText x = types[t.id];
        if (x != null && x.size == size) return x.text;
        if (x == null) types[t.id] = x = new TypeText();
        x.size = size;
        start();
        Tables.type(json, t, sizes);
        return x.text = scratch.toString();
    }

    private void start() {
        scratch.getBuffer().setLength(0);
        json.reset();
    }
}
