// The Java parser in a worker thread (bundled as dist/outline-worker.js): java-parser takes ~0.1 s for a
// small file and over a second for a 4,000-line one, which must not block the extension host.
import { parentPort } from 'worker_threads';
import { parseJavaOutline } from './java-outline';

export interface ParseRequest { id: number; text: string }
export type ParseResponse = { id: number; outline: ReturnType<typeof parseJavaOutline> } | { id: number; error: string };

parentPort?.on('message', (req: ParseRequest) => {
  let res: ParseResponse;
  try {
    res = { id: req.id, outline: parseJavaOutline(req.text) };
  } catch (e) {
    res = { id: req.id, error: (e as Error).message.split('\n')[0] };
  }
  parentPort!.postMessage(res);
});
