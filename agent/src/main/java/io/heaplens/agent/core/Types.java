package io.heaplens.agent.core;

/** Conversions between JVM descriptors, internal names and the Java type names the profile shows. */
public final class Types {
    private Types() {}

    /** {@code Ljava/util/HashMap$Node;} → {@code java.util.HashMap$Node}, {@code [[I} → {@code int[][]}. */
    public static String javaName(String descriptor) {
        int dims = 0;
        while (descriptor.charAt(dims) == '[') dims++;
        String base;
        char c = descriptor.charAt(dims);
        switch (c) {
            case 'L': base = descriptor.substring(dims + 1, descriptor.length() - 1).replace('/', '.'); break;
            case 'B': base = "byte"; break;
            case 'C': base = "char"; break;
            case 'D': base = "double"; break;
            case 'F': base = "float"; break;
            case 'I': base = "int"; break;
            case 'J': base = "long"; break;
            case 'S': base = "short"; break;
            case 'Z': base = "boolean"; break;
            default: base = descriptor.substring(dims);
        }
        return base + "[]".repeat(dims);
    }

    /** Binder 2006's element type code of an array descriptor: the primitive code, or R for references. */
    public static char elementCode(String arrayDescriptor) {
        char c = arrayDescriptor.charAt(1);
        return c == '[' || c == 'L' ? 'R' : c;
    }

    public static int elementSize(char code) {
        switch (code) {
            case 'B': case 'Z': return 1;
            case 'C': case 'S': return 2;
            case 'I': case 'F': return 4;
            case 'J': case 'D': return 8;
            default: return Registry.referenceSize();
        }
    }

    /** Descriptor of the type a NEW or ANEWARRAY operand (an internal name, or an array descriptor) denotes. */
    public static String descriptorOfInternal(String internalName) {
        return internalName.charAt(0) == '[' ? internalName : "L" + internalName + ";";
    }

    /** newarray's operand (T_INT, …) → array descriptor. */
    public static String newarrayDescriptor(int operand) {
        switch (operand) {
            case 4: return "[Z";
            case 5: return "[C";
            case 6: return "[F";
            case 7: return "[D";
            case 8: return "[B";
            case 9: return "[S";
            case 10: return "[I";
            case 11: return "[J";
            default: throw new IllegalArgumentException("newarray operand " + operand);
        }
    }

    public static String descriptorOf(Class<?> c) {
        String n = c.getName();
        // A hidden class (a lambda proxy) is named "pkg.Main$$Lambda$14/0x0000000800c0b000" (JDK 17) or
        // "pkg.Main$$Lambda/0x…" (JDK 21+): the counter and the address differ from run to run (they depend on
        // how many proxies other threads spun first), so profiles say "pkg.Main$$Lambda" and stay comparable.
        if (c.isHidden()) n = n.replaceFirst("(\\$\\$Lambda)(\\$\\d+)?/.*$", "$1").replaceFirst("/.*$", "");
        return c.isArray() ? n.replace('.', '/') : "L" + n.replace('.', '/') + ";";
    }
}
