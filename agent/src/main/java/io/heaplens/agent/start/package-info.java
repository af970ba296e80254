/**
 * Start-up wiring: {@code AgentMain} runs the common start ({@code Launch}: recorder limits, mode, layout, id tables,
 * transformer, retransformation, collector) and, around its steps, one {@code Starter} per mode or optional part the
 * options ask for (accounts, lifetime, the JFR sampler, threads, the live channel).
 */
package io.heaplens.agent.start;
