package io.heaplens.agent.instrument;

import java.util.ArrayList;
import java.util.List;

/** What the transformer decided for one class, and what the instrumenter reports back. */
final class ClassPlan {
    final String name;             // internal name
    final boolean profiled;        // MCT probes in its methods
    final boolean frames;          // class file version >= 50: keeps stack map frames
    String sourceFile;
    final List<String> warnings = new ArrayList<>();
    int methodsProfiled, sites;

    ClassPlan(String name, boolean profiled, int version) {
        this.name = name;
        this.profiled = profiled;
        this.frames = (version & 0xFFFF) >= 50;
    }
}
