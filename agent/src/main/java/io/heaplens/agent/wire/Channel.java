package io.heaplens.agent.wire;

import io.heaplens.agent.core.Options;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.collect.AgentInfo;
import io.heaplens.agent.collect.Collector;
import io.heaplens.runtime.Node;
import io.heaplens.runtime.ThreadState;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayDeque;

/** Opens the live channel when asked to (portFile option) and a token is at hand. Never fatal. */
public final class Channel {
    private Channel() {}

    public static void open(Options options, Registry registry, Collector collector, AgentInfo info) {
        try {
            String token = System.getenv("HEAPLENS_TOKEN");
            if (options.tokenFile != null) token = Files.readString(Paths.get(options.tokenFile)).trim();
            if (token == null || token.length() < 16) {
                System.err.println("heaplens: the live channel stays closed: no token (HEAPLENS_TOKEN or tokenFile, 16 characters at least); the profile file is still written");
                return;
            }
            ChannelServer server = new ChannelServer(options, registry, collector.sizes(), info, new ChannelServer.Host() {
                @Override public String snapshot(boolean gc) { return collector.snapshot(gc); }
                @Override public void resetCounters() { clearAll(); }
                @Override public void stopJvm() {
                    Thread t = new Thread(() -> System.exit(143), "heaplens-stop");
                    t.setDaemon(true);
                    t.start();
                }
            }, token);
            server.start(Paths.get(options.portFile));
            collector.attachChannel(server);
            io.heaplens.agent.threads.ThreadsProfiler tp = io.heaplens.agent.threads.ThreadsProfiler.get();
            if (tp != null) tp.setListener(new DeadlockEvents(server));
        } catch (Throwable t) {
            System.err.println("heaplens: the live channel could not open (" + t + "); the profile file is still written");
        }
    }

    static void clearAll() {
        for (ThreadState ts : ThreadState.snapshot()) {
            ArrayDeque<Node> todo = new ArrayDeque<>();
            todo.push(ts.root);
            while (!todo.isEmpty()) {
                Node n = todo.pop();
                n.clear();
                Node only = n.onlyChild();
                Node[] ch = only == null ? n.childrenSnapshot() : null;
                if (only != null) todo.push(only);
                else if (ch != null) for (Node c : ch) if (c != null) todo.push(c);
            }
            for (Node a : ts.accountsSnapshot()) if (a != null) a.clear();   // memory accounts' allocated counts
        }
    }
}
