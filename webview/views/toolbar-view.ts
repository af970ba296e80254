// The frame most view tabs share: a labelled section with a toolbar on top. A subclass appends its own parts
// after the toolbar and refills the toolbar on each render.
import { AppContext, View } from '../context';
import { el } from './dom';

export abstract class ToolbarView implements View {
  readonly root: HTMLElement;
  protected readonly bar: HTMLDivElement;

  /** `name` gives the section its class `view view-<name>`; the toolbar is labelled "<label> options" unless told. */
  protected constructor(name: string, label: string, barLabel = `${label} options`) {
    this.bar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': barLabel });
    this.root = el('section', { class: `view view-${name}`, 'aria-label': label }, this.bar);
  }

  abstract render(ctx: AppContext): void;
}
