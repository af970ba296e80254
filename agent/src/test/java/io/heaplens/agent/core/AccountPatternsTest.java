package io.heaplens.agent.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AccountPatternsTest {
    @Test
    void exactNameIsThatPackageOnlyWildcardTakesSubPackages() {
        AccountPatterns p = new AccountPatterns(List.of("srv.http", "srv.cache.*"));
        assertEquals(List.of("(unaccounted)", "srv.http", "srv.cache.*"), p.names());
        assertEquals(1, p.accountOf("srv/http/Server"));
        assertEquals(0, p.accountOf("srv/http/util/Codec"));      // a.b does not take sub-packages
        assertEquals(2, p.accountOf("srv/cache/Cache"));          // a.b.* takes a.b itself …
        assertEquals(2, p.accountOf("srv/cache/disk/Page$1"));    // … and its sub-packages
        assertEquals(0, p.accountOf("srv/xml/Parser"));
        assertEquals(0, p.accountOf("Main"));                      // the default package
    }

    @Test
    void mostSpecificPatternWinsWhateverTheOrder() {
        AccountPatterns p = new AccountPatterns(List.of("a.*", "a.b.*", "a.b", "a.b.c.*"));
        assertEquals(1, p.accountOf("a/X"));
        assertEquals(1, p.accountOf("a/z/X"));
        assertEquals(3, p.accountOf("a/b/X"));                     // a.b beats a.b.* for package a.b
        assertEquals(2, p.accountOf("a/b/q/X"));
        assertEquals(4, p.accountOf("a/b/c/d/X"));
        AccountPatterns reversed = new AccountPatterns(List.of("a.b.c.*", "a.b", "a.b.*", "a.*"));
        assertEquals("a.b", reversed.names().get(reversed.accountOf("a/b/X")));
        assertEquals("a.b.*", reversed.names().get(reversed.accountOf("a/b/q/X")));
    }

    @Test
    void optionsTakeCommaAndColonSeparatedPatterns() {
        Options o = Options.parse("out=x.heaplens,mode=accounts,accounts=srv.http.*,srv.cache:srv.db,liveness=exact,snapshotInterval=200");
        assertEquals(List.of(), o.errors);
        assertEquals(List.of("srv.http.*", "srv.cache", "srv.db"), o.accounts);
        assertEquals("exact", o.liveness);
        assertEquals(200, o.snapshotMillis);
        assertEquals(List.of("mode 'accounts' needs account patterns (accounts=a.b,c.d.*)"), Options.parse("mode=accounts").errors);
        assertEquals(List.of("option 'accounts': 'a..b' is not a package pattern (a.b, a.b.* or *)", "option 'liveness' must be off, sampled, exact or auto, not 'maybe'"),
            Options.parse("accounts=x,a..b,liveness=maybe").errors);
    }
}
