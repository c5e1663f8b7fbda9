import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { expectScreen, screenText } from '../helpers/screen.js';

const harness = await startHarness();
const { token } = await harness.orchestrator();
const mcp = await harness.connect(token);
/** The prompt row: "$ ", trailing blank trimmed. */
const PROMPT = '^\\$$';
const BASH = { argv: ['bash', '--norc', '--noprofile', '-i'], env: { PS1: '$ ', HISTFILE: '/dev/null' } };

async function spawn(args: Record<string, unknown>): Promise<string> {
  const result = await mcp.call('spawn_process', args);
  assert.equal(result.isError, undefined, textOf(result));
  return structured<{ child_id: string }>(result).child_id;
}

async function matched(childId: string, pattern: string): Promise<boolean> {
  const wait = structured<{ matched: boolean; snippet: string }>(await mcp.call('wait_for_pattern', { child_id: childId, pattern, timeout_seconds: 60 }));
  if (!wait.matched) console.error(`no match for /${pattern}/; screen:\n${await screenText(harness.coordinator, childId)}`);
  return wait.matched;
}

test('text with submit runs a command in a shell', async () => {
  const id = await spawn(BASH);
  assert.ok(await matched(id, PROMPT));
  const result = await mcp.call('send_input', { child_id: id, text: 'echo $((6 * 7))', submit: true });
  assert.deepEqual(structured(result), { summary: textOf(result), child_id: id, kind: 'text', bytes_sent: 16, bracketed_paste: false, submitted: true });
  assert.ok(await matched(id, '^42$'));
});

test('text without submit stays in the input line until Enter is pressed as a key', async () => {
  const id = await spawn(BASH);
  assert.ok(await matched(id, PROMPT));
  await mcp.call('send_input', { child_id: id, text: 'echo typed-but-not-run' });
  assert.ok(await matched(id, '^\\$ echo typed-but-not-run$'));
  assert.doesNotMatch(await screenText(harness.coordinator, id), /^typed-but-not-run$/m);
  await mcp.call('send_input', { child_id: id, kind: 'key', key: 'enter' });
  assert.ok(await matched(id, '^typed-but-not-run$'));
});

test('ctrl-c interrupts a running command; arrow keys reach readline', async () => {
  const id = await spawn(BASH);
  assert.ok(await matched(id, PROMPT));
  await mcp.call('send_input', { child_id: id, text: 'sleep 300; echo after-sleep', submit: true });
  await mcp.call('wait_for_pattern', { child_id: id, pattern: 'sleep 300', timeout_seconds: 60, stable_ms: 200 });
  await mcp.call('send_input', { child_id: id, kind: 'key', key: 'ctrl-c' });
  assert.ok(await matched(id, '\\^C\\n\\$$'));
  assert.doesNotMatch(await screenText(harness.coordinator, id), /^after-sleep$/m, 'the interrupted list did not go on');
  // Up recalls the previous command line.
  await mcp.call('send_input', { child_id: id, kind: 'key', key: 'up' });
  assert.ok(await matched(id, '\\$ sleep 300; echo after-sleep$'));
  await mcp.call('send_input', { child_id: id, kind: 'key', key: 'ctrl-u' });
});

test('a bracketed-paste prompt to a program that enables 2004 arrives whole, and submits only on Enter', async () => {
  // The fake agent turns on mode 2004 and holds pasted text until Enter, like the vendor CLIs.
  const spawned = await mcp.call('spawn_agent', { preset: 'fake', initial_prompt: 'warm up', name: 'paste-target' });
  const id = structured<{ child_id: string }>(spawned).child_id;
  const text = 'first line\nsecond line\nthird line';
  const pasted = await mcp.call('send_input', { child_id: id, kind: 'paste', text });
  assert.equal(structured<{ bracketed_paste: boolean }>(pasted).bracketed_paste, true);
  await expectScreen(harness.coordinator, id, '\\[pasted 3 lines\\]$');
  assert.doesNotMatch(await screenText(harness.coordinator, id), /got\| first line/, 'nothing was submitted early');
  await mcp.call('send_input', { child_id: id, kind: 'key', key: 'enter' });
  await expectScreen(harness.coordinator, id, 'got\\| first line\\ngot\\| second line\\ngot\\| third line');
});

test('multi-line text is sent as a bracketed paste when the program enabled it, so it never submits early', async () => {
  const spawned = await mcp.call('spawn_agent', { preset: 'fake', initial_prompt: 'warm up' });
  const id = structured<{ child_id: string }>(spawned).child_id;
  const result = await mcp.call('send_input', { child_id: id, text: 'one\ntwo', submit: true });
  assert.equal(structured<{ bracketed_paste: boolean }>(result).bracketed_paste, true);
  await expectScreen(harness.coordinator, id, 'got\\| one\\ngot\\| two');
});

test('multi-line text to a program without bracketed paste is refused rather than submitted line by line', async () => {
  const id = await spawn({ argv: ['cat'] });
  const result = await mcp.call('send_input', { child_id: id, text: 'rm -rf build\nconfirm' });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /has not enabled bracketed paste, so each line break would submit a line early/);
  assert.equal((await screenText(harness.coordinator, id)).trim(), '', 'nothing was typed');
  // kind "paste" is the explicit way to send it anyway.
  await mcp.call('send_input', { child_id: id, kind: 'paste', text: 'x\ny\n' });
  // Each line arrives as its own submitted line: echoed by the terminal and printed back by cat (in either order).
  assert.ok(await matched(id, '^[xy]\\n[xy]\\n[xy]\\n[xy]$'));
  assert.deepEqual((await harness.coordinator.grid(id)).lines.filter(Boolean).sort(), ['x', 'x', 'y', 'y']);
});

test('unknown keys and mismatched fields are named in the error', async () => {
  const id = await spawn({ argv: ['cat'] });
  const unknown = await mcp.call('send_input', { child_id: id, kind: 'key', key: 'hyper-q' });
  assert.match(textOf(unknown), /unknown key "hyper-q"; known keys: enter, return, tab/);
  const noKey = await mcp.call('send_input', { child_id: id, kind: 'key', text: 'x' });
  assert.match(textOf(noKey), /kind "key" needs key/);
  const noText = await mcp.call('send_input', { child_id: id, kind: 'paste' });
  assert.match(textOf(noText), /kind "paste" needs text/);
});

test('input to an exited child is refused with its exit code', async () => {
  const id = await spawn({ argv: ['sh', '-c', 'exit 3'] });
  await mcp.call('wait_for_pattern', { child_id: id, pattern: 'x', timeout_seconds: 60 });
  const result = await mcp.call('send_input', { child_id: id, text: 'hello' });
  assert.match(textOf(result), /has exited with code 3; it cannot take input/);
});

test('input into a process child the user has taken over raises the "also driving" warning, as for agents', async () => {
  const id = await spawn(BASH);
  assert.ok(await matched(id, PROMPT));
  const warned: string[] = [];
  const subscription = harness.coordinator.onContention((pane) => warned.push(pane.id));
  try {
    harness.coordinator.write(id, 'echo user typed', 'user');
    assert.equal(harness.coordinator.info(id).owner, 'user');
    await mcp.call('send_input', { child_id: id, text: ' and more', submit: true });
    // Once per write: the text, then its Enter.
    assert.ok(warned.length > 0 && warned.every((paneId) => paneId === id), JSON.stringify(warned));
  } finally {
    subscription.dispose();
  }
});
