package io.heaplens.agent.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class OptionsTest {
    @Test
    void parsesEveryOption() {
        Options o = Options.parse("out=/tmp/a.heaplens,include=com.acme.*:org.x,exclude=com.acme.gen,interval=500,maxDepth=100,jdk=false,verbose=true,mode=exact");
        assertTrue(o.errors.isEmpty(), o.errors.toString());
        assertEquals("/tmp/a.heaplens", o.out);
        assertEquals(List.of("com.acme.*", "org.x"), o.include);
        assertEquals(List.of("com.acme.gen"), o.exclude);
        assertEquals(500, o.intervalMillis);
        assertEquals(100, o.maxDepth);
        assertFalse(o.jdk);
        assertTrue(o.verbose);
    }

    @Test
    void sampleRateIsABudgetOfSamplesASecondOrZeroForAFixedInterval() {
        assertEquals(5000, Options.parse("").sampleRate);
        assertEquals(200, Options.parse("sampleRate=200").sampleRate);
        assertEquals(0, Options.parse("sampleRate=0").sampleRate);
        Options bad = Options.parse("sampleRate=-5");
        assertEquals(List.of("option 'sampleRate' must be a number from 0 to 1073741824, not '-5'"), bad.errors);
    }

    @Test
    void startCacheIsOnByDefaultAndTakesOffOrADirectory() {
        assertEquals("auto", Options.parse("").startCache);
        assertEquals("off", Options.parse("startCache=off").startCache);
        assertEquals("/tmp/hl-cache", Options.parse("startCache=/tmp/hl-cache").startCache);
    }

    @Test
    void livenessDefaultsToAutoWithAnExactBudget() {
        Options d = Options.parse("");
        assertEquals("auto", d.liveness);
        assertEquals(100_000, d.liveExactFirst);
        assertEquals(32, d.liveEvery);
        Options o = Options.parse("liveness=sampled,liveEvery=8,liveExactFirst=500");
        assertTrue(o.errors.isEmpty(), o.errors.toString());
        assertEquals(List.of("sampled", 8, 500), List.of(o.liveness, o.liveEvery, o.liveExactFirst));
        assertEquals(List.of("option 'liveness' must be off, sampled, exact or auto, not 'some'"), Options.parse("liveness=some").errors);
    }

    @Test
    void lifetimePrecisionIsAutoOrAShareOfTheBytesAllocated() {
        assertEquals(0.0, Options.parse("").lifetimePrecisionShare);
        assertEquals(0.0, Options.parse("lifetimePrecision=auto").lifetimePrecisionShare);
        assertEquals(0.01, Options.parse("lifetimePrecision=1%").lifetimePrecisionShare, 1e-12);
        assertEquals(0.005, Options.parse("lifetimePrecision=0.5%").lifetimePrecisionShare, 1e-12);
        for (String bad : new String[] {"1", "0.05%", "60%", "x%"}) {
            assertEquals(List.of("option 'lifetimePrecision' must be auto or a share of the bytes allocated from 0.1% to 50%, not '" + bad + "'"),
                Options.parse("lifetimePrecision=" + bad).errors, bad);
        }
    }

    @Test
    void heapDumpAndThreadsOptions() {
        Options o = Options.parse("heapDumpAtExit=/tmp/x.hprof,threads=true,cpuSampleMillis=10");
        assertTrue(o.errors.isEmpty(), o.errors.toString());
        assertEquals("/tmp/x.hprof", o.heapDumpAtExit);
        assertTrue(o.threads);
        assertEquals(10, o.cpuSampleMillis);
        assertFalse(Options.parse("").threads);
        assertEquals(5, Options.parse("").cpuSampleMillis);
        assertEquals(List.of(
            "option 'heapDumpAtExit' must name a file ending with .hprof, not '/tmp/x.bin'",
            "option 'cpuSampleMillis' must be a number from 1 to 1000, not '0'"),
            Options.parse("heapDumpAtExit=/tmp/x.bin,cpuSampleMillis=0").errors);
    }

    @Test
    void reportsEveryMistakeWithoutThrowing() {
        Options o = Options.parse("bogus=1,interval=fast,include=com..x,noequals,mode=turbo,jdk=maybe");
        assertEquals(List.of(
            "unknown option 'bogus'",
            "option 'interval' must be a number from 100 to 3600000, not 'fast'",
            "option 'include': 'com..x' is not a package pattern (a.b, a.b.* or *)",
            "option 'noequals' is not key=value",
            "mode 'turbo' is not supported (exact, sites, sampled, paused, accounts, lifetime)",
            "option 'jdk' must be true or false, not 'maybe'"), o.errors);
    }

    @Test
    void compressTakesAutoOnOrOff() {
        assertEquals("auto", Options.parse(null).compress);
        assertEquals("on", Options.parse("compress=on").compress);
        assertEquals("off", Options.parse("compress=off").compress);
        Options bad = Options.parse("compress=zip");
        assertEquals(List.of("option 'compress' must be auto, on or off, not 'zip'"), bad.errors);
        assertEquals("auto", bad.compress);
    }

    @Test
    void emptyArgumentsMeanDefaults() {
        Options o = Options.parse(null);
        assertTrue(o.errors.isEmpty());
        assertNull(o.out);
        assertEquals(1000, o.intervalMillis);
        assertEquals(4096, o.maxDepth);
    }
}
