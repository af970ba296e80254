// Long work on the page's thread cut into tasks: a step function (a generator that yields often) runs until a time
// budget is spent, then the page gets its thread back (input, drawing) before the next slice.
import { timings } from './timing';

/** The next task, without setTimeout's 4 ms clamp after a few nested calls (a message to ourselves). */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/** Time budget of one task: well under the 50 ms a browser counts as a long task on an idle machine. */
export const SLICE_MS = 30;

/** Runs `steps` to its end in tasks of about `budgetMs` each; returns its result. `name`: its busy time goes to timings. */
export async function runInTasks<T>(steps: Generator<void, T>, name?: string, budgetMs = SLICE_MS): Promise<T> {
  let busy = 0;
  let start = performance.now();
  for (;;) {
    const step = steps.next();
    const now = performance.now();
    if (step.done) {
      if (name) timings[name] = Math.round((busy + now - start) * 10) / 10;
      return step.value;
    }
    if (now - start >= budgetMs) {
      busy += now - start;
      await nextTask();
      start = performance.now();
    }
  }
}
