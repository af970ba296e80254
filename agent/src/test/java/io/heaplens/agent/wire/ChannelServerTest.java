package io.heaplens.agent.wire;

import io.heaplens.agent.core.Options;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.collect.AgentInfo;
import io.heaplens.agent.collect.TypeSizes;
import io.heaplens.runtime.Mode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/** The channel server in-process: handshake rules, requests, and hostile input that must never hurt it. */
class ChannelServerTest {
    static final String TOKEN = "0123456789abcdef0123456789abcdef";
    static ChannelServer server;
    static int port;
    static final AtomicInteger snapshots = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        Registry registry = io.heaplens.agent.core.SharedRegistry.REGISTRY;
        Path dir = Files.createTempDirectory("heaplens-wire");
        server = new ChannelServer(Options.parse(null), registry, new TypeSizes(null), new AgentInfo(), new ChannelServer.Host() {
            @Override public String snapshot(boolean gc) { snapshots.incrementAndGet(); return "/tmp/snap.heaplens"; }
            @Override public void resetCounters() { }
            @Override public void stopJvm() { }
        }, TOKEN);
        port = server.start(dir.resolve("port.json"));
        String portFile = Files.readString(dir.resolve("port.json"));
        assertTrue(portFile.contains("\"port\":" + port), portFile);
    }

    @AfterAll
    static void resume() { io.heaplens.agent.control.ModeControl.switchTo("exact"); }

    static Socket connect() throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        return s;
    }

    static void send(Socket s, String json) throws IOException {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        OutputStream out = s.getOutputStream();
        out.write(new byte[] {(byte) (b.length >>> 24), (byte) (b.length >>> 16), (byte) (b.length >>> 8), (byte) b.length});
        out.write(b);
        out.flush();
    }

    static Map<?, ?> read(Socket s) throws IOException {
        String text = Frames.read(new DataInputStream(s.getInputStream()));
        return text == null ? null : (Map<?, ?>) MiniJson.parse(text);
    }

    /** Reads frames until one of the given type arrives (deltas and defines may come in between). */
    static Map<?, ?> readUntil(Socket s, String type) throws IOException {
        for (int i = 0; i < 100; i++) {
            Map<?, ?> m = read(s);
            if (m == null) return null;
            if (type.equals(m.get("type"))) return m;
        }
        fail("no " + type + " frame");
        return null;
    }

    static String hello(String token) { return "{\"type\":\"hello\",\"protocol\":1,\"token\":\"" + token + "\"}"; }

    @Test
    void wrongTokenIsRefusedAndCounted() throws Exception {
        long before = server.refused.get();
        try (Socket s = connect()) {
            send(s, hello("not-the-token"));
            Map<?, ?> m = read(s);
            assertEquals("refused", m.get("type"));
            assertEquals("wrong token", m.get("reason"));
            assertNull(read(s), "the server closes the connection");
        }
        assertEquals(before + 1, server.refused.get());
    }

    @Test
    void wrongProtocolAndNonHelloFramesAreRefused() throws Exception {
        try (Socket s = connect()) {
            send(s, "{\"type\":\"hello\",\"protocol\":2,\"token\":\"" + TOKEN + "\"}");
            assertTrue(String.valueOf(read(s).get("reason")).startsWith("protocol 2 is not supported"));
        }
        try (Socket s = connect()) {
            send(s, "{\"type\":\"request\",\"id\":1,\"op\":\"pause\"}");
            assertEquals("the first frame must be hello", read(s).get("reason"));
        }
    }

    @Test
    void oversizedAndGarbageFramesNeverHurtTheServer() throws Exception {
        Random r = new Random(7);
        for (int i = 0; i < 300; i++) {
            try (Socket s = connect()) {
                byte[] junk = new byte[r.nextInt(64)];
                r.nextBytes(junk);
                if (i % 3 == 0) junk[0] = (byte) 0x7F;   // a length prefix far over 16 MiB
                s.getOutputStream().write(junk);
                s.shutdownOutput();
                Map<?, ?> m = read(s);
                if (m != null) assertEquals("refused", m.get("type"));
            } catch (IOException ignored) {
                // the server may close before we finish writing: that is a refusal too
            }
        }
        sessionWorks();
    }

    @Test
    void sessionWorks() throws Exception {
        try (Socket s = connect()) {
            send(s, hello(TOKEN));
            Map<?, ?> welcome = read(s);
            assertEquals("welcome", welcome.get("type"));
            assertEquals(1L, welcome.get("protocol"));
            try (Socket second = connect()) {
                send(second, hello(TOKEN));
                assertEquals("another client is connected", read(second).get("reason"));
            }
            send(s, "{\"type\":\"request\",\"id\":5,\"op\":\"pause\"}");
            Map<?, ?> r = readUntil(s, "response");
            assertEquals(5L, r.get("id"));
            assertEquals(Boolean.TRUE, r.get("ok"));
            assertEquals(Mode.PAUSED, Mode.get());
            send(s, "{\"type\":\"request\",\"id\":6,\"op\":\"resume\"}");
            assertEquals(6L, readUntil(s, "response").get("id"));
            assertEquals(Mode.EXACT, Mode.get());
            int before = snapshots.get();
            send(s, "{\"type\":\"request\",\"id\":7,\"op\":\"snapshot\"}");
            Map<?, ?> snap = readUntil(s, "response");
            assertEquals("/tmp/snap.heaplens", ((Map<?, ?>) snap.get("result")).get("file"));
            assertEquals(before + 1, snapshots.get());
            send(s, "{\"type\":\"request\",\"id\":8,\"op\":\"explode\"}");
            Map<?, ?> err = readUntil(s, "response");
            assertEquals(Boolean.FALSE, err.get("ok"));
            assertEquals("unknown op 'explode'", err.get("error"));
            send(s, "{\"type\":\"request\",\"id\":9,\"op\":\"define\",\"methods\":[99999]}");
            assertEquals("unknown id in define request", readUntil(s, "response").get("error"));
            server.tick();
            Map<?, ?> delta = readUntil(s, "delta");
            assertEquals(Boolean.TRUE, delta.get("full"));
            assertTrue(((Map<?, ?>) delta.get("stats")).containsKey("objects"));
        }
    }
}
