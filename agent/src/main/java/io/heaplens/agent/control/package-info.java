/**
 * Changing the instrumentation of the running JVM: mode switches and their timeline ({@code ModeControl}), batched
 * retransformation ({@code Retransform}), the sweep for classes loaded past the transformer ({@code Sweep}) and the
 * instrumenter's warm-up before it is installed ({@code WarmUp}), and which compiler compiles the agent's own code
 * ({@code AgentJit}).
 */
package io.heaplens.agent.control;
