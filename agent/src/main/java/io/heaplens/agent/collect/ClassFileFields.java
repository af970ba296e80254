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

    private static InputStream open(Class<?> k, String resource) throws IOException {
        Module m = k.getModule();
        if (m.isNamed()) return m.getResourceAsStream(resource);   // class files are never encapsulated
        ClassLoader l = k.getClassLoader();
        return l != null ? l.getResourceAsStream(resource) : ClassLoader.getSystemResourceAsStream(resource);
    }

    /** JVMS §4.1: skips the constant pool (keeping the first character of each Utf8), then sums the instance fields. */
    static long parse(DataInputStream in, String expectedName) throws IOException {
        if (in.readInt() != 0xCAFEBABE) return -1;
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        char[] first = new char[count];
        String[] names = new String[count];
        int[] classNames = new int[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1: {
                    String u = in.readUTF();
                    first[i] = u.isEmpty() ? 0 : u.charAt(0);
                    names[i] = u;
                    break;
                }
                case 7: classNames[i] = in.readUnsignedShort(); break;
                case 8: case 16: case 19: case 20: in.readUnsignedShort(); break;
                case 15: in.readUnsignedByte(); in.readUnsignedShort(); break;
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: in.readInt(); break;
                case 5: case 6: in.readLong(); i++; break;
                default: return -1;
            }
        }
        in.readUnsignedShort();                                  // access flags
        int self = in.readUnsignedShort();
        // A class file found under the name but not this class (another version earlier on the path): reflection decides.
        if (self <= 0 || self >= count || !expectedName.equals(names[classNames[self]])) return -1;
        in.readUnsignedShort();                                  // super
        int interfaces = in.readUnsignedShort();
        for (int i = 0; i < interfaces; i++) in.readUnsignedShort();
        int fields = in.readUnsignedShort();
        long bytes = 0;
        for (int f = 0; f < fields; f++) {
            int access = in.readUnsignedShort();
            in.readUnsignedShort();
            int desc = in.readUnsignedShort();
            int attributes = in.readUnsignedShort();
            for (int a = 0; a < attributes; a++) {
                in.readUnsignedShort();
                int len = in.readInt();
                in.skipNBytes(len);
            }
            if ((access & 0x0008) != 0) continue;                // static
            bytes += Types.elementSize(first[desc]);         // a field's descriptor starts as an array's element code does
        }
        return bytes;
    }
}
