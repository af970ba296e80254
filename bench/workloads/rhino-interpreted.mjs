// Outside the five bench programs: the same Rhino load (bench/workloads/rhino.mjs) in Rhino's own bytecode
// interpreter (`-opt -1`, as embedders that may not define classes run it). The interpreter's loop is one method of
// 6,791 bytes of bytecode that runs the whole time: the JIT must still compile it once the agent's probes are in
// (HotSpot compiles no method over 8,000 bytes; docs/benchmark.md "Round 21").
import rhino from './rhino.mjs';

export default {
  ...rhino,
  name: 'rhino-interpreted',
  description: 'Rhino 1.7 runs the same JavaScript load in its bytecode interpreter (-opt -1)',
  command(ctx, runDir) {
    const c = rhino.command(ctx, runDir);
    return { ...c, args: ['-opt', '-1', ...c.args] };
  },
};
