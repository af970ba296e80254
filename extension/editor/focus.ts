// "Show this method in the flame tree": the contract between the editor features (CodeLens clicks, hot-line
// hover links) and the views. The command `heaplens.focusMethod` takes a FocusRequest; the views register
// the handler that shows the profile's flame tree focused on the method, all its contexts merged (and, with
// `path`, one calling context selected). Until a handler is registered the command opens the HeapLens
// panel on a profile focused on the method (core/views/focus-tree.ts), so a click is never a silent no-op.
import * as vscode from 'vscode';
import { FocusRequest } from './refs';

export { FOCUS_COMMAND, FocusRequest, FrameId, isFocusRequest } from './refs';

export type FocusHandler = (req: FocusRequest) => boolean | Thenable<boolean>;

let handler: FocusHandler | undefined;

/** The views call this once; the returned disposable unregisters. */
export function registerFocusHandler(h: FocusHandler): vscode.Disposable {
  handler = h;
  return new vscode.Disposable(() => {
    if (handler === h) handler = undefined;
  });
}

export function hasFocusHandler(): boolean {
  return handler !== undefined;
}

/** Runs the request through the views' handler, or the fallback when there is none. */
export async function focusMethod(req: FocusRequest, fallback: (req: FocusRequest) => Promise<boolean>): Promise<boolean> {
  if (handler) return handler(req);
  return fallback(req);
}
