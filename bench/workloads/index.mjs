import javac from './javac.mjs';
import xalan from './xalan.mjs';
import fop from './fop.mjs';
import luindex from './luindex.mjs';
import h2 from './h2.mjs';
import smoke from './smoke.mjs';

// The real workloads in table order; `smoke` runs only when asked for (or with --smoke).
// Run (and table) order: quickest under the agent first, so a bench stopped early still has most workloads.
export const WORKLOADS = [luindex, fop, h2, xalan, javac];
export const ALL = [...WORKLOADS, smoke];
export const byName = (n) => ALL.find((w) => w.name === n);
