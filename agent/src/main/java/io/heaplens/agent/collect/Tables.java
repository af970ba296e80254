package io.heaplens.agent.collect;

import io.heaplens.agent.core.Options;
import io.heaplens.agent.core.Registry.MethodInfo;
import io.heaplens.agent.core.Registry.SiteInfo;
import io.heaplens.agent.core.Registry.TypeInfo;
import io.heaplens.runtime.Layout;
import io.heaplens.runtime.ThreadState;

import java.io.IOException;
import java.util.Map;

/** The JSON shapes of docs/format.md shared by the profile file and the live channel's define frames. */
public final class Tables {
    private Tables() {}

    public static void meta(Json j, Options options, AgentInfo info, boolean fin, int sequence) throws IOException {
        j.begin('{')
            .field("agentVersion", info.version).field("mode", io.heaplens.runtime.Mode.name(io.heaplens.runtime.Mode.get()));
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
        // Where the sampled mode's data comes from: HotSpot's heap sampler (JVMTI), its JFR TLAB events, or the agent's
        // bytecode probes; and the mean interval of the one in use.
        boolean jvmti = io.heaplens.runtime.HeapSampler.ready();
        j.field("sampleBytes", jvmti ? io.heaplens.runtime.HeapSampler.baseBytes : options.sampleBytes);
        if (jvmti) {
            // the rate budget may raise K while the program allocates fast: the largest K used, and the budget
            j.field("sampleBytesMax", io.heaplens.runtime.HeapSampler.maxBytes)
                .field("sampleRate", io.heaplens.runtime.HeapSampler.rateBudget);
        }
        j.field("sampler", jvmti ? "jvmti" : io.heaplens.agent.jfr.JfrSampling.active() ? "jfr" : "probes");
        j.name("modes").begin('[');
        for (io.heaplens.agent.control.ModeControl.Switch s : io.heaplens.agent.control.ModeControl.timeline()) {
            j.begin('{').field("mode", s.mode).field("since", s.since);
            if (s.classes >= 0) j.field("retransformed", s.classes).field("retransformMillis", s.retransformMillis);
            j.end('}');
        }
        j.end(']');
        j.name("options").begin('{');
        for (Map.Entry<String, String> e : options.raw.entrySet()) j.field(e.getKey(), e.getValue());
        j.end('}');
        j.name("layout").begin('{').field("objectHeader", Layout.objectHeader).field("arrayHeader", Layout.arrayHeader)
            .field("reference", Layout.reference).field("alignment", Layout.alignment)
            .field("compressedOops", Layout.reference == 4).field("source", info.layoutSource).end('}');
        j.end('}');
    }

    public static void type(Json j, TypeInfo t, TypeSizes sizes) throws IOException {
        j.begin('{').field("id", t.id).field("name", t.name).field("array", t.array);
        if (t.array) {
            j.name("size").nullValue().field("elementSize", t.elementSize).field("elementCode", String.valueOf(t.elementCode));
        } else {
            long s = sizes.sizeOf(t);
            j.name("size");
            if (s > 0) j.value(s); else j.nullValue();
        }
        j.end('}');
    }

    public static void method(Json j, MethodInfo m) throws IOException {
        j.begin('{').field("id", m.id).field("class", m.owner.replace('/', '.')).field("name", m.name).field("desc", m.desc);
        if (m.file != null) j.field("file", m.file);
        if (m.line >= 0) j.field("line", m.line);
        j.field("profiled", m.profiled);
        if (m.ctorTarget >= 0) j.field("ctorTarget", m.ctorTarget);
        if (m.ctorWarning != null) j.field("ctorWarning", m.ctorWarning);
        int[] calls = m.callLines;
        if (calls != null && calls.length > 0) {
            j.name("calls").begin('[');
            for (int line : calls) j.value(line);
            j.end(']');
        }
        j.end('}');
    }

    public static void site(Json j, SiteInfo s) throws IOException {
        j.begin('{').field("id", s.id).field("method", s.method).field("bci", s.bci);
        if (s.line >= 0) j.field("line", s.line);
        j.field("kind", s.kind).field("type", s.type).end('}');
    }

    /** The thread's fields without its tree (the tree follows as "root" in files, as deltas on the channel). */
    public static Json threadHead(Json j, ThreadState ts) throws IOException {
        Thread t = ts.thread;
        return j.begin('{').field("id", ts.id).field("name", t.getName()).field("daemon", t.isDaemon()).field("alive", t.isAlive());
    }

    /** Estimated bytes of a record: arrays carry their own sum; objects are count × the class's estimated size. */
    public static long bytes(TypeInfo t, TypeSizes sizes, long count, long arrayBytes) {
        if (t.array) return arrayBytes;
        long size = sizes.sizeOf(t);
        return size > 0 ? count * size : 0;
    }
}
