package io.heaplens.agent.core;

import java.util.List;

/**
 * Include/exclude package patterns: {@code a.b} matches classes of package a.b only, {@code a.b.*} matches a.b
 * and its sub-packages, {@code *} everything. The longest matching pattern decides; on a tie exclude wins.
 */
public final class PackageFilter {
    private final List<String> include, exclude;

    public PackageFilter(List<String> include, List<String> exclude) {
        this.include = include;
        this.exclude = exclude;
    }

    public static boolean isValidPattern(String p) {
        return p.equals("*") || p.matches("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*(\\.\\*)?");
    }

    /** @param internalName a class's internal name, e.g. com/acme/Foo$Bar */
    public boolean profiles(String internalName) {
        int slash = internalName.lastIndexOf('/');
        String pkg = slash < 0 ? "" : internalName.substring(0, slash).replace('/', '.');
        int in = include.isEmpty() ? 0 : best(include, pkg);
        int ex = best(exclude, pkg);
        if (in < 0) return false;
        return ex < 0 || in > ex;
    }

    /** Specificity of the best matching pattern, -1 when none matches. */
    static int best(List<String> patterns, String pkg) {
        int best = -1;
        for (String p : patterns) {
            int s = match(p, pkg);
            if (s > best) best = s;
        }
        return best;
    }

    static int match(String pattern, String pkg) {
        if (pattern.equals("*")) return 0;
        if (pattern.endsWith(".*")) {
            String base = pattern.substring(0, pattern.length() - 2);
            return pkg.equals(base) || pkg.startsWith(base + ".") ? base.length() * 2 : -1;
        }
        return pkg.equals(pattern) ? pattern.length() * 2 + 1 : -1;
    }
}
