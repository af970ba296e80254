package io.heaplens.agent.core;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TypesTest {
    @Test
    void javaNames() {
        assertEquals("java.util.HashMap$Node", Types.javaName("Ljava/util/HashMap$Node;"));
        assertEquals("int[][]", Types.javaName("[[I"));
        assertEquals("java.lang.Object[][][]", Types.javaName("[[[Ljava/lang/Object;"));
        assertEquals("boolean[]", Types.javaName(Types.newarrayDescriptor(4)));
        assertEquals("[Ljava/lang/String;", "[" + Types.descriptorOfInternal("java/lang/String"));
        assertEquals("[[I", "[" + Types.descriptorOfInternal("[I"));
    }

    @Test
    void elementCodes() {
        assertEquals('I', Types.elementCode("[I"));
        assertEquals('R', Types.elementCode("[[I"));
        assertEquals('R', Types.elementCode("[Ljava/lang/Object;"));
        assertEquals('Z', Types.elementCode("[Z"));
        assertEquals(8, Types.elementSize('J'));
        assertEquals(2, Types.elementSize('C'));
    }
}
