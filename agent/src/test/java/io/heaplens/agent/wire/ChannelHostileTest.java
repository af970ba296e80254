package io.heaplens.agent.wire;

import io.heaplens.agent.core.Options;
import io.heaplens.agent.collect.AgentInfo;
import io.heaplens.agent.collect.TypeSizes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The reliability suite's attacks on the channel server (docs/reliability.md "nobody else gets in"): its own server
 * instance, so the refusal counts are exact. ChannelServerTest covers the handshake rules and a working session.
 */
class ChannelHostileTest {
    static final String TOKEN = "fedcba9876543210fedcba9876543210";
    static ChannelServer server;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("heaplens-hostile");
        server = new ChannelServer(Options.parse(null), io.heaplens.agent.core.SharedRegistry.REGISTRY, new TypeSizes(null), new AgentInfo(),
            new ChannelServer.Host() {
                @Override public String snapshot(boolean gc) { return "/tmp/snap.heaplens"; }
                @Override public void resetCounters() { }
                @Override public void stopJvm() { }
            }, TOKEN);
        port = server.start(dir.resolve("port.json"));
    }

    @AfterAll
    static void resume() { io.heaplens.agent.control.ModeControl.switchTo("exact"); }

    static Socket connect() throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        s.setTcpNoDelay(true);        // one request at a time: Nagle's algorithm would add 40 ms to each
        return s;
    }

    static void send(Socket s, byte[] b) throws IOException {
        OutputStream out = s.getOutputStream();
        byte[] f = new byte[4 + b.length];
        f[0] = (byte) (b.length >>> 24); f[1] = (byte) (b.length >>> 16); f[2] = (byte) (b.length >>> 8); f[3] = (byte) b.length;
        System.arraycopy(b, 0, f, 4, b.length);
        out.write(f);
        out.flush();
    }

    static Map<?, ?> read(Socket s) throws IOException {
        String text = Frames.read(new DataInputStream(s.getInputStream()));
        return text == null ? null : (Map<?, ?>) MiniJson.parse(text);
    }

    /** As {@link #read}, with a connection reset (the server closed with the hello unread) read as EOF. */
    static Map<?, ?> readOrNull(Socket s) throws IOException {
        try {
            return read(s);
        } catch (java.net.SocketException reset) {
            return null;
        }
    }

    static String hello(String token) { return "{\"type\":\"hello\",\"protocol\":1,\"token\":\"" + token + "\"}"; }

    static Socket session() throws IOException {
        Socket s = connect();
        send(s, hello(TOKEN).getBytes(StandardCharsets.UTF_8));
        Map<?, ?> m = read(s);
        assertEquals("welcome", m.get("type"), String.valueOf(m));
        return s;
    }

    @Test
    void listensOnLoopbackOnly() throws Exception {
        // every non-loopback address of this machine is refused at the TCP level
        List<InetAddress> others = new ArrayList<>();
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(ni.getInetAddresses())) if (!a.isLoopbackAddress() && !a.isLinkLocalAddress()) others.add(a);
        }
        for (InetAddress a : others) {
            assertThrows(IOException.class, () -> { try (Socket s = new Socket(a, port)) { } }, "reachable on " + a);
        }
    }

    @Test
    void anOversizedHelloIsRefusedBeforeItsBodyIsRead() throws Exception {
        long before = server.refused.get();
        try (Socket s = connect()) {
            // declares 1 MiB and sends none of it: refused at once, nothing allocated for it
            s.getOutputStream().write(new byte[] {0, 0x10, 0, 0});
            long t0 = System.nanoTime();
            Map<?, ?> m = read(s);
            assertEquals("refused", m.get("type"));
            assertTrue(String.valueOf(m.get("reason")).contains("exceeds the limit of " + ChannelServer.HELLO_MAX), String.valueOf(m));
            assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "refused without waiting for the body");
        }
        assertEquals(before + 1, server.refused.get());
    }

    /** True when the server has closed this socket (refusal frame or EOF); false when it still holds it open. */
    static boolean closedByServer(Socket s, int waitMillis) throws IOException {
        s.setSoTimeout(waitMillis);
        try {
            Map<?, ?> m = read(s);
            return m == null || "refused".equals(m.get("type"));
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @Test
    void aFloodOfSilentConnectionsDropsTheOldestAndTheRightfulClientGetsIn() throws Exception {
        long before = server.refused.get();
        List<Socket> silent = new ArrayList<>();
        try {
            for (int i = 0; i < ChannelServer.PENDING_MAX + 12; i++) silent.add(connect());
            // the 12 oldest were dropped for newer peers, the 8 newest are held open
            for (Socket s : silent.subList(0, 12)) assertTrue(closedByServer(s, 1000), "an old silent peer was dropped");
            for (Socket s : silent.subList(12, silent.size())) assertFalse(closedByServer(s, 100), "a new silent peer is held");
            // while all 8 places are taken by silent strangers, the rightful client is answered with welcome
            try (Socket s = session()) { assertNotNull(s); }
        } finally {
            for (Socket s : silent) s.close();
        }
        Thread.sleep(200);
        assertTrue(server.refused.get() - before >= 12, "refusals counted: " + (server.refused.get() - before));
    }

    @Test
    void aSilentPeerIsDroppedAfterTheHandshakeDeadline() throws Exception {
        try (Socket s = connect()) {
            long t0 = System.nanoTime();
            assertTrue(closedByServer(s, 10_000));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= ChannelServer.HANDSHAKE_MILLIS - 100 && ms < ChannelServer.HANDSHAKE_MILLIS + 3000, "dropped after " + ms + " ms");
        }
        try (Socket s = connect()) {
            // one byte at a time, each well within a per-read timeout: the deadline is for the whole hello
            OutputStream out = s.getOutputStream();
            byte[] hello = hello(TOKEN).getBytes(StandardCharsets.UTF_8);
            out.write(new byte[] {0, 0, 0, (byte) hello.length});
            long t0 = System.nanoTime();
            boolean dropped = false;
            for (int i = 0; i < hello.length - 1 && !dropped; i++) {
                try { out.write(hello[i]); out.flush(); } catch (IOException e) { dropped = true; }
                Thread.sleep(300);
                if ((System.nanoTime() - t0) / 1_000_000 > ChannelServer.HANDSHAKE_MILLIS + 3000) break;
            }
            assertTrue(closedByServer(s, 5000), "a trickled hello is cut at the deadline");
        }
    }

    /**
     * The attack of issue 20: 8 silent connections, each re-opened the moment the server drops it. The rightful client
     * still gets welcome, 20 times in a row (before the fix it got EOF while they were held).
     */
    @Test
    void eightReopeningSilentStrangersNeverLockTheRightfulClientOut() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger reopened = new java.util.concurrent.atomic.AtomicInteger();
        int droppedClient = 0;
        List<Thread> strangers = new ArrayList<>();
        for (int i = 0; i < ChannelServer.PENDING_MAX; i++) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    try (Socket s = connect()) {
                        s.setSoTimeout(200);
                        while (!stop.get()) {
                            try { if (s.getInputStream().read() < 0) break; } catch (java.net.SocketTimeoutException held) { }
                        }
                        reopened.incrementAndGet();
                    } catch (IOException e) {
                        reopened.incrementAndGet();
                    }
                }
            });
            t.setDaemon(true);
            t.start();
            strangers.add(t);
        }
        try {
            Thread.sleep(300);
            for (int i = 0; i < 20; i++) {
                // Retried, as the extension's client retries (extension/channel/client.ts): the previous session's
                // close may not have reached the server yet ("another client is connected"), and on a starved machine
                // the client's hello may not be in before eight re-openings made it the oldest silent peer (dropped:
                // the eviction's reason, or EOF when the close beat the reason). Any other refusal fails; so does a
                // client kept out: a deadline, not a count of tries (a loaded machine's reader may take a while).
                long deadline = System.nanoTime() + 15_000_000_000L;
                for (;;) {
                    try (Socket s = connect()) {
                        send(s, hello(TOKEN).getBytes(StandardCharsets.UTF_8));
                        Map<?, ?> m = readOrNull(s);
                        if (m != null && "welcome".equals(m.get("type"))) break;
                        if (m == null || String.valueOf(m.get("reason")).startsWith("too many connections waiting")) droppedClient++;
                        else assertEquals("another client is connected", m.get("reason"), String.valueOf(m));
                        assertTrue(System.nanoTime() < deadline, "the rightful client was kept out for 15 s; dropped " + droppedClient + " times");
                    }
                    Thread.sleep(20);
                }
            }
        } finally {
            stop.set(true);
            for (Thread t : strangers) t.join(5000);
        }
        assertTrue(reopened.get() >= 20, "the strangers were dropped and re-opened: " + reopened.get());
        // the strangers, not the client, pay: the client is dropped at most now and then (none when it is not starved)
        assertTrue(droppedClient < reopened.get(), "the client dropped " + droppedClient + " times, strangers " + reopened.get());
    }

    @Test
    void aDefineWithAHugeIdIsAnErrorNotAHeapFullOfBits() throws Exception {
        try (Socket s = session()) {
            send(s, "{\"type\":\"request\",\"id\":5,\"op\":\"define\",\"methods\":[2147483647]}".getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 100; i++) {
                Map<?, ?> m = read(s);
                if ("response".equals(m.get("type"))) {
                    assertEquals(false, m.get("ok"));
                    assertEquals("unknown id in define request", m.get("error"));
                    return;
                }
            }
            fail("no response");
        }
    }

    /** A well-formed request with random op, id and arguments (never stop or gc: they would end or stall the test JVM). */
    static String randomRequest(Random r) {
        String[] ops = {"pause", "resume", "define", "mode", "snapshot", "reset", "frobnicate", "", "DEFINE"};
        String[] values = {"1", "-1", "2147483647", "99999999999", "\"x\"", "null", "true", "[]", "{}", "[1,2,3]", "[-5]", "[16777216]", "[\"a\"]", "1.5"};
        StringBuilder b = new StringBuilder("{\"type\":\"request\"");
        if (r.nextInt(5) > 0) b.append(",\"id\":").append(values[r.nextInt(values.length)]);
        b.append(",\"op\":\"").append(ops[r.nextInt(ops.length)]).append('"');
        for (String k : new String[] {"methods", "sites", "types", "mode"}) {
            if (r.nextBoolean()) b.append(",\"").append(k).append("\":").append(k.equals("mode") && r.nextBoolean() ? "\"exact\"" : values[r.nextInt(values.length)]);
        }
        return b.append('}').toString();
    }

    /**
     * 10,000 fuzzed frames after a valid hello: well-formed requests with random arguments are always answered;
     * corrupted frames (flipped bytes, truncation, random tails, deep nesting) drop the client, never the server;
     * the server serves the next client every time.
     */
    @Test
    void tenThousandFuzzedFramesNeverCrashOrHangTheServer() throws Exception {
        Random r = new Random(11);
        int sent = 0, dropped = 0, answered = 0;
        long t0 = System.nanoTime();
        Socket s = session();
        try {
            while (sent < 10_000) {
                String request = randomRequest(r);
                byte[] b = request.getBytes(StandardCharsets.UTF_8);
                boolean corrupt = r.nextInt(20) == 0;
                if (corrupt) {
                    switch (r.nextInt(4)) {
                        case 0: b[r.nextInt(b.length)] = (byte) r.nextInt(256); break;                           // flip a byte
                        case 1: b = java.util.Arrays.copyOf(b, Math.max(1, r.nextInt(b.length))); break;          // truncate
                        case 2: { byte[] c = new byte[b.length + 8]; r.nextBytes(c); System.arraycopy(b, 0, c, 0, b.length); b = c; break; }
                        default: b = ("[".repeat(1 + r.nextInt(300)) + "]").getBytes(StandardCharsets.UTF_8); // deep nesting
                    }
                }
                sent++;
                try {
                    send(s, b);
                    Map<?, ?> m;
                    do { m = read(s); } while (m != null && !"response".equals(m.get("type")));
                    if (m == null) throw new IOException("dropped");
                    answered++;
                } catch (IOException drop) {
                    assertTrue(corrupt, "a well-formed request dropped the client: " + request);
                    dropped++;
                    s.close();
                    s = session();
                }
            }
            send(s, "{\"type\":\"request\",\"id\":77,\"op\":\"resume\"}".getBytes(StandardCharsets.UTF_8));
            Map<?, ?> m;
            do { m = read(s); } while (m != null && !"response".equals(m.get("type")));
            assertEquals(true, m.get("ok"));
        } finally {
            s.close();
            io.heaplens.agent.control.ModeControl.switchTo("exact");
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("channel fuzz: " + sent + " frames, " + answered + " answered, " + dropped + " corrupted frames dropped their client, " + millis + " ms");
        assertEquals(10_000, sent);
        assertTrue(answered >= 9_000, "answered " + answered);
    }
}
