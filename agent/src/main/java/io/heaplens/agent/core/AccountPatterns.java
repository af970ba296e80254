package io.heaplens.agent.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The memory accounts of a launch (Bouché et al. 2009 §5): one account per package pattern, {@code a.b} for the classes of
 * package a.b only, {@code a.b.*} for a.b and every sub-package. A class belongs to the account of the most
 * specific matching pattern (the longest package; for the same package the exact name beats the wildcard).
 * Account 0 is "(unaccounted)": allocations with no accounted method on the stack.
 */
public final class AccountPatterns {
    public static final String UNACCOUNTED = "(unaccounted)";
    private final List<String> patterns;

    public AccountPatterns(List<String> patterns) {
        List<String> unique = new ArrayList<>();
        for (String p : patterns) if (!unique.contains(p)) unique.add(p);
        this.patterns = Collections.unmodifiableList(unique);
    }

    public boolean isEmpty() { return patterns.isEmpty(); }

    public List<String> patterns() { return patterns; }

    /** Account names by id: "(unaccounted)" first, then the patterns in the order given. */
    public List<String> names() {
        List<String> out = new ArrayList<>();
        out.add(UNACCOUNTED);
        out.addAll(patterns);
        return out;
    }

    /** @param internalName e.g. srv/http/Handler$1; @return the account id, 0 when no pattern matches */
    public int accountOf(String internalName) {
        int slash = internalName.lastIndexOf('/');
        String pkg = slash < 0 ? "" : internalName.substring(0, slash).replace('/', '.');
        int best = -1, id = 0;
        for (int i = 0; i < patterns.size(); i++) {
            String p = patterns.get(i);
            if (p.equals("*")) continue;                 // an account of everything would be no account
            int s = PackageFilter.match(p, pkg);
            if (s > best) { best = s; id = i + 1; }
        }
        return id;
    }
}
