package io.heaplens.agent.threads;

import io.heaplens.agent.collect.Json;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** One frame of a thread's CPU tree: samples and CPU time charged with this frame on top ("self"). */
final class CpuNode {
    final String frame;
    long selfSamples;
    long selfNanos;
    private Map<String, CpuNode> children;

    CpuNode(String frame) { this.frame = frame; }

    CpuNode child(String f) {
        if (children == null) children = new LinkedHashMap<String, CpuNode>();
        CpuNode c = children.get(f);
        if (c == null) {
            c = new CpuNode(f);
            children.put(f, c);
        }
        return c;
    }

    void write(Json j) throws IOException {
        j.begin('{').field("f", frame);
        if (selfSamples > 0) j.field("s", selfSamples).field("ns", selfNanos);
        if (children != null) {
            j.name("c").begin('[');
            for (CpuNode c : children.values()) c.write(j);
            j.end(']');
        }
        j.end('}');
    }
}
