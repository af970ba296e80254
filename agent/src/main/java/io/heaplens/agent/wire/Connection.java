package io.heaplens.agent.wire;

import io.heaplens.agent.collect.AgentThreads;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/** One connected client: a bounded send queue drained by its own thread, so a slow client never blocks the agent. */
final class Connection {
    private static final int QUEUE = 8;
    final DeltaTracker tracker;
    private final Socket socket;
    private final BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(QUEUE);
    volatile boolean alive = true;

    Connection(Socket socket, DeltaTracker tracker) {
        this.socket = socket;
        this.tracker = tracker;
        AgentThreads.start("heaplens-channel-send", this::drainLoop);
    }

    /** Room for a define and a delta frame. */
    boolean canTakeMore() { return queue.remainingCapacity() >= 2; }

    void send(byte[] frame) throws IOException {
        if (!alive) throw new IOException("connection closed");
        try {
            if (!queue.offer(frame, 2, TimeUnit.SECONDS)) {
                close();
                throw new IOException("client stopped reading");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    private void drainLoop() {
        try {
            OutputStream out = socket.getOutputStream();
            while (alive) {
                byte[] f = queue.poll(500, TimeUnit.MILLISECONDS);
                if (f != null) Frames.write(out, f);
            }
        } catch (IOException | InterruptedException e) {
            close();
        }
    }

    /** Waits until the queue is empty or the time is up (used before the JVM exits). */
    void drain(long millis) {
        long end = System.currentTimeMillis() + millis;
        while (alive && !queue.isEmpty() && System.currentTimeMillis() < end) {
            try { Thread.sleep(10); } catch (InterruptedException e) { return; }
        }
    }

    void close() {
        alive = false;
        ChannelServer.closeQuietly(socket);
    }
}
