import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, textOf } from './helpers/mcp-harness.js';

test('smoke', async () => {
  const h = await startHarness();
  const { token } = await h.orchestrator();
  const c = await h.connect(token);
  const tools = await c.client.listTools();
  console.error(tools.tools.map((t) => t.name));
  const r = await c.call('spawn_process', { argv: ['bash', '--norc', '-c', 'echo hello; sleep 1; echo bye'] });
  console.error(textOf(r));
  const id = (r.structuredContent as any).child_id;
  const w = await c.call('wait_for_pattern', { child_id: id, pattern: 'bye', timeout_seconds: 10 });
  console.error(textOf(w));
  const g = await c.call('read_output', { child_id: id });
  console.error(textOf(g));
  const s = await c.call('read_output', { child_id: id, mode: 'stream' });
  console.error(textOf(s));
  assert.ok(true);
});
