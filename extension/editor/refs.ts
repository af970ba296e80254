// Plain data that crosses module and process boundaries: which profile (a saved file or a live session),
// which frame, and the heaplens.focusMethod request. No `vscode` import.
import { MethodEntry } from '../../core/profile/types';
import { COMMANDS } from '../commands';

export type SourceRef = { kind: 'file'; file: string } | { kind: 'live'; sessionId: string };

export const FOCUS_COMMAND = COMMANDS.focusMethod;

export interface FrameId {
  class: string;
  method: string;
  desc: string;
  file?: string;
  line?: number;
}

export interface FocusRequest {
  /** which profile: a saved file or a live session */
  source: SourceRef;
  /** the method; a lens over several methods (a method and its lambdas) lists them all, the declared one first */
  frames: FrameId[];
  /** a calling context to select, frames from the top (hover links) */
  path?: FrameId[];
  /** the allocation site's line, when the request comes from a hot line */
  line?: number;
}

export function isFocusRequest(v: unknown): v is FocusRequest {
  const r = v as FocusRequest;
  return typeof v === 'object' && v !== null && typeof r.source === 'object' && r.source !== null
    && Array.isArray(r.frames) && r.frames.length > 0 && r.frames.every((f) => typeof f?.class === 'string' && typeof f.method === 'string');
}

export function frameOf(m: MethodEntry): FrameId {
  return { class: m.class, method: m.name, desc: m.desc, file: m.file, line: m.line };
}
