package io.heaplens.agent.instrument;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * Calls that allocate without an allocation instruction in the caller's bytecode. Counted at the call site,
 * with the run-time type of the result. The JIT replaces some of these methods by intrinsics, which would skip
 * probes inside them: their bodies get no allocation probes, so interpreted and compiled runs count the same.
 */
final class AllocatingCalls {
    private AllocatingCalls() {}

    /** @return the site kind ("clone", "reflect", "copy", "unsafe"), or null when the call does not allocate. */
    static String kindOf(MethodInsnNode c) {
        if (c.name.equals("clone") && c.desc.equals("()Ljava/lang/Object;")) {
            if (c.getOpcode() == Opcodes.INVOKEVIRTUAL && c.owner.charAt(0) == '[') return "clone";
            if (c.getOpcode() == Opcodes.INVOKESPECIAL && c.owner.equals("java/lang/Object")) return "clone";
            return null;
        }
        if (c.owner.equals("java/lang/reflect/Array") && c.name.equals("newInstance")
                && c.desc.equals("(Ljava/lang/Class;I)Ljava/lang/Object;")) return "reflect";
        if (c.owner.equals("java/util/Arrays") && isIntrinsicCopy(c.name, c.desc)) return "copy";
        if (c.owner.equals("jdk/internal/misc/Unsafe") && c.name.equals("allocateUninitializedArray")) return "unsafe";
        return null;
    }

    /** Arrays.copyOf/copyOfRange with an explicit array class: C2 intrinsics. */
    static boolean isIntrinsicCopy(String name, String desc) {
        return (name.equals("copyOf") && desc.equals("([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;"))
            || (name.equals("copyOfRange") && desc.equals("([Ljava/lang/Object;IILjava/lang/Class;)[Ljava/lang/Object;"));
    }

    /** Methods whose bodies get no allocation probes (their callers count them). */
    static boolean countedByCaller(String owner, String name, String desc) {
        return owner.equals("java/util/Arrays") && isIntrinsicCopy(name, desc);
    }
}
