/**
 * What every part of the agent reads: the options ({@code Options}), the id tables of methods, allocation sites and
 * types ({@code Registry}, also the runtime's {@code Keys.Resolver}), JVM descriptor and Java name conversions
 * ({@code Types}) and package patterns ({@code PackageFilter} for include/exclude, {@code AccountPatterns} for memory
 * accounts). No thread, no I/O.
 */
package io.heaplens.agent.core;
