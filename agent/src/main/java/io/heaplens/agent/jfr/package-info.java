/**
 * JFR: the sampled mode's sampler fed by HotSpot's allocation samples ({@code sampler=jfr}) and the reader that turns
 * a JFR recording into a profile ({@code JfrImport}, behind {@code heaplens import}; docs/jfr.md).
 */
package io.heaplens.agent.jfr;
