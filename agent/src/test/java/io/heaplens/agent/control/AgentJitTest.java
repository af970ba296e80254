package io.heaplens.agent.control;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The directive that keeps the agent's own code out of C2 reaches the JVM's directive stack (through the MBean server here: no Instrumentation in a unit test). */
class AgentJitTest {
    @Test
    void theAgentsPackagesAreExcludedFromC2AndTheProbesAreNot() throws Exception {
        assertEquals("1 compiler directives added", AgentJit.c1Only(null));
        try {
            String printed = dcmd("compilerDirectivesPrint");
            assertTrue(printed.contains("io/heaplens/agent/*.*"), printed);
            assertTrue(printed.contains("io/heaplens/shaded/*.*"), printed);
            assertTrue(!printed.contains("io/heaplens/runtime"), printed);
            // the c2 block excludes; the c1 block of the same directive does not
            String c1 = printed.substring(printed.indexOf("c1 directives"), printed.indexOf("c2 directives"));
            String c2 = printed.substring(printed.indexOf("c2 directives"));
            assertTrue(c1.contains("Exclude:false"), c1);
            assertTrue(c2.contains("Exclude:true"), c2);
        } finally {
            dcmd("compilerDirectivesRemove");
        }
    }

    private static String dcmd(String op) throws Exception {
        return String.valueOf(ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
            op, new Object[0], new String[0]));
    }
}
