package io.heaplens.agent.instrument;

import io.heaplens.agent.core.Registry;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Node;

import java.util.Map;
import java.util.TreeMap;

/** Collapsed-stack view of a live MCT for assertions: "Class.method;Class.method;TYPE" → count. */
final class TreeDump {
    private TreeDump() {}

    static Map<String, Long> objects(Node root, Registry registry) {
        Map<String, Long> out = new TreeMap<>();
        walk(root, "", registry, out);
        return out;
    }

    static long calls(Node root, Registry registry, String path) {
        Node n = find(root, registry, path.split(";"), 0);
        return n == null ? 0 : n.calls;
    }

    private static Node find(Node n, Registry reg, String[] path, int i) {
        if (i == path.length) return n;
        for (Node c : children(n)) {
            if (c == null) continue;
            Registry.MethodInfo m = reg.methodById(c.method);
            if ((simple(m.owner) + "." + m.name).equals(path[i])) return find(c, reg, path, i + 1);
        }
        return null;
    }

    /** The node's children, whether it keeps one alone or a table (null slots possible). */
    static Node[] children(Node n) {
        Node only = n.onlyChild();
        if (only != null) return new Node[] {only};
        Node[] ch = n.childrenSnapshot();
        return ch != null ? ch : new Node[0];
    }

    private static String simple(String owner) { return owner.substring(owner.lastIndexOf('/') + 1); }

    private static void walk(Node n, String prefix, Registry reg, Map<String, Long> out) {
        String path = prefix;
        if (n.method >= 0) {
            Registry.MethodInfo m = reg.methodById(n.method);
            path = (prefix.isEmpty() ? "" : prefix + ";") + simple(m.owner) + "." + m.name;
        }
        long[] rec = n.recordsSnapshot();
        if (rec != null) {
            for (int b = 0; b < rec.length; b += 4) {
                if (rec[b] == 0) continue;
                int key = (int) (rec[b] - 1);
                String type = reg.typeById(Keys.type(key)).name;
                out.merge(path + ";" + type, rec[b + 1], Long::sum);
            }
        }
        for (Node c : children(n)) if (c != null) walk(c, path, reg, out);
    }
}
