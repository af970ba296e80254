import javac from './javac.mjs';
import xalan from './xalan.mjs';
import fop from './fop.mjs';
import luindex from './luindex.mjs';
import h2 from './h2.mjs';
import smoke from './smoke.mjs';
import maven from './maven.mjs';
import checkstyle from './checkstyle.mjs';
import rhino from './rhino.mjs';
import rhinoInterpreted from './rhino-interpreted.mjs';

// The real workloads in table order; `smoke` runs only when asked for (or with --smoke).
// Run (and table) order: quickest under the agent first, so a bench stopped early still has most workloads.
export const WORKLOADS = [luindex, fop, h2, xalan, javac];
// Programs outside the five, for checking that a change is not tuned to them (issue 26): only when asked for.
export const OUTSIDE = [maven, checkstyle, rhino, rhinoInterpreted];
export const ALL = [...WORKLOADS, smoke, ...OUTSIDE];
export const byName = (n) => ALL.find((w) => w.name === n);
