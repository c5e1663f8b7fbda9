import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { MCP_REQUEST_TIMING_CHANNEL, absoluteNow, type McpRequestTiming } from '../../../../src/main/mcp/transport/request-timing.js';
import { startHarness } from '../helpers/mcp-harness.js';

const harness = await startHarness();

test('each request through the real proxy publishes when it reached patterm and when its reply left', async (t) => {
  const { token } = await harness.orchestrator('timing');
  const connection = await harness.connect(token);
  const timings: McpRequestTiming[] = [];
  const onTiming = (message: unknown) => timings.push(message as McpRequestTiming);
  subscribe(MCP_REQUEST_TIMING_CHANNEL, onTiming);
  t.after(() => unsubscribe(MCP_REQUEST_TIMING_CHANNEL, onTiming));

  const spans: [number, number][] = [];
  for (let i = 0; i < 3; i++) {
    const started = absoluteNow();
    const result = await connection.call('list_children');
    spans.push([started, absoluteNow()]);
    assert.notEqual(result.isError, true);
  }
  const calls = timings.filter((timing) => timing.method === 'tools/call');
  assert.equal(calls.length, 3, `one timing per call, got ${JSON.stringify(timings)}`);
  calls.forEach((timing, i) => {
    const [started, returned] = spans[i];
    assert.ok(started <= timing.receivedAt, `call ${i}: received ${timing.receivedAt} before the client sent it at ${started}`);
    assert.ok(timing.receivedAt <= timing.repliedAt, `call ${i}: replied before received`);
    assert.ok(timing.repliedAt <= returned, `call ${i}: replied ${timing.repliedAt} after the client had the answer at ${returned}`);
  });
  assert.equal(new Set(calls.map((timing) => timing.id)).size, 3, 'ids identify the requests');
});

test('with no subscriber nothing is published, and a later subscriber sees only its own requests', async () => {
  const { token } = await harness.orchestrator('timing-quiet');
  const connection = await harness.connect(token);
  await connection.call('list_children'); // no subscriber: must not be remembered for a later one
  const timings: McpRequestTiming[] = [];
  const onTiming = (message: unknown) => timings.push(message as McpRequestTiming);
  subscribe(MCP_REQUEST_TIMING_CHANNEL, onTiming);
  try {
    await connection.call('list_children');
  } finally {
    unsubscribe(MCP_REQUEST_TIMING_CHANNEL, onTiming);
  }
  assert.deepEqual(timings.map((timing) => timing.method), ['tools/call']);
});
