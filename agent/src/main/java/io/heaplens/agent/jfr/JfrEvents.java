package io.heaplens.agent.jfr;

import io.heaplens.agent.collect.Json;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedClassLoader;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedObject;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The events of a recording that a HeapLens profile is built from, aggregated while reading (one entry per thread,
 * stack and class, so memory grows with distinct stacks, not with events): allocation samples
 * (jdk.ObjectAllocationSample; jdk.ObjectAllocationInNewTLAB/OutsideTLAB when recorded), execution samples
 * (jdk.ExecutionSample) and old-object samples (jdk.OldObjectSample). Frames keep class, method, descriptor, line,
 * bytecode index and whether the class is the JDK's (bootstrap or platform loader). Instance sizes come from the
 * TLAB events when the recording has them, else from the fields of the class as this JVM loads it (with --cp
 * for the program's own classes), assuming compressed oops and class pointers: estimates, like every byte figure.
 */
final class JfrEvents {
    static final String SAMPLE = "jdk.ObjectAllocationSample", NEW_TLAB = "jdk.ObjectAllocationInNewTLAB",
        OUTSIDE_TLAB = "jdk.ObjectAllocationOutsideTLAB", EXECUTION = "jdk.ExecutionSample", OLD = "jdk.OldObjectSample";
    static final int HEADER = 12, ARRAY_HEADER = 16, REF = 4, ALIGN = 8;

    static final class BadRecording extends Exception {
        BadRecording(String m) { super(m); }
    }

    private final Map<String, Integer> frames = new LinkedHashMap<>();
    private final Map<String, Integer> stacks = new LinkedHashMap<>();
    private final Map<Long, String> threads = new LinkedHashMap<>();
    private final Map<Long, Integer> threadIndex = new HashMap<>();
    private final Map<String, long[]> classes = new LinkedHashMap<>();   // name → [index, tlab size or -1]
    private final Map<String, long[]> alloc = new LinkedHashMap<>();     // "src thread stack class" → [events, weight, Σ(weight in KiB)²]
    private final Map<String, long[]> cpu = new LinkedHashMap<>();
    private final Map<String, long[]> old = new LinkedHashMap<>();        // → [samples, elements or -1]
    private final Map<String, Long> counts = new HashMap<>();
    private final java.util.Set<Long> sampledThreads = new java.util.HashSet<>();
    private final long[] firstSamples = new long[2];
    private final StringBuilder sb = new StringBuilder();
    private long start = Long.MAX_VALUE, end = Long.MIN_VALUE, periodMillis = -1, executionTypeId = -1;
    private final Map<String, String> jvm = new LinkedHashMap<>();
    private boolean truncatedFile;
    /** the program's class path as recorded (jdk.InitialSystemProperty): sizes its classes, after --cp */
    private String recordedClasspath;
    private String truncation;

    static JfrEvents read(Path file, String classpath) throws IOException, BadRecording {
        JfrEvents ev = new JfrEvents();
        try (RecordingFile rf = new RecordingFile(file)) {
            for (EventType t : rf.readEventTypes()) if (t.getName().equals(EXECUTION)) ev.executionTypeId = t.getId();
            while (true) {
                RecordedEvent e;
                try {
                    if (!rf.hasMoreEvents()) break;
                    e = rf.readEvent();
                } catch (IOException | RuntimeException x) {
                    // a recording cut short (a JVM killed while writing, a partial copy): keep what was read before
                    if (ev.counts.isEmpty()) throw new BadRecording("cannot be read as a JFR recording: it is damaged or cut short (" + JfrImport.oneLine(x) + ")");
                    ev.truncatedFile = true;
                    ev.truncation = JfrImport.oneLine(x);
                    break;
                }
                ev.add(e);
            }
        } catch (IOException | RuntimeException x) {
            if (ev.counts.isEmpty()) throw new BadRecording("cannot be read as a JFR recording: it is damaged or cut short (" + JfrImport.oneLine(x) + ")");
            throw x;
        }
        if (ev.counts.isEmpty()) throw new BadRecording("the recording holds no events");
        // --cp first, then the class path the program ran with (entries that do not exist here load nothing)
        String both = classpath == null || classpath.isEmpty() ? ev.recordedClasspath
            : ev.recordedClasspath == null ? classpath : classpath + File.pathSeparator + ev.recordedClasspath;
        ev.sizeClasses(both);
        return ev;
    }

    private void add(RecordedEvent e) {
        String type = e.getEventType().getName();
        counts.merge(type, 1L, Long::sum);
        long t = e.getStartTime().toEpochMilli();
        if (t < start) start = t;
        long te = e.getEndTime().toEpochMilli();
        if (te > end) end = te;
        switch (type) {
            case SAMPLE: {
                // A thread's first sample weighs everything it allocated since it started, before the recording too
                // (a JVM's start-up, hours of work when the recording began later): left out, counted in firstSamples.
                RecordedThread th = e.getThread("eventThread");
                if (th != null && sampledThreads.add(th.getJavaThreadId())) {
                    firstSamples[0]++;
                    firstSamples[1] += e.getLong("weight");
                    break;
                }
                allocation(e, 0, e.getLong("weight"));
                break;
            }
            case NEW_TLAB: tlabSize(e); allocation(e, 1, e.getLong("tlabSize")); break;
            case OUTSIDE_TLAB: tlabSize(e); allocation(e, 2, e.getLong("allocationSize")); break;
            case EXECUTION: {
                RecordedThread th = e.getThread("sampledThread");
                if (th != null) cpu.computeIfAbsent(thread(th) + " " + stack(e.getStackTrace()), k -> new long[1])[0]++;
                break;
            }
            case OLD: oldObject(e); break;
            case "jdk.JVMInformation":
                for (String f : new String[] {"jvmName", "jvmVersion", "jvmArguments", "javaArguments"}) {
                    if (e.hasField(f) && e.getString(f) != null) jvm.put(f, e.getString(f));
                }
                if (e.hasField("pid")) jvm.put("pid", Long.toString(e.getLong("pid")));
                break;
            case "jdk.InitialSystemProperty": {
                String k = e.getString("key");
                if ("java.home".equals(k) || "java.vm.vendor".equals(k) || "java.vm.version".equals(k)) jvm.put(k, e.getString("value"));
                if ("java.class.path".equals(k)) recordedClasspath = e.getString("value");
                break;
            }
            case "jdk.ActiveSetting":
                if (e.getLong("id") == executionTypeId && "period".equals(e.getString("name"))) periodMillis = millis(e.getString("value"));
                break;
            default:
        }
    }

    private void allocation(RecordedEvent e, int source, long weight) {
        RecordedThread th = e.getThread("eventThread");
        RecordedClass c = e.getClass("objectClass");
        if (th == null || c == null || weight <= 0) return;
        sb.setLength(0);
        String key = sb.append(source).append(' ').append(thread(th)).append(' ').append(stack(e.getStackTrace()))
            .append(' ').append(cls(c.getName())).toString();
        long[] v = alloc.computeIfAbsent(key, k -> new long[3]);
        v[0]++;
        v[1] += weight;
        long kib = (weight + 512) / 1024;
        v[2] += kib * kib;           // the weights' spread (sum of squares in KiB²), for the estimate's interval
    }

    /** A TLAB event's allocationSize is the object's own size: exact for a class's instances. */
    private void tlabSize(RecordedEvent e) {
        RecordedClass c = e.getClass("objectClass");
        if (c == null || c.getName().startsWith("[")) return;
        long[] k = classes.get(c.getName());
        if (k == null) { cls(c.getName()); k = classes.get(c.getName()); }
        k[1] = e.getLong("allocationSize");
    }

    private void oldObject(RecordedEvent e) {
        RecordedThread th = e.getThread("eventThread");
        RecordedObject o = e.getValue("object");
        RecordedClass c = o == null ? null : o.getValue("type");
        if (th == null || c == null) return;
        int n = e.hasField("arrayElements") ? e.getInt("arrayElements") : -1;
        boolean array = c.getName().startsWith("[") && n >= 0;
        long[] v = old.computeIfAbsent(thread(th) + " " + stack(e.getStackTrace()) + " " + cls(c.getName()), k -> new long[] {0, array ? 0 : -1});
        v[0]++;
        if (array) v[1] += n;
    }

    private int cls(String name) {
        long[] k = classes.get(name);
        if (k == null) classes.put(name, k = new long[] {classes.size(), -1});
        return (int) k[0];
    }

    private int thread(RecordedThread th) {
        long id = th.getJavaThreadId() > 0 ? th.getJavaThreadId() : -th.getOSThreadId() - 1;
        String name = th.getJavaName() != null ? th.getJavaName() : th.getOSName();
        Integer i = threadIndex.get(id);
        if (i != null) return i;
        threads.put(id, name == null ? "thread " + id : name);
        threadIndex.put(id, threadIndex.size());
        return threadIndex.size() - 1;
    }

    private int stack(RecordedStackTrace st) {
        if (st == null) return -1;
        StringBuilder k = new StringBuilder(st.isTruncated() ? "1" : "0");
        for (RecordedFrame f : st.getFrames()) k.append(',').append(frame(f));
        String key = k.toString();
        return intern(stacks, key);
    }

    private int frame(RecordedFrame f) {
        RecordedMethod m = f.getMethod();
        if (m == null) return -1;
        RecordedClass c = m.getType();
        boolean jdk = m.isHidden() || isJdk(c);
        String key = c.getName() + '\u0000' + m.getName() + '\u0000' + m.getDescriptor() + '\u0000' + f.getLineNumber()
            + '\u0000' + f.getBytecodeIndex() + '\u0000' + (jdk ? 1 : 0);
        return intern(frames, key);
    }

    /** The key's id in the table: its index in insertion order, a new one for a key not seen before. */
    private static int intern(Map<String, Integer> table, String key) {
        Integer known = table.get(key);
        if (known != null) return known;
        int id = table.size();
        table.put(key, id);
        return id;
    }

    /** A class of the JDK: loaded by the boot or platform loader (the sampler and the importer agree on this). */
    static boolean isJdk(RecordedClass c) {
        RecordedClassLoader l = c.getClassLoader();
        if (l == null) return true;
        String name = l.getName();
        return name == null || name.equals("bootstrap") || name.equals("platform");
    }

    /** JFR's period setting ("20 ms", "10 ms", "1 s") in milliseconds; -1 when it is not a duration. */
    static long millis(String v) {
        if (v == null) return -1;
        String[] p = v.trim().split("\\s+");
        try {
            long n = Long.parseLong(p[0]);
            String u = p.length > 1 ? p[1] : "ms";
            switch (u) {
                case "ns": return Math.max(1, n / 1_000_000);
                case "us": return Math.max(1, n / 1000);
                case "ms": return n;
                case "s": return n * 1000;
                default: return -1;
            }
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    // ---- instance sizes

    private final Map<String, String> sizeSource = new HashMap<>();

    private void sizeClasses(String classpath) {
        ClassLoader loader = loader(classpath);
        for (Map.Entry<String, long[]> en : classes.entrySet()) {
            String name = en.getKey();
            long[] k = en.getValue();
            if (name.startsWith("[")) continue;
            if (k[1] > 0) { sizeSource.put(name, "tlab"); continue; }
            long s = fieldsSize(name, loader);
            if (s > 0) { k[1] = s; sizeSource.put(name, "fields"); }
        }
    }

    private static ClassLoader loader(String classpath) {
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        if (classpath == null || classpath.isEmpty()) return platform;
        List<URL> urls = new ArrayList<>();
        for (String p : classpath.split(File.pathSeparator)) {
            if (p.isEmpty()) continue;
            try { urls.add(new File(p).toURI().toURL()); } catch (IOException ignored) { /* a bad entry sizes nothing */ }
        }
        return new URLClassLoader(urls.toArray(new URL[0]), platform);
    }

    /** Shallow size from the declared instance fields (compressed oops: 12-byte header, 4-byte references, 8-byte alignment). */
    static long fieldsSize(String name, ClassLoader loader) {
        try {
            Class<?> c = Class.forName(name, false, loader);
            long bytes = HEADER;
            for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers())) continue;
                    Class<?> t = f.getType();
                    bytes += t == long.class || t == double.class ? 8 : t == int.class || t == float.class ? 4
                        : t == short.class || t == char.class ? 2 : t == byte.class || t == boolean.class ? 1 : REF;
                }
            }
            return (bytes + ALIGN - 1) / ALIGN * ALIGN;
        } catch (Throwable t) {      // not on this JVM's class path, or it fails to link here
            return -1;
        }
    }

    // ---- output

    void write(Writer w) throws IOException {
        Json j = new Json(w);
        j.begin('{').field("format", "heaplens-jfr-events").field("version", 1)
            .field("start", start).field("end", end).field("executionPeriodMillis", periodMillis);
        if (truncatedFile) j.field("truncated", truncation);
        j.name("firstSamples").numbers(firstSamples);
        j.name("layout").begin('{').field("objectHeader", HEADER).field("arrayHeader", ARRAY_HEADER).field("reference", REF)
            .field("alignment", ALIGN).end('}');
        j.name("jvm").begin('{');
        for (Map.Entry<String, String> en : jvm.entrySet()) j.field(en.getKey(), en.getValue());
        j.end('}');
        j.name("events").begin('{');
        for (Map.Entry<String, Long> en : counts.entrySet()) j.field(en.getKey(), en.getValue());
        j.end('}');
        j.name("frames").begin('[');
        for (String k : frames.keySet()) {
            String[] p = k.split("\u0000", -1);
            j.begin('[').value(p[0]).value(p[1]).value(p[2]).value(Long.parseLong(p[3])).value(Long.parseLong(p[4])).value(p[5].equals("1")).end(']');
        }
        j.end(']');
        j.name("stacks").begin('[');
        for (String k : stacks.keySet()) j.numbers(Arrays.stream(k.split(",")).mapToLong(Long::parseLong).toArray());
        j.end(']');
        j.name("threads").begin('[');
        for (Map.Entry<Long, String> en : threads.entrySet()) j.begin('[').value(en.getKey()).value(en.getValue()).end(']');
        j.end(']');
        j.name("classes").begin('[');
        for (Map.Entry<String, long[]> en : classes.entrySet()) {
            j.begin('[').value(en.getKey()).value(en.getValue()[1]).value(sizeSource.getOrDefault(en.getKey(), "")).end(']');
        }
        j.end(']');
        rows(j, "alloc", alloc);
        rows(j, "cpu", cpu);
        rows(j, "old", old);
        j.end('}');
    }

    /** "a b c" keys and their values as number rows [a, b, c, v0, v1…]. */
    private static void rows(Json j, String name, Map<String, long[]> m) throws IOException {
        j.name(name).begin('[');
        for (Map.Entry<String, long[]> en : m.entrySet()) {
            String[] k = en.getKey().split(" ");
            long[] row = new long[k.length + en.getValue().length];
            for (int i = 0; i < k.length; i++) row[i] = Long.parseLong(k[i]);
            System.arraycopy(en.getValue(), 0, row, k.length, en.getValue().length);
            j.numbers(row);
        }
        j.end(']');
    }
}
