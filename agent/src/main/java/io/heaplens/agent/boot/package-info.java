/**
 * The -javaagent / attach entry ({@code Premain}): puts the recorder ({@code io.heaplens.runtime}) on the bootstrap class
 * path when the manifest could not, parses the options and calls {@code start.AgentMain} by reflection, so no
 * recorder class is ever loaded from the application class path first. Any failure leaves the program unprofiled.
 */
package io.heaplens.agent.boot;
