import java.lang.management.*;
import javax.tools.*;
import java.util.*;
/** Builds a javac-sized call tree, then idles while the collector rewrites the profile; prints the collector's CPU per phase. */
public class Idle {
    static long collectorCpu() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.getName().equals("heaplens-collector")) return mx.getThreadCpuTime(t.getId());
        return -1;
    }
    static int sequence(String f) throws Exception {
        byte[] b = new byte[4096];
        try (java.io.FileInputStream in = new java.io.FileInputStream(f)) { in.read(b); }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"sequence\":(\\d+)").matcher(new String(b, "UTF-8"));
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }
    public static void main(String[] a) throws Exception {
        JavaCompiler c = ToolProvider.getSystemJavaCompiler();
        int rc = c.run(null, null, null, "-d", a[0], a[1]);
        long c0 = collectorCpu(), t0 = System.nanoTime();
        int s0 = sequence(a[3]);
        Thread.sleep(Long.parseLong(a[2]));
        long c1 = collectorCpu(), t1 = System.nanoTime();
        int s1 = sequence(a[3]);
        System.out.printf("javac %d, idle %.1f s, collector CPU while idle %.3f s, writes %d, %.1f ms CPU per write%n", rc, (t1 - t0) / 1e9, (c1 - c0) / 1e9, s1 - s0, (c1 - c0) / 1e6 / Math.max(1, s1 - s0));
    }
}
