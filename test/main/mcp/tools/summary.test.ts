/**
 * claude and codex show their models a tool result's structuredContent only,
 * never its text: every result with a readable headline carries it as
 * `summary`, the first line of the text, so those models read it too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';

const harness = await startHarness();
const { token } = await harness.orchestrator();
const mcp = await harness.connect(token);

function summaryOf(result: CallToolResult, tool: string): string {
  assert.equal(result.isError, undefined, `${tool}: ${textOf(result)}`);
  const { summary } = structured<{ summary?: unknown }>(result);
  assert.equal(typeof summary, 'string', `${tool} has a summary: ${JSON.stringify(result.structuredContent)}`);
  assert.equal(summary, textOf(result).split('\n')[0], `${tool}: the summary is the text's headline`);
  assert.ok(Object.keys(result.structuredContent!)[0] === 'summary', `${tool}: the summary comes first`);
  return summary as string;
}

test('every tool that has a headline puts it in structuredContent.summary', async () => {
  const spawned = await mcp.call('spawn_process', { argv: ['bash', '-c', 'echo "line one"; echo "line two"; exec sleep 60'] });
  assert.match(summaryOf(spawned, 'spawn_process'), /^started /);
  const id = structured<{ child_id: string }>(spawned).child_id;

  const wait = await mcp.call('wait_for_pattern', { child_id: id, pattern: 'line two', timeout_seconds: 60 });
  assert.match(summaryOf(wait, 'wait_for_pattern'), /^matched \(screen_version \d+, \d+ ms\)$/);

  const grid = await mcp.call('read_output', { child_id: id, mode: 'grid' });
  const gridSummary = summaryOf(grid, 'read_output grid');
  assert.match(gridSummary, /^\[\S+ \d+x\d+, primary screen, cursor row \d+ col \d+, screen_version \d+, running, /);
  assert.doesNotMatch(gridSummary, /line one/, 'the screen itself stays in content, not in the summary');

  const stream = await mcp.call('read_output', { child_id: id, mode: 'stream' });
  assert.match(summaryOf(stream, 'read_output stream'), /^\[\S+ \d+x\d+/);

  assert.match(summaryOf(await mcp.call('list_children'), 'list_children'), /^1 child:$/);
  assert.match(summaryOf(await mcp.call('timer_wait', { seconds: 600, label: 'later' }), 'timer_wait'), /^timer \S+ \[later\] set for 600 s/);
  assert.match(summaryOf(await mcp.call('scratchpad_write', { name: 'notes.md', content: 'hello\nworld' }), 'scratchpad_write'), /^wrote notes\.md/);
  assert.match(summaryOf(await mcp.call('scratchpad_read', { name: 'notes.md' }), 'scratchpad_read'), /^\[notes\.md, revision \S+, 11 bytes\]$/);
  assert.match(summaryOf(await mcp.call('scratchpad_list'), 'scratchpad_list'), /^1 scratchpad:$/);
  assert.match(summaryOf(await mcp.call('kill', { child_id: id }), 'kill'), /stopped|killed|exited/);
});

test('an error carries its message in structuredContent.error', async () => {
  const result = await mcp.call('read_output', { child_id: 'no-such-child' });
  assert.equal(result.isError, true);
  assert.equal(structured<{ error: string }>(result).error, textOf(result));
});
