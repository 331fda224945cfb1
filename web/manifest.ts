import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Manifest } from './build';

export type { Manifest };

/**
 * Reads dist/public/manifest.json, re-reading only when the file changes, so `make dev` picks up rebuilt
 * islands without a restart while production pays one stat per page.
 */
export function manifestReader(publicDir: string): () => Manifest {
  const file = path.join(publicDir, 'manifest.json');
  let cached: { mtimeMs: number; manifest: Manifest } | null = null;
  return () => {
    const { mtimeMs } = statSync(file);
    if (!cached || cached.mtimeMs !== mtimeMs) {
      cached = { mtimeMs, manifest: JSON.parse(readFileSync(file, 'utf8')) as Manifest };
    }
    return cached.manifest;
  };
}
