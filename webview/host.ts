// Where the webview runs: inside VS Code (acquireVsCodeApi) or as the CLI's standalone HTML report.
import { HostMessage, WebviewMessage } from '../core/protocol/webview-protocol';

export interface Host {
  readonly kind: 'vscode' | 'report';
  post(msg: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
  /** messages from the host */
  onMessage(handler: (msg: HostMessage) => void): void;
}

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export function vscodeHost(): Host | undefined {
  if (typeof acquireVsCodeApi !== 'function') return undefined;
  const api = acquireVsCodeApi();
  return {
    kind: 'vscode',
    post: (msg) => api.postMessage(msg),
    getState: () => api.getState(),
    setState: (s) => api.setState(s),
    onMessage: (handler) => window.addEventListener('message', (e: MessageEvent) => handler(e.data as HostMessage)),
  };
}
