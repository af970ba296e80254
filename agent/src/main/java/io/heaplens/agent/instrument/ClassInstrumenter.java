package io.heaplens.agent.instrument;

import io.heaplens.agent.core.Registry;
import io.heaplens.agent.instrument.OffsetClassNode.OffsetMethodNode;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.MethodNode;

import java.util.HashSet;
import java.util.Set;

/** Instruments one class file; returns null when there is nothing to change. */
public final class ClassInstrumenter {
    /**
     * JDK methods that get call-tree probes although the JDK is not profiled: the work the JVM does on the
     * program's behalf (loading a class, linking an invokedynamic or a dynamic constant) shows as its own frame
     * under the method that triggered it, instead of being mixed into that method's own allocations.
     */
    static boolean isBoundary(String owner, String name, String desc) {
        if (owner.equals("java/lang/ClassLoader")) return name.equals("loadClass") && desc.equals("(Ljava/lang/String;)Ljava/lang/Class;");
        if (owner.equals("java/lang/invoke/MethodHandleNatives")) {
            // every up-call the JVM makes to link invokedynamic, constant dynamic, method handle and method type
            // constants, and signature-polymorphic calls
            return name.equals("linkCallSite") || name.equals("linkDynamicConstant") || name.equals("linkMethodHandleConstant")
                || name.equals("findMethodHandleType");
        }
        return false;
    }

    /** Options.leaves == "skip": allocation-free leaf methods get no call-tree probes. */
    public static volatile boolean skipLeaves;

    /**
     * A method that calls nothing and allocates nothing: its node could only ever hold a call count (it has no
     * allocation of its own and no callee to charge). Accessors and small arithmetic are such leaves, and they
     * are the most frequent calls in programs like javac.
     */
    static boolean isQuietLeaf(MethodNode m) {
        for (org.objectweb.asm.tree.AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            int op = i.getOpcode();
            if (op == Opcodes.NEW || op == Opcodes.NEWARRAY || op == Opcodes.ANEWARRAY || op == Opcodes.MULTIANEWARRAY
                || op == Opcodes.INVOKEVIRTUAL || op == Opcodes.INVOKESPECIAL || op == Opcodes.INVOKESTATIC
                || op == Opcodes.INVOKEINTERFACE || op == Opcodes.INVOKEDYNAMIC) return false;
        }
        return true;
    }

    /** Whether the class might hold a boundary method (checked on the raw constant pool: cheap). */
    private static boolean hasBoundary(byte[] classFile) {
        return new ClassReader(classFile).getClassName().equals("java/lang/ClassLoader");
    }

    /** Classes the transformer otherwise never touches, which still carry a boundary method (and nothing else). */
    public static boolean hasBoundaryOnly(String owner) { return owner.equals("java/lang/invoke/MethodHandleNatives"); }

    public static final class Result {
        public byte[] bytes;
        public int methodsProfiled, sites;
        public final java.util.List<String> warnings = new java.util.ArrayList<>();
        public final java.util.List<String> methodsLeftAlone = new java.util.ArrayList<>();
    }

    private ClassInstrumenter() {}

    public static Result instrument(byte[] original, Registry registry, boolean profiled) {
        return instrument(original, registry, profiled, false, true);
    }

    /**
     * @param profiled     the class is in the user's filter: its methods are the call tree's frames
     * @param boundaryOnly only the boundary methods get probes (call-tree probes, no allocation probes)
     * @param tree         whether call-tree probes are wanted at all (Mode.LEVEL_TREE); without them a profiled
     *                     class gets allocation probes only, and its methods are still registered as the frames
     *                     sampled traces show
     */
    public static Result instrument(byte[] original, Registry registry, boolean profiled, boolean boundaryOnly, boolean tree) {
        Result r = new Result();
        if (!profiled && !boundaryOnly && !(tree && hasBoundary(original))) {
            try {
                r.bytes = StreamingAllocations.instrument(original, registry, r, !tree);
                return r;
            } catch (StreamingAllocations.NeedsTree e) {
                r.sites = 0;                               // fall through to the tree instrumenter
            }
        }
        Set<String> leaveAlone = new HashSet<>(), noCallSites = new HashSet<>();
        java.util.Map<String, Integer> sizes = tree ? CodeSizes.of(original) : null;
        boolean mayGrowPastLimit = sizes != null && CodeSizes.mayGrowPastLimit(sizes);
        for (int attempt = 0; ; attempt++) {
            try {
                r.bytes = once(original, registry, profiled, boundaryOnly, tree, leaveAlone, noCallSites, r);
                if (mayGrowPastLimit && r.bytes != null) {
                    // A method the probes push past HotSpot's compile limit is instrumented again without call-site
                    // numbers, its largest share of probe bytes (Probes.callSite): compiled code, no per-call lines.
                    Set<String> past = CodeSizes.grownPastLimit(sizes, r.bytes);
                    if (!noCallSites.containsAll(past) && attempt < 64) {
                        noCallSites.addAll(past);
                        r.warnings.clear();
                        continue;
                    }
                    String cls = className(original);
                    for (String m : noCallSites) {
                        r.warnings.add(cls + "." + m + (past.contains(m)
                            ? ": longer than the " + CodeSizes.HUGE_METHOD_LIMIT + " bytes of bytecode HotSpot compiles, with the profiler's probes; the JVM interprets it"
                            : ": its calls are not told apart by line (their probes would take it past the " + CodeSizes.HUGE_METHOD_LIMIT
                              + " bytes of bytecode HotSpot compiles)"));
                    }
                }
                r.methodsLeftAlone.addAll(leaveAlone);
                return r;
            } catch (MethodTooLargeException e) {
                // The probes pushed a method over the 64 KB limit: that method stays as it was.
                String m = e.getMethodName() + e.getDescriptor();
                if (!leaveAlone.add(m) || attempt > 64) throw e;
                r.warnings.clear();
            }
        }
    }

    private static String className(byte[] classFile) {
        return new ClassReader(classFile).getClassName().replace('/', '.');
    }

    private static byte[] once(byte[] original, Registry registry, boolean profiled, boolean boundaryOnly, boolean tree,
                               Set<String> leaveAlone, Set<String> noCallSites, Result r) {
        OffsetReader reader = new OffsetReader(original);
        OffsetClassNode cn = new OffsetClassNode(reader);
        boolean lifetimes = UseProbes.enabled && profiled;
        boolean field = lifetimes && UseProbes.declaresField(reader);
        reader.accept(field ? UseProbes.keepingSerialVersion(cn) : cn, ClassReader.EXPAND_FRAMES);
        if (field) UseProbes.addField(cn);
        boolean isInterface = (cn.access & Opcodes.ACC_INTERFACE) != 0;
        ClassPlan plan = new ClassPlan(cn.name, profiled, cn.version);
        plan.sourceFile = cn.sourceFile;
        int changed = 0;
        for (MethodNode m : cn.methods) {
            if ((m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || m.instructions.size() == 0) continue;
            if (leaveAlone.contains(m.name + m.desc)) continue;
            boolean bridge = (m.access & Opcodes.ACC_BRIDGE) != 0;
            boolean frame = (profiled && !bridge && !(skipLeaves && isQuietLeaf(m))) || isBoundary(cn.name, m.name, m.desc);
            boolean mct = tree && frame;
            if (boundaryOnly && !mct) continue;
            MethodInstrumenter mi = new MethodInstrumenter(registry, plan, (OffsetMethodNode) m, mct, !boundaryOnly);
            mi.outOfLine = !tree;
            mi.callSites = !noCallSites.contains(m.name + m.desc);
            java.util.List<org.objectweb.asm.tree.AbstractInsnNode> before = lifetimes ? UseProbes.snapshot(m) : null;
            mi.run();
            if (frame) mi.registerFrame();
            if (lifetimes) {
                UseProbes.method(cn.name, isInterface, m, registry.method(cn.name, m.name, m.desc).id, before, mi.allocKeys);
                changed++;
            }
            if (mct) plan.methodsProfiled++;
            plan.sites += mi.sites;
            if (mct || mi.sites > 0) changed++;
        }
        if (field) UseProbes.addAccessor(cn);
        r.methodsProfiled = plan.methodsProfiled;
        r.sites = plan.sites;
        r.warnings.addAll(plan.warnings);
        if (changed == 0 && !field) return null;
        // Frames are kept from the original (extended by the instrumenter), so COMPUTE_MAXS suffices and
        // no class is ever loaded to compute a common superclass.
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cn.accept(cw);
        return cw.toByteArray();
    }
}
