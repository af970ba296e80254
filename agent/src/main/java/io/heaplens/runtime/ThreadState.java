package io.heaplens.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.Hidden;
import jdk.internal.vm.annotation.ForceInline;

/**
 * Everything the recorder keeps for one thread: its MCT, the current node, and a re-entrancy guard.
 * Creating one calls no instrumented code, so the first probe on a new thread cannot recurse.
 */
public final class ThreadState {
    private static final ThreadLocal<ThreadState> CURRENT = new ThreadLocal<ThreadState>() {
        @Override protected ThreadState initialValue() {
            Thread t = Thread.currentThread();
            synchronized (LOCK) {                                 // the JFR sampler may have made it one already
                ThreadState made = foreignStates ? find(t) : null;
                return made != null ? made : register(new ThreadState(t, t.getId()));
            }
        }
    };
    private static final Object LOCK = new Object();
    private static ThreadState[] all = new ThreadState[64];
    private static int count;

    /** Calls deeper than this fold into the node at this depth. */
    public static volatile int maxDepth = 4096;
    /**
     * Node budget over all threads. Some programs (compilers, recursive visitors) have tens of millions of distinct
     * calling contexts; once the budget is spent, a call that would need a new node is folded into its caller's
     * node instead (counted in {@code folded}), so counts stay exact and memory stays bounded.
     */
    public static volatile long maxNodes = 1_000_000;
    /** Nodes created so far (racy increments: the budget is approximate, by design cheap). */
    public static long nodes;
    /** Every this many new nodes, the thread that made one runs {@link #growthCheck}. */
    static final int CHECK_EVERY = 512;
    /**
     * The heap guard's look at the heap after the last garbage collection (set by the agent; null: none). The
     * collectors' notifications reach the guard on another thread, late when the machine is loaded, and a program at
     * the edge of its -Xmx can make ten thousand calling contexts in the meantime: the thread that grows the tree
     * asks, too (test/reliability/program.test.ts, the nearxmx fixture).
     */
    public static volatile Runnable growthCheck;

    public final Thread thread;
    public final long id;
    /** The exact mode's method call tree. */
    public final Node root;
    /** Sites mode: one flat node, exact counts per allocation site for this thread. */
    public final Node sites;
    /** Sites mode: calling traces captured for a sample of each site's allocations (counts are samples). */
    public final Node siteTraces;
    /** Sampled mode: a tree built from sampled calling traces; records are scaled estimates. */
    public final Node sampled;
    final Node foldNode;
    /**
     * Boxing counted at a call site leaves its value here, so the probe inside valueOf does not count it again;
     * a valueOf called from code no agent can transform (lambda proxies, method-handle forms) finds no token and
     * counts itself.
     */
    boolean boxPending;
    long boxValue;
    /** Sampled mode: bytes left before the next sample, the interval drawn for it, and the generator's state. */
    long sampleLeft, sampleInterval, random;
    /** Accounts mode: the thread's current memory account (0 = unaccounted), see {@link Accounts}. */
    public int account;
    /** Accounts mode: one flat per-site node per account, indexed by account id; grown on demand. */
    Node[] accounts = new Node[4];
    /** Accounts mode with sampled liveness: objects left before the next tracked one. */
    int liveLeft;
    /**
     * The innermost profiled node of this thread (JDK allocations are charged to it), as its index in {@link #slots}.
     * An int, not a reference, because every method entry and exit writes it: a reference store into this long-lived
     * object takes G1's post-write barrier, whose memory fence was most of the entry's cost (rhino: 72 % of the
     * samples in {@link #enterCurrent} on the instruction after the fence, docs/benchmark.md "Round 20").
     */
    public int currentSlot;
    /** This thread's call-tree nodes that have been entered, by {@link Node#slot} (0: the root). Grown by its own thread. */
    Node[] slots;
    private int slotCount;
    /** Non-zero while the agent itself works on this thread (transformer, collector): nothing is recorded. */
    public int busy;
    /** sampler=jvmti: the last heap sample's trace and what its frames gave (made at the thread's first sample). */
    Trail trail;
    /** The agent's own threads (collector, shutdown writer): never shown in a profile. */
    public boolean agentThread;
    /** Whether {@link #nameChecked} has compared this thread's name with {@link #agentThreadNames}. */
    private boolean named;

    /**
     * Names of JVM threads whose Java code runs only because the agent asked for it (the "Notification Thread"
     * builds the GC notifications of the agent's heap guard): such a thread is the agent's from its first probe
     * on, before the agent's own code runs on it. Without this, the JDK's work for the first notification (tens to
     * hundreds of objects) lands in the profile whenever a collection happens, so two runs of one program differ.
     */
    private static volatile String[] agentThreadNames = new String[0];

    /** Makes the threads named {@code name} agent threads from their first probe on. */
    public static void adoptThreadsNamed(String name) {
        synchronized (LOCK) {
            String[] old = agentThreadNames;
            String[] names = new String[old.length + 1];
            System.arraycopy(old, 0, names, 0, old.length);
            names[old.length] = name;
            agentThreadNames = names;
        }
    }

    /** Whether {@link #of} ever made a state for a thread other than the caller (then a thread's first probe looks it up). */
    private static volatile boolean foreignStates;

    private ThreadState(Thread t, long id) {
        thread = t;
        this.id = id;
        root = new Node(Node.ROOT, null, this, 0);
        foldNode = new Node(Node.FOLD, null, new ThreadState(), 0);   // its own sink: no store shared by threads
        sites = new Node(Node.ROOT, null, this, 0);
        siteTraces = new Node(Node.ROOT, null, this, 0);
        sampled = new Node(Node.ROOT, null, this, 0);
        slots = new Node[16];
        enroll(root);
        random = id * 0x9E3779B97F4A7C15L ^ System.nanoTime();
        sampleInterval = sampleLeft = Sampler.nextInterval(this);
    }

    /** The innermost profiled node of this thread. */
    @ForceInline
    @Hidden
    public Node currentNode() {
        return slots[currentSlot];
    }

    /** Makes {@code n}, a node of this thread's call tree, the current one (for tests; the probes store slots). */
    @Hidden
    public void setCurrent(Node n) {
        if (n.slot < 0) enroll(n);
        currentSlot = n.slot;
    }

    /** Gives a node of this thread's call tree its slot, so that it can be made current with an int store. */
    @DontInline
    @Hidden
    private void enroll(Node n) {
        if (n.parent != null && n.parent.slot < 0) enroll(n.parent);
        Node[] tab = slots;
        int i = slotCount;
        if (i == tab.length) {            // not Arrays.copyOf: the JDK's allocation probes would charge it to the program
            Node[] bigger = new Node[i * 2];
            System.arraycopy(tab, 0, bigger, 0, i);
            slots = tab = bigger;
        }
        tab[i] = n;
        n.parentSlot = n.parent == null ? i : n.parent.slot;
        n.slot = i;
        slotCount = i + 1;
    }

    /**
     * A sink: the thread of a fold node, whose exits store into its {@link #currentSlot} and nowhere else. Each thread's
     * {@link #foldNode} has a sink of its own (a program past its node budget folds most of its calls: 1.6 billion on
     * checkstyle, so a shared one would be a store every thread makes to one cache line). No tree, no thread.
     */
    private ThreadState() {
        thread = null;
        id = -2;
        root = sites = siteTraces = sampled = foldNode = null;
    }

    /**
     * A direct-mapped cache in front of the ThreadLocal, indexed by thread id: a probe pays two loads and a
     * compare instead of the ThreadLocal's hash lookup (measured ~9% of the exact mode's cost on javac). Entries
     * are published racily; a ThreadState's {@code thread} is final, so a reader sees either null, another
     * thread's state (then the compare fails) or its own.
     */
    private static final ThreadState[] CACHE = new ThreadState[1024];

    /**
     * The sink of {@link #OFF} (see the sink constructor): the exit probe stores the caller's node into its node's
     * thread without asking whether the node folded, so a fold node's exit lands in a sink and the real thread's
     * current node stays as it was. Shared by all threads, but only code entered outside the exact mode reaches it
     * (until a mode switch has retransformed the classes).
     */
    static final ThreadState SINK = new ThreadState();

    /**
     * The node handed to methods entered outside the exact mode. Its exit writes into {@link #SINK}, so the tree
     * stays consistent across switches: frames entered before a switch still restore their caller on exit.
     */
    static final Node OFF = new Node(Node.FOLD, null, SINK, 0);

    @ForceInline
    @Hidden
    public static ThreadState current() {
        Thread t = Thread.currentThread();
        ThreadState s = CACHE[(int) t.getId() & 1023];
        if (s != null && s.thread == t) return s;
        return miss(t);
    }

    /**
     * The state of every thread the JVM is still attaching (its Thread object is being constructed: no name and no
     * holder yet). It is busy, so such a thread's probes record nothing, and shared, so they take no lock: a
     * contended monitor in a half-made thread crashes HotSpot (JDK 25: SIGSEGV in set_thread_status while the
     * DestroyJavaVM thread was attached and a sites-mode trace waited on a lock).
     */
    private static final ThreadState ATTACHING = attaching();

    private static ThreadState attaching() {
        ThreadState s = new ThreadState(null, -1);
        s.busy = 1;
        return s;
    }

    @DontInline
    @Hidden
    private static ThreadState miss(Thread t) {
        if (t.getName() == null) return ATTACHING;
        ThreadState s = CURRENT.get();
        if (s.named || nameChecked(s, t)) CACHE[(int) t.getId() & 1023] = s;
        return s;
    }

    /**
     * Once per thread: adopts it as an agent thread if its name is one of {@link #agentThreadNames}. A thread the
     * JVM is still attaching has no name yet (and no holder: {@code isDaemon} throws): it stays out of the cache
     * and is looked at again on its next probe. Nothing here may throw into the program.
     */
    @Hidden
    private static boolean nameChecked(ThreadState s, Thread t) {
        String[] names = agentThreadNames;
        if (names.length == 0) {
            s.named = true;
            return true;
        }
        s.busy++;                              // getName and equals may be instrumented: they record nothing
        try {
            String name = t.getName();
            if (name == null) return false;
            s.named = true;
            for (String n : names) {
                if (n.equals(name)) {
                    s.agentThread = true;
                    s.busy++;                  // as AgentThreads.markCurrent: this thread never records again
                    break;
                }
            }
            return true;
        } catch (Throwable e) {
            return false;
        } finally {
            s.busy--;
        }
    }

    @Hidden
    private static ThreadState register(ThreadState ts) {
        synchronized (LOCK) {
            if (count == all.length) {
                ThreadState[] bigger = new ThreadState[count * 2];
                System.arraycopy(all, 0, bigger, 0, count);
                all = bigger;
            }
            all[count++] = ts;
        }
        return ts;
    }

    @Hidden
    private static ThreadState find(Thread t) {
        for (int i = 0; i < count; i++) if (all[i].thread == t) return all[i];
        return null;
    }

    /**
     * The state of another thread (the JFR sampler charges a sample to the thread that allocated): the one it has,
     * else a new one, which the thread itself finds at its first probe. A thread that ended before its samples were
     * read ({@code t} null) gets a state of its own id and name, not alive.
     */
    public static ThreadState of(Thread t, long id, String name) {
        synchronized (LOCK) {
            for (int i = 0; i < count; i++) {
                ThreadState s = all[i];
                if (t != null ? s.thread == t : s.id == id) return s;
            }
            foreignStates = true;
            return register(new ThreadState(t != null ? t : new Thread(null, null, name != null ? name : "thread-" + id, 0), id));
        }
    }

    /** Every thread state ever created, dead threads included, in creation order. */
    public static ThreadState[] snapshot() {
        synchronized (LOCK) {
            ThreadState[] out = new ThreadState[count];
            System.arraycopy(all, 0, out, 0, count);
            return out;
        }
    }

    /** Runs {@link #growthCheck} on the current thread as the agent's work: nothing it allocates is recorded, nothing thrown escapes. */
    @DontInline
    @Hidden
    static void checkGrowth() {
        Runnable r = growthCheck;
        if (r == null) return;
        ThreadState ts = current();
        ts.busy++;
        try {
            r.run();
        } catch (Throwable ignored) {
            // the collector's cycle checks again
        } finally {
            ts.busy--;
        }
    }

    /** The flat node of account {@code a} on this thread. */
    @ForceInline
    @Hidden
    Node accountNode(int a) {
        Node[] arr = accounts;
        Node n = a < arr.length ? arr[a] : null;
        return n != null ? n : newAccountNode(a);
    }

    @DontInline
    @Hidden
    private Node newAccountNode(int a) {
        if (a >= accounts.length) {
            Node[] bigger = new Node[Math.max(a + 1, accounts.length * 2)];
            System.arraycopy(accounts, 0, bigger, 0, accounts.length);
            accounts = bigger;
        }
        Node n = new Node(Node.ROOT, null, this, 0);
        accounts[a] = n;
        return n;
    }

    /** The per-account nodes for the collector (entries may be null). */
    public Node[] accountsSnapshot() { return accounts; }

    /**
     * Method entry: the thread's state, then the call site's inline cache in the caller's node (see
     * {@link Node#siteChildren}): the entry validates the cached child by its method id, so a stale site number
     * (the callee was reached through JDK code, reflection or a lambda) only costs a miss, never a wrong node.
     *
     * Out of line in C1 and C2 code alike ({@code @DontInline}): inlined, it was compiled again at every method
     * entry of every instrumented method and of every instrumented callee C2 inlined into it — in C1 code it made
     * every frame about 5× larger (docs/reliability.md §1b), in C2 code it made h2's exact run ~18 % more CPU
     * than one call per entry (docs/benchmark.md "Round 6"). RecorderShapeTest checks the annotation.
     */
    @DontInline
    @Hidden
    static Node enterCurrent(int mid) {
        if (Mode.current() != Mode.EXACT) return OFF;
        ThreadState ts = current();
        if (ts.busy != 0) return ts.foldNode;   // the agent's own work on this thread is not part of the tree
        Node cur = ts.currentNode();
        Node[] ic = cur.siteChildren;
        int site = cur.callSite;
        Node c = ic != null ? ic[site & (ic.length - 1)] : cur.lastChild;
        if (c != null && c.method == mid) {
            c.calls++;
            ts.currentSlot = c.slot;
            return c;
        }
        return ts.enterMiss(cur, mid, site);
    }

    @DontInline
    @Hidden
    private Node enterMiss(Node cur, int mid, int site) {
        if (cur.depth >= maxDepth) {
            cur.folded++;
            return foldNode;
        }
        Node c = cur.child(mid, nodes < maxNodes);
        if (c == null) {                 // a new context, and the node budget is spent
            cur.folded++;
            return foldNode;
        }
        if (c.slot < 0) enroll(c);       // a new node: only its own thread makes and enters them
        cur.cacheChild(site, c);
        if (c.calls == 0 && c.entrySite == 0) c.entrySite = site;
        c.calls++;
        currentSlot = c.slot;
        return c;
    }
}
