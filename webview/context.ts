// What every view gets from the app: the data, the state, and the ways to change them or ask the host.
import { Theme } from './core/colors';
import { ProfileData } from './data';
import { WebviewMessage } from '../core/protocol/webview-protocol';
import { UiState } from './state';
import { MethodEntry } from '../core/profile/types';

export interface AppContext {
  data: ProfileData;
  baseline?: ProfileData;
  state: UiState;
  theme: Theme;
  hostKind: 'vscode' | 'report';
  live: boolean;
  /** merges the patch into the state, stores it and renders the active view again */
  update(patch: Partial<UiState>): void;
  post(msg: WebviewMessage): void;
  /** asks the host to open a method's source (at `line` when given, e.g. an allocation site's) */
  open(method: number, line?: number, methods?: ReadonlyMap<number, MethodEntry>): void;
  /** asks the host (or the page) for a baseline profile to diff against */
  pickBaseline(): void;
}

export interface View {
  readonly root: HTMLElement;
  render(ctx: AppContext): void;
  /** called when the theme changed (canvas colours) */
  themeChanged?(): void;
  /** keyboard focus target when the view is shown */
  focus?(): void;
}
