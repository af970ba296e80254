/** Heap dumps on request, through the JDK's HotSpot diagnostic MXBean. */
package io.heaplens.agent.heap;
