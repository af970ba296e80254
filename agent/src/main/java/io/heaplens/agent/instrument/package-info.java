/**
 * The class transformer (ASM): call-tree probes, allocation probes, the constructor analysis (the map M of Binder,
 * "Portable Profiling of Memory Allocation in Java", 2006, Figure 2), account probes and the lifetime mode's use
 * probes. It fills the id tables ({@code core.Registry}); the probes call {@code io.heaplens.runtime}.
 */
package io.heaplens.agent.instrument;
