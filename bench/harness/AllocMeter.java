import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/**
 * Wraps a main class and reports the bytes HotSpot says the program allocated:
 * java -Dallocmeter.out=FILE AllocMeter MAIN ARGS...
 *
 * The sum of com.sun.management.ThreadMXBean#getThreadAllocatedBytes over the program's threads, from just
 * before MAIN.main starts (main thread) or from their start (threads it creates) to the JVM's shutdown. Dead
 * threads are no longer reported, so a poller thread keeps each thread's last value (threads that end between
 * two polls lose at most one poll interval of allocation; `died` counts them). AllocMeter's own threads are named
 * "allocmeter-*" and left out, here and in the profile. Threads whose names start with "heaplens" are left out too.
 * Run it under -Xint so that escape analysis cannot remove allocations.
 */
public final class AllocMeter {
    private static final Map<Long, long[]> seen = new HashMap<>(); // id -> {baseline, last}
    private static final Map<Long, String> names = new HashMap<>();
    private static com.sun.management.ThreadMXBean mx;

    public static void main(String[] args) throws Throwable {
        final String out = System.getProperty("allocmeter.out", "allocmeter.txt");
        final long mainId = Thread.currentThread().getId();
        // No lambdas here: their bootstrap would allocate in the main thread before the baseline.
        Thread init = new Worker("allocmeter-init", 0, null);
        init.start();
        init.join();
        Thread poller = new Worker("allocmeter-poller", 1, null);
        poller.setDaemon(true);
        poller.start();
        Runtime.getRuntime().addShutdownHook(new Worker("allocmeter-hook", 2, new Object[] {poller, out, mainId}));
        Method m = Class.forName(args[0]).getMethod("main", String[].class);
        String[] rest = new String[args.length - 1];
        System.arraycopy(args, 1, rest, 0, rest.length);
        try {
            m.invoke(null, (Object) rest);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static final class Worker extends Thread {
        private final int role;
        private final Object[] args;

        Worker(String name, int role, Object[] args) {
            super(name);
            this.role = role;
            this.args = args;
        }

        @Override
        public void run() {
            if (role == 0) {
                mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
                mx.setThreadAllocatedMemoryEnabled(true);
                poll(true);
            } else if (role == 1) {
                while (true) {
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                    poll(false);
                }
            } else {
                ((Thread) args[0]).interrupt();
                poll(false);
                report((String) args[1], (Long) args[2]);
            }
        }
    }

    private static synchronized void poll(boolean baseline) {
        long[] ids = mx.getAllThreadIds();
        long[] bytes = mx.getThreadAllocatedBytes(ids);
        java.lang.management.ThreadInfo[] infos = mx.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] < 0 || infos[i] == null) continue;
            long[] v = seen.get(ids[i]);
            if (v == null) {
                seen.put(ids[i], new long[] {baseline ? bytes[i] : 0, bytes[i]});
                names.put(ids[i], infos[i].getThreadName());
            } else {
                v[1] = bytes[i];
            }
        }
    }

    private static synchronized void report(String out, long mainId) {
        long total = 0, excluded = 0;
        int threads = 0, died = 0;
        java.util.Set<Long> alive = new java.util.HashSet<>();
        for (long id : mx.getAllThreadIds()) alive.add(id);
        StringBuilder detail = new StringBuilder();
        for (Map.Entry<Long, long[]> e : seen.entrySet()) {
            String name = names.get(e.getKey());
            long d = e.getValue()[1] - e.getValue()[0];
            if (name.startsWith("allocmeter-") || name.startsWith("heaplens")) { excluded += d; continue; }
            total += d;
            threads++;
            if (!alive.contains(e.getKey())) died++;
            detail.append("thread\t").append(name).append('\t').append(d).append('\n');
        }
        try (PrintWriter w = new PrintWriter(out, "UTF-8")) {
            w.println("total\t" + total);
            w.println("threads\t" + threads);
            w.println("died\t" + died);
            w.println("excluded\t" + excluded);
            w.print(detail);
        } catch (Exception e) {
            e.printStackTrace();
        }
    }
}
