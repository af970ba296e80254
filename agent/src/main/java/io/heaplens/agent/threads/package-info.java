/**
 * The threads profile ({@code threads=true}, docs/threads.md): CPU samples per thread, monitor contention and deadlocks.
 */
package io.heaplens.agent.threads;
