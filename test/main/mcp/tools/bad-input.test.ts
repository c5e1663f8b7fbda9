import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { INITIALIZE, INITIALIZED, runProxy } from '../helpers/raw-proxy.js';

const harness = await startHarness();
const { token } = await harness.orchestrator();
const mcp = await harness.connect(token);
// A bystander connection that must stay unaffected by everything below.
const { token: bystanderToken } = await harness.orchestrator();
const bystander = await harness.connect(bystanderToken);
const sleeper = structured<{ child_id: string }>(await mcp.call('spawn_process', { argv: ['sleep', '600'] })).child_id;

async function expectToolError(name: string, args: unknown, message: RegExp): Promise<void> {
  const result = await mcp.client.callTool({ name, arguments: args as Record<string, unknown> });
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} should fail`);
  assert.match(textOf(result as never), message);
}

test('malformed JSON-RPC gets a JSON-RPC error naming the problem, and the connection carries on', async () => {
  const proxy = runProxy(['--socket', harness.mcp.socketPath, '--identity', token]);
  proxy.send(INITIALIZE);
  await proxy.nextLine((line) => JSON.parse(line).id === 1);
  proxy.send(INITIALIZED);

  proxy.send('this is not json {');
  const parse = JSON.parse(await proxy.nextLine());
  assert.equal(parse.error.code, -32700);
  assert.equal(parse.id, null);
  assert.match(parse.error.message, /Parse error: the message is not valid JSON .* it began "this is not json \{"/);

  proxy.send('{"hello":"world","id":7}');
  const invalid = JSON.parse(await proxy.nextLine());
  assert.deepEqual([invalid.id, invalid.error.code], [7, -32600]);
  assert.match(invalid.error.message, /not a JSON-RPC 2\.0 message/);

  proxy.send('{"jsonrpc":"2.0","id":8,"method":"tools/explode"}');
  const unknownMethod = JSON.parse(await proxy.nextLine());
  assert.deepEqual([unknownMethod.id, unknownMethod.error.code], [8, -32601]);

  proxy.send('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"list_children","arguments":"not an object"}}');
  const badParams = JSON.parse(await proxy.nextLine());
  assert.deepEqual([badParams.id, badParams.error.code], [9, -32602]);
  assert.equal(badParams.error.message, 'Invalid params: params.arguments must be an object of named arguments; received a string ("not an object")');

  proxy.send('{"jsonrpc":"2.0","id":10,"method":"tools/list"}');
  const list = JSON.parse(await proxy.nextLine());
  assert.equal(list.id, 10);
  assert.ok(list.result.tools.length > 0, 'the same connection still works');
  proxy.child.stdin.end();
  assert.equal(await proxy.exited, 0);
});

test('an unknown tool is named, with the ones that exist', async () => {
  await expectToolError('rm_rf', {}, /^unknown tool "rm_rf"; available tools: spawn_agent, send_message_to, .*scratchpad_append, worktree_list, worktree_diff, worktree_remove, spawn_shell, run_command, wait_for_command, command_history, subscribe_commands$/);
});

test('wrong types and unknown fields are named with what was received', async () => {
  await expectToolError('read_output', { child_id: 42 }, /^invalid arguments for read_output: child_id: Invalid type: Expected string but received 42$/);
  await expectToolError('read_output', { childId: sleeper }, /child_id: required argument is missing; childId: unknown argument; read_output takes child_id, mode, since_version, trim_chrome, history_lines, styled, since_offset, max_bytes, pattern, ignore_case, line_offset, line_limit$/);
  await expectToolError('read_output', { child_id: sleeper, mode: 'pixels' }, /mode: Invalid type: Expected \("grid" \| "stream"\) but received "pixels"/);
  await expectToolError('send_input', { child_id: sleeper, submit: 'yes' }, /submit: Invalid type: Expected boolean but received "yes"/);
  await expectToolError('kill', { child_id: sleeper, signal: 'SIGSTOP' }, /signal: Invalid type: Expected \("SIGTERM" \| "SIGINT" \| "SIGHUP" \| "SIGQUIT" \| "SIGKILL"\) but received "SIGSTOP"/);
  await expectToolError('spawn_process', { argv: 'ls -la' }, /argv: Invalid type: Expected Array but received "ls -la"/);
  assert.equal(harness.coordinator.info(sleeper).process.status, 'running');
});

test('an unknown child_id is named', async () => {
  for (const name of ['read_output', 'kill', 'send_input', 'wait_for_pattern', 'request_human_attention']) {
    const args: Record<string, unknown> = { child_id: 'deadbeef' };
    if (name === 'send_input') args.text = 'x';
    if (name === 'wait_for_pattern') Object.assign(args, { pattern: 'x', timeout_seconds: 1 });
    if (name === 'request_human_attention') args.reason = 'x';
    await expectToolError(name, args, /^no child with child_id "deadbeef"; list_children shows the ids you can use$/);
  }
  await expectToolError('send_message_to', { target: 'deadbeef', message: 'hi' }, /no child with child_id "deadbeef"/);
});

test('an invalid regex is named, wherever a regex is taken', async () => {
  await expectToolError('wait_for_pattern', { child_id: sleeper, pattern: '(unclosed', timeout_seconds: 1 }, /^pattern: pattern "\(unclosed" is not a valid regular expression: /);
  await expectToolError('read_output', { child_id: sleeper, mode: 'stream', pattern: '[z-a]' }, /^pattern: pattern "\[z-a\]" is not a valid regular expression/);
  await expectToolError('spawn_process', { argv: ['true'], error_pattern: '*' }, /^error_pattern: pattern "\*" is not a valid regular expression/);
});

test('negative and out-of-range numbers are named with the value received', async () => {
  await expectToolError('wait_for_pattern', { child_id: sleeper, pattern: 'x', timeout_seconds: -1 }, /timeout_seconds: timeout_seconds must be 0 or more, received -1/);
  await expectToolError('wait_for_pattern', { child_id: sleeper, pattern: 'x', timeout_seconds: 1e9 }, /timeout_seconds must be at most 1800, received 1000000000/);
  await expectToolError('timer_wait', { seconds: -5 }, /seconds: seconds must be 0 or more, received -5/);
  await expectToolError('read_output', { child_id: sleeper, mode: 'stream', since_offset: -10 }, /since_offset must be 0 or more, received -10/);
  await expectToolError('read_output', { child_id: sleeper, mode: 'stream', line_limit: 0 }, /line_limit: Invalid value: Expected >=1 but received 0/);
});

test('every number has a sane maximum: since_offset 1e300 and its kin are refused by name', async () => {
  await expectToolError('read_output', { child_id: sleeper, mode: 'stream', since_offset: 1e300 }, /since_offset: since_offset must be at most 9007199254740991 \(2\^53 - 1\), received 1e\+300/);
  await expectToolError('read_output', { child_id: sleeper, mode: 'stream', since_offset: 2 ** 53 }, /since_offset must be at most 9007199254740991 \(2\^53 - 1\), received 9007199254740992/);
  await expectToolError('read_output', { child_id: sleeper, since_version: 1e300 }, /since_version: since_version must be at most 9007199254740991/);
  await expectToolError('read_output', { child_id: sleeper, mode: 'stream', line_offset: 1e300 }, /line_offset: Invalid value: Expected <=1048576 but received 1e\+300/);
  await expectToolError('read_output', { child_id: sleeper, mode: 'stream', line_limit: 1e12 }, /line_limit: Invalid value: Expected <=1048576 but received 1000000000000/);
  await expectToolError('spawn_process', { argv: ['true'], ready_pattern: 'x', ready_timeout_seconds: 1e300 }, /ready_timeout_seconds: Invalid value: Expected <=600 but received 1e\+300/);
  await expectToolError('timer_wait', { seconds: 1e300 }, /seconds must be at most 86400 \(one day\), received 1e\+300/);
  await expectToolError('wait_for_pattern', { child_id: sleeper, stable_ms: 1e300, timeout_seconds: 1 }, /stable_ms: Invalid value: Expected <=600000 but received 1e\+300/);
  await expectToolError('read_output', { child_id: sleeper, mode: 'stream', max_bytes: 1e300 }, /max_bytes: Invalid value: Expected <=1048576 but received 1e\+300/);
  await expectToolError('read_output', { child_id: sleeper, history_lines: 1e300 }, /history_lines: Invalid value: Expected <=5000 but received 1e\+300/);
  // The largest offset allowed is an ordinary read at the head of the output.
  const atHead = await mcp.call('read_output', { child_id: sleeper, mode: 'stream', since_offset: Number.MAX_SAFE_INTEGER });
  assert.equal(atHead.isError, undefined, textOf(atHead));
});

test('every numeric argument of every tool has a maximum in its advertised schema', async () => {
  const { tools } = await mcp.client.listTools();
  const numeric = tools.flatMap((tool) =>
    Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { type?: string; maximum?: number }>)
      .filter(([, property]) => property.type === 'number' || property.type === 'integer')
      .map(([name, property]) => ({ name: `${tool.name}.${name}`, maximum: property.maximum })),
  );
  assert.ok(numeric.length >= 10, `the numeric arguments were found: ${numeric.map((arg) => arg.name).join(', ')}`);
  assert.deepEqual(numeric.filter((arg) => arg.maximum === undefined).map((arg) => arg.name), []);
});

test('huge input: an oversized field is refused by size, and an oversized message gets an error without breaking the connection', async () => {
  await expectToolError('send_input', { child_id: sleeper, text: 'x'.repeat(200_000) }, /text: Invalid length: Expected <=100000 but received 200000/);
  await expectToolError('wait_for_pattern', { child_id: sleeper, pattern: 'a'.repeat(5000), timeout_seconds: 1 }, /pattern: Invalid length: Expected <=4096 but received 5000/);
  // 17 MiB in one JSON-RPC message: over the transport's 16 MiB limit.
  await assert.rejects(mcp.client.callTool({ name: 'scratchpad_write', arguments: { name: 'huge.md', content: 'y'.repeat(17 * 1024 * 1024) } }), (error: McpError) => {
    assert.equal(error.code, -32600);
    assert.match(error.message, /message is \d+ bytes or more; the limit is 16777216 bytes/);
    return true;
  });
  assert.equal((await mcp.call('list_children')).isError, undefined, 'the connection still works');
});

test('a connection that dies mid-message affects no one else', async () => {
  const raw = connect(harness.mcp.socketPath);
  await new Promise((resolve) => raw.once('connect', resolve));
  raw.write(`{"patterm":"hello","version":1,"identity":"${token}"}\n`);
  await new Promise((resolve) => raw.once('data', resolve));
  raw.write('{"jsonrpc":"2.0","id":1,"method":"tools/ca');
  raw.destroy();
  assert.equal((await mcp.call('list_children')).isError, undefined);
});

test('after all of that, the server and the bystander connection are fine', async () => {
  const result = await bystander.call('scratchpad_list');
  assert.equal(result.isError, undefined);
  assert.equal((await bystander.client.listTools()).tools.length, 24);
});
