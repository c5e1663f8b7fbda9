/**
 * A file replaced atomically: readers see the old content or the new, never a
 * mix or an empty file; a failed write leaves the old content and no temp file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiskFullError, isNoSpaceError, writeFileAtomic } from '../../src/node/atomic-write.js';
import { scratchDir } from '../helpers/scratch-dir.js';

const dir = scratchDir('patterm-atomic-write-');

test('writes a new file and replaces an existing one, leaving no temp file behind', async () => {
  const path = join(dir, 'notes.md');
  await writeFileAtomic(path, 'first');
  assert.equal(readFileSync(path, 'utf8'), 'first');
  await writeFileAtomic(path, new TextEncoder().encode('second'));
  assert.equal(readFileSync(path, 'utf8'), 'second');
  assert.equal(statSync(path).mode & 0o777, 0o644);
  assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), []);
});

test('a reader racing a stream of rewrites only ever sees one whole version', async () => {
  const path = join(dir, 'raced.txt');
  const versions = Array.from({ length: 40 }, (_, i) => `${String(i).padStart(2, '0')}:${'x'.repeat(64 * 1024)}`);
  await writeFileAtomic(path, versions[0]);
  let writing = true;
  const seen = new Set<string>();
  const reader = (async () => {
    while (writing) {
      const text = readFileSync(path, 'utf8');
      assert.ok(versions.includes(text), `a torn or empty read (${text.length} chars, starting ${JSON.stringify(text.slice(0, 3))})`);
      seen.add(text.slice(0, 2));
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  for (const version of versions.slice(1)) await writeFileAtomic(path, version);
  writing = false;
  await reader;
  assert.equal(readFileSync(path, 'utf8'), versions.at(-1));
  assert.ok(seen.size >= 1);
});

test('a write that fails at the rename keeps the old content and removes its temp file', async () => {
  // A directory in the way: the temp file is written, the rename over a directory fails.
  const path = join(dir, 'in-the-way');
  mkdirSync(path);
  writeFileSync(join(path, 'kept'), 'old');
  await assert.rejects(writeFileAtomic(path, 'new'), (error: NodeJS.ErrnoException) => error.code === 'EISDIR' && !(error instanceof DiskFullError));
  assert.equal(readFileSync(join(path, 'kept'), 'utf8'), 'old');
  assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), []);
});

test('"no room" errors are told apart, so callers can report a full disk', () => {
  for (const code of ['ENOSPC', 'EDQUOT', 'EFBIG']) assert.equal(isNoSpaceError(Object.assign(new Error(code), { code })), true, code);
  for (const error of [Object.assign(new Error('EIO'), { code: 'EIO' }), new Error('plain'), null, undefined]) assert.equal(isNoSpaceError(error), false);
  const error = new DiskFullError('/p/notes.md', 'ENOSPC');
  assert.equal(error.message, 'no space left to write /p/notes.md (ENOSPC); the previous content is unchanged');
});
