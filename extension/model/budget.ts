// Allocation budget files (docs/budgets.md, schemas/heaplens-budget.schema.json): parsing and validation.
// A budget file lists rules; each selects allocations of a profile (by method, package, type, array element
// type, thread) and caps one metric. budget-measure.ts measures them.
import { Metric, METRICS } from './aggregate';

export const BUDGET_VERSION = 1;

/**
 * Kinds of JDK-internal allocations a rule can leave out (docs/budgets.md, "What is stable"):
 *  - `jdk-frames`: everything under a JDK frame (class loading `ClassLoader.loadClass`, invokedynamic
 *    linkage `MethodHandleNatives.linkCallSite`/`linkDynamicConstant`), which runs once per JVM, on
 *    whichever thread gets there first;
 *  - `jdk-class-init`: allocations made by the static initialiser (`<clinit>`) of a JDK class, which runs
 *    once per JVM on whichever thread first touches the class, the profiler's own threads included.
 */
export type IgnoreKind = 'jdk-frames' | 'jdk-class-init';
export const IGNORE_KINDS: readonly IgnoreKind[] = ['jdk-frames', 'jdk-class-init'];

export interface BudgetRule {
  /** position in the file's `rules` array (0-based) */
  index: number;
  id?: string;
  comment?: string;
  /** `pkg.Class.method` or `pkg.Class.method(desc)`, `*` wildcards allowed; inclusive of its callees */
  method?: string;
  /** package patterns (`com.acme`, `com.acme.*`): allocations below any frame of a class in them */
  under?: string[];
  /** allocated type name, `*` wildcards allowed */
  type?: string;
  /** arrays whose element type is this: element type code (Binder 2006), primitive name, or component type name */
  elementType?: string;
  /** thread name, `*` wildcards allowed */
  thread?: string;
  /** the whole profile (no other selector) */
  total?: boolean;
  metric: Metric;
  /** the budget: the measured value must not exceed it; absent until `check --update` fills it in */
  max?: number;
  /** overrides the file's `ignore` */
  ignore?: IgnoreKind[];
}

export interface BudgetFile {
  version: number;
  /** default `ignore` of every rule */
  ignore: IgnoreKind[];
  rules: BudgetRule[];
}

/** A budget file that cannot be used; the message names the rule and the field. */
export class BudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetError';
  }
}

/** The fields a budget file and a rule may have (schemas/heaplens-budget.schema.json lists the same). */
export const TOP_FIELDS: ReadonlySet<string> = new Set(['$schema', '$comment', 'comment', 'version', 'ignore', 'rules']);
export const RULE_FIELDS: ReadonlySet<string> = new Set(['id', 'comment', '$comment', 'method', 'under', 'type', 'elementType',
  'thread', 'total', 'metric', 'max', 'ignore']);
const SELECTORS = ['method', 'under', 'type', 'elementType', 'thread'] as const;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nonEmptyString(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.trim() === '') throw new BudgetError(`${what} must be a non-empty string`);
  return v.trim();
}

function ignoreList(v: unknown, what: string): IgnoreKind[] {
  if (!Array.isArray(v)) throw new BudgetError(`${what} must be an array of ${IGNORE_KINDS.join(', ')}`);
  for (const k of v) {
    if (!IGNORE_KINDS.includes(k as IgnoreKind)) {
      throw new BudgetError(`${what}: unknown kind ${JSON.stringify(k)} (known: ${IGNORE_KINDS.join(', ')})`);
    }
  }
  return v as IgnoreKind[];
}

/** A short description of what a rule selects: `method com.acme.Parser.parse`, `type java.lang.String under com.acme.*`. */
export function ruleScope(r: BudgetRule): string {
  if (r.total) return 'total';
  const parts: string[] = [];
  if (r.method) parts.push(`method ${r.method}`);
  if (r.type) parts.push(`type ${r.type}`);
  if (r.elementType) parts.push(`arrays of ${r.elementType}`);
  if (r.under) parts.push(`under ${r.under.join(', ')}`);
  if (r.thread) parts.push(`thread ${r.thread}`);
  return parts.join(' ');
}

/** The rule's name in reports and JUnit: its `id`, else its scope and metric. */
export function ruleName(r: BudgetRule): string {
  return r.id ?? `${ruleScope(r)} (${r.metric})`;
}

function parseRule(v: unknown, index: number): BudgetRule {
  const where = `rule ${index + 1}${isObject(v) && typeof v.id === 'string' ? ` ("${v.id}")` : ''}`;
  if (!isObject(v)) throw new BudgetError(`${where} must be an object`);
  for (const k of Object.keys(v)) {
    if (!RULE_FIELDS.has(k)) throw new BudgetError(`${where}: unknown field "${k}" (known: ${[...RULE_FIELDS].join(', ')})`);
  }
  if (!METRICS.includes(v.metric as Metric)) {
    throw new BudgetError(`${where}: "metric" must be one of ${['objects', 'arrays', 'elements', 'bytes'].join(', ')}`);
  }
  const rule: BudgetRule = { index, metric: v.metric as Metric };
  if (v.id !== undefined) rule.id = nonEmptyString(v.id, `${where}: "id"`);
  if (v.comment !== undefined) {
    if (typeof v.comment !== 'string') throw new BudgetError(`${where}: "comment" must be a string`);
    rule.comment = v.comment;
  }
  for (const k of ['method', 'type', 'elementType', 'thread'] as const) {
    if (v[k] !== undefined) rule[k] = nonEmptyString(v[k], `${where}: "${k}"`);
  }
  if (v.under !== undefined) {
    const list = typeof v.under === 'string' ? [v.under] : v.under;
    if (!Array.isArray(list) || list.length === 0) throw new BudgetError(`${where}: "under" must be a package pattern or a non-empty array of them`);
    rule.under = list.map((p) => nonEmptyString(p, `${where}: "under"`));
    for (const p of rule.under) {
      if (p !== '*' && !/^[\w$]+(\.[\w$]+)*(\.\*)?$/.test(p)) {
        throw new BudgetError(`${where}: "under" pattern "${p}" is not a package pattern (com.acme, com.acme.*, *)`);
      }
    }
  }
  if (v.total !== undefined) {
    if (v.total !== true) throw new BudgetError(`${where}: "total" must be true (or left out)`);
    rule.total = true;
  }
  const selectors = SELECTORS.filter((k) => v[k] !== undefined);
  if (rule.total && selectors.length > 0) throw new BudgetError(`${where}: "total" cannot be combined with ${selectors.map((s) => `"${s}"`).join(', ')}`);
  if (!rule.total && selectors.length === 0) {
    throw new BudgetError(`${where}: say what it measures: "method", "type", "elementType", "under", "thread", or "total": true`);
  }
  if (v.max !== undefined) {
    if (typeof v.max !== 'number' || !Number.isInteger(v.max) || v.max < 0) throw new BudgetError(`${where}: "max" must be a whole number >= 0`);
    rule.max = v.max;
  }
  if (v.ignore !== undefined) rule.ignore = ignoreList(v.ignore, `${where}: "ignore"`);
  const counts = rule.metric === 'objects' ? 'objects (instances of non-array types)' : '';
  if (rule.elementType && counts) throw new BudgetError(`${where}: "elementType" selects arrays, which metric ${counts} does not count: use arrays, elements or bytes`);
  if (rule.type?.endsWith('[]') && !rule.type.includes('*') && counts) {
    throw new BudgetError(`${where}: ${rule.type} is an array type, which metric ${counts} does not count: use arrays, elements or bytes`);
  }
  return rule;
}

/** Validates a parsed budget document. */
export function validateBudget(doc: unknown): BudgetFile {
  if (!isObject(doc)) throw new BudgetError('a budget file is a JSON object with a "rules" array');
  for (const k of Object.keys(doc)) {
    if (!TOP_FIELDS.has(k)) throw new BudgetError(`unknown top-level field "${k}" (known: ${[...TOP_FIELDS].join(', ')})`);
  }
  const version = doc.version ?? BUDGET_VERSION;
  if (version !== BUDGET_VERSION) throw new BudgetError(`"version" ${JSON.stringify(version)} is not supported (this HeapLens reads version ${BUDGET_VERSION})`);
  if (!Array.isArray(doc.rules)) throw new BudgetError('"rules" must be an array');
  const ignore = doc.ignore === undefined ? [] : ignoreList(doc.ignore, '"ignore"');
  const rules = doc.rules.map(parseRule);
  const ids = new Set<string>();
  for (const r of rules) {
    if (r.id === undefined) continue;
    if (ids.has(r.id)) throw new BudgetError(`rule ${r.index + 1}: the id "${r.id}" is used twice`);
    ids.add(r.id);
  }
  return { version, ignore, rules };
}

/** Parses the text of a budget file. */
export function parseBudget(text: string): BudgetFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new BudgetError(`not JSON: ${(e as Error).message}`);
  }
  return validateBudget(doc);
}
