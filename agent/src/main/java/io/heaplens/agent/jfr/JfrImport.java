package io.heaplens.agent.jfr;

import java.io.BufferedWriter;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;

/**
 * {@code java -cp heaplens-agent.jar io.heaplens.agent.jfr.JfrImport RECORDING.jfr OUT.json [--cp CLASSPATH] [--max-mb N]}:
 * reads a JFR recording with the JDK's own parser (jdk.jfr.consumer.RecordingFile, {@link JfrEvents}) and writes
 * its allocation samples, execution samples and old-object samples, aggregated by thread and stack, as JSON for
 * `heaplens import` (extension/jfr/to-profile.ts turns them into a profile). Exit 0 on success; on bad input exit 2
 * with one line on stderr saying what is wrong.
 */
public final class JfrImport {
    static final long DEFAULT_MAX_MB = 4096;

    private JfrImport() {}

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (OutOfMemoryError e) {
            System.err.println("heaplens import: the recording's stacks did not fit in this JVM's heap (" + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                + " MiB): give the import more with --java-opt -Xmx4g");
            System.exit(2);
        }
    }

    static int run(String[] args) {
        String in = null, out = null, cp = null;
        long maxMb = DEFAULT_MAX_MB;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--cp") && i + 1 < args.length) cp = args[++i];
            else if (a.equals("--max-mb") && i + 1 < args.length) maxMb = Long.parseLong(args[++i]);
            else if (in == null) in = a;
            else if (out == null) out = a;
            else return usage("unexpected argument " + a);
        }
        if (in == null || out == null) return usage("needs a recording and an output file");
        File file = new File(in);
        String why = checkFile(file, maxMb);
        if (why != null) return fail(why);
        File target = new File(out);
        File tmp = new File(target.getPath() + ".tmp");
        try {
            JfrEvents events = JfrEvents.read(file.toPath(), cp);
            try (Writer w = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(tmp), StandardCharsets.UTF_8), 1 << 16)) {
                events.write(w);
            }
            Files.move(tmp.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING);
            return 0;
        } catch (JfrEvents.BadRecording e) {
            tmp.delete();
            return fail(file.getName() + ": " + e.getMessage());
        } catch (IOException e) {
            tmp.delete();
            return fail(file.getName() + ": " + oneLine(e));
        }
    }

    /** A missing, empty, non-JFR or too large file, or null when it may be read. */
    static String checkFile(File file, long maxMb) {
        if (!file.isFile()) return file.getPath() + ": no such file";
        long size = file.length();
        if (size == 0) return file.getName() + ": the file is empty";
        if (size > maxMb * 1024 * 1024) {
            return file.getName() + ": " + size / (1024 * 1024) + " MiB is more than the import reads (" + maxMb
                + " MiB); cut the recording with `jfr summary`/`jfr print` or JDK Mission Control, or raise the limit with --max-mb";
        }
        byte[] magic = new byte[4];
        try (java.io.InputStream s = new java.io.FileInputStream(file)) {
            if (s.read(magic) != 4 || magic[0] != 'F' || magic[1] != 'L' || magic[2] != 'R' || magic[3] != 0) {
                return file.getName() + ": not a JFR recording (it does not start with JFR's magic bytes FLR\\0)";
            }
        } catch (IOException e) {
            return file.getName() + ": " + oneLine(e);
        }
        return null;
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage();
        return (m == null || m.isBlank() ? e.getClass().getSimpleName() : m).replace('\n', ' ').trim();
    }

    private static int usage(String why) {
        System.err.println("heaplens import: " + why + " (usage: JfrImport RECORDING.jfr OUT.json [--cp CLASSPATH] [--max-mb N])");
        return 2;
    }

    private static int fail(String why) {
        System.err.println("heaplens import: " + why);
        return 2;
    }
}
