package io.heaplens.agent.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads what a {@code DataOutputStream} wrote (big-endian ints and longs, {@code writeUTF} strings) from a byte array.
 * The start-up cache is read in the interpreter before the transformer is installed: here a field is one call of
 * plain array reads, where {@code DataInputStream} makes a synchronized {@code read()} call per byte and a heap
 * {@code ByteBuffer} a chain of bounds and scope checks per field (measured 1.5× slower than DataInputStream).
 * Reading past the end throws IOException.
 */
public final class ByteReader {
    private final byte[] a;
    private int at;
    private final int end;

    public ByteReader(byte[] a, int from, int end) {
        this.a = a;
        this.at = from;
        this.end = end;
    }

    public int remaining() { return end - at; }

    private int need(int n) throws IOException {
        if (n < 0 || n > end - at) throw new IOException("cut short");
        int p = at;
        at += n;
        return p;
    }

    public boolean readBoolean() throws IOException { return a[need(1)] != 0; }

    public int readInt() throws IOException {
        int p = need(4);
        return (a[p] << 24) | ((a[p + 1] & 0xFF) << 16) | ((a[p + 2] & 0xFF) << 8) | (a[p + 3] & 0xFF);
    }

    public long readLong() throws IOException { return ((long) readInt() << 32) | (readInt() & 0xFFFFFFFFL); }

    public void readFully(byte[] b) throws IOException { System.arraycopy(a, need(b.length), b, 0, b.length); }

    /** n little-endian ints, in one bulk copy (the registry image's layout). */
    public int[] readIntsLE(int n) throws IOException {
        if (n < 0 || n > (end - at) / 4) throw new IOException("cut short");
        int[] v = new int[n];
        ByteBuffer.wrap(a, need(n * 4), n * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(v);
        return v;
    }

    /** A {@code writeUTF} string: ASCII (class names) directly; anything else through DataInputStream.readUTF. */
    public String readUTF() throws IOException {
        int length = ((a[need(2)] & 0xFF) << 8) | (a[at - 1] & 0xFF);
        int p = need(length);
        for (int i = p; i < p + length; i++) {
            if (a[i] <= 0) {           // not ASCII (modified UTF-8 writes even a NUL in two bytes)
                return java.io.DataInputStream.readUTF(new java.io.DataInputStream(new java.io.ByteArrayInputStream(a, p - 2, length + 2)));
            }
        }
        return new String(a, p, length, StandardCharsets.ISO_8859_1);
    }
}
