package io.heaplens.agent.collect;

import io.heaplens.agent.core.Types;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The bytes of a class's own instance fields, read from its class file rather than by reflection. Reflection
 * (Class.getDeclaredFields) resolves the type of every field, and so loads those classes — on the collector thread,
 * where their loading (reading the class file from its jar, ~10 KB of the program's allocations per class) was missing
 * from the profile and landed before the program needed it: the -Xint byte check lost 4 MB (10 % of the smoke run)
 * that way, about 200 classes H2 would load a little later. Reading the class file loads nothing.
 */
final class ClassFileFields {
    private ClassFileFields() {}

    /** @return the sum of the class's declared instance field sizes, or -1 when its class file cannot be read (hidden or generated classes) */
    static long instanceBytes(Class<?> k) {
        if (k.isHidden() || k.isArray() || k.isPrimitive()) return -1;
        String resource = k.getName().replace('.', '/') + ".class";
        try (InputStream in = open(k, resource)) {
            return in == null ? -1 : parse(new DataInputStream(in), k.getName().replace('.', '/'));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The bytes the JVM lays out for the class's own instance fields: {@link #instanceBytes} plus the padding of
     * {@code @jdk.internal.vm.annotation.Contended}, which HotSpot honours in classes of the boot and platform loaders
     * (RestrictContended): ContendedPaddingWidth (128) bytes before each contention group (a named group once, each
     * unnamed field alone) and before the fields of a contended class, and 128 after them all (where a subclass's
     * fields then start: TypeSizes). JDK 17's java.lang.Thread: 368 bytes an instance, not 112.
     * @return {bytes, 1 when padded else 0}, or null as instanceBytes returns -1
     */
    static long[] layout(Class<?> k) {
        if (k.isHidden() || k.isArray() || k.isPrimitive()) return null;
        String resource = k.getName().replace('.', '/') + ".class";
        ClassLoader l = k.getClassLoader();
        boolean honoured = l == null || l == ClassLoader.getPlatformClassLoader();
        try (InputStream in = open(k, resource)) {
            if (in == null) return null;
            long[] r = read(new DataInputStream(in), k.getName().replace('.', '/'));
            if (r == null) return null;
            long pads = !honoured || (r[1] == 0 && r[2] == 0) ? 0 : r[1] + r[2] + 1;
            return new long[] {r[0] + pads * CONTENDED_PADDING, pads > 0 ? 1 : 0};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** HotSpot's ContendedPaddingWidth (a -XX option, 128 unless changed). */
    static final int CONTENDED_PADDING = 128;
    private static final String CONTENDED = "Ljdk/internal/vm/annotation/Contended;";

    private static InputStream open(Class<?> k, String resource) throws IOException {
        Module m = k.getModule();
        if (m.isNamed()) return m.getResourceAsStream(resource);   // class files are never encapsulated
        ClassLoader l = k.getClassLoader();
        return l != null ? l.getResourceAsStream(resource) : ClassLoader.getSystemResourceAsStream(resource);
    }

    /** JVMS §4.1: skips the constant pool (noting where each Utf8 entry is), then sums the instance fields. */
    static long parse(DataInputStream in, String expectedName) throws IOException {
        long[] r = read(in, expectedName);
        return r == null ? -1 : r[0];
    }

    /**
     * The constant pool's Utf8 entries, decoded only when asked: a class's pool holds thousands (javac's classes),
     * of which the size needs a handful; decoding them all was a tenth of the collector's garbage on maven.
     */
    private static final class Utf8Pool {
        final byte[] bytes;
        final int[] offsets;             // of each Utf8 entry's length field; 0: not a Utf8 entry
        final String[] decoded;

        Utf8Pool(byte[] bytes, int count) {
            this.bytes = bytes;
            this.offsets = new int[count];
            this.decoded = new String[count];
        }

        /** The entry's text, or null when {@code i} is not a Utf8 entry. */
        String get(int i) throws IOException {
            if (i <= 0 || i >= offsets.length || offsets[i] == 0) return null;
            String s = decoded[i];
            if (s == null) {
                int off = offsets[i];
                int len = (bytes[off] & 0xFF) << 8 | (bytes[off + 1] & 0xFF);
                boolean ascii = true;
                for (int b = off + 2; b < off + 2 + len && ascii; b++) ascii = bytes[b] > 0;   // modified UTF-8 has no 0 byte
                s = decoded[i] = ascii ? new String(bytes, off + 2, len, java.nio.charset.StandardCharsets.ISO_8859_1)
                    : new DataInputStream(new java.io.ByteArrayInputStream(bytes, off, bytes.length - off)).readUTF();
            }
            return s;
        }

        /** The entry's first byte (a descriptor's first character is ASCII), 0 when empty or not a Utf8 entry. */
        char first(int i) {
            if (i <= 0 || i >= offsets.length || offsets[i] == 0) return 0;
            int off = offsets[i];
            int len = (bytes[off] & 0xFF) << 8 | (bytes[off + 1] & 0xFF);
            return len == 0 ? 0 : (char) (bytes[off + 2] & 0xFF);
        }
    }

    /** @return {instance field bytes, contention groups among them, 1 if the class itself is @Contended}, or null */
    private static long[] read(DataInputStream file, String expectedName) throws IOException {
        byte[] classFile = file.readAllBytes();
        java.io.ByteArrayInputStream at = new java.io.ByteArrayInputStream(classFile);
        DataInputStream in = new DataInputStream(at);
        if (in.readInt() != 0xCAFEBABE) return null;
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        Utf8Pool names = new Utf8Pool(classFile, count);
        int[] classNames = new int[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1: {
                    int offset = classFile.length - at.available();
                    names.offsets[i] = offset;
                    in.skipNBytes(in.readUnsignedShort());
                    break;
                }
                case 7: classNames[i] = in.readUnsignedShort(); break;
                case 8: case 16: case 19: case 20: in.readUnsignedShort(); break;
                case 15: in.readUnsignedByte(); in.readUnsignedShort(); break;
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: in.readInt(); break;
                case 5: case 6: in.readLong(); i++; break;
                default: return null;
            }
        }
        in.readUnsignedShort();                                  // access flags
        int self = in.readUnsignedShort();
        // A class file found under the name but not this class (another version earlier on the path): reflection decides.
        if (self <= 0 || self >= count || !expectedName.equals(names.get(classNames[self]))) return null;
        in.readUnsignedShort();                                  // super
        int interfaces = in.readUnsignedShort();
        for (int i = 0; i < interfaces; i++) in.readUnsignedShort();
        int fields = in.readUnsignedShort();
        long bytes = 0;
        java.util.Set<String> groups = new java.util.HashSet<>();
        int unnamedGroups = 0;
        for (int f = 0; f < fields; f++) {
            int access = in.readUnsignedShort();
            in.readUnsignedShort();
            int desc = in.readUnsignedShort();
            String group = contendedGroup(in, names);
            if ((access & 0x0008) != 0) continue;                // static
            bytes += Types.elementSize(names.first(desc));         // a field's descriptor starts as an array's element code does
            if (group == null) continue;
            if (group.isEmpty()) unnamedGroups++;
            else groups.add(group);
        }
        int methods = in.readUnsignedShort();
        for (int m = 0; m < methods; m++) {
            in.readUnsignedShort();
            in.readUnsignedShort();
            in.readUnsignedShort();
            contendedGroup(in, names);
        }
        long classContended = contendedGroup(in, names) != null ? 1 : 0;
        return new long[] {bytes, groups.size() + unnamedGroups, classContended};
    }

    /**
     * Reads a field's, method's or class's attributes. @return the @Contended group it names ("" for none named), or
     * null when it is not @Contended.
     */
    private static String contendedGroup(DataInputStream in, Utf8Pool names) throws IOException {
        int attributes = in.readUnsignedShort();
        String group = null;
        for (int a = 0; a < attributes; a++) {
            int name = in.readUnsignedShort();
            int len = in.readInt();
            if (!"RuntimeVisibleAnnotations".equals(names.get(name))) {
                in.skipNBytes(len);
                continue;
            }
            int annotations = in.readUnsignedShort();
            for (int i = 0; i < annotations; i++) {
                boolean contended = CONTENDED.equals(names.get(in.readUnsignedShort()));
                int pairs = in.readUnsignedShort();
                String value = "";
                for (int p = 0; p < pairs; p++) {
                    String element = names.get(in.readUnsignedShort());
                    String v = elementValue(in, names);
                    if ("value".equals(element) && v != null) value = v;
                }
                if (contended) group = value;
            }
        }
        return group;
    }

    /** Skips one element_value (JVMS §4.7.16.1). @return its text when it is a String constant, else null */
    private static String elementValue(DataInputStream in, Utf8Pool names) throws IOException {
        int tag = in.readUnsignedByte();
        switch (tag) {
            case 's': return names.get(in.readUnsignedShort());
            case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z': case 'c':
                in.readUnsignedShort();
                return null;
            case 'e': in.readUnsignedShort(); in.readUnsignedShort(); return null;
            case '@': {
                in.readUnsignedShort();
                int pairs = in.readUnsignedShort();
                for (int p = 0; p < pairs; p++) { in.readUnsignedShort(); elementValue(in, names); }
                return null;
            }
            case '[': {
                int n = in.readUnsignedShort();
                for (int i = 0; i < n; i++) elementValue(in, names);
                return null;
            }
            default: throw new IOException("element value tag " + tag);
        }
    }
}
