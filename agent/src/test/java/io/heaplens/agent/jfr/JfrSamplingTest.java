package io.heaplens.agent.jfr;

import io.heaplens.agent.core.Options;
import io.heaplens.runtime.Mode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JfrSamplingTest {
    @Test
    void samplerOptionIsJvmtiProbesOrJfr() {
        assertEquals("jvmti", Options.parse("mode=sampled").sampler);
        assertEquals("probes", Options.parse("mode=sampled,sampler=probes").sampler);
        assertEquals("jfr", Options.parse("mode=sampled,sampler=jfr").sampler);
        Options bad = Options.parse("sampler=tlab");
        assertEquals(1, bad.errors.size());
        assertTrue(bad.errors.get(0).contains("'sampler' must be jvmti, probes or jfr"), bad.errors.get(0));
        // HotSpot's sampler has its own default interval; a given sampleBytes sets both samplers'
        assertEquals(65_536, Options.parse("mode=sampled").heapSampleBytes());
        assertEquals(524_288, Options.parse("mode=sampled").sampleBytes);
        assertEquals(16_384, Options.parse("mode=sampled,sampleBytes=16384").heapSampleBytes());
    }

    @Test
    void withJfrTheSampledModeNeedsNoInstrumentation() {
        boolean before = Mode.sampledByJvm;
        try {
            Mode.sampledByJvm = false;
            assertEquals(Mode.LEVEL_ALLOCATIONS, Mode.level(Mode.SAMPLED));
            Mode.sampledByJvm = true;
            assertEquals(Mode.LEVEL_NONE, Mode.level(Mode.SAMPLED));
            assertEquals(Mode.LEVEL_NONE, Mode.level(Mode.PAUSED));
            assertEquals(Mode.LEVEL_ALLOCATIONS, Mode.level(Mode.SITES));
            assertEquals(Mode.LEVEL_TREE, Mode.level(Mode.EXACT));
        } finally {
            Mode.sampledByJvm = before;
        }
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        // JFR's class name, the descriptor
        "java.lang.String, Ljava/lang/String;",
        "[B, [B",
        "[Ljava.lang.String;, [Ljava/lang/String;",
        // hidden classes lose their run-specific suffix, as Types.descriptorOf names them
        "p.Main$$Lambda$14/0x0000000800c0b000, Lp/Main$$Lambda;",
        "p.Main$$Lambda/0x0000000800c0b000, Lp/Main$$Lambda;",
    })
    void jfrClassNamesBecomeDescriptors(String jfrName, String descriptor) {
        assertEquals(descriptor, JfrStream.descriptor(jfrName));
    }
}
