package io.heaplens.agent.instrument;

import java.util.ArrayList;
import java.util.List;

/** What the transformer did, for the profile's "transform" section. Counts are exact; lists are capped. */
public final class TransformStats {
    public static final int CAP = 200;
    public long transformed, skipped, failed, retransformed, methodsProfiled, sites, nanos, seen;
    public final List<String[]> failures = new ArrayList<>();   // {class, loader, error}
    public final List<String> warnings = new ArrayList<>();

    synchronized void time(long n) { nanos += n; seen++; }

    synchronized void transformed(int methods, int siteCount) { transformed++; methodsProfiled += methods; sites += siteCount; }

    synchronized void skipped(String warning) {
        skipped++;
        warn(warning);
    }

    synchronized void failed(String cls, String loader, String error) {
        failed++;
        if (failures.size() < CAP) failures.add(new String[] {cls, loader, error});
    }

    public synchronized void warn(String w) { if (warnings.size() < CAP) warnings.add(w); }

    public synchronized void retransformed(int n) { retransformed += n; }

    public synchronized List<String[]> failuresCopy() { return new ArrayList<>(failures); }
    public synchronized List<String> warningsCopy() { return new ArrayList<>(warnings); }
}
