/**
 * The start-up cache: the JDK classes the agent retransforms at every start, kept as transformed bytes together
 * with the id tables they refer to, so a later start with the same JDK build, agent build and options reuses them
 * instead of instrumenting java.base again. Every entry is checked against the class bytes the JVM hands over;
 * anything that does not match, or a file that cannot be read, falls back to transforming.
 */
package io.heaplens.agent.cache;
