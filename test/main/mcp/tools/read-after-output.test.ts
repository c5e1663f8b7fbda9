/**
 * An unwatched pane's output may wait in its output lane for up to a few
 * hundred milliseconds (deferred-output.ts) before its worker parses it; a
 * read_output that comes sooner still sees it, whether the screen would be
 * read from the grid mirror or from the worker.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { eventually } from '../../../helpers/coordinator-fixture.js';

const harness = await startHarness();
const { token } = await harness.orchestrator();
const mcp = await harness.connect(token);

test('read_output right after an unwatched pane printed sees what it printed', async () => {
  const go = join(harness.root, 'go');
  const written = join(harness.root, 'written');
  // The program waits for the test's signal, prints, and says so: the test reads at once, long before the sweep.
  const script = `printf "ready\\n"; while [ ! -e ${go} ]; do sleep 0.02; done; printf "answer\\n"; : > ${written}; exec sleep 60`;
  const spawned = await mcp.call('spawn_process', { argv: ['bash', '--norc', '--noprofile', '-c', script] });
  assert.equal(spawned.isError, undefined, textOf(spawned));
  const id = structured<{ child_id: string }>(spawned).child_id;
  const ready = await mcp.call('wait_for_pattern', { child_id: id, pattern: 'ready', timeout_seconds: 60 });
  assert.equal(structured<{ matched: boolean }>(ready).matched, true, textOf(ready));
  // Settled and read once: the grid mirror is current, and nobody waits on the pane any more.
  await eventually(async () => structured<{ idle_ms: number }>(await mcp.call('read_output', { child_id: id })).idle_ms > 300, { message: 'the pane to settle' });
  await mcp.call('read_output', { child_id: id, mode: 'stream' });

  writeFileSync(go, '');
  await eventually(() => existsSync(written), { intervalMs: 5, message: 'the program to print its answer' });
  const grid = structured<{ content: string }>(await mcp.call('read_output', { child_id: id }));
  assert.match(grid.content, /answer/, 'the grid read saw the new line');
  const stream = structured<{ content: string }>(await mcp.call('read_output', { child_id: id, mode: 'stream' }));
  assert.match(stream.content, /answer/, 'and so does a stream read');
});
