package io.heaplens.agent.wire;

import io.heaplens.agent.control.ModeControl;

import java.io.IOException;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/** Answers the client's requests (docs/protocol.md, "Client → agent"). Every request gets exactly one response. */
final class RequestHandler {
    private final Connection c;
    private final ChannelServer.Host host;
    private final ChannelServer server;

    RequestHandler(Connection c, ChannelServer.Host host, ChannelServer server) {
        this.c = c;
        this.host = host;
        this.server = server;
    }

    void handle(String text) throws IOException {
        Object parsed = MiniJson.parse(text);                 // malformed JSON: the caller drops the client
        if (!(parsed instanceof Map)) throw new IOException("a frame must be a JSON object");
        Map<?, ?> req = (Map<?, ?>) parsed;
        if (!"request".equals(req.get("type"))) throw new IOException("unexpected frame type " + req.get("type"));
        Object id = req.get("id");
        long rid = id instanceof Long ? (Long) id : -1;
        String op = String.valueOf(req.get("op"));
        try {
            switch (op) {
                case "pause":
                    ModeControl.pause();
                    event("paused");
                    ok(rid, null);
                    break;
                case "resume":
                    ModeControl.resume();
                    event("resumed");
                    ok(rid, null);
                    break;
                case "mode": {
                    String why = ModeControl.switchTo(String.valueOf(req.get("mode")));
                    if (why != null) { error(rid, why); break; }
                    ModeControl.Switch last = ModeControl.last();
                    c.send(ChannelServer.frame(j -> {
                        j.field("type", "event").field("event", "mode").field("mode", String.valueOf(req.get("mode")));
                        // how long re-instrumenting the loaded classes took, when the switch needed it
                        if (last != null && last.classes >= 0) j.field("retransformed", last.classes).field("retransformMillis", last.retransformMillis);
                    }));
                    c.send(ChannelServer.frame(j -> {
                        j.field("type", "response").field("id", rid).field("ok", true).name("result").begin('{')
                            .field("mode", String.valueOf(req.get("mode")));
                        if (last != null && last.classes >= 0) j.field("retransformed", last.classes).field("retransformMillis", last.retransformMillis);
                        j.end('}');
                    }));
                    break;
                }
                case "snapshot": {
                    String file = host.snapshot(Boolean.TRUE.equals(req.get("gc")));
                    ok(rid, file);
                    break;
                }
                case "gc":
                    System.gc();
                    ok(rid, null);
                    break;
                case "reset":
                    host.resetCounters();
                    c.tracker.forgetNodes();
                    event("reset");
                    ok(rid, null);
                    break;
                case "define":
                    byte[] f = c.tracker.defineFrame(ids(req.get("methods")), ids(req.get("sites")), ids(req.get("types")), false);
                    if (f != null) c.send(f);
                    ok(rid, null);
                    break;
                case "heapDump": {
                    Object file = req.get("file");
                    if (!(file instanceof String) || ((String) file).isEmpty()) { error(rid, "heapDump needs a \"file\" (ending with .hprof)"); break; }
                    boolean live = !Boolean.FALSE.equals(req.get("live"));
                    io.heaplens.agent.heap.HeapDumps.Result r = io.heaplens.agent.heap.HeapDumps.dump((String) file, live, false);
                    c.send(ChannelServer.frame(j -> j.field("type", "response").field("id", rid).field("ok", true).name("result").begin('{')
                        .field("file", r.file).field("bytes", r.bytes).field("millis", r.millis).field("live", live).end('}')));
                    break;
                }
                case "stop":
                    ok(rid, null);
                    host.stopJvm();
                    break;
                default:
                    error(rid, "unknown op '" + op + "'");
            }
        } catch (IndexOutOfBoundsException e) {
            error(rid, "unknown id in " + op + " request");
        } catch (IOException e) {
            error(rid, op + " failed: " + e.getMessage());
        }
    }

    static final long MAX_ID = 1L << 24;

    private static BitSet ids(Object list) {
        BitSet b = new BitSet();
        if (list instanceof List) {
            for (Object o : (List<?>) list) {
                // ids are dense and far below 2^24; a larger one is unknown (and would make the BitSet take the heap)
                if (!(o instanceof Long) || (Long) o < 0 || (Long) o >= MAX_ID) throw new IndexOutOfBoundsException();
                b.set(((Long) o).intValue());
            }
        }
        return b;
    }

    private void ok(long id, String file) throws IOException {
        c.send(ChannelServer.frame(j -> {
            j.field("type", "response").field("id", id).field("ok", true).name("result").begin('{');
            if (file != null) j.field("file", file);
            j.end('}');
        }));
    }

    private void error(long id, String message) throws IOException {
        c.send(ChannelServer.frame(j -> j.field("type", "response").field("id", id).field("ok", false).field("error", message)));
    }

    private void event(String name) throws IOException {
        c.send(ChannelServer.frame(j -> j.field("type", "event").field("event", name)));
    }
}
