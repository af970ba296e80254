// The line that says what a load is doing while the worker works, with the seconds so far (ticking: the page is
// not frozen). Hidden when nothing is being loaded or built.
import { el } from '../views/dom';

export class LoadProgress {
  readonly root = el('div', { class: 'load-progress', role: 'status', 'aria-live': 'polite' });
  private readonly text = el('span', { class: 'load-step' });
  private readonly clock = el('span', { class: 'muted load-clock' });
  private readonly bar = el('progress', { class: 'load-bar' });
  private since = 0;
  private timer?: ReturnType<typeof setInterval>;

  constructor() {
    this.root.append(this.bar, this.text, this.clock);
    this.root.hidden = true;
  }

  show(step: string): void {
    this.text.textContent = step;
    if (this.root.hidden) {
      this.root.hidden = false;
      this.since = performance.now();
      this.clock.textContent = '';
      this.timer = setInterval(() => {
        this.clock.textContent = ` ${((performance.now() - this.since) / 1000).toFixed(1)} s`;
      }, 100);
    }
  }

  hide(): void {
    this.root.hidden = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
