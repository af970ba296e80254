// The .pb.gz file of the pprof export (Node: the CLI and the extension; the browser report gzips with CompressionStream).
import * as zlib from 'zlib';
import { pprofBytes } from './pprof';
import { Profile } from '../profile/types';

export function pprofGzip(profile: Profile): Uint8Array {
  const gz = zlib.gzipSync(pprofBytes(profile));
  return new Uint8Array(gz.buffer, gz.byteOffset, gz.byteLength);
}
