package io.heaplens.agent.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class PackageFilterTest {
    @Test
    void everythingByDefault() {
        PackageFilter f = new PackageFilter(List.of(), List.of());
        assertTrue(f.profiles("com/acme/Foo"));
        assertTrue(f.profiles("Foo"));
    }

    @Test
    void exactPackageVersusSubpackages() {
        PackageFilter exact = new PackageFilter(List.of("com.acme"), List.of());
        assertTrue(exact.profiles("com/acme/Foo"));
        assertTrue(exact.profiles("com/acme/Foo$Inner"));
        assertFalse(exact.profiles("com/acme/sub/Foo"));
        assertFalse(exact.profiles("com/acmeish/Foo"));
        PackageFilter tree = new PackageFilter(List.of("com.acme.*"), List.of());
        assertTrue(tree.profiles("com/acme/Foo"));
        assertTrue(tree.profiles("com/acme/sub/deep/Foo"));
        assertFalse(tree.profiles("com/acmeish/Foo"));
    }

    @Test
    void mostSpecificPatternWinsAndExcludeWinsTies() {
        PackageFilter f = new PackageFilter(List.of("com.acme.*", "com.acme.gen.keep"), List.of("com.acme.gen.*"));
        assertTrue(f.profiles("com/acme/Foo"));
        assertFalse(f.profiles("com/acme/gen/Foo"));
        assertTrue(f.profiles("com/acme/gen/keep/Foo"));     // exact package beats the excluded tree
        PackageFilter tie = new PackageFilter(List.of("com.acme.*"), List.of("com.acme.*"));
        assertFalse(tie.profiles("com/acme/Foo"));
    }

    @Test
    void validatesPatterns() {
        assertTrue(PackageFilter.isValidPattern("*"));
        assertTrue(PackageFilter.isValidPattern("a.b_c.$d.*"));
        assertFalse(PackageFilter.isValidPattern("a..b"));
        assertFalse(PackageFilter.isValidPattern("a.*.b"));
        assertFalse(PackageFilter.isValidPattern(""));
    }
}
