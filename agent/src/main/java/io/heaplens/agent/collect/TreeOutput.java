package io.heaplens.agent.collect;

import io.heaplens.runtime.Node;
import io.heaplens.runtime.ThreadState;

import java.io.IOException;
import java.util.List;

/**
 * What {@link TreeWalker} hands the threads' call trees to: the profile file ({@code ProfileWriter}), the live
 * channel's deltas ({@code wire.DeltaTracker}) and the memory accounts ({@code AccountsWriter}). The walker decides
 * what is walked, in which order, and what a node's rows are (RecordRows, each with its estimated bytes); an output
 * only encodes or sums. JaCoCo's agent splits it the same way: one walk over the runtime data, and outputs (file, TCP)
 * behind {@code IAgentOutput}.
 *
 * Calls per thread: {@link #beginThread}; per tree {@link #beginTree}, the tree's nodes depth first ({@link #node},
 * then its children, then {@link #endNode}), {@link #endTree}; then {@link #endThread}.
 */
public interface TreeOutput {
    default void beginThread(ThreadState ts) throws IOException {}

    /** @param tree one of TreeWalker.ROOT, SITES, SITE_TRACES, SAMPLED (docs/format.md "Modes") */
    default void beginTree(ThreadState ts, String tree) throws IOException {}

    /**
     * @param callLine in the exact tree, the source line of the call in the parent's method that entered this node (0: not known)
     * @param records  the node's records table as the walker read it (null: the node has none)
     * @param rows     its rows in RecordRows' layout with {@link RecordRows#ESTIMATE} filled in (null when records is null);
     *                 the walker reuses the list and its arrays for the next node, so copy what you keep
     * @param hasChildren whether the walker found children (walked next); a node with one has no table
     *                    ({@link Node#onlyChild})
     */
    void node(Node n, int callLine, long[] records, List<long[]> rows, boolean hasChildren) throws IOException;

    default void endNode(Node n, boolean hasChildren) throws IOException {}

    default void endTree(ThreadState ts, String tree) throws IOException {}

    default void endThread(ThreadState ts) throws IOException {}
}
