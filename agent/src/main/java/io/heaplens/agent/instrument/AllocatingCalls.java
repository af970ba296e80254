package io.heaplens.agent.instrument;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * Allocations that have no allocation instruction in the caller's bytecode, counted at the call site.
 * Two reasons to count at the call rather than inside the callee:
 * - the allocation happens in native code or in classes no agent can transform (reflection, hidden classes:
 *   lambda proxies, method-handle forms);
 * - the JIT replaces the callee by an intrinsic, or removes it (C2 eliminates an Integer.valueOf whose box is
 *   only unboxed), so a probe inside the callee would count in the interpreter but not in compiled code.
 * The callees of the second kind get no probes in their bodies, so every run counts the same.
 */
final class AllocatingCalls {
    private AllocatingCalls() {}

    /** @return the site kind of a call whose result is a freshly allocated object or array, or null */
    static String kindOf(MethodInsnNode c) {
        String o = c.owner, n = c.name, d = c.desc;
        if (n.equals("clone") && d.equals("()Ljava/lang/Object;")) {
            if (c.getOpcode() == Opcodes.INVOKEVIRTUAL && o.charAt(0) == '[') return "clone";
            if (c.getOpcode() == Opcodes.INVOKESPECIAL && o.equals("java/lang/Object")) return "clone";
            return null;
        }
        if (o.equals("java/lang/reflect/Array") && n.equals("newInstance")) {
            if (d.equals("(Ljava/lang/Class;I)Ljava/lang/Object;")) return "reflect";
            if (d.equals("(Ljava/lang/Class;[I)Ljava/lang/Object;")) return "reflect-multi";
            return null;
        }
        if (o.equals("java/lang/reflect/Constructor") && n.equals("newInstance") && d.equals("([Ljava/lang/Object;)Ljava/lang/Object;")) return "reflect";
        if (o.equals("java/lang/Class") && n.equals("newInstance") && d.equals("()Ljava/lang/Object;")) return "reflect";
        if (o.equals("java/util/Arrays") && isIntrinsicCopy(n, d)) return "copy";
        if (o.equals("jdk/internal/misc/Unsafe") && n.equals("allocateUninitializedArray")) return "unsafe";
        return null;
    }

    /** Boxing: {@code Integer.valueOf(int)} and friends allocate unless the value is cached. */
    static BoxKind boxOf(MethodInsnNode c) {
        if (c.getOpcode() != Opcodes.INVOKESTATIC || !c.name.equals("valueOf")) return null;
        for (BoxKind b : BoxKind.values()) {
            if (c.owner.equals(b.owner) && c.desc.equals(b.desc)) return b;
        }
        return null;
    }

    enum BoxKind {
        INT("java/lang/Integer", "(I)Ljava/lang/Integer;", "boxInt", "I"),
        LONG("java/lang/Long", "(J)Ljava/lang/Long;", "boxLong", "J"),
        SHORT("java/lang/Short", "(S)Ljava/lang/Short;", "boxShort", "I"),
        CHAR("java/lang/Character", "(C)Ljava/lang/Character;", "boxChar", "I");

        final String owner, desc, probe, argType;
        BoxKind(String owner, String desc, String probe, String argType) {
            this.owner = owner; this.desc = desc; this.probe = probe; this.argType = argType;
        }
        String typeDescriptor() { return "L" + owner + ";"; }
        boolean wide() { return argType.equals("J"); }
    }

    /** A lambda expression that captures values allocates a new proxy object each time it is evaluated. */
    static boolean isCapturingLambda(Handle bsm, String desc) {
        return bsm.getOwner().equals("java/lang/invoke/LambdaMetafactory")
            && (bsm.getName().equals("metafactory") || bsm.getName().equals("altMetafactory"))
            && Type.getArgumentTypes(desc).length > 0;
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

    /** The boxing method this body belongs to, or null: its `new` gets the boxInside probe. */
    static BoxKind boxBody(String owner, String name, String desc) {
        if (!name.equals("valueOf")) return null;
        for (BoxKind b : BoxKind.values()) if (owner.equals(b.owner) && desc.equals(b.desc)) return b;
        return null;
    }
}
