package io.heaplens.agent.cache;

import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.RegistryImage;
import io.heaplens.agent.instrument.ClassInstrumenter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class StartCacheTest {
    private static byte[] classBytes(String internalName) throws Exception {
        try (InputStream in = Object.class.getResourceAsStream("/" + internalName + ".class")) {
            return in.readAllBytes();
        }
    }

    /** A cold start over an empty directory: records one instrumented class and one left as is, then writes. */
    private static Path writeCache(Path dir, String key, byte[] list, byte[] listOut, byte[] plain) {
        StartCache cold = StartCache.open(dir, key, false);
        assertFalse(cold.begin(new Registry()), "no file yet: the start is cold");
        assertTrue(cold.recording());
        cold.record(null, "java/util/ArrayList", true, list, listOut, 0, 12, List.of("a warning"));
        cold.record(null, "java/lang/Number", false, plain, null, 0, 0, List.of());
        assertTrue(cold.finish(new Registry()), "the cold start writes its file");
        assertFalse(cold.recording());
        return cold.file();
    }

    @Test
    void aWrittenFileGivesBackTheRecordedBytesForTheSameInputOnly(@TempDir Path dir) throws Exception {
        byte[] list = classBytes("java/util/ArrayList"), plain = classBytes("java/lang/Number");
        byte[] listOut = ClassInstrumenter.instrument(list, new Registry(), false).bytes;
        Path file = writeCache(dir, "key A", list, listOut, plain);
        assertTrue(Files.size(file) > listOut.length, "the file holds the transformed bytes");

        StartCache warm = StartCache.open(dir, "key A", false);
        StartCache.Entry e = warm.lookup(null, "java/util/ArrayList", list);
        assertNotNull(e);
        assertArrayEquals(listOut, e.out);
        assertEquals(12, e.sites);
        assertEquals(List.of("a warning"), e.warnings);
        StartCache.Entry left = warm.lookup(null, "java/lang/Number", plain);
        assertNotNull(left, "a class recorded as left alone is found too");
        assertNull(left.out, "and keeps its own bytes");

        byte[] changed = list.clone();
        changed[changed.length - 1] ^= 1;
        assertNull(warm.lookup(null, "java/util/ArrayList", changed), "other bytes under the same name: transform them");
        assertNull(warm.lookup(ClassLoader.getPlatformClassLoader(), "java/util/ArrayList", list), "another loader's class");
        assertNull(warm.lookup(null, "java/util/HashMap", classBytes("java/util/HashMap")), "a class not recorded");
        assertEquals(2, warm.hits);
        assertEquals(3, warm.misses);
    }

    /** Pruning keeps the eight most recently used files: a file only read by warm starts counts as used. */
    @Test
    void aFileReadByAWarmStartOutlivesOlderFilesWhenPruned(@TempDir Path dir) throws Exception {
        byte[] list = classBytes("java/util/ArrayList"), plain = classBytes("java/lang/Number");
        byte[] listOut = ClassInstrumenter.instrument(list, new Registry(), false).bytes;
        Path first = writeCache(dir, "key 0", list, listOut, plain);
        long old = System.currentTimeMillis() - 3_600_000;
        assertTrue(first.toFile().setLastModified(old - 1_000), "made an hour old");
        for (int k = 1; k < 8; k++) assertTrue(writeCache(dir, "key " + k, list, listOut, plain).toFile().setLastModified(old + k));
        StartCache warm = StartCache.open(dir, "key 0", false);
        assertNotNull(warm.lookup(null, "java/util/ArrayList", list), "the oldest file is read by a warm start");
        writeCache(dir, "key 8", list, listOut, plain);           // a ninth file: one of the eight others goes
        assertTrue(Files.exists(first), "the file a start just used is kept");
        assertFalse(Files.exists(dir.resolve(CacheKey.fileName("key 1"))), "the least recently used file is the one pruned");
        try (var files = Files.list(dir)) {
            assertEquals(8, files.filter(p -> p.getFileName().toString().endsWith(".bin")).count());
        }
    }

    @Test
    void aWarmStartLeavesOutOnlyRetransformedClassesThatKeptTheirBytesWithoutWarnings(@TempDir Path dir) throws Exception {
        byte[] list = classBytes("java/util/ArrayList"), plain = classBytes("java/lang/Number");
        byte[] listOut = ClassInstrumenter.instrument(list, new Registry(), false).bytes;
        StartCache cold = StartCache.open(dir, "key B", false);
        assertFalse(cold.begin(new Registry()));
        cold.record(null, "java/util/ArrayList", true, list, listOut, 0, 12, List.of());
        cold.record(null, "java/lang/Number", true, plain, null, 0, 0, List.of());
        cold.record(null, "java/lang/Runnable", false, plain, null, 0, 0, List.of());
        cold.record(null, "java/lang/Comparable", true, plain, null, 0, 0, List.of("a warning"));
        assertFalse(cold.unchangedAtStart(null, "java/lang/Number"), "a cold start leaves nothing out");
        assertTrue(cold.finish(new Registry()));

        StartCache warm = StartCache.open(dir, "key B", false);
        assertTrue(warm.unchangedAtStart(null, "java/lang/Number"), "retransformed and kept its bytes: left out");
        assertFalse(warm.unchangedAtStart(null, "java/util/ArrayList"), "instrumented: retransformed");
        assertFalse(warm.unchangedAtStart(null, "java/lang/Runnable"), "recorded when it loaded after the agent");
        assertFalse(warm.unchangedAtStart(null, "java/lang/Comparable"), "its warning must be reported again");
        assertFalse(warm.unchangedAtStart(ClassLoader.getPlatformClassLoader(), "java/lang/Number"), "another loader");
        assertFalse(warm.unchangedAtStart(null, "java/util/HashMap"), "not recorded");
        assertEquals(1, warm.leftOut);
        warm.finish(new Registry());
        assertFalse(warm.unchangedAtStart(null, "java/lang/Number"), "after the start, nothing is left out");
    }

    @Test
    void aWarmStartRedefinesDirectlyOnlyRetransformedClassesWithOneVariantNewBytesAndNoWarning(@TempDir Path dir) throws Exception {
        byte[] list = classBytes("java/util/ArrayList"), map = classBytes("java/util/HashMap"), plain = classBytes("java/lang/Number");
        byte[] listOut = ClassInstrumenter.instrument(list, new Registry(), false).bytes;
        byte[] mapOut = ClassInstrumenter.instrument(map, new Registry(), false).bytes;
        byte[] rebuilt = java.util.Arrays.copyOf(map, map.length + 1);
        StartCache cold = StartCache.open(dir, "key R", false);
        assertFalse(cold.begin(new Registry()));
        cold.record(null, "java/util/ArrayList", true, list, listOut, 0, 12, List.of());
        cold.record(null, "java/util/HashMap", true, map, mapOut, 0, 9, List.of());
        cold.record(null, "java/util/HashMap", true, rebuilt, mapOut, 0, 9, List.of());
        cold.record(null, "java/lang/Number", true, plain, null, 0, 0, List.of());
        cold.record(null, "java/util/Vector", false, list, listOut, 0, 12, List.of());
        cold.record(null, "java/util/LinkedList", true, list, listOut, 0, 12, List.of("a warning"));
        assertNull(cold.redefinable(null, "java/util/ArrayList"), "a cold start has nothing to hand over");
        assertTrue(cold.finish(new Registry()));

        StartCache warm = StartCache.open(dir, "key R", false);
        StartCache.Entry e = warm.redefinable(null, "java/util/ArrayList");
        assertNotNull(e, "retransformed, one variant, instrumented: its bytes go to the JVM directly");
        assertArrayEquals(listOut, e.out);
        assertEquals(12, e.sites);
        assertNull(warm.redefinable(null, "java/util/HashMap"), "two variants: the rebuilt bytes must say which");
        assertNull(warm.redefinable(null, "java/lang/Number"), "nothing to instrument: left out, not redefined");
        assertNull(warm.redefinable(null, "java/util/Vector"), "recorded when it loaded after the agent");
        assertNull(warm.redefinable(null, "java/util/LinkedList"), "its warning must be reported again");
        assertNull(warm.redefinable(ClassLoader.getPlatformClassLoader(), "java/util/ArrayList"), "another loader");
        warm.finish(new Registry());
        assertNull(warm.redefinable(null, "java/util/ArrayList"), "after the start, nothing is handed over");
    }

    @Test
    void aWarmStartAddsTheClassesItHadToTransformSoTheNextStartFindsThem(@TempDir Path dir) throws Exception {
        byte[] list = classBytes("java/util/ArrayList"), plain = classBytes("java/lang/Number");
        byte[] listOut = ClassInstrumenter.instrument(list, new Registry(), false).bytes;
        writeCache(dir, "key C", list, listOut, plain);
        byte[] rebuilt = list.clone();                       // the same class as the JVM rebuilt it in another state
        rebuilt[rebuilt.length - 1] ^= 1;
        byte[] map = classBytes("java/util/HashMap");

        StartCache warm = StartCache.open(dir, "key C", false);   // (begin would fill the registry: not needed here)
        assertTrue(warm.recording(), "a warm start records the classes it lacks");
        assertNull(warm.lookup(null, "java/util/ArrayList", rebuilt));
        warm.record(null, "java/util/ArrayList", true, rebuilt, listOut, 0, 12, List.of());
        assertNull(warm.lookup(null, "java/util/HashMap", map));
        warm.record(null, "java/util/HashMap", true, map, null, 0, 0, List.of());
        assertTrue(warm.finish(new Registry()), "and adds them to the file");

        StartCache next = StartCache.open(dir, "key C", false);
        assertNotNull(next.lookup(null, "java/util/ArrayList", list), "the first variant stays");
        assertNotNull(next.lookup(null, "java/util/ArrayList", rebuilt), "the second one is found too");
        assertNotNull(next.lookup(null, "java/util/HashMap", map));
        assertNotNull(next.lookup(null, "java/lang/Number", plain));
        assertEquals(0, next.misses);
        assertFalse(next.finish(new Registry()), "a warm start that lacked nothing leaves the file as it is");

        // Classes that come rebuilt differently at every start are added twice at most, not at every start.
        byte[] other = rebuilt.clone();
        other[other.length - 2] ^= 1;
        StartCache second = StartCache.open(dir, "key C", false);
        assertNull(second.lookup(null, "java/util/ArrayList", other));
        second.record(null, "java/util/ArrayList", true, other, listOut, 0, 12, List.of());
        assertTrue(second.finish(new Registry()), "the second warm start that lacked a class adds it");
        StartCache third = StartCache.open(dir, "key C", false);
        assertNotNull(third.lookup(null, "java/util/ArrayList", other));
        assertFalse(third.recording(), "after two additions the file is left as it is");
        other[0] ^= 1;
        third.record(null, "java/util/ArrayList", true, other, listOut, 0, 12, List.of());
        assertFalse(third.finish(new Registry()));
    }

    @Test
    void theKeyHoldsOtherAgentsAndPatchedModulesButNotThisAgentsOptions() {
        assertEquals(List.of("-javaagent:heaplens", "-javaagent:/x/other.jar=a=1", "-agentlib:jdwp=transport=dt_socket",
                "-agentpath:/x/libp.so", "--patch-module=java.base=/p", "--patch-module=java.xml=/q"),
            CacheKey.classChanging(List.of("java", "-javaagent:/a/b/heaplens-agent.jar=out=/tmp/x,verbose=true", "-Xmx1g",
                "-javaagent:/x/other.jar=a=1", "-agentlib:jdwp=transport=dt_socket", "-agentpath:/x/libp.so",
                "--patch-module=java.base=/p", "--patch-module", "java.xml=/q", "-cp", "app.jar", "Main")));
        assertEquals(List.of(), CacheKey.classChanging(List.of("java", "-Xmx1g", "-cp", ".", "Hello")));
    }

    @Test
    void theAgentlibFormOfThisAgentCountsWithoutItsOptionsAndApartFromJavaagent() {
        // what the launchers pass (docs/agent-options.md): two runs with different profile paths share one key
        assertEquals(List.of("-agentlib:instrument=heaplens", "-agentlib:instrument=/x/other.jar=a=1"),
            CacheKey.classChanging(List.of("java", "-agentlib:instrument=/a/b/heaplens-agent.jar=out=/tmp/x,portFile=/tmp/p",
                "-agentlib:instrument=/x/other.jar=a=1", "-cp", "app.jar", "Main")));
        assertEquals(CacheKey.classChanging(List.of("-agentlib:instrument=/a/heaplens-agent.jar=out=/tmp/one.heaplens")),
            CacheKey.classChanging(List.of("-agentlib:instrument=/b/heaplens-agent.jar=out=/tmp/two.heaplens,verbose=true")));
        assertEquals(new java.io.File("/a/b/heaplens-agent.jar"),
            CacheKey.namedAgentJar(List.of("java", "-agentlib:instrument=/a/b/heaplens-agent.jar=out=/tmp/x", "Hello")));
        assertEquals(null, CacheKey.namedAgentJar(List.of("-agentlib:instrument=/a/heaplens-agent.jar", "-javaagent:/b/heaplens-agent.jar")));
    }

    @Test
    void theAgentJarIsTheOneJavaagentNamedHeaplensAgentJar() {
        java.io.File jar = new java.io.File("/a/b/heaplens-agent.jar");
        assertEquals(jar, CacheKey.namedAgentJar(List.of("java", "-javaagent:/a/b/heaplens-agent.jar=out=/tmp/x", "-cp", ".", "Hello")));
        assertEquals(jar, CacheKey.namedAgentJar(List.of("java", "-javaagent:/a/b/heaplens-agent.jar", "-javaagent:/x/other.jar=a=1", "Hello")));
        assertEquals(new java.io.File("lib/heaplens-agent.jar").getAbsoluteFile(), CacheKey.namedAgentJar(List.of("-javaagent:lib/heaplens-agent.jar")));
        // renamed (its Boot-Class-Path names another file), two different copies, or none: found by its class file instead
        assertEquals(null, CacheKey.namedAgentJar(List.of("java", "-javaagent:/a/b/my-heaplens-agent.jar", "Hello")));
        assertEquals(null, CacheKey.namedAgentJar(List.of("-javaagent:/a/heaplens-agent.jar", "-javaagent:/b/heaplens-agent.jar")));
        assertEquals(null, CacheKey.namedAgentJar(List.of("java", "-cp", "heaplens-agent.jar", "Hello")));
    }

    @Test
    void aDamagedTruncatedOrForeignFileIsIgnored(@TempDir Path dir) throws Exception {
        byte[] list = classBytes("java/util/ArrayList"), plain = classBytes("java/lang/Number");
        byte[] listOut = ClassInstrumenter.instrument(list, new Registry(), false).bytes;
        Path file = writeCache(dir, "key A", list, listOut, plain);
        byte[] sound = Files.readAllBytes(file);

        byte[] flipped = sound.clone();
        flipped[flipped.length / 2] ^= 0x40;
        Files.write(file, flipped);
        assertIgnored(dir, "key A", list);

        Files.write(file, java.util.Arrays.copyOf(sound, sound.length - 100));
        assertIgnored(dir, "key A", list);

        Files.write(file, new byte[0]);
        assertIgnored(dir, "key A", list);

        // The same sound file under another key's name (another JDK, agent build or options): its key text differs.
        Files.write(dir.resolve(CacheKey.fileName("key B")), sound);
        assertIgnored(dir, "key B", list);

        Files.write(file, sound);
        assertNotNull(StartCache.open(dir, "key A", false).lookup(null, "java/util/ArrayList", list), "the sound file still reads");
    }

    @Test
    void aDirectoryThatCannotBeWrittenLeavesTheStartAlone(@TempDir Path dir) throws Exception {
        Path notADirectory = dir.resolve("file");
        Files.write(notADirectory, new byte[] {1});
        StartCache c = StartCache.open(notADirectory, "key A", false);
        assertFalse(c.begin(new Registry()));
        byte[] list = classBytes("java/util/ArrayList");
        c.record(null, "java/util/ArrayList", true, list, list, 0, 0, List.of());
        assertFalse(c.finish(new Registry()), "nothing written, and nothing thrown");
    }

    private static void assertIgnored(Path dir, String key, byte[] list) {
        StartCache c = StartCache.open(dir, key, false);
        assertNull(c.lookup(null, "java/util/ArrayList", list), "nothing is taken from an unusable file");
        assertFalse(c.begin(new Registry()), "an unusable file makes a cold start");
        assertTrue(c.recording(), "which records a fresh file");
    }

    @Test
    void theRegistryImageKeepsEveryTableAndIsAppliedOnlyToAnEmptyRegistry() throws Exception {
        Registry r = new Registry();
        for (String c : new String[] {"java/util/ArrayList", "java/util/HashMap", "java/lang/StringBuilder"}) {
            ClassInstrumenter.instrument(classBytes(c), r, false);
        }
        assertTrue(r.siteCount() > 20 && r.methodCount() > 10, "the JDK classes registered sites");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        RegistryImage.write(r, new DataOutputStream(buf));
        byte[] bytes = buf.toByteArray();
        RegistryImage image = RegistryImage.read(new DataInputStream(new ByteArrayInputStream(bytes)));
        assertNotNull(image);
        // This registry is not empty (and in a test JVM neither is the key table): nothing may be applied.
        assertFalse(image.applyTo(r));
        Registry other = new Registry();
        other.method("a/B", "c", "()V");
        assertFalse(image.applyTo(other));
        assertEquals(1, other.methodCount(), "a refused image adds nothing");

        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 8);
        assertThrows(java.io.IOException.class, () -> RegistryImage.read(new DataInputStream(new ByteArrayInputStream(cut))));
    }
}
