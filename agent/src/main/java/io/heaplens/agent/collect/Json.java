package io.heaplens.agent.collect;

import java.io.IOException;
import java.io.Writer;

/** Just enough JSON output for the profile file: streamed, no intermediate tree. */
public final class Json {
    private final Writer w;
    private boolean first = true;

    public Json(Writer w) { this.w = w; }

    public Json begin(char c) throws IOException { comma(); w.write(c); first = true; return this; }
    public Json end(char c) throws IOException { w.write(c); first = false; return this; }
    public Json name(String n) throws IOException { comma(); str(n); w.write(':'); first = true; return this; }
    public Json value(long v) throws IOException { comma(); w.write(Long.toString(v)); first = false; return this; }
    public Json value(boolean v) throws IOException { comma(); w.write(v ? "true" : "false"); first = false; return this; }
    public Json value(String v) throws IOException {
        comma();
        if (v == null) w.write("null"); else str(v);
        first = false;
        return this;
    }
    public Json nullValue() throws IOException { comma(); w.write("null"); first = false; return this; }

    public Json field(String n, long v) throws IOException { return name(n).value(v); }
    public Json field(String n, String v) throws IOException { return name(n).value(v); }
    public Json field(String n, boolean v) throws IOException { return name(n).value(v); }

    /** A record array [a,b,c,...] of numbers, written without per-value bookkeeping. */
    public Json numbers(long... values) throws IOException {
        comma();
        w.write('[');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) w.write(',');
            w.write(Long.toString(values[i]));
        }
        w.write(']');
        first = false;
        return this;
    }

    private void comma() throws IOException { if (!first) w.write(','); first = false; }

    private void str(String s) throws IOException {
        w.write('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': w.write("\\\""); break;
                case '\\': w.write("\\\\"); break;
                case '\n': w.write("\\n"); break;
                case '\r': w.write("\\r"); break;
                case '\t': w.write("\\t"); break;
                default:
                    if (c < 0x20 || (c >= 0xD800 && c <= 0xDFFF && !validSurrogate(s, i))) w.write(String.format("\\u%04x", (int) c));
                    else w.write(c);
            }
        }
        w.write('"');
    }

    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
