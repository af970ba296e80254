// Runs HeapLens's Java parser in a worker thread (dist/outline-worker.js) when the bundle has one, else in
// the calling thread (tests running from sources). One worker, requests answered in order.
import * as fs from 'fs';
import { Worker } from 'worker_threads';
import { parseJavaOutline } from './java-outline';
import { JavaOutline } from './outline';
import type { ParseResponse } from './outline-worker';

const TIMEOUT_MS = 20000;

export class ParserHost {
  private worker: Worker | undefined;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (o: JavaOutline) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();

  constructor(private readonly workerFile: string | undefined, private readonly log: (m: string) => void) {}

  parse(text: string): Promise<JavaOutline> {
    const w = this.ensureWorker();
    if (!w) return Promise.resolve().then(() => parseJavaOutline(text));
    const id = this.next++;
    return new Promise<JavaOutline>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the Java parser did not answer within ${TIMEOUT_MS / 1000} s`));
      }, TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      w.postMessage({ id, text });
    });
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker) return this.worker;
    if (!this.workerFile || !fs.existsSync(this.workerFile)) return undefined;
    const w = new Worker(this.workerFile);
    w.unref();
    w.on('message', (res: ParseResponse) => {
      const p = this.pending.get(res.id);
      if (!p) return;
      this.pending.delete(res.id);
      clearTimeout(p.timer);
      if ('error' in res) p.reject(new Error(res.error));
      else p.resolve(res.outline);
    });
    w.on('error', (e) => {
      this.log(`editor: the Java parser worker failed: ${e.message}`);
      this.fail(e);
    });
    w.on('exit', () => {
      if (this.worker === w) this.worker = undefined;
      this.fail(new Error('the Java parser worker exited'));
    });
    this.worker = w;
    return w;
  }

  private fail(e: Error): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(e);
    }
    this.pending.clear();
  }

  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }
}
