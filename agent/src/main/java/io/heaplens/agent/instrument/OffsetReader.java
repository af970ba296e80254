package io.heaplens.agent.instrument;

import org.objectweb.asm.ClassReader;

/** A ClassReader that remembers the bytecode offset of the instruction being read, so sites keep their original bci. */
final class OffsetReader extends ClassReader {
    int offset;

    OffsetReader(byte[] bytes) { super(bytes); }

    @Override
    protected void readBytecodeInstructionOffset(int bytecodeOffset) { offset = bytecodeOffset; }
}
