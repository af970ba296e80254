/**
 * The HeapLens agent, loaded by the application class loader (the recorder it feeds, {@code io.heaplens.runtime}, is on
 * the bootstrap class path and never imports it). Its packages, in the order a launch meets them:
 * {@code boot} (the -javaagent entry), {@code start} (the common start and one starter per mode), {@code core}
 * (options, id tables, names and patterns every part reads), {@code instrument} (the class transformer),
 * {@code control} (re-instrumenting the running JVM when the mode changes), {@code collect} (the collector, the one
 * walk over the call trees and the profile file), {@code wire} (the live channel), {@code jfr}, {@code threads} and
 * {@code heap}. The map of the whole product is docs/architecture.md.
 */
package io.heaplens.agent;
