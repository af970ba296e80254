/**
 * What instrumented code calls (the recorder): {@code Recorder}, the per-thread call trees ({@code ThreadState},
 * {@code Node}), record keys, the mode, accounts, lifetimes and the sampled mode's sampler. Loaded by the bootstrap
 * class loader so JDK classes can call it; it never imports {@code io.heaplens.agent} (checked by
 * test/unit/architecture.test.ts).
 */
package io.heaplens.runtime;
