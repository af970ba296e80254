package io.heaplens.agent.collect;

import io.heaplens.agent.Options;
import io.heaplens.agent.Registry;
import io.heaplens.agent.Registry.MethodInfo;
import io.heaplens.agent.Registry.SiteInfo;
import io.heaplens.agent.Registry.TypeInfo;
import io.heaplens.agent.instrument.TransformStats;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Layout;
import io.heaplens.runtime.Node;
import io.heaplens.runtime.ThreadState;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.BitSet;
import java.util.Map;

/** Writes the whole profile (docs/format.md) to FILE.tmp and renames it over FILE: readers never see half a file. */
final class ProfileWriter {
    static final int FORMAT_VERSION = 1;

    private final Registry registry;
    private final TransformStats stats;
    private final Options options;
    private final TypeSizes sizes;
    private final AgentInfo info;
    private final BitSet methods = new BitSet(), sites = new BitSet(), types = new BitSet();
    private long nodes;
    long lastWriteMillis, lastBytes;

    ProfileWriter(Registry registry, TransformStats stats, Options options, TypeSizes sizes, AgentInfo info) {
        this.registry = registry;
        this.stats = stats;
        this.options = options;
        this.sizes = sizes;
        this.info = info;
    }

    void write(Path out, boolean fin, int sequence, long cycles) throws IOException {
        long t0 = System.nanoTime();
        methods.clear(); sites.clear(); types.clear();
        nodes = 0;
        Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
        try (BufferedWriter bw = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(tmp), StandardCharsets.UTF_8), 1 << 16)) {
            Json j = new Json(bw);
            j.begin('{').field("format", "heaplens-profile").field("version", FORMAT_VERSION);
            meta(j, fin, sequence);
            ThreadState[] all = ThreadState.snapshot();
            j.name("threads").begin('[');
            for (ThreadState ts : all) if (!ts.agentThread) thread(j, ts);
            j.end(']');
            addCtorTargets();
            writeTypes(j);
            writeMethods(j);
            writeSites(j);
            transform(j);
            j.name("agent").begin('{').field("threads", all.length).field("nodes", nodes)
                .field("writeMillis", lastWriteMillis).field("bytesWritten", lastBytes).field("collectorCycles", cycles).end('}');
            j.end('}');
        }
        lastBytes = Files.size(tmp);
        try {
            Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
        }
        lastWriteMillis = (System.nanoTime() - t0) / 1_000_000;
    }

    private void meta(Json j, boolean fin, int sequence) throws IOException {
        j.name("meta").begin('{')
            .field("agentVersion", info.version).field("mode", options.mode);
        j.name("jvm").begin('{').field("name", System.getProperty("java.vm.name"))
            .field("vendor", System.getProperty("java.vendor"))
            .field("version", System.getProperty("java.runtime.version", System.getProperty("java.version")))
            .field("javaHome", System.getProperty("java.home")).end('}');
        j.field("pid", info.pid).field("command", info.command);
        j.name("jvmArgs").begin('[');
        for (String a : info.jvmArgs) j.value(a);
        j.end(']');
        j.field("startTime", info.startTime).field("writeTime", System.currentTimeMillis())
            .field("final", fin).field("sequence", sequence);
        j.name("options").begin('{');
        for (Map.Entry<String, String> e : options.raw.entrySet()) j.field(e.getKey(), e.getValue());
        j.end('}');
        j.name("layout").begin('{').field("objectHeader", Layout.objectHeader).field("arrayHeader", Layout.arrayHeader)
            .field("reference", Layout.reference).field("alignment", Layout.alignment)
            .field("compressedOops", Layout.reference == 4).field("source", info.layoutSource).end('}');
        j.end('}');
    }

    private void thread(Json j, ThreadState ts) throws IOException {
        Thread t = ts.thread;
        j.begin('{').field("id", ts.id).field("name", t.getName()).field("daemon", t.isDaemon()).field("alive", t.isAlive());
        j.name("root");
        node(j, ts.root);
        j.end('}');
    }

    private void node(Json j, Node n) throws IOException {
        nodes++;
        j.begin('{');
        if (n.method >= 0) {
            methods.set(n.method);
            j.field("m", n.method).field("calls", n.calls);
        }
        if (n.folded > 0) j.field("folded", n.folded);
        long[] rec = n.recordsSnapshot();
        if (rec != null) {
            j.name("a").begin('[');
            for (int b = 0; b < rec.length; b += 4) {
                if (rec[b] == 0) continue;
                int key = (int) (rec[b] - 1);
                int site = Keys.site(key), type = Keys.type(key);
                long count = rec[b + 1], bytes = rec[b + 3];
                TypeInfo ti = registry.typeById(type);
                if (!ti.array) {
                    long size = sizes.sizeOf(ti);
                    bytes = size > 0 ? count * size : 0;
                }
                sites.set(site);
                types.set(type);
                j.numbers(site, type, count, rec[b + 2], bytes);
            }
            j.end(']');
        }
        Node[] children = n.childrenSnapshot();
        if (children != null) {
            j.name("c").begin('[');
            for (Node c : children) if (c != null) node(j, c);
            j.end(']');
        }
        j.end('}');
    }

    private void addCtorTargets() {
        for (int s = sites.nextSetBit(0); s >= 0; s = sites.nextSetBit(s + 1)) methods.set(registry.siteById(s).method);
        BitSet targets = new BitSet();
        for (int m = methods.nextSetBit(0); m >= 0; m = methods.nextSetBit(m + 1)) {
            int t = registry.methodById(m).ctorTarget;
            if (t >= 0) targets.set(t);
        }
        methods.or(targets);
        for (int s = sites.nextSetBit(0); s >= 0; s = sites.nextSetBit(s + 1)) types.set(registry.siteById(s).type);
    }

    private void writeTypes(Json j) throws IOException {
        j.name("types").begin('[');
        for (int id = types.nextSetBit(0); id >= 0; id = types.nextSetBit(id + 1)) {
            TypeInfo t = registry.typeById(id);
            j.begin('{').field("id", id).field("name", t.name).field("array", t.array);
            if (t.array) {
                j.name("size").nullValue().field("elementSize", t.elementSize).field("elementCode", String.valueOf(t.elementCode));
            } else {
                long s = sizes.sizeOf(t);
                j.name("size");
                if (s > 0) j.value(s); else j.nullValue();
            }
            j.end('}');
        }
        j.end(']');
    }

    private void writeMethods(Json j) throws IOException {
        j.name("methods").begin('[');
        for (int id = methods.nextSetBit(0); id >= 0; id = methods.nextSetBit(id + 1)) {
            MethodInfo m = registry.methodById(id);
            j.begin('{').field("id", id).field("class", m.owner.replace('/', '.')).field("name", m.name).field("desc", m.desc);
            if (m.file != null) j.field("file", m.file);
            if (m.line >= 0) j.field("line", m.line);
            j.field("profiled", m.profiled);
            if (m.ctorTarget >= 0) j.field("ctorTarget", m.ctorTarget);
            if (m.ctorWarning != null) j.field("ctorWarning", m.ctorWarning);
            j.end('}');
        }
        j.end(']');
    }

    private void writeSites(Json j) throws IOException {
        j.name("sites").begin('[');
        for (int id = sites.nextSetBit(0); id >= 0; id = sites.nextSetBit(id + 1)) {
            SiteInfo s = registry.siteById(id);
            j.begin('{').field("id", id).field("method", s.method).field("bci", s.bci);
            if (s.line >= 0) j.field("line", s.line);
            j.field("kind", s.kind).field("type", s.type).end('}');
        }
        j.end(']');
    }

    private void transform(Json j) throws IOException {
        j.name("transform").begin('{');
        synchronized (stats) {
            j.field("classesTransformed", stats.transformed).field("classesSkipped", stats.skipped)
                .field("classesFailed", stats.failed).field("retransformed", stats.retransformed)
                .field("methodsProfiled", stats.methodsProfiled).field("sites", stats.sites)
                .field("classesSeen", stats.seen).field("transformMillis", stats.nanos / 1_000_000);
        }
        j.name("failures").begin('[');
        for (String[] f : stats.failuresCopy()) j.begin('{').field("class", f[0]).field("loader", f[1]).field("error", f[2]).end('}');
        j.end(']');
        j.name("warnings").begin('[');
        for (String w : stats.warningsCopy()) j.value(w);
        j.end(']');
        j.end('}');
    }
}
