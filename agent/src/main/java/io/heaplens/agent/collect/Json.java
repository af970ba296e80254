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
    /** Long.MIN_VALUE's 20 characters fit. */
    private final char[] digits = new char[20];

    public Json(Writer w) { this.w = w; }

    public Json begin(char c) throws IOException { comma(); w.write(c); first = true; return this; }
    public Json end(char c) throws IOException { w.write(c); first = false; return this; }
    public Json name(String n) throws IOException { comma(); str(n); w.write(':'); first = true; return this; }
    public Json value(long v) throws IOException { comma(); number(v); first = false; return this; }
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
            number(values[i]);
        }
        w.write(']');
        first = false;
        return this;
    }

    /**
     * A record row [a,b,c,d,e(,f(,g))] of the call tree, without an array per row as {@link #numbers} takes (the
     * agent's code runs unoptimised, so nothing removes that allocation).
     */
    public Json row(long a, long b, long c, long d, long e) throws IOException {
        rowStart(a, b, c, d, e);
        w.write(']');
        return this;
    }

    public Json row(long a, long b, long c, long d, long e, long f) throws IOException {
        rowStart(a, b, c, d, e);
        w.write(','); number(f); w.write(']');
        return this;
    }

    public Json row(long a, long b, long c, long d, long e, long f, long g) throws IOException {
        rowStart(a, b, c, d, e);
        w.write(','); number(f); w.write(','); number(g); w.write(']');
        return this;
    }

    private void rowStart(long a, long b, long c, long d, long e) throws IOException {
        comma();
        w.write('[');
        number(a); w.write(','); number(b); w.write(','); number(c); w.write(','); number(d); w.write(','); number(e);
        first = false;
    }

    /** The decimal digits of {@code v}, as Long.toString writes them, without a String. */
    private void number(long v) throws IOException {
        if (v == Long.MIN_VALUE) { w.write("-9223372036854775808"); return; }
        int at = digits.length;
        boolean negative = v < 0;
        if (negative) v = -v;
        do {
            digits[--at] = (char) ('0' + (int) (v % 10));
            v /= 10;
        } while (v != 0);
        if (negative) digits[--at] = '-';
        w.write(digits, at, digits.length - at);
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
