package io.heaplens.agent.cache;

import io.heaplens.agent.core.Options;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.RegistryImage;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * One start's use of the cache. Warm: the file for this key was read and checked, its id tables fill the empty
 * registry, and the retransformation at start takes each class's bytes from it when the bytes the JVM hands over
 * are the ones recorded (length and CRC-32). Cold: the transformer's results during the retransformation are
 * recorded and written, with the id tables, once it is over. Nothing here may stop the program: every failure
 * leaves the agent transforming as it would without a cache.
 */
public final class StartCache {
    private static final int MAGIC = 0x484c5343, VERSION = 3;   // "HLSC"
    private static final int KEEP_FILES = 8;

    /** A class's transformed bytes and what its transformation reported. */
    public static final class Entry {
        final boolean boot;
        /** recorded when retransformed (loaded before the agent's transformer), not when loaded after it */
        final boolean retransformed;
        final String name;
        final int inLength;
        final long inCrc;
        /** null: the class keeps its bytes (nothing in it to instrument) */
        public final byte[] out;
        public final int methods, sites;
        public final List<String> warnings;
        /** another recorded variant of the same class (other input bytes), or null */
        Entry other;

        Entry(boolean boot, boolean retransformed, String name, int inLength, long inCrc, byte[] out, int methods, int sites, List<String> warnings) {
            this.boot = boot; this.retransformed = retransformed; this.name = name; this.inLength = inLength; this.inCrc = inCrc;
            this.out = out; this.methods = methods; this.sites = sites; this.warnings = warnings;
        }
    }

    /**
     * A java.io file, not a Path: the warm start reads it before the transformer is installed, and the JDK classes
     * loaded by then are redefined at start; java.io's are loaded with the JVM, NIO's file system (~50 classes) is not.
     */
    private final File file;
    private final String key;
    private final boolean verbose;
    private Entries entries;                      // warm: read from the file

    /**
     * The entries by loader (bootstrap or platform) and name: two maps rather than one keyed by a built string,
     * since each lookup runs in the interpreter, once per class retransformed or loaded during the start.
     */
    private static final class Entries {
        final Map<String, Entry> boot, platform;
        Entries(int n) { boot = new HashMap<>(n * 2); platform = new HashMap<>(64); }
        Entry get(boolean isBoot, String name) { return (isBoot ? boot : platform).get(name); }
        /** @return the entry already there for this class, if any */
        Entry put(Entry e) { return (e.boot ? boot : platform).put(e.name, e); }
        List<Entry> firsts() {
            List<Entry> all = new ArrayList<>(boot.values());
            all.addAll(platform.values());
            return all;
        }
    }
    private RegistryImage image;
    private final List<Entry> recorded = new ArrayList<>();
    private volatile boolean recording;
    /** warm: the classes that were not in the file are recorded too, and added to it when the start is over */
    private volatile boolean healing;
    /** variants kept per class: the JVM hands over a class loaded before the agent as it rebuilds it, which can differ with the class's state */
    private static final int MAX_VARIANTS = 4;
    private static final int MAX_HEALS = 2;
    /** how many warm starts added classes to the file read */
    private int heals;
    public int hits, misses;
    /** verbose: the first classes that were not taken from the cache, and why */
    public final List<String> missed = new ArrayList<>();
    /** classes the warm start did not retransform (see {@link #unchangedAtStart}) */
    public int leftOut;

    private StartCache(File file, String key, boolean verbose) {
        this.file = file;
        this.key = key;
        this.verbose = verbose;
    }

    /** The cache for these options, read when its file is there and sound; null when the cache is off or unusable. */
    public static StartCache open(Options options) {
        try {
            File dir = directory(options.startCache);
            if (dir == null) return null;
            String key = CacheKey.of(options);
            return key == null ? null : open(dir, key, options.verbose);
        } catch (Throwable t) {
            if (options.verbose) System.err.println("heaplens: start-up cache not used (" + t + ")");
            return null;
        }
    }

    /** The cache file for this key in this directory, read when it is there and sound. */
    static StartCache open(Path dir, String key, boolean verbose) { return open(dir.toFile(), key, verbose); }

    private static StartCache open(File dir, String key, boolean verbose) {
        StartCache c = new StartCache(new File(dir, CacheKey.fileName(key)), key, verbose);
        c.read();
        return c;
    }

    /** The cache directory: the option's path, or $XDG_CACHE_HOME/heaplens, or ~/.cache/heaplens; null when off. */
    static File directory(String option) {
        if (option == null || option.equals("off")) return null;
        if (!option.equals("auto")) return new File(option);
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isEmpty() && new File(xdg).isAbsolute()) return new File(xdg, "heaplens");
        String home = System.getProperty("user.home");
        return home == null || home.isEmpty() || home.equals("?") ? null : new File(new File(home, ".cache"), "heaplens");
    }

    private void read() {
        if (!file.isFile()) return;
        try {
            byte[] all;
            try (FileInputStream fin = new FileInputStream(file)) { all = fin.readAllBytes(); }
            if (all.length < 16) throw new IOException("too short");
            CRC32 crc = new CRC32();
            crc.update(all, 0, all.length - 8);
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(all));
            in.skipBytes(all.length - 8);
            if (in.readLong() != crc.getValue()) throw new IOException("checksum mismatch");
            in = new DataInputStream(new ByteArrayInputStream(all, 0, all.length - 8));
            if (in.readInt() != MAGIC || in.readInt() != VERSION) throw new IOException("not a cache file of this version");
            if (!in.readUTF().equals(key)) throw new IOException("made for another JDK, agent or options");
            int heals = in.readInt();
            int n = in.readInt();
            if (n < 0 || n > 1_000_000) throw new IOException("bad entry count");
            Entries map = new Entries(n);
            for (int i = 0; i < n; i++) {
                boolean boot = in.readBoolean(), retransformed = in.readBoolean();
                String name = in.readUTF();
                int inLength = in.readInt();
                long inCrc = in.readLong();
                int outLength = in.readInt();
                if (outLength < -1 || outLength > all.length) throw new IOException("bad class length");
                byte[] out = outLength < 0 ? null : new byte[outLength];
                if (out != null) in.readFully(out);
                int methods = in.readInt(), sites = in.readInt(), nw = in.readInt();
                if (nw < 0 || nw > 10_000) throw new IOException("bad warning count");
                List<String> warnings = new ArrayList<>(nw);
                for (int w = 0; w < nw; w++) warnings.add(in.readUTF());
                Entry e = new Entry(boot, retransformed, name, inLength, inCrc, out, methods, sites, warnings);
                e.other = map.put(e);
            }
            image = RegistryImage.read(in);
            if (in.available() != 0) throw new IOException("trailing bytes");
            entries = map;
            // Used now: the newest files are the ones pruning keeps, so a file that is only ever read (a warm start
            // adds nothing) must not age out behind files written since (more than eight keys: every start was cold)
            if (!file.setLastModified(System.currentTimeMillis()) && verbose) {
                System.err.println("heaplens: start-up cache " + file + " could not be marked as used");
            }
            // Some classes come rebuilt differently at every start (their state at the retransformation varies with
            // what other threads ran): adding them again and again would cost a write per start, so twice at most.
            healing = heals < MAX_HEALS;
            this.heals = heals;
        } catch (Throwable t) {
            // Unreadable or damaged: transform as without a cache; this start records a fresh file over it.
            entries = null;
            image = null;
            if (verbose) System.err.println("heaplens: start-up cache " + file + " ignored (" + t + "); transforming the JDK classes");
        }
    }

    /**
     * Fills the empty registry from the cache. @return whether this start is warm; when not, it records instead.
     */
    public boolean begin(Registry registry) {
        boolean warm = false;
        try {
            warm = image != null && image.applyTo(registry);
        } catch (Throwable t) {
            if (verbose) System.err.println("heaplens: start-up cache not applied (" + t + ")");
        }
        if (!warm) {
            entries = null;
            healing = false;
            recording = true;
        }
        image = null;
        return warm;
    }

    /**
     * Warm starts skip the instrumenter's warm-up; loading the classes it would have loaded keeps the set of
     * classes retransformed at start the one that was recorded. (A class first loaded after the transformer was
     * installed is left to load then: the JVM hands over its class file as read, not as retransformation rebuilds it.)
     */
    public void loadRecordedClasses() {
        if (entries == null) return;
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        for (Entry e : entries.firsts()) {
            if (!e.retransformed) continue;               // loaded after the transformer: it will load the same way
            try {
                Class.forName(e.name.replace('/', '.'), false, e.boot ? null : platform);
            } catch (Throwable ignored) {
                // not there in this run: nothing to retransform
            }
        }
    }

    /** The recorded bytes for a JDK class when the JVM hands over exactly the bytes recorded, else null. */
    public Entry lookup(ClassLoader loader, String name, byte[] in) {
        Entries m = entries;
        if (m == null) return null;
        Entry first = m.get(loader == null, name);
        if (first != null) {
            long crc = crc(in);
            for (Entry e = first; e != null; e = e.other) {
                if (e.inLength == in.length && e.inCrc == crc) {
                    hits++;
                    return e;
                }
            }
        }
        Entry e = first;
        misses++;
        if (verbose && missed.size() < 20) missed.add(name + (e == null ? " (not recorded)" : " (other bytes)"));
        return null;
    }

    /**
     * A warm start's instrumented bytes for a JDK class loaded before the agent, to hand the JVM directly
     * (StartRedefinition): only a class the recorded start retransformed once, with one variant, bytes to change and
     * no warning. Null otherwise: the class takes the retransformation path, which checks the bytes the JVM rebuilds.
     */
    public Entry redefinable(ClassLoader loader, String name) {
        Entries m = entries;
        if (m == null) return null;
        Entry e = m.get(loader == null, name);
        if (e == null || e.other != null || !e.retransformed || e.out == null || !e.warnings.isEmpty()) return null;
        hits++;
        return e;
    }

    /**
     * Whether the retransformation at start may leave this already-loaded JDK class out: the recorded start
     * retransformed it and kept its bytes (nothing in it to instrument, no warning). The JVM redefines a class even
     * when every transformer returns its bytes unchanged, so asking for it costs the same as for one that changes;
     * the key (JDK build, other agents) says its bytes are the ones recorded.
     */
    public boolean unchangedAtStart(ClassLoader loader, String name) {
        Entries m = entries;
        if (m == null) return false;
        Entry first = m.get(loader == null, name);
        if (first == null) return false;
        for (Entry e = first; e != null; e = e.other) {
            if (!e.retransformed || e.out != null || !e.warnings.isEmpty()) return false;
        }
        leftOut++;
        return true;
    }

    public boolean recording() { return recording || healing; }

    public void record(ClassLoader loader, String name, boolean retransformed, byte[] in, byte[] out, int methods, int sites, List<String> warnings) {
        if (!recording && !healing) return;
        Entry e = new Entry(loader == null, retransformed, name, in.length, crc(in), out == null ? null : out.clone(), methods, sites, new ArrayList<>(warnings));
        synchronized (recorded) { recorded.add(e); }
    }

    /**
     * The agent's start is over (the retransformation, and the classes the collector's start loads): a cold start
     * writes its file now; a warm one drops its entries. @return whether a file was written
     */
    public boolean finish(Registry registry) {
        Entries read = entries;
        entries = null;
        boolean heal = healing;
        healing = false;
        int healsWritten = heal ? heals + 1 : 0;
        if (!recording && !heal) return false;
        recording = false;
        List<Entry> list;
        synchronized (recorded) { list = new ArrayList<>(recorded); recorded.clear(); }
        if (list.isEmpty()) return false;
        if (heal) list = withVariants(read, list);
        Path tmp = null;
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream(1 << 22);
            DataOutputStream out = new DataOutputStream(buf);
            out.writeInt(MAGIC); out.writeInt(VERSION); out.writeUTF(key); out.writeInt(healsWritten);
            out.writeInt(list.size());
            for (Entry e : list) {
                out.writeBoolean(e.boot); out.writeBoolean(e.retransformed); out.writeUTF(e.name); out.writeInt(e.inLength); out.writeLong(e.inCrc);
                out.writeInt(e.out == null ? -1 : e.out.length);
                if (e.out != null) out.write(e.out);
                out.writeInt(e.methods); out.writeInt(e.sites); out.writeInt(e.warnings.size());
                for (String w : e.warnings) out.writeUTF(w);
            }
            RegistryImage.write(registry, out);
            out.flush();
            CRC32 crc = new CRC32();
            byte[] body = buf.toByteArray();
            crc.update(body);
            out.writeLong(crc.getValue());
            out.flush();
            Path target = file.toPath();
            Path dir = target.getParent();
            Files.createDirectories(dir);
            tmp = newTemporary(dir);
            Files.write(tmp, buf.toByteArray());
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            tmp = null;
            prune(dir);
            return true;
        } catch (Throwable t) {
            if (verbose) System.err.println("heaplens: start-up cache not written (" + t + ")");
            return false;
        } finally {
            if (tmp != null) try { Files.deleteIfExists(tmp); } catch (Throwable ignored) { /* best effort */ }
        }
    }

    /**
     * A warm start that transformed classes the file did not hold (loaded only in warm starts, or handed over as
     * other bytes: a class loaded before the agent comes as the JVM rebuilds it, which can differ with the class's
     * state) adds them, so the next start takes them from the file too. The registry it writes extends the one
     * it read, so the ids in the old entries stay valid.
     */
    private static List<Entry> withVariants(Entries read, List<Entry> added) {
        List<Entry> all = new ArrayList<>();
        Map<String, Integer> variants = new HashMap<>();
        for (Entry first : read.firsts()) {
            for (Entry e = first; e != null; e = e.other) {
                all.add(e);
                count(variants, id(e.boot, e.name));
            }
        }
        for (Entry e : added) {
            if (count(variants, id(e.boot, e.name)) <= MAX_VARIANTS) all.add(e);
        }
        return all;
    }

    private static int count(Map<String, Integer> counts, String k) {
        Integer n = counts.get(k);
        int now = n == null ? 1 : n + 1;
        counts.put(k, now);
        return now;
    }

    /**
     * A new file beside the cache file, named after the clock: {@code Files.createTempFile}'s random name would set up
     * {@code SecureRandom} and the security providers during a cold start only, JDK work a program's own first
     * {@code SecureRandom} would then not be charged for in that start but in the warm ones.
     */
    private static Path newTemporary(Path dir) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try {
                return Files.createFile(dir.resolve("start-" + Long.toHexString(System.nanoTime()) + ".tmp"));
            } catch (java.nio.file.FileAlreadyExistsException taken) {
                if (attempt == 10) throw taken;
            }
        }
    }

    /** Keeps the newest few cache files (one per JDK build, agent build and options). */
    private void prune(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (java.nio.file.DirectoryStream<Path> s = Files.newDirectoryStream(dir, "start-*.bin")) {
            for (Path p : s) files.add(p);
        }
        if (files.size() <= KEEP_FILES) return;
        long[] age = new long[files.size()];
        for (int i = 0; i < age.length; i++) age[i] = Files.getLastModifiedTime(files.get(i)).toMillis();
        for (int kept = 0; kept < KEEP_FILES; kept++) {          // move the newest to the front, KEEP_FILES times
            int newest = kept;
            for (int i = kept + 1; i < age.length; i++) if (age[i] > age[newest]) newest = i;
            java.util.Collections.swap(files, kept, newest);
            long a = age[kept]; age[kept] = age[newest]; age[newest] = a;
        }
        for (Path p : files.subList(KEEP_FILES, files.size())) if (!p.equals(file.toPath())) Files.deleteIfExists(p);
    }

    public Path file() { return file.toPath(); }

    private static String id(boolean boot, String name) { return (boot ? "b/" : "p/") + name; }

    private static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }
}
