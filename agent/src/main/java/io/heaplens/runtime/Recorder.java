package io.heaplens.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.Hidden;
import jdk.internal.vm.annotation.ForceInline;

/**
 * The probes the instrumenter inserts call these static methods. What is {@code @ForceInline} here is only the
 * mode's dispatch (a volatile load and a compare) and the exit's one store; the work of the exact mode's allocation
 * fast paths is in methods of 36 to 325 bytes of bytecode without the annotation ({@link #obj}, {@link #arr},
 * {@link Node#record(long, long, long, long)}, {@link #jexact}): C1, which inlines only methods up to 35 bytes
 * (C1MaxInlineSize) unless forced, calls them, so C1 code stays small (its frames too: usable stack depth, issue 20)
 * and quick to compile; C2 inlines them where the call is hot (FreqInlineSize = 325). The entry's work
 * ({@link ThreadState#enterCurrent}) is a call in C2 code too: inlined into every method and every inlined callee,
 * it cost more JIT and run time than the call (docs/benchmark.md "Round 6").
 * Everything else (other modes, slow paths, the exception handler's exit) is {@code @DontInline}.
 * RecorderShapeTest checks the sizes.
 * Profiled methods hold their MCT node in a local and pass it; code without a node (the JDK, excluded packages)
 * calls the {@code j*} variants, which charge the innermost profiled node of the calling thread, kept apart by the
 * call that node's frame is inside ({@link Node#callSite}: the line that asked for the allocation). Classes
 * instrumented without the call tree (sites, sampled) call {@link #aobj} and {@link #aarr} instead: one call each.
 * Nothing here calls instrumented code, so the probes never re-enter themselves.
 *
 * Every probe first reads the mode ({@link Mode#current()}, a JIT constant): exact records into the call tree,
 * sites into the thread's flat per-site node, sampled counts bytes down to the next sample, paused does nothing.
 */
public final class Recorder {
    /**
     * The upper bound of Integer's box cache (127 unless -XX:AutoBoxCacheMax raised it), measured when this class
     * initialises — before any class is instrumented — by comparing boxes' identity. A constant for the JIT.
     */
    public static final int INT_CACHE_HIGH = intCacheHigh();

    @Hidden
    private static int intCacheHigh() {
        int lo = 127, hi = Integer.MAX_VALUE - 129;       // lo is cached; find the largest cached value
        while (lo < hi) {
            int mid = lo + (hi - lo + 1) / 2;
            if (Integer.valueOf(mid) == Integer.valueOf(mid)) lo = mid; else hi = mid - 1;
        }
        return lo;
    }

    @Hidden
    private Recorder() {}

    // ---- method call tree -------------------------------------------------------------------------------
    /**
     * The entry's work, the mode check included, is in {@link ThreadState#enterCurrent}: a call in C1 and C2 code,
     * so what is inlined at every method entry is the call alone.
     */
    @ForceInline
    @Hidden
    public static Node enter(int method) {
        return ThreadState.enterCurrent(method);
    }

    /**
     * A method whose entry comes at its first call or allocation (leaves=skip, see EntryPlacement in the agent), where
     * some paths have entered and others not: enters unless entered.
     */
    @ForceInline
    @Hidden
    public static Node enterIfNot(Node n, int method) {
        return n != null ? n : ThreadState.enterCurrent(method);
    }

    /** The same method's return where some paths have entered and others not. */
    @ForceInline
    @Hidden
    public static void exitIfEntered(Node n) {
        if (n != null) n.thread.currentSlot = n.parentSlot;
    }

    /**
     * At every return: the caller's node becomes current again. No branch: a fold node's thread is a sink (see
     * {@link ThreadState#SINK}), so its exit writes there and leaves the real thread's current node as it was.
     * (With {@code if (!n.fold)} here, C2 pruned the fold path while no call had folded yet; once a program spent its
     * node budget, every compiled method with an inlined exit was deoptimised and compiled again: 130 times on
     * checkstyle, docs/benchmark.md "Round 8".)
     */
    @ForceInline
    @Hidden
    public static void exit(Node n) {
        n.thread.currentSlot = n.parentSlot;
    }

    /**
     * At the start of each exception handler of a profiled method: its node is the thread's current node again. The
     * method-wide handlers of the frames the exception left have already made it so, except after a constructor threw
     * before super(...) (no handler covers that code). A fold node writes into its sink. Out of line: catches are rare.
     */
    @DontInline
    @Hidden
    public static void caught(Node n) {
        if (n != null) n.thread.currentSlot = n.slot;     // null: a late entry (EntryPlacement) had not happened
    }

    /**
     * The same, in the method-wide exception handler: a call, not inlined code. Exceptions are rare, but the handler
     * is compiled into every instrumented method (and into every method the JIT inlines one into).
     */
    @DontInline
    @Hidden
    public static void unwind(Node n) {
        if (n != null) n.thread.currentSlot = n.parentSlot;   // as exit: a fold node writes into its sink; null: not entered
    }

    // ---- allocations in profiled methods ------------------------------------------------------------------
    // Each probe below is inlined at every allocation site of every instrumented method, by C1 as well as C2, so
    // only the exact mode's fast path is inline; every other mode takes one call to an out-of-line method. A fold
    // node needs no test here: its record table never matches, so its allocations take Node.record's slow path,
    // which charges them to the thread's current node (Node.records). With a test, C2 compiled the fold path as a
    // trap while nothing folded, and deoptimised the method once calls began to fold (checkstyle: 43 times,
    // docs/benchmark.md "Round 10"). Inlined code is what the JIT compiles again at every site (issue 26: the JIT
    // threads were half of the exact mode's added CPU) and what C1 keeps in its frames (issue 20: usable stack depth).
    /**
     * After {@code new} in a profiled method. Not {@code @ForceInline} and more than 35 bytes: C1 calls it (measured
     * on the depth fixture, JDK 17: this probe inlined into C1 code cut the usable stack depth in half), C2 inlines
     * it where hot. An object's record holds only a count (sizes are applied when written), so the first slot of the
     * node's record table is tried here with one add; anything else goes to {@link Node#record(long, long, long, long)}.
     */
    @Hidden
    public static void obj(Node n, int key) {
        int m = Mode.current();
        if (m == Mode.EXACT) {
            long[] tab = n.records;
            if (tab != null) {
                int b = Node.slot(tab, key);
                if (tab[b] == key + 1L) { tab[b + 1]++; return; }
            }
            n.record(key, 1L, 0L, 0L);
        } else {
            objOther(m, key);
        }
    }

    @DontInline
    @Hidden
    private static void objOther(int m, int key) {
        if (m == Mode.LIFETIME) Lifetimes.tick(Keys.objectSize(key));
        else if (m != Mode.PAUSED) charge(null, m, key, 1, 0, 0);
    }

    /** After {@code newarray}/{@code anewarray} in a profiled method: called by C1, inlined by C2 where hot (as {@link #obj}). */
    @Hidden
    public static void arr(int length, Node n, int key, int elementSize) {
        int m = Mode.current();
        if (m == Mode.EXACT) n.record(key, 1L, length, Layout.arrayBytes(length, elementSize));
        else arrOther(m, length, key, elementSize);
    }

    @DontInline
    @Hidden
    private static void arrOther(int m, int length, int key, int elementSize) {
        if (m == Mode.LIFETIME) Lifetimes.tick(Layout.arrayBytes(length, elementSize));
        else if (m != Mode.PAUSED) charge(null, m, key, 1, length, Layout.arrayBytes(length, elementSize));
    }

    public static void multi(Node n, int key, int d1, int d2) { multiDims(n, key, new int[] {d1, d2}); }

    public static void multi(Node n, int key, int d1, int d2, int d3) { multiDims(n, key, new int[] {d1, d2, d3}); }

    @DontInline
    @Hidden
    public static void multiDims(Node n, int key, int[] dims) {
        int m = Mode.current();
        if (m == Mode.PAUSED) return;
        long[][] levels = MultiArrays.levels(dims);
        for (int i = 0; i < levels.length; i++) {
            long arrays = levels[i][0];
            if (arrays == 0) break;                       // nothing allocated at this level or below
            int k = key + i;
            long bytes = arrays * Layout.arrayBytes(dims[i], Keys.elementSize(k));
            if (m == Mode.EXACT && n != null && !n.isFold()) n.record(k, arrays, levels[i][1], bytes);
            else charge(null, m, k, arrays, levels[i][1], bytes);
        }
    }

    /** A call-site allocation (array clone, reflective or Unsafe array, Object.clone): the type is known at run time. */
    @DontInline
    @Hidden
    public static void dyn(Object o, Node n, int site) {
        int m = Mode.current();
        if (o == null || m == Mode.PAUSED) return;
        ThreadState ts = ThreadState.current();
        if (ts.busy != 0) return;
        Class<?> c = o.getClass();
        int key = Keys.dynamic(site, c, ts);
        if (key < 0) return;
        long len = c.isArray() ? java.lang.reflect.Array.getLength(o) : 0;
        long bytes = c.isArray() ? Layout.arrayBytes(len, Keys.elementSize(key)) : 0;
        if (m == Mode.EXACT && n != null && !n.isFold()) n.record(key, 1, len, bytes);
        else charge(ts, m, key, 1, len, bytes);
    }

    // ---- boxing, counted at the call (see AllocatingCalls): only values outside the box caches allocate -------
    @Hidden @ForceInline public static void boxInt(int v, Node n, int key) { if (v < -128 || v > INT_CACHE_HIGH) boxed(v, n, key); }
    @Hidden @ForceInline public static void boxLong(long v, Node n, int key) { if (v < -128 || v > 127) boxed(v, n, key); }
    @Hidden @ForceInline public static void boxShort(int v, Node n, int key) { if (v < -128 || v > 127) boxed(v, n, key); }
    @Hidden @ForceInline public static void boxChar(int v, Node n, int key) { if (v > 127) boxed(v, n, key); }
    @Hidden @ForceInline public static void jboxInt(int v, int key) { if (v < -128 || v > INT_CACHE_HIGH) jboxed(v, key); }
    @Hidden @ForceInline public static void jboxLong(long v, int key) { if (v < -128 || v > 127) jboxed(v, key); }
    @Hidden @ForceInline public static void jboxShort(int v, int key) { if (v < -128 || v > 127) jboxed(v, key); }
    @Hidden @ForceInline public static void jboxChar(int v, int key) { if (v > 127) jboxed(v, key); }

    @DontInline
    @Hidden
    private static void boxed(long v, Node n, int key) {
        obj(n, key);
        ThreadState ts = n.isFold() ? ThreadState.current() : n.thread;   // a fold node's thread is a sink
        ts.boxValue = v;
        ts.boxPending = true;
    }

    @DontInline
    @Hidden
    private static void jboxed(long v, int key) {
        ThreadState ts = ThreadState.current();
        if (ts.busy != 0) return;
        jobj(key);
        ts.boxValue = v;
        ts.boxPending = true;
    }

    /** Inside valueOf, after its `new`: counts only a box that no call-site probe counted (see boxPending). */
    @Hidden
    public static void boxInside(long v, int key) {
        ThreadState ts = ThreadState.current();
        if (ts.busy != 0) return;
        if (ts.boxPending && ts.boxValue == v) {
            ts.boxPending = false;
            return;
        }
        jobj(key);
    }

    /** After Array.newInstance(Class, int...): the new array and every array it holds, level by level. */
    @DontInline
    @Hidden
    public static void dynMulti(Object o, Node n, int site) {
        Object[] level = {o};
        for (int depth = 0; depth < 255 && level.length > 0; depth++) {
            int next = 0;
            for (Object a : level) {
                dyn(a, n, site);
                if (a instanceof Object[]) next += ((Object[]) a).length;
            }
            Object[] children = new Object[next];
            int i = 0;
            for (Object a : level) {
                if (!(a instanceof Object[])) continue;
                for (Object e : (Object[]) a) if (e != null && e.getClass().isArray()) children[i++] = e;
            }
            level = new Object[i];                         // no JDK helper: it is instrumented
            System.arraycopy(children, 0, level, 0, i);
        }
    }

    // ---- allocations in code without a node (JDK, excluded packages) -----------------------------------
    // Inlined at every allocation site of the JDK: the mode's dispatch only.
    @ForceInline
    @Hidden
    public static void jobj(int key) {
        int m = Mode.current();
        if (m == Mode.EXACT) jexact(key, 0, 0);
        else if (m != Mode.PAUSED) jOther(m, key, 1, 0, 0);
    }

    @ForceInline
    @Hidden
    public static void jarr(int length, int key, int elementSize) {
        int m = Mode.current();
        if (m == Mode.EXACT) jexact(key, length, Layout.arrayBytes(length, elementSize));
        else if (m != Mode.PAUSED) jOther(m, key, 1, length, Layout.arrayBytes(length, elementSize));
    }

    /**
     * The exact mode's j-probe: charged to the thread's innermost profiled node, kept apart by the call that node's
     * frame is inside. More than 35 bytes and not forced inline: a call in C1 code, inlined by C2 where hot.
     */
    @Hidden
    static void jexact(int key, long elements, long bytes) {
        ThreadState ts = ThreadState.current();
        if (ts.busy != 0) return;                          // the agent's own work: not the program's time either
        Node c = ts.currentNode();
        c.record(key | (long) c.callSite << 32, 1L, elements, bytes);   // as Node.recordAt
    }

    /** The j-probes in the other modes (sites, sampled, accounts, lifetime). */
    @DontInline
    @Hidden
    private static void jOther(int m, int key, long count, long elements, long bytes) {
        ThreadState ts = ThreadState.current();
        if (ts.busy != 0) return;                          // the agent's own work: not the program's time either
        if (m == Mode.SITES) site(ts, key, count, elements, bytes);
        else if (m == Mode.LIFETIME) Lifetimes.tick(bytes > 0 ? bytes : count * Keys.objectSize(key));
        else other(ts, m, key, count, elements, bytes);
    }

    // ---- the same, out of line: the probes of classes instrumented for sites or sampled (no call tree) -------
    // Each instrumented allocation of those modes is one call and nothing else: no inlined mode check (with C2's
    // uncommon trap for the exact branch) at every site of every JDK method, so the JIT compiles smaller code and the
    // instrumented methods keep their inlining (docs/benchmark.md "Round 8"). The probes obey whatever mode is in
    // effect, as the inline ones do: a switch to a mode of the same level (accounts, lifetime) keeps these bytes.
    @DontInline
    @Hidden
    public static void aobj(int key) {
        int m = Mode.current();
        if (m == Mode.SITES) {
            ThreadState ts = ThreadState.current();
            if (ts.busy == 0) site(ts, key, 1L, 0L, 0L);
        } else if (m == Mode.SAMPLED) {
            if (Mode.sampledByJvm) return;
            ThreadState ts = ThreadState.current();
            if (ts.busy == 0) Sampler.allocate(ts, key, Keys.objectSize(key), 0L);
        } else {
            jobj(key);
        }
    }

    @DontInline
    @Hidden
    public static void aarr(int length, int key, int elementSize) {
        int m = Mode.current();
        if (m == Mode.SITES) {
            ThreadState ts = ThreadState.current();
            if (ts.busy == 0) site(ts, key, 1L, length, Layout.arrayBytes(length, elementSize));
        } else if (m == Mode.SAMPLED) {
            if (Mode.sampledByJvm) return;
            ThreadState ts = ThreadState.current();
            if (ts.busy == 0) Sampler.allocate(ts, key, Layout.arrayBytes(length, elementSize), length);
        } else {
            jarr(length, key, elementSize);
        }
    }

    /** Before a two-dimensional multianewarray in code without a node (the streaming path has no temporaries). */
    @Hidden
    public static void jmulti(int d1, int d2, int key) {
        if (d1 < 0 || d2 < 0) return;                     // the allocation is about to fail
        multiDims(null, key, new int[] {d1, d2});
    }

    // ---- shared paths ---------------------------------------------------------------------------------------
    /** Charges an allocation where the caller had no usable node: the thread's current node, or the other modes. */
    @DontInline
    @Hidden
    private static void charge(ThreadState ts, int m, int key, long count, long elements, long bytes) {
        if (ts == null) {
            ts = ThreadState.current();
            if (ts.busy != 0) return;
        }
        if (m == Mode.EXACT) { Node c = ts.currentNode(); c.recordAt(key, c.callSite, count, elements, bytes); }
        else other(ts, m, key, count, elements, bytes);
    }

    /** Sites mode: the thread's exact per-site counter (a dense array, see Node.recordDense), and a trace now and then. */
    @ForceInline
    @Hidden
    private static void site(ThreadState ts, int key, long count, long elements, long bytes) {
        long n = ts.sites.recordDense(key, count, elements, bytes);
        if (Sampler.wantsTrace(n)) Sampler.siteTrace(ts, key);
    }

    /** Sites and sampled modes. Objects carry no bytes in records (sizes are applied when written). */
    @DontInline
    @Hidden
    private static void other(ThreadState ts, int m, int key, long count, long elements, long bytes) {
        if (m == Mode.SITES) {
            site(ts, key, count, elements, bytes);
        } else if (m == Mode.SAMPLED) {
            // With JFR sampling only its consumer thread writes the sampled trees; probes left in code that was
            // running when the mode switched record nothing.
            if (!Mode.sampledByJvm) Sampler.allocate(ts, key, bytes > 0 ? bytes : count * Keys.objectSize(key), elements);
        } else if (m == Mode.ACCOUNTS) {
            ts.accountNode(ts.account).record(key, count, elements, bytes);
        } else if (m == Mode.LIFETIME) {
            Lifetimes.tick(bytes > 0 ? bytes : count * Keys.objectSize(key));   // the lifetime mode's byte clock
        }
    }
}
