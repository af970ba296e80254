package io.heaplens.agent.wire;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Length-prefixed frames: a 4-byte big-endian length, then UTF-8 JSON. 16 MiB at most either way. */
public final class Frames {
    public static final int MAX = 16 << 20;

    private Frames() {}

    /** @return the frame's text, or null at a clean end of stream */
    public static String read(DataInputStream in) throws IOException {
        return read(in, MAX);
    }

    /** As {@link #read(DataInputStream)}, refusing a frame longer than {@code max} before allocating anything for it. */
    public static String read(DataInputStream in, int max) throws IOException {
        int b0 = in.read();
        if (b0 < 0) return null;
        int len = (b0 << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        if (len < 0 || len > max) throw new IOException("frame of " + Integer.toUnsignedString(len) + " bytes exceeds the limit of " + max + " bytes");
        byte[] body = new byte[len];
        try {
            in.readFully(body);
        } catch (EOFException e) {
            throw new IOException("connection ended inside a frame");
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    public static byte[] encode(byte[] json) {
        if (json.length > MAX) throw new IllegalArgumentException("frame too large: " + json.length);
        byte[] f = new byte[4 + json.length];
        f[0] = (byte) (json.length >>> 24);
        f[1] = (byte) (json.length >>> 16);
        f[2] = (byte) (json.length >>> 8);
        f[3] = (byte) json.length;
        System.arraycopy(json, 0, f, 4, json.length);
        return f;
    }

    public static void write(OutputStream out, byte[] frame) throws IOException {
        out.write(frame);
        out.flush();
    }
}
