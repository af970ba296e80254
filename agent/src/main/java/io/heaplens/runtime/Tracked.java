package io.heaplens.runtime;

/**
 * Lifetime mode: implemented by the topmost profiled class of each hierarchy, next to its record field, so that a
 * get operation whose operand's type is not known statically (checkcast, instanceof, monitorenter/exit, athrow:
 * Pan 2001 (HUP) Table 3) can find the object's record without reflection ({@link Lifetimes#useAny}).
 */
public interface Tracked {
    /** The object's lifetime record (null when the object is not sampled). */
    Object $hl$rec();
}
