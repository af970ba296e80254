package io.heaplens.agent.core;

import io.heaplens.runtime.Keys;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The id tables and the recorder's keys as they stood after the start-up retransformation, for the start-up cache
 * (agent.cache): cached class bytes carry these ids as constants, so a run that reuses them must start from the
 * same tables. Read fully and checked before anything is applied, so a damaged image never half-fills a registry.
 */
public final class RegistryImage {
    private static final class Method {
        String owner, name, desc, file, ctorWarning;
        int line, ctorTarget;
        boolean profiled;
        int[] callLines, callees;
    }

    private final List<Method> methods = new ArrayList<>();
    private final List<String> types = new ArrayList<>();
    private final List<int[]> sites = new ArrayList<>();          // {method, bci, line, type}
    private final List<String> siteKinds = new ArrayList<>();
    private final List<int[]> siteKeys = new ArrayList<>();       // {site, first key}
    private final List<long[]> dynamicKeys = new ArrayList<>();   // {site << 32 | type, key}
    private int[] keySites, keyTypes, keySizes;                   // per key: site, type, element size

    private RegistryImage() {}

    /**
     * Writes the registry and every key so far; holds the registry's lock so no key is added meanwhile. The
     * layout (a string table, then one block of ints) reads back with two bulk copies: a start that reads it runs
     * in the interpreter, where a call per field would cost more than the transformation it replaces.
     */
    public static void write(Registry r, DataOutputStream out) throws IOException {
        Ints ints = new Ints();
        Map<String, Integer> strings = new java.util.LinkedHashMap<>();
        synchronized (r) {
            ints.add(r.methodCount());
            for (int i = 0; i < r.methodCount(); i++) {
                Registry.MethodInfo m = r.methodById(i);
                ints.add(str(strings, m.owner)); ints.add(str(strings, m.name)); ints.add(str(strings, m.desc));
                ints.add(str(strings, m.file)); ints.add(str(strings, m.ctorWarning));
                ints.add(m.line); ints.add(m.ctorTarget); ints.add(m.profiled ? 1 : 0);
                ints.addArray(m.callLines); ints.addArray(m.callees);
            }
            ints.add(r.typeCount());
            for (int i = 0; i < r.typeCount(); i++) ints.add(str(strings, r.typeById(i).descriptor));
            ints.add(r.siteCount());
            for (int i = 0; i < r.siteCount(); i++) {
                Registry.SiteInfo s = r.siteById(i);
                ints.add(s.method); ints.add(s.bci); ints.add(s.line); ints.add(s.type); ints.add(str(strings, s.kind));
            }
            Map<Integer, Integer> sk = r.siteKeysView();
            ints.add(sk.size());
            for (Map.Entry<Integer, Integer> e : sk.entrySet()) { ints.add(e.getKey()); ints.add(e.getValue()); }
            Map<Long, Integer> dk = r.dynamicKeysView();
            ints.add(dk.size());
            for (Map.Entry<Long, Integer> e : dk.entrySet()) {
                ints.add((int) (e.getKey() >>> 32)); ints.add((int) (long) e.getKey()); ints.add(e.getValue());
            }
            int n = Keys.count();
            ints.add(n);
            for (int k = 0; k < n; k++) { ints.add(Keys.site(k)); ints.add(Keys.type(k)); ints.add(Keys.elementSize(k)); }
        }
        byte[][] encoded = new byte[strings.size()][];
        int[] lengths = new int[strings.size()];
        int i = 0, total = 0;
        for (String s : strings.keySet()) {
            encoded[i] = s.getBytes(StandardCharsets.UTF_8);
            lengths[i] = encoded[i].length;
            total += lengths[i++];
        }
        out.writeInt(lengths.length);
        writeInts(out, lengths, lengths.length);
        out.writeInt(total);
        for (byte[] b : encoded) out.write(b);
        out.writeInt(ints.size);
        writeInts(out, ints.a, ints.size);
    }

    /** Reads an image and checks that every id in it points inside its tables; throws IOException otherwise. */
    public static RegistryImage read(DataInputStream in) throws IOException {
        int[] lengths = readInts(in, count(in));
        byte[] blob = new byte[count(in)];
        in.readFully(blob);
        String[] strings = new String[lengths.length];
        for (int i = 0, at = 0; i < lengths.length; i++) {
            check(lengths[i] >= 0 && at + lengths[i] <= blob.length);
            strings[i] = new String(blob, at, lengths[i], StandardCharsets.UTF_8);
            at += lengths[i];
        }
        Cursor c = new Cursor(readInts(in, count(in)), strings);
        RegistryImage im = new RegistryImage();
        int nm = c.count();
        for (int i = 0; i < nm; i++) {
            Method m = new Method();
            m.owner = c.string(false); m.name = c.string(false); m.desc = c.string(false);
            m.file = c.string(true); m.ctorWarning = c.string(true);
            m.line = c.next(); m.ctorTarget = c.next(); m.profiled = c.next() != 0;
            m.callLines = c.array(); m.callees = c.array();
            check(m.ctorTarget >= -1 && m.ctorTarget < nm);
            im.methods.add(m);
        }
        int nt = c.count();
        for (int i = 0; i < nt; i++) {
            String t = c.string(false);
            check(!t.isEmpty());
            im.types.add(t);
        }
        int ns = c.count();
        for (int i = 0; i < ns; i++) {
            int[] s = {c.next(), c.next(), c.next(), c.next()};
            String kind = c.string(false);
            check(s[0] >= 0 && s[0] < nm && s[3] >= 0 && s[3] < nt);
            im.sites.add(s);
            im.siteKinds.add(kind);
        }
        int nk = c.count();
        for (int i = 0; i < nk; i++) im.siteKeys.add(new int[] {c.next(), c.next()});
        int nd = c.count();
        for (int i = 0; i < nd; i++) im.dynamicKeys.add(new long[] {((long) c.next() << 32) | (c.next() & 0xFFFFFFFFL), c.next()});
        int nkeys = c.count();
        im.keySites = new int[nkeys]; im.keyTypes = new int[nkeys]; im.keySizes = new int[nkeys];
        for (int i = 0; i < nkeys; i++) { im.keySites[i] = c.next(); im.keyTypes[i] = c.next(); im.keySizes[i] = c.next(); }
        check(c.at == c.a.length);
        for (int[] e : im.siteKeys) check(e[0] >= 0 && e[0] < ns && e[1] >= 0 && e[1] < nkeys);
        for (long[] e : im.dynamicKeys) check(e[1] >= 0 && e[1] < nkeys);
        return im;
    }

    /**
     * Fills an empty registry and an empty key table with this image, so the ids come out as they were recorded.
     * @return false when they did not (either was not empty, or the image repeats an entry): the cached bytes must
     * not be used then. What was filled in stays: every entry is whole and points at entries before it, so the
     * transformer goes on from there as from any registry.
     */
    public boolean applyTo(Registry r) {
        synchronized (r) {
            if (r.methodCount() != 0 || r.typeCount() != 0 || r.siteCount() != 0 || Keys.count() != 0) return false;
            for (int i = 0; i < methods.size(); i++) {
                Method m = methods.get(i);
                Registry.MethodInfo mi = r.method(m.owner, m.name, m.desc);
                if (mi.id != i) return false;
                mi.file = m.file; mi.line = m.line; mi.profiled = m.profiled; mi.ctorTarget = m.ctorTarget;
                mi.ctorWarning = m.ctorWarning; mi.callLines = m.callLines; mi.callees = m.callees;
            }
            for (int i = 0; i < types.size(); i++) if (r.type(types.get(i)).id != i) return false;
            for (int i = 0; i < sites.size(); i++) {
                int[] s = sites.get(i);
                if (r.site(s[0], s[1], s[2], siteKinds.get(i), types.get(s[3])).id != i) return false;
            }
            if (Keys.addAll(keySites, keyTypes, keySizes, keySites.length) != 0) return false;
            for (int[] e : siteKeys) r.siteKeysView().put(e[0], e[1]);
            for (long[] e : dynamicKeys) r.dynamicKeysView().put(e[0], (int) e[1]);
            return true;
        }
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        check(n >= 0 && n <= 100_000_000);
        return n;
    }

    private static void check(boolean ok) throws IOException {
        if (!ok) throw new IOException("registry image: an id out of range");
    }

    private static int str(Map<String, Integer> table, String s) {
        if (s == null) return -1;
        Integer i = table.get(s);
        if (i == null) table.put(s, i = table.size());
        return i;
    }

    private static void writeInts(DataOutputStream out, int[] a, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asIntBuffer().put(a, 0, n);
        out.write(b.array());
    }

    private static int[] readInts(DataInputStream in, int n) throws IOException {
        byte[] bytes = new byte[n * 4];
        in.readFully(bytes);
        int[] a = new int[n];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(a);
        return a;
    }

    /** A growable int array. */
    private static final class Ints {
        int[] a = new int[1 << 16];
        int size;

        void add(int v) {
            if (size == a.length) a = java.util.Arrays.copyOf(a, size * 2);
            a[size++] = v;
        }

        void addArray(int[] v) {
            add(v == null ? -1 : v.length);
            if (v != null) for (int x : v) add(x);
        }
    }

    /** Reads the int block in order, checking every count and string index. */
    private static final class Cursor {
        final int[] a;
        final String[] strings;
        int at;

        Cursor(int[] a, String[] strings) { this.a = a; this.strings = strings; }

        int next() throws IOException {
            check(at < a.length);
            return a[at++];
        }

        int count() throws IOException {
            int n = next();
            check(n >= 0 && n <= a.length - at);
            return n;
        }

        String string(boolean nullable) throws IOException {
            int i = next();
            if (i == -1 && nullable) return null;
            check(i >= 0 && i < strings.length);
            return strings[i];
        }

        int[] array() throws IOException {
            int n = next();
            if (n == -1) return null;
            check(n >= 0 && n <= a.length - at);
            int[] v = java.util.Arrays.copyOfRange(a, at, at + n);
            at += n;
            return v;
        }
    }
}
