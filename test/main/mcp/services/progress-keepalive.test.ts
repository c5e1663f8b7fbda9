/**
 * Long calls send MCP progress notifications when the caller asks for them, so
 * a client that times calls out but resets the clock on progress (opencode,
 * the MCP SDK's default) waits as long as the call lasts. Through the real
 * `patterm mcp-stdio` proxy and the SDK's real Client, with the interval
 * shortened so the client's timeout can be short too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';

/** Progress every 100 ms against a 2 s client timeout: twenty chances to reset it, however loaded the machine. */
const PROGRESS_INTERVAL_MS = 100;
const CLIENT_TIMEOUT_MS = 2000;
/** Enough notifications that the call has outlived the client's timeout more than once over. */
const NOTIFICATIONS_BEFORE_ANSWER = Math.ceil((2.5 * CLIENT_TIMEOUT_MS) / PROGRESS_INTERVAL_MS);

const harness = await startHarness({ progressIntervalMs: PROGRESS_INTERVAL_MS });
const { token } = await harness.orchestrator();
const mcp = await harness.connect(token);

async function spawnBash(): Promise<string> {
  const result = await mcp.call('spawn_process', { argv: ['bash', '-c', 'read line; echo "got $line"; exec sleep 60'] });
  assert.equal(result.isError, undefined, textOf(result));
  return structured<{ child_id: string }>(result).child_id;
}

test('wait_for_pattern outlives the client timeout while it sends progress, and answers when the screen matches', async () => {
  const id = await spawnBash();
  const updates: Progress[] = [];
  let answered = false;
  const call = mcp.client.callTool({ name: 'wait_for_pattern', arguments: { child_id: id, pattern: 'got go', timeout_seconds: 600 } }, undefined, {
    timeout: CLIENT_TIMEOUT_MS,
    resetTimeoutOnProgress: true,
    onprogress: (update) => {
      updates.push(update);
      // The answer comes only once the call has lasted well past the client's timeout.
      if (updates.length === NOTIFICATIONS_BEFORE_ANSWER && !answered) {
        answered = true;
        void mcp.call('send_input', { child_id: id, kind: 'text', text: 'go', submit: true });
      }
    },
  }) as Promise<CallToolResult>;
  const result = await call;
  assert.equal(result.isError, undefined, textOf(result));
  assert.equal(structured<{ matched: boolean }>(result).matched, true);
  assert.ok(updates.length >= NOTIFICATIONS_BEFORE_ANSWER, `${updates.length} progress notifications`);
  assert.ok(updates.every((update, i) => i === 0 || update.progress > updates[i - 1].progress), 'progress only grows');
  assert.equal(updates[0].total, 600_000, 'total is the wait timeout, in the same unit as progress (ms)');
  assert.match(updates.at(-1)!.message ?? '', /waiting for .*'s screen: \d+ s of 600 s/);
});

test('without a progressToken nothing is sent, and the same client cuts the wait off at its timeout', async () => {
  const id = await spawnBash();
  const call = mcp.client.callTool({ name: 'wait_for_pattern', arguments: { child_id: id, pattern: 'never shows', timeout_seconds: 600 } }, undefined, { timeout: CLIENT_TIMEOUT_MS });
  await assert.rejects(call, /Request timed out/);
  // The client cancelled; patterm stops waiting and the connection still serves calls.
  const after = await mcp.call('list_children');
  assert.equal(after.isError, undefined, textOf(after));
});

test('spawn_agent sends progress until the agent is ready and its prompt is in', async () => {
  const slowStart = 3 * CLIENT_TIMEOUT_MS;
  process.env.FAKE_AGENT_START_MS = String(slowStart);
  const updates: Progress[] = [];
  let result: CallToolResult;
  try {
    result = (await mcp.client.callTool({ name: 'spawn_agent', arguments: { preset: 'fake', initial_prompt: 'hello' } }, undefined, {
      timeout: CLIENT_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      onprogress: (update) => void updates.push(update),
    })) as CallToolResult;
  } finally {
    delete process.env.FAKE_AGENT_START_MS;
  }
  assert.equal(result.isError, undefined, textOf(result));
  assert.equal(structured<{ prompt_submitted: boolean }>(result).prompt_submitted, true);
  // The call lasted at least slowStart, three client timeouts: only the notifications kept it alive.
  assert.ok(updates.length >= slowStart / CLIENT_TIMEOUT_MS, `${updates.length} progress notifications while the agent took over ${slowStart} ms to start`);
  assert.match(updates[0].message ?? '', /starting fake/);
});
