/** Temporary directories a test file makes, removed when it (or the test that made one) ends. */
import { after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the temp dir, named `<prefix>XXXXXX`; removed after the test or file it was made in. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Retries: a program that just got its hangup may still be writing here.
  after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
  return dir;
}
