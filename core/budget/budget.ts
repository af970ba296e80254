// Allocation budget files (docs/budgets.md, schemas/heaplens-budget.schema.json): parsing and validation.
// A budget file lists rules; each selects allocations of a profile (by method, package, type, array element
// type, thread) and caps one metric. budget-measure.ts measures them.
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import schema from '../../schemas/heaplens-budget.schema.json';
import { Metric } from '../views/aggregate';

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

/** The fields a budget file and a rule may have: read from the schema, so the two cannot drift. */
export const TOP_FIELDS: ReadonlySet<string> = new Set(Object.keys(schema.properties));
export const RULE_FIELDS: ReadonlySet<string> = new Set(Object.keys(schema.definitions.rule.properties));
const SELECTORS = ['method', 'under', 'type', 'elementType', 'thread'] as const;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// One schema, the one VS Code shows the user while editing (package.json jsonValidation), checked by ajv.
// strict off: the schema carries VS Code's editor keywords (defaultSnippets, enumDescriptions).
const checkSchema: ValidateFunction = new Ajv({ allErrors: true, strict: false }).compile(schema);

/** The schema's first complaint about a document, in the words of the field it names. */
function schemaMessage(doc: unknown, errors: readonly ErrorObject[]): string {
  const rules = isObject(doc) && Array.isArray(doc.rules) ? doc.rules : [];
  const where = (path: string): { prefix: string; field?: string; rule?: Record<string, unknown> } => {
    const m = /^\/rules\/(\d+)(?:\/([^/]+))?/.exec(path);
    if (!m) {
      const top = /^\/([^/]+)/.exec(path);
      return { prefix: '', field: top?.[1] };
    }
    const v = rules[Number(m[1])];
    const id = isObject(v) && typeof v.id === 'string' ? ` ("${v.id}")` : '';
    return { prefix: `rule ${Number(m[1]) + 1}${id}: `, field: m[2], rule: isObject(v) ? v : undefined };
  };
  // Most specific first: a wrong field beats the rule-level "which selector" checks that fail with it.
  const rank = (e: ErrorObject): number => (e.keyword === 'anyOf' || e.keyword === 'if' || e.keyword === 'not' ? 2
    : e.schemaPath.includes('/allOf/') ? 1 : 0);
  const e = [...errors].sort((a, b) => rank(a) - rank(b))[0];
  const { prefix, field, rule } = where(e.instancePath);
  if (e.instancePath === '' && (e.keyword === 'type' || (e.keyword === 'required' && e.params.missingProperty === 'rules'))) {
    return 'a budget file is a JSON object with a "rules" array';
  }
  if (e.keyword === 'additionalProperties') {
    const known = [...(prefix ? RULE_FIELDS : TOP_FIELDS)].join(', ');
    return `${prefix}${prefix ? 'unknown field' : 'unknown top-level field'} "${e.params.additionalProperty}" (known: ${known})`;
  }
  if (prefix === '' && field === 'version') {
    return `"version" ${JSON.stringify((doc as Record<string, unknown>).version)} is not supported (this HeapLens reads version ${BUDGET_VERSION})`;
  }
  if (prefix === '' && field === 'rules') return '"rules" must be an array';
  if (field === 'ignore' || (prefix === '' && e.instancePath.startsWith('/ignore'))) {
    const list = prefix ? rule?.ignore : (doc as Record<string, unknown>).ignore;
    const bad = Array.isArray(list) ? list.find((k) => !IGNORE_KINDS.includes(k as IgnoreKind)) : undefined;
    const what = `${prefix}"ignore"`;
    if (bad !== undefined) return `${what}: unknown kind ${JSON.stringify(bad)} (known: ${IGNORE_KINDS.join(', ')})`;
    return `${what} must be an array of ${IGNORE_KINDS.join(', ')}, each once`;
  }
  if (e.keyword === 'required' && e.params.missingProperty === 'metric' || field === 'metric' && rank(e) === 0) {
    return `${prefix}"metric" must be one of ${schema.definitions.metric.enum.join(', ')}`;
  }
  if (e.instancePath.match(/^\/rules\/\d+$/) && e.keyword === 'type') return `${prefix.replace(/: $/, '')} must be an object`;
  if (field === 'total' && rank(e) === 0) return `${prefix}"total" must be true (or left out)`;
  if (field === 'max') return `${prefix}"max" must be a whole number >= 0`;
  if (field === 'under') {
    const list = typeof rule?.under === 'string' ? [rule.under] : rule?.under;
    const bad = Array.isArray(list) ? list.find((p) => typeof p !== 'string' || !/^(\*|[\w$]+(\.[\w$]+)*(\.\*)?)$/.test(p)) : undefined;
    if (typeof bad === 'string') return `${prefix}"under" pattern "${bad}" is not a package pattern (com.acme, com.acme.*, *)`;
    return `${prefix}"under" must be a package pattern or a non-empty array of them`;
  }
  if (field !== undefined && rank(e) === 0) return `${prefix}"${field}" must be a non-empty string`;
  // rule-level: which selectors it has
  const selectors = SELECTORS.filter((k) => rule?.[k] !== undefined);
  if (rule?.total !== undefined && selectors.length > 0) {
    return `${prefix}"total" cannot be combined with ${selectors.map((k) => `"${k}"`).join(', ')}`;
  }
  if (selectors.length === 0 && rule?.total === undefined) {
    return `${prefix}say what it measures: "method", "type", "elementType", "under", "thread", or "total": true`;
  }
  if (rule?.elementType !== undefined) {
    return `${prefix}"elementType" selects arrays, which metric objects (instances of non-array types) does not count: use arrays, elements or bytes`;
  }
  return `${prefix}${e.message ?? 'does not match the budget schema'}`;
}

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

function toRule(v: Record<string, unknown>, index: number): BudgetRule {
  const rule: BudgetRule = { index, metric: v.metric as Metric };
  for (const k of ['id', 'comment', 'method', 'type', 'elementType', 'thread'] as const) {
    if (v[k] !== undefined) rule[k] = v[k] as string;
  }
  if (v.under !== undefined) rule.under = typeof v.under === 'string' ? [v.under] : [...(v.under as string[])];
  if (v.total === true) rule.total = true;
  if (v.max !== undefined) rule.max = v.max as number;
  if (v.ignore !== undefined) rule.ignore = [...(v.ignore as IgnoreKind[])];
  // Beyond the schema: a type name ending in [] is an array type, which the objects metric never counts.
  if (rule.type?.endsWith('[]') && !rule.type.includes('*') && rule.metric === 'objects') {
    const where = `rule ${index + 1}${rule.id !== undefined ? ` ("${rule.id}")` : ''}`;
    throw new BudgetError(`${where}: ${rule.type} is an array type, which metric objects (instances of non-array types) does not count: use arrays, elements or bytes`);
  }
  return rule;
}

/** Validates a parsed budget document against schemas/heaplens-budget.schema.json, then what a schema cannot say. */
export function validateBudget(doc: unknown): BudgetFile {
  if (!checkSchema(doc)) throw new BudgetError(schemaMessage(doc, checkSchema.errors ?? []));
  const d = doc as Record<string, unknown>;
  const rules = (d.rules as Record<string, unknown>[]).map(toRule);
  const ids = new Set<string>();
  for (const r of rules) {
    if (r.id === undefined) continue;
    if (ids.has(r.id)) throw new BudgetError(`rule ${r.index + 1}: the id "${r.id}" is used twice`);
    ids.add(r.id);
  }
  return { version: BUDGET_VERSION, ignore: [...((d.ignore as IgnoreKind[] | undefined) ?? [])], rules };
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
