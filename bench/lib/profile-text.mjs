// A profile file's JSON text, gzip-compressed or not (docs/format.md "Compression").
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export function readProfileText(file) {
  const bytes = readFileSync(file);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
}
