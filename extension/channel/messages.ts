// Typed messages of the live channel, protocol version 1 (docs/protocol.md), and their validation.
// Validation is structural and cheap: enough that the model can trust the fields it reads.
import { DefineTables, DeltaUpdate, LiveStats, NodeUpdate, ThreadDef } from '../../core/profile/live';
import { Frame, ProtocolError } from './codec';

export const PROTOCOL_VERSION = 1;

export interface Hello { type: 'hello'; protocol: number; token: string; client: string }
export interface Welcome { type: 'welcome'; protocol: number; pid: number; meta: Record<string, unknown> }
export interface Refused { type: 'refused'; reason: string }

export type { LiveStats, NodeUpdate as NodeDelta, ThreadDef };

export interface Define extends DefineTables { type: 'define' }
export interface Delta extends DeltaUpdate { type: 'delta' }
export interface ResponseOk { type: 'response'; id: number; ok: true; result?: Record<string, unknown> }
export interface ResponseErr { type: 'response'; id: number; ok: false; error: string }
export type Response = ResponseOk | ResponseErr;
export interface AgentEvent { type: 'event'; event: string; [key: string]: unknown }

export type RequestOp = 'pause' | 'resume' | 'snapshot' | 'gc' | 'reset' | 'define' | 'stop' | (string & {});
export interface Request { type: 'request'; id: number; op: RequestOp; [key: string]: unknown }

/** What the agent may send. */
export type AgentMessage = Welcome | Refused | Define | Delta | Response | AgentEvent;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isCount = (v: unknown): v is number => isInt(v) && v >= 0;

function bad(type: string, what: string): never {
  throw new ProtocolError(`invalid "${type}" frame: ${what}`);
}

function checkTable(f: Frame, key: string, row: (r: Obj) => boolean): void {
  const v = f[key];
  if (v === undefined) return;
  if (!Array.isArray(v)) bad(f.type, `"${key}" is not an array`);
  for (const r of v) if (!isObj(r) || !isCount(r.id) || !row(r)) bad(f.type, `bad entry in "${key}": ${JSON.stringify(r).slice(0, 200)}`);
}

function checkNode(n: unknown): n is NodeUpdate {
  if (!isObj(n) || !isCount(n.t) || !isCount(n.n) || !isInt(n.p) || n.p < -1) return false;
  if (n.m !== undefined && !isCount(n.m)) return false;
  if (n.calls !== undefined && !isCount(n.calls)) return false;
  if (n.folded !== undefined && !isCount(n.folded)) return false;
  if (n.a !== undefined) {
    if (!Array.isArray(n.a)) return false;
    for (const r of n.a) if (!Array.isArray(r) || r.length < 5 || r.length > 7 || !r.every(isCount)) return false;
  }
  return n.p === -1 || isCount(n.m);
}

/** Checks that a decoded frame is a well-formed agent → client message. */
export function parseAgentMessage(f: Frame): AgentMessage {
  switch (f.type) {
    case 'welcome':
      if (!isInt(f.protocol)) bad(f.type, '"protocol" is not an integer');
      if (!isInt(f.pid)) bad(f.type, '"pid" is not an integer');
      if (f.meta !== undefined && !isObj(f.meta)) bad(f.type, '"meta" is not an object');
      return { ...f, meta: (f.meta as Obj | undefined) ?? {} } as Welcome;
    case 'refused':
      return { type: 'refused', reason: typeof f.reason === 'string' ? f.reason : 'no reason given' };
    case 'define':
      checkTable(f, 'types', (r) => typeof r.name === 'string' && typeof r.array === 'boolean');
      checkTable(f, 'methods', (r) => typeof r.class === 'string' && typeof r.name === 'string' && typeof r.desc === 'string');
      checkTable(f, 'sites', (r) => isCount(r.method) && isCount(r.type) && typeof r.kind === 'string');
      checkTable(f, 'threads', (r) => typeof r.name === 'string');
      return f as unknown as Define;
    case 'delta':
      if (!isCount(f.seq)) bad(f.type, '"seq" is not a count');
      if (typeof f.time !== 'number') bad(f.type, '"time" is not a number');
      if (f.full !== undefined && typeof f.full !== 'boolean') bad(f.type, '"full" is not a boolean');
      if (!Array.isArray(f.nodes)) bad(f.type, '"nodes" is not an array');
      for (const n of f.nodes) if (!checkNode(n)) bad(f.type, `bad node ${JSON.stringify(n).slice(0, 200)}`);
      if (f.stats !== undefined && !isObj(f.stats)) bad(f.type, '"stats" is not an object');
      return { ...f, full: f.full === true } as unknown as Delta;
    case 'response':
      if (!isInt(f.id)) bad(f.type, '"id" is not an integer');
      if (typeof f.ok !== 'boolean') bad(f.type, '"ok" is not a boolean');
      if (!f.ok && typeof f.error !== 'string') bad(f.type, '"error" is not a string');
      if (f.result !== undefined && !isObj(f.result)) bad(f.type, '"result" is not an object');
      return f as unknown as Response;
    case 'event':
      if (typeof f.event !== 'string') bad(f.type, '"event" is not a string');
      return f as AgentEvent;
    default:
      throw new ProtocolError(`unknown frame type "${f.type.slice(0, 80)}"`);
  }
}
