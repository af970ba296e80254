package io.heaplens.agent.wire;

import io.heaplens.agent.core.Options;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.collect.AgentInfo;
import io.heaplens.agent.collect.AgentThreads;
import io.heaplens.agent.collect.Json;
import io.heaplens.agent.collect.Tables;
import io.heaplens.agent.collect.TypeSizes;
import io.heaplens.runtime.Mode;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live channel's server (docs/protocol.md): loopback only, a token in the handshake, one client at a time.
 * Nothing it does can stop the program: a broken client is closed, the profile file keeps being written.
 */
public final class ChannelServer {
    public static final int PROTOCOL = 1;
    /**
     * The whole hello must arrive within this time of the connection (a deadline, not a per-read timeout, so a peer
     * trickling one byte at a time cannot hold its place). The extension sends its hello at once on connecting.
     */
    static final int HANDSHAKE_MILLIS = 2000;
    /**
     * A hello is a few dozen bytes. Before the token is checked nobody may make the program's heap hold more: with the
     * general 16 MiB limit, a few strangers declaring large frames could fill a program's heap.
     */
    static final int HELLO_MAX = 64 << 10;
    /**
     * Connections waiting for their hello at once. A newcomer beyond the cap drops a waiting peer (the oldest silent
     * one, see evictOne), never itself: strangers holding every place must not keep the rightful client out.
     */
    static final int PENDING_MAX = 8;
    private final java.util.ArrayDeque<Socket> pending = new java.util.ArrayDeque<>();
    /** Waiting peers whose handshake has read at least one byte: never the silent one to drop. */
    private final java.util.Set<Socket> spoke = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** What the server asks of the rest of the agent. */
    public interface Host {
        String snapshot(boolean gc) throws IOException;   // write the profile now (accounts snapshot after a full GC if asked); returns its path
        void resetCounters();
        void stopJvm();
    }

    private final Options options;
    private final Registry registry;
    private final TypeSizes sizes;
    private final AgentInfo info;
    private final Host host;
    private final byte[] token;
    private ServerSocket server;
    private volatile Connection client;
    final AtomicLong refused = new AtomicLong();
    private final AtomicLong coalesced = new AtomicLong();
    private long seq;

    public ChannelServer(Options options, Registry registry, TypeSizes sizes, AgentInfo info, Host host, String token) {
        this.options = options;
        this.registry = registry;
        this.sizes = sizes;
        this.info = info;
        this.host = host;
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    public int start(Path portFile) throws IOException {
        server = new ServerSocket(0, 8, InetAddress.getByName("127.0.0.1"));
        int port = server.getLocalPort();
        Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
        Files.writeString(tmp, "{\"port\":" + port + ",\"pid\":" + info.pid + ",\"protocol\":" + PROTOCOL + "}");
        Files.move(tmp, portFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        AgentThreads.start("heaplens-channel-accept", this::acceptLoop);
        return port;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Socket oldest = null;
                synchronized (pending) {
                    pending.addLast(s);
                    if (pending.size() > PENDING_MAX) oldest = evictOne();
                }
                // told why (a few bytes: the empty send buffer takes them without blocking), then closed; its thread
                // sees the socket closed, counts the refusal and ends
                if (oldest != null) tellAndClose(oldest, "too many connections waiting for their hello; this one was the oldest");
                AgentThreads.start("heaplens-channel-client", () -> serve(s));
            } catch (IOException e) {
                if (server.isClosed()) return;
            }
        }
    }

    private void serve(Socket s) {
        Connection c;
        try {
            String reason;
            DataInputStream in;
            try {
                s.setTcpNoDelay(true);
                in = new DataInputStream(new Deadline(s, System.nanoTime() + HANDSHAKE_MILLIS * 1_000_000L));
                reason = handshake(in);
            } finally {
                boolean evicted;
                synchronized (pending) { evicted = !pending.remove(s); }
                spoke.remove(s);
                if (evicted) refused.incrementAndGet();
            }
            if (s.isClosed()) return;             // dropped for a newer peer while it waited
            if (reason == null && client != null && client.alive) reason = "another client is connected";
            if (reason != null) {
                refuse(s, reason);
                return;
            }
            s.setSoTimeout(0);
            in = new DataInputStream(s.getInputStream());
            c = new Connection(s, new DeltaTracker(registry, sizes));
            // welcome is queued before the connection is published: a collector tick in between would otherwise
            // queue define/delta frames ahead of it, which a client still waiting for welcome drops.
            c.send(welcome());
            synchronized (this) {
                if (client != null && client.alive) { c.close(); refused.incrementAndGet(); return; }
                client = c;
            }
            sendKnownDeadlocks(c);
            readRequests(c, in);
        } catch (IOException | RuntimeException e) {
            closeQuietly(s);
        }
    }

    /**
     * The peer to drop when too many wait: the oldest that has sent nothing yet, else the oldest. The rightful client
     * sends its hello the moment it connects, so it is never the silent one, however fast strangers re-open.
     */
    private Socket evictOne() {
        Socket newest = pending.peekLast();      // just accepted: its hello may be on its way, it is never the one
        for (java.util.Iterator<Socket> it = pending.iterator(); it.hasNext(); ) {
            Socket p = it.next();
            if (p == newest) break;
            if (spoke.contains(p)) continue;     // its handshake has read bytes (available() is 0 again by then)
            int ready;
            try { ready = p.getInputStream().available(); } catch (IOException e) { ready = 0; }
            if (ready == 0) { it.remove(); return p; }
        }
        return pending.pollFirst();
    }

    /** A client that connects after a deadlock was found still hears of it. */
    private static void sendKnownDeadlocks(Connection c) throws IOException {
        io.heaplens.agent.threads.ThreadsProfiler tp = io.heaplens.agent.threads.ThreadsProfiler.get();
        if (tp == null) return;
        for (io.heaplens.agent.threads.ThreadsProfiler.Deadlock d : tp.deadlocks()) c.send(frame(deadlockEvent(d)));
    }

    /** {"type":"event","event":"deadlock","deadlock":{time, threads:[…]}} (docs/protocol.md). */
    public static Body deadlockEvent(final io.heaplens.agent.threads.ThreadsProfiler.Deadlock d) {
        return new Body() {
            @Override public void write(Json j) throws IOException {
                j.field("type", "event").field("event", "deadlock").name("deadlock");
                d.write(j);
            }
        };
    }

    /** The socket's input with one deadline for everything read through it: each read may wait only the time left. */
    private final class Deadline extends java.io.FilterInputStream {
        private final Socket socket;
        private final long deadline;

        Deadline(Socket socket, long deadline) throws IOException {
            super(socket.getInputStream());
            this.socket = socket;
            this.deadline = deadline;
        }

        /** A peer whose bytes the handshake has read is not silent, though nothing is left to be available(). */
        private int heard(int n) {
            if (n > 0) spoke.add(socket);
            return n;
        }

        private void arm() throws IOException {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) throw new java.net.SocketTimeoutException("deadline passed");
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
        }

        @Override public int read() throws IOException {
            arm();
            int b = super.read();
            if (b >= 0) heard(1);
            return b;
        }
        @Override public int read(byte[] b, int off, int len) throws IOException { arm(); return heard(super.read(b, off, len)); }
    }

    /** @return null when the peer may in, else the reason it may not */
    private String handshake(DataInputStream in) throws IOException {
        String text;
        try {
            text = Frames.read(in, HELLO_MAX);
        } catch (java.net.SocketTimeoutException e) {
            return "no hello within " + HANDSHAKE_MILLIS + " ms";
        } catch (IOException e) {
            return "bad frame: " + e.getMessage();
        }
        if (text == null) return "closed before hello";
        Map<?, ?> hello;
        try {
            Object o = MiniJson.parse(text);
            if (!(o instanceof Map)) return "hello must be a JSON object";
            hello = (Map<?, ?>) o;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (!"hello".equals(hello.get("type"))) return "the first frame must be hello";
        Object given = hello.get("token");
        byte[] presented = given instanceof String ? ((String) given).getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(presented, token)) return "wrong token";
        if (!Long.valueOf(PROTOCOL).equals(hello.get("protocol"))) return "protocol " + hello.get("protocol") + " is not supported (this agent speaks " + PROTOCOL + ")";
        return null;
    }

    private void refuse(Socket s, String reason) {
        refused.incrementAndGet();
        try {
            s.setSoTimeout(1000);
            Frames.write(s.getOutputStream(), frame(j -> j.field("type", "refused").field("reason", reason)));
        } catch (IOException ignored) {
        } finally {
            closeQuietly(s);
        }
    }

    private static void tellAndClose(Socket s, String reason) {
        try {
            Frames.write(s.getOutputStream(), frame(j -> j.field("type", "refused").field("reason", reason)));
        } catch (IOException ignored) {
        } finally {
            closeQuietly(s);
        }
    }

    private byte[] welcome() throws IOException {
        return frame(j -> {
            j.field("type", "welcome").field("protocol", PROTOCOL).field("pid", info.pid);
            j.name("meta");
            Tables.meta(j, options, info, false, 0);
        });
    }

    /** Called by the collector every cycle: sends what changed, or counts a coalesced cycle when the client lags. */
    public void tick() {
        Connection c = client;
        if (c == null || !c.alive) return;
        if (!c.canTakeMore()) {
            coalesced.incrementAndGet();
            return;
        }
        try {
            byte[][] frames = c.tracker.next(++seq, stats());
            if (frames[0] != null) c.send(frames[0]);
            if (frames[1] != null) c.send(frames[1]);
        } catch (IOException e) {
            c.close();
        }
    }

    private Map<String, Object> stats() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("paused", Mode.get() == Mode.PAUSED);
        m.put("mode", Mode.name(Mode.get()));
        m.put("coalesced", coalesced.get());
        m.put("refusedConnections", refused.get());
        return m;
    }

    /** Tells the client the JVM is going away (after the final tick). */
    public void exiting() {
        Connection c = client;
        if (c == null || !c.alive) return;
        c.drain(1000);               // make room, so the last delta is not skipped as back-pressure
        tick();
        try {
            c.send(frame(j -> j.field("type", "event").field("event", "exiting")));
            c.drain(2000);
        } catch (IOException ignored) { }
    }

    private void readRequests(Connection c, DataInputStream in) {
        RequestHandler handler = new RequestHandler(c, host, this);
        try {
            String text;
            while ((text = Frames.read(in)) != null) handler.handle(text);
        } catch (IOException | RuntimeException e) {
            // a broken or hostile client: drop it, the program carries on
        } finally {
            c.close();
        }
    }

    public interface Body { void write(Json j) throws IOException; }

    /** Sends one frame (an event) to the client, if one is connected. */
    public void send(Body body) {
        Connection c = client;
        if (c == null || !c.alive) return;
        try {
            c.send(frame(body));
        } catch (IOException e) {
            c.close();
        }
    }

    static byte[] frame(Body body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
            Json j = new Json(w);
            j.begin('{');
            body.write(j);
            j.end('}');
        }
        return Frames.encode(out.toByteArray());
    }

    static void closeQuietly(Socket s) {
        try { s.close(); } catch (IOException ignored) { }
    }
}
