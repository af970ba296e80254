package io.heaplens.agent.instrument;

import io.heaplens.agent.core.Registry;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.io.InputStream;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Instrumentation levels (Mode.level): what a class gets without a call tree, and re-instrumentation. */
class LevelsTest {
    private static byte[] bytes(String name) throws Exception {
        try (InputStream in = LevelsTest.class.getClassLoader().getResourceAsStream(name.replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    /** Names of the Recorder probes the class calls, e.g. "enter", "obj", "jobj". */
    private static Set<String> probes(byte[] cls) {
        ClassNode cn = new ClassNode();
        new ClassReader(cls).accept(cn, 0);
        Set<String> out = new HashSet<>();
        for (MethodNode m : cn.methods) {
            for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i instanceof MethodInsnNode && ((MethodInsnNode) i).owner.equals("io/heaplens/runtime/Recorder")) out.add(((MethodInsnNode) i).name);
            }
        }
        return out;
    }

    @Test
    void withoutTreeAProfiledClassGetsAllocationProbesOnlyAndItsMethodsStayFrames() throws Exception {
        Registry registry = new Registry();
        ClassInstrumenter.Result r = ClassInstrumenter.instrument(bytes("io.heaplens.fixtures.Tricky"), registry, true, false, false);
        assertNotNull(r.bytes);
        Set<String> p = probes(r.bytes);
        assertFalse(p.contains("enter"), "no call-tree probes: " + p);
        assertFalse(p.contains("exit"), "no call-tree probes: " + p);
        assertTrue(p.contains("aobj"), "allocation probes, out of line without a tree: " + p);
        assertFalse(p.contains("jobj"), "no inlined dispatch without a tree: " + p);
        assertEquals(0, r.methodsProfiled);
        // the sampled traces resolve frames through the registry: the methods are still frames
        int id = registry.profiledMethodId("io.heaplens.fixtures.Tricky", "<init>", "()V");
        assertTrue(id >= 0, "Tricky.<init> is a frame");
    }

    @Test
    void withTreeTheSameClassGetsCallTreeProbes() throws Exception {
        ClassInstrumenter.Result r = ClassInstrumenter.instrument(bytes("io.heaplens.fixtures.Tricky"), new Registry(), true, false, true);
        Set<String> p = probes(r.bytes);
        assertTrue(p.contains("enter") && p.contains("exit"), "call-tree probes: " + p);
        assertFalse(p.contains("aobj") || p.contains("aarr"), "the exact level keeps its inline probes: " + p);
        assertTrue(r.methodsProfiled > 0);
    }

    @Test
    void jdkClassesWithoutTreeGetOneCallPerAllocation() throws Exception {
        byte[] list = java.util.ArrayList.class.getResourceAsStream("/java/util/ArrayList.class").readAllBytes();
        Set<String> low = probes(ClassInstrumenter.instrument(list, new Registry(), false, false, false).bytes);
        assertTrue(low.contains("aarr") && !low.contains("jarr") && !low.contains("jobj"), "sites/sampled level: " + low);
        Set<String> exact = probes(ClassInstrumenter.instrument(list, new Registry(), false, false, true).bytes);
        assertTrue(exact.contains("jarr") && !exact.contains("aarr"), "exact level: " + exact);
    }

    @Test
    void instrumentingAgainKeepsTheSitesAndKeys() throws Exception {
        Registry registry = new Registry();
        byte[] original = bytes("io.heaplens.fixtures.Tricky");
        ClassInstrumenter.Result first = ClassInstrumenter.instrument(original, registry, true, false, true);
        int sites = registry.siteCount();
        int keys = io.heaplens.runtime.Keys.count();
        ClassInstrumenter.instrument(original, registry, true, false, false);
        ClassInstrumenter.instrument(original, registry, true, false, true);
        assertTrue(first.sites > 0);
        assertEquals(sites, registry.siteCount(), "a retransformation reuses the instruction's site");
        assertEquals(keys, io.heaplens.runtime.Keys.count(), "and its keys");
    }
}
