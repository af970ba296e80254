package io.heaplens.agent.collect;

import java.io.IOException;
import java.io.Writer;

/**
 * Just enough JSON output for the profile file: streamed, no intermediate tree. Numbers are written digit by digit
 * from one scratch buffer: with {@code Long.toString} the writes of a million-node profile (maven's javac) made
 * two-thirds of the collector's garbage, 330 of 700 MB a run, and that garbage made G1 collect and grow its heap
 * more often (docs/benchmark.md, "Round 8").
 */
public final class Json {
    private final Writer w;
    private boolean first = true;
    /**
     * The text goes into this buffer and reaches the writer in blocks: one {@code Writer.write} per character (a
     * lock and a call each, in the agent's C1-compiled code) was the top frame of the collector's samples, a third
     * of them on luindex (docs/benchmark.md, "Round 12"). Drained when full and when the outermost value ends.
     */
    private final char[] buf = new char[8192];
    private int pos;
    /** How many objects and arrays are open: the buffer is drained when the last one closes. */
    private int depth;
    /** Long.MIN_VALUE's 20 characters fit. */
    private final char[] digits = new char[20];

    public Json(Writer w) { this.w = w; }

    public Json begin(char c) throws IOException { comma(); put(c); depth++; first = true; return this; }
    public Json end(char c) throws IOException {
        put(c);
        first = false;
        if (--depth <= 0) flush();
        return this;
    }
    public Json name(String n) throws IOException { comma(); str(n); put(':'); first = true; return this; }
    public Json value(long v) throws IOException { comma(); number(v); return done(); }
    public Json value(boolean v) throws IOException { comma(); put(v ? "true" : "false"); return done(); }
    public Json value(String v) throws IOException {
        comma();
        if (v == null) put("null"); else str(v);
        return done();
    }
    public Json nullValue() throws IOException { comma(); put("null"); return done(); }

    /** After a value: a value outside every object and array is the whole text, so it goes to the writer now. */
    private Json done() throws IOException {
        first = false;
        if (depth <= 0) flush();
        return this;
    }

    /** Text already encoded as one JSON value (TableTexts), written as the next value. */
    public Json raw(String value) throws IOException { comma(); put(value); return done(); }

    /** Ready for a new text: nothing buffered, nothing open. */
    void reset() {
        pos = 0;
        depth = 0;
        first = true;
    }

    /** Hands what is buffered to the writer (done by the {@link #end} that closes the outermost value). */
    public void flush() throws IOException {
        if (pos > 0) w.write(buf, 0, pos);
        pos = 0;
    }

    private void put(char c) throws IOException {
        if (pos == buf.length) flush();
        buf[pos++] = c;
    }

    private void put(String s) throws IOException {
        int n = s.length();
        if (n > buf.length - pos) {
            flush();
            if (n > buf.length) { w.write(s); return; }
        }
        s.getChars(0, n, buf, pos);
        pos += n;
    }

    public Json field(String n, long v) throws IOException { return name(n).value(v); }
    public Json field(String n, String v) throws IOException { return name(n).value(v); }
    public Json field(String n, boolean v) throws IOException { return name(n).value(v); }

    /** A record array [a,b,c,...] of numbers, written without per-value bookkeeping. */
    public Json numbers(long... values) throws IOException {
        comma();
        put('[');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) put(',');
            number(values[i]);
        }
        put(']');
        return done();
    }

    /**
     * A record row [a,b,c,d,e(,f(,g))] of the call tree, without an array per row as {@link #numbers} takes (the
     * agent's code runs unoptimised, so nothing removes that allocation).
     */
    public Json row(long a, long b, long c, long d, long e) throws IOException {
        rowStart(a, b, c, d, e);
        put(']');
        return this;
    }

    public Json row(long a, long b, long c, long d, long e, long f) throws IOException {
        rowStart(a, b, c, d, e);
        put(','); number(f); put(']');
        return this;
    }

    public Json row(long a, long b, long c, long d, long e, long f, long g) throws IOException {
        rowStart(a, b, c, d, e);
        put(','); number(f); put(','); number(g); put(']');
        return this;
    }

    private void rowStart(long a, long b, long c, long d, long e) throws IOException {
        comma();
        put('[');
        number(a); put(','); number(b); put(','); number(c); put(','); number(d); put(','); number(e);
        first = false;
    }

    /** The decimal digits of {@code v}, as Long.toString writes them, without a String. */
    private void number(long v) throws IOException {
        if (v == Long.MIN_VALUE) { put("-9223372036854775808"); return; }
        int at = digits.length;
        boolean negative = v < 0;
        if (negative) v = -v;
        do {
            digits[--at] = (char) ('0' + (int) (v % 10));
            v /= 10;
        } while (v != 0);
        if (negative) digits[--at] = '-';
        int n = digits.length - at;
        if (n > buf.length - pos) flush();
        System.arraycopy(digits, at, buf, pos, n);
        pos += n;
    }

    private void comma() throws IOException { if (!first) put(','); first = false; }

    private void str(String s) throws IOException {
        put('"');
        if (plain(s)) {
            put(s);                     // most strings (every field name) need no escape: copied in one block
            put('"');
            return;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': put("\\\""); break;
                case '\\': put("\\\\"); break;
                case '\n': put("\\n"); break;
                case '\r': put("\\r"); break;
                case '\t': put("\\t"); break;
                default:
                    if (c < 0x20 || (c >= 0xD800 && c <= 0xDFFF && !validSurrogate(s, i))) put(String.format("\\u%04x", (int) c));
                    else put(c);
            }
        }
        put('"');
    }

    /** Whether {@code s} has no character that str escapes. */
    private static boolean plain(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || (c >= 0xD800 && c <= 0xDFFF)) return false;
        }
        return true;
    }

    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
