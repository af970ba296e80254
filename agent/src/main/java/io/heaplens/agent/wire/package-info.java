/**
 * The live channel (docs/protocol.md): opening it ({@code Channel}), the server on 127.0.0.1 with its token handshake,
 * frames, the per-client delta of the call trees ({@code DeltaTracker}, a {@code collect.TreeOutput}), requests, and
 * deadlock events.
 */
package io.heaplens.agent.wire;
