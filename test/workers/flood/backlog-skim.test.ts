import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChunkQueue } from '../../../src/shared/chunk-queue.js';
import { BacklogSkim, SKIM_RETRY_BYTES, SKIM_RETRY_MAX_BYTES } from '../../../src/workers/flood/backlog-skim.js';

const GEOMETRY = { cols: 80, rows: 24, scrollbackBytes: 64 * 1024 };
const CHUNK = 64 * 1024;

/** Feeds `chunks` chunks of plain lines, asking for a plan after each; returns the pushed totals at which a plan was tried. */
function tries(skim: BacklogSkim, pending: ChunkQueue, chunks: number, plainBoundary: () => boolean): number[] {
  const at: number[] = [];
  const line = new TextEncoder().encode('log line '.repeat(7) + '\n');
  for (let i = 0; i < chunks; i++) {
    const chunk = new Uint8Array(CHUNK);
    for (let offset = 0; offset + line.length <= CHUNK; offset += line.length) chunk.set(line, offset);
    pending.push(chunk);
    const plan = skim.plan(pending, GEOMETRY, () => {
      at.push(pending.pushedTotal);
      return plainBoundary();
    });
    if (plan) pending.take(plan.cut);
  }
  return at;
}

test('a backlog that cannot be skimmed is tried again after twice as much output each time, up to a limit', () => {
  const skim = new BacklogSkim();
  const pending = new ChunkQueue();
  const at = tries(skim, pending, 400, () => false);
  const gaps = at.slice(1).map((pushed, i) => pushed - at[i]);
  assert.equal(gaps[0], SKIM_RETRY_BYTES);
  for (let i = 1; i < gaps.length; i++) assert.equal(gaps[i], Math.min(2 * gaps[i - 1], SKIM_RETRY_MAX_BYTES), `gap ${i} of ${gaps.join(', ')}`);
  assert.equal(gaps.at(-1), SKIM_RETRY_MAX_BYTES);
});

test('a skim that succeeds starts the waits over', () => {
  const skim = new BacklogSkim();
  const pending = new ChunkQueue();
  tries(skim, pending, 64, () => false); // the wait has grown past its start
  const at = tries(skim, pending, 200, () => true);
  assert.ok(at.length > 0, 'plain output is tried once the last wait is over');
  const after = tries(skim, pending, 40, () => false);
  assert.equal(after[1] - after[0], SKIM_RETRY_BYTES, `tries at ${after.join(', ')}`);
});
