package io.heaplens.agent.instrument;

import io.heaplens.agent.core.PackageFilter;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.SerialVersionUIDAdder;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The lifetime mode's instrumentation (Pan 2001 (HUP) §4.1, Tables 3, 4 and 9), added to profiled classes next to the
 * allocation probes. Uses are HUP's get operations: a method invoked on the object (probed once, at the entry of
 * the object's own instance methods, so calls from any caller — the JDK included — count), getfield, array loads,
 * arraylength, and checkcast, instanceof, monitorenter/exit and athrow (whose operand may be of any type: the
 * record is found through the {@code Tracked} interface the field's class gets, or the array table). Puts
 * (putfield, array stores) are recorded as first/last put, not as uses. The constructor
 * invocation is not a use. Every probe is straight-line code (no branch, so no stack map frame changes).
 *
 * A read of a field of this inside an instance method is not probed: the entry probe counted the use, so the
 * last use of an object is its last method entry or outside read (HUP would place it at the read itself).
 *
 * Objects of profiled classes carry their record in a synthetic public transient field, {@link #FIELD}, declared
 * by the topmost profiled class of each hierarchy (the one whose superclass is not profiled); such classes also
 * get an explicit serialVersionUID equal to the one the JVM computes for the original class, so serialization is
 * unchanged. Objects of JDK classes are not tracked (their uses happen in JDK code, which is not probed).
 */
public final class UseProbes implements Opcodes {
    static final String LT = "io/heaplens/runtime/Lifetimes";
    public static final String FIELD = "$hl$rec";
    static final String FIELD_DESC = "Ljava/lang/Object;";
    private static final String[] JDK = {"java/", "javax/", "jdk/", "sun/", "com/sun/", "org/w3c/", "org/xml/", "org/ietf/", "io/heaplens/"};

    /** Set once at start when the mode is lifetime. */
    public static volatile boolean enabled;
    public static volatile PackageFilter filter;

    private UseProbes() {}

    /** Whether instances of this class carry the record field (decided by name alone, the same way everywhere). */
    public static boolean carriesField(String internalName) {
        if (internalName == null || internalName.startsWith("[")) return false;
        for (String p : JDK) if (internalName.startsWith(p)) return false;
        if (HeapLensTransformer.never(internalName)) return false;
        PackageFilter f = filter;
        return f != null && f.profiles(internalName);
    }

    /** Whether this class declares the field itself (a class whose superclass does not carry it). */
    static boolean declaresField(ClassReader r) {
        if ((r.getAccess() & (ACC_INTERFACE | ACC_MODULE | ACC_ANNOTATION)) != 0) return false;
        return carriesField(r.getClassName()) && !carriesField(r.getSuperName());
    }

    static void addField(ClassNode cn) {
        for (FieldNode f : cn.fields) if (f.name.equals(FIELD)) return;
        cn.fields.add(new FieldNode(ACC_PUBLIC | ACC_TRANSIENT | ACC_SYNTHETIC, FIELD, FIELD_DESC, null, null));
    }

    /**
     * The {@code Tracked} interface and its accessor (a synthetic method returning the field), so uses whose
     * operand's type is unknown find the record ({@code Lifetimes.useAny}). Added after the methods are
     * instrumented: the accessor itself is no use of the object and carries no probe.
     */
    static void addAccessor(ClassNode cn) {
        if (cn.interfaces.contains(TRACKED)) return;
        cn.interfaces.add(TRACKED);
        MethodVisitor mv = cn.visitMethod(ACC_PUBLIC | ACC_SYNTHETIC, FIELD, "()" + FIELD_DESC, null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitFieldInsn(GETFIELD, cn.name, FIELD, FIELD_DESC);
        mv.visitInsn(ARETURN);
        mv.visitMaxs(1, 1);
        mv.visitEnd();
    }

    static final String TRACKED = "io/heaplens/runtime/Tracked";

    /** The visitor chain that keeps the default serialVersionUID of a class that gets the field. */
    static ClassVisitor keepingSerialVersion(ClassVisitor next) { return new SerialVersionUIDAdder(ASM9, next) { }; }

    /**
     * A class that must carry the field but is otherwise left alone (loaded by a JDK loader, or its instrumentation
     * failed): only the field is added. Returns null when it does not need one.
     */
    public static byte[] fieldOnly(byte[] original) {
        ClassReader r = new ClassReader(original);
        if (!declaresField(r)) return null;
        ClassNode cn = new ClassNode(ASM9);
        r.accept(keepingSerialVersion(cn), 0);
        addField(cn);
        addAccessor(cn);
        ClassWriter cw = new ClassWriter(0);
        cn.accept(cw);
        return cw.toByteArray();
    }

    /** The method's instructions before any probe is added (probes are placed relative to these). */
    static List<AbstractInsnNode> snapshot(MethodNode mn) {
        List<AbstractInsnNode> out = new ArrayList<>(mn.instructions.size());
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) out.add(i);
        return out;
    }

    /**
     * Adds the use, put and tracking probes to one method of a profiled class.
     * @param allocKeys allocation instruction → allocation site key (from the allocation instrumenter)
     */
    static void method(String owner, boolean ownerIsInterface, MethodNode mn, int methodId, List<AbstractInsnNode> original,
                       Map<AbstractInsnNode, Integer> allocKeys) {
        boolean ctor = mn.name.equals("<init>");
        boolean isStatic = (mn.access & ACC_STATIC) != 0;
        boolean slot0Stored = storesSlotZero(original);
        int temps = -1;
        int line = -1, firstLine = -1;
        ArrayDeque<TypeInsnNode> pendingNew = new ArrayDeque<>();
        for (int n = 0; n < original.size(); n++) {
            AbstractInsnNode insn = original.get(n);
            if (insn instanceof LineNumberNode) {
                line = ((LineNumberNode) insn).line;
                if (firstLine < 0) firstLine = line;
                continue;
            }
            int op = insn.getOpcode();
            long site = ((long) methodId << 32) | (line & 0xFFFFFFFFL);
            switch (op) {
                case GETFIELD: {
                    FieldInsnNode f = (FieldInsnNode) insn;
                    if (!carriesField(f.owner) || f.name.equals(FIELD)) break;
                    // this.f in an instance method: the entry probe already counted a use of this (last uses inside
                    // one invocation move to its entry); in a constructor this has no record yet. Most reads are these.
                    if (!isStatic && !slot0Stored && isThis(original, n)) break;
                    InsnList l = new InsnList();
                    l.add(new InsnNode(DUP));
                    recordOperation(l, f.owner, "use", site);
                    mn.instructions.insertBefore(insn, l);
                    break;
                }
                case PUTFIELD: {
                    FieldInsnNode f = (FieldInsnNode) insn;
                    if (!carriesField(f.owner) || f.name.equals(FIELD)) break;
                    if (ctor && f.owner.equals(owner)) break;        // the receiver may be the uninitialised this
                    InsnList l = new InsnList();
                    boolean wide = f.desc.equals("J") || f.desc.equals("D");
                    if (wide) {
                        l.add(new InsnNode(DUP2_X1));
                        l.add(new InsnNode(POP2));
                        l.add(new InsnNode(DUP_X2));
                    } else {
                        l.add(new InsnNode(SWAP));
                        l.add(new InsnNode(DUP_X1));
                    }
                    recordOperation(l, f.owner, "put", site);
                    mn.instructions.insertBefore(insn, l);
                    break;
                }
                case IALOAD: case LALOAD: case FALOAD: case DALOAD: case AALOAD: case BALOAD: case CALOAD: case SALOAD: {
                    InsnList l = new InsnList();
                    l.add(new InsnNode(DUP2));
                    l.add(new InsnNode(POP));
                    l.add(new LdcInsnNode(site));
                    l.add(call("arrayUse", "(Ljava/lang/Object;J)V"));
                    mn.instructions.insertBefore(insn, l);
                    break;
                }
                case ARRAYLENGTH:
                    mn.instructions.insertBefore(insn, useOfOperand("arrayUse", site));
                    break;
                case IASTORE: case LASTORE: case FASTORE: case DASTORE: case AASTORE: case BASTORE: case CASTORE: case SASTORE: {
                    if (temps < 0) {
                        temps = mn.maxLocals;
                        mn.maxLocals += 3;
                    }
                    int load, store;
                    switch (op) {
                        case LASTORE: store = LSTORE; load = LLOAD; break;
                        case FASTORE: store = FSTORE; load = FLOAD; break;
                        case DASTORE: store = DSTORE; load = DLOAD; break;
                        case AASTORE: store = ASTORE; load = ALOAD; break;
                        default: store = ISTORE; load = ILOAD;
                    }
                    InsnList l = new InsnList();
                    l.add(new VarInsnNode(store, temps));
                    l.add(new VarInsnNode(ISTORE, temps + 2));
                    l.add(new InsnNode(DUP));
                    l.add(new LdcInsnNode(site));
                    l.add(call("arrayPut", "(Ljava/lang/Object;J)V"));
                    l.add(new VarInsnNode(ILOAD, temps + 2));
                    l.add(new VarInsnNode(load, temps));
                    mn.instructions.insertBefore(insn, l);
                    break;
                }
                case CHECKCAST: case INSTANCEOF: case MONITORENTER: case MONITOREXIT: case ATHROW:
                    // get operations whose operand may be of any type (Pan 2001 (HUP) Table 3); null is no use
                    mn.instructions.insertBefore(insn, useOfOperand("useAny", site));
                    break;
                case NEW: {
                    AbstractInsnNode next = nextReal(original, n);
                    if (next != null && next.getOpcode() == DUP) pendingNew.push((TypeInsnNode) insn);
                    break;
                }
                case INVOKESPECIAL: {
                    MethodInsnNode m = (MethodInsnNode) insn;
                    if (!m.name.equals("<init>") || pendingNew.isEmpty() || !pendingNew.peek().desc.equals(m.owner)) break;
                    TypeInsnNode created = pendingNew.pop();
                    Integer key = allocKeys.get(created);
                    if (key == null || !carriesField(m.owner)) break;
                    InsnList l = new InsnList();                 // obj.$hl$rec = Lifetimes.born(obj, key), obj stays
                    l.add(new InsnNode(DUP));
                    l.add(new InsnNode(DUP));
                    l.add(Probes.push(key));
                    l.add(call("born", "(Ljava/lang/Object;I)Ljava/lang/Object;"));
                    l.add(new FieldInsnNode(PUTFIELD, m.owner, FIELD, FIELD_DESC));
                    mn.instructions.insert(insn, l);
                    break;
                }
                case NEWARRAY: case ANEWARRAY: case MULTIANEWARRAY: {
                    Integer key = allocKeys.get(insn);
                    if (key == null) break;
                    InsnList l = new InsnList();
                    l.add(new InsnNode(DUP));
                    l.add(Probes.push(key));
                    l.add(call("bornArray", "(Ljava/lang/Object;I)V"));
                    mn.instructions.insert(insn, l);
                    break;
                }
                default:
            }
        }
        boolean instance = (mn.access & ACC_STATIC) == 0 && !ctor && !mn.name.equals("<clinit>");
        if (instance && !ownerIsInterface && carriesField(owner)) {
            InsnList l = new InsnList();                        // a method invoked on this object: a get operation
            l.add(new VarInsnNode(ALOAD, 0));
            recordOperation(l, owner, "use", ((long) methodId << 32) | (firstLine & 0xFFFFFFFFL));
            mn.instructions.insert(l);
        }
    }

    /** Whether the instruction before index n pushed local 0 (this, when the method never stores into slot 0). */
    private static boolean isThis(List<AbstractInsnNode> insns, int n) {
        for (int i = n - 1; i >= 0; i--) {
            AbstractInsnNode p = insns.get(i);
            if (p.getOpcode() < 0) continue;
            return p.getOpcode() == ALOAD && ((VarInsnNode) p).var == 0;
        }
        return false;
    }

    private static boolean storesSlotZero(List<AbstractInsnNode> insns) {
        for (AbstractInsnNode i : insns) if (i.getOpcode() == ASTORE && ((VarInsnNode) i).var == 0) return true;
        return false;
    }

    private static AbstractInsnNode nextReal(List<AbstractInsnNode> insns, int n) {
        for (int i = n + 1; i < insns.size(); i++) if (insns.get(i).getOpcode() >= 0) return insns.get(i);
        return null;
    }

    /** {@code Lifetimes.probe(operand, site)} with the operand on top of the stack left in place. */
    private static InsnList useOfOperand(String probe, long site) {
        InsnList l = new InsnList();
        l.add(new InsnNode(DUP));
        l.add(new LdcInsnNode(site));
        l.add(call(probe, "(Ljava/lang/Object;J)V"));
        return l;
    }

    /** [object of owner] → []: {@code Lifetimes.probe(object's record field, site)}, for a get ("use") or a put. */
    private static void recordOperation(InsnList l, String owner, String probe, long site) {
        l.add(new FieldInsnNode(GETFIELD, owner, FIELD, FIELD_DESC));
        l.add(new LdcInsnNode(site));
        l.add(call(probe, "(Ljava/lang/Object;J)V"));
    }

    private static MethodInsnNode call(String name, String desc) {
        return new MethodInsnNode(INVOKESTATIC, LT, name, desc, false);
    }
}
