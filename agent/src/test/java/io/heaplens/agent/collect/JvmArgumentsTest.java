package io.heaplens.agent.collect;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class JvmArgumentsTest {
    private static final long M = 1L << 20, G = 1L << 30;

    @Test
    void g1sErgonomicRegionSizeAsPrintFlagsFinalReportsIt() {
        // -XX:+PrintFlagsFinal's G1HeapRegionSize on JDK 17 and 25 for these -Xmx
        List<String> none = List.of();
        assertEquals(1 * M, JvmArguments.g1RegionBytes(none, 64 * M));
        assertEquals(1 * M, JvmArguments.g1RegionBytes(none, 1 * G));
        assertEquals(2 * M, JvmArguments.g1RegionBytes(none, 3 * G));
        assertEquals(4 * M, JvmArguments.g1RegionBytes(none, 5 * G));
        assertEquals(8 * M, JvmArguments.g1RegionBytes(none, 10 * G));
        assertEquals(16 * M, JvmArguments.g1RegionBytes(none, 20 * G));
        assertEquals(32 * M, JvmArguments.g1RegionBytes(none, 40 * G));
        assertEquals(32 * M, JvmArguments.g1RegionBytes(none, 100 * G));
    }

    @Test
    void theCommandLinesRegionSizeAndCollectorWin() {
        assertEquals(4 * M, JvmArguments.g1RegionBytes(List.of("-Xmx1g", "-XX:G1HeapRegionSize=4m"), 1 * G));
        assertEquals(2 * M, JvmArguments.g1RegionBytes(List.of("-XX:G1HeapRegionSize=2097152"), 1 * G));
        assertEquals(0, JvmArguments.g1RegionBytes(List.of("-XX:+UseSerialGC"), 1 * G));
        assertEquals(0, JvmArguments.g1RegionBytes(List.of("-XX:+UseZGC", "-XX:G1HeapRegionSize=4m"), 1 * G));
        assertEquals(1 * M, JvmArguments.g1RegionBytes(List.of("-XX:+UseParallelGC", "-XX:+UseG1GC"), 1 * G));
        assertEquals(0, JvmArguments.bytes("lots"));
        assertEquals(3L << 30, JvmArguments.bytes("3G"));
    }

    @Test
    void theRunningJvmsOwnRegionSizeAndArguments() throws Exception {
        // this JVM (surefire's fork) through the diagnostic MXBean, as the agent read it before
        com.sun.management.HotSpotDiagnosticMXBean hs =
            java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        List<String> args = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
        long expected = "true".equals(hs.getVMOption("UseG1GC").getValue()) ? Long.parseLong(hs.getVMOption("G1HeapRegionSize").getValue()) : 0;
        assertEquals(expected, JvmArguments.g1RegionBytes(args, Runtime.getRuntime().maxMemory()));
        assertEquals(args, List.of(jdk.internal.misc.VM.getRuntimeArguments()));
    }
}
