/**
 * The collector thread and what it writes: the one walk over the threads' call trees ({@code TreeWalker}) behind an
 * output interface ({@code TreeOutput}) whose outputs are the profile file ({@code ProfileWriter}, docs/format.md),
 * the live channel's deltas ({@code wire.DeltaTracker}) and the memory accounts ({@code AccountsWriter}); the shared
 * JSON shapes ({@code Tables}, {@code Json}), size estimates ({@code TypeSizes}), exit hook, heap guard, lifetime
 * watcher and the memory chart's sampler.
 */
package io.heaplens.agent.collect;
