package io.heaplens.agent.control;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The directive that keeps the agent's own code out of C2 reaches the JVM's directive stack. The test JVM opens the
 * JDK's package on its command line (pom.xml), where the agent opens it through Instrumentation.
 */
class AgentJitTest {
    @Test
    void theAgentsPackagesAreExcludedFromC2AndTheProbesAreNot() throws Exception {
        Class<?> impl = Class.forName("com.sun.management.internal.DiagnosticCommandImpl");
        assertEquals("1 compiler directives added", AgentJit.addDirectives(impl));
        try {
            String printed = AgentJit.run(impl, "Compiler.directives_print");
            assertTrue(printed.contains("io/heaplens/agent/*.*"), printed);
            assertTrue(printed.contains("io/heaplens/shaded/*.*"), printed);
            assertTrue(!printed.contains("io/heaplens/runtime"), printed);
            // the c2 block excludes; the c1 block of the same directive does not
            int c1 = printed.indexOf("c1 directives"), c2 = printed.indexOf("c2 directives");
            assertTrue(c1 >= 0 && c2 > c1, printed);
            assertTrue(printed.substring(c1, c2).contains("Exclude:false"), printed);
            assertTrue(printed.substring(c2).contains("Exclude:true"), printed);
        } finally {
            AgentJit.run(impl, "Compiler.directives_remove");
        }
    }

    @Test
    void eachDirectiveFileIsNewAndHoldsTheDirectives() throws Exception {
        java.io.File a = AgentJit.directivesFile(), b = AgentJit.directivesFile();
        try {
            assertTrue(!a.equals(b), a + " " + b);
            assertEquals(AgentJit.DIRECTIVES, new String(java.nio.file.Files.readAllBytes(a.toPath()), java.nio.charset.StandardCharsets.UTF_8));
            assertTrue(a.getName().startsWith("heaplens-jit-") && a.getName().endsWith(".json"), a.getName());
        } finally {
            a.delete();
            b.delete();
        }
    }
}
