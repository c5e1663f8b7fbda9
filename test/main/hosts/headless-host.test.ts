/**
 * `patterm mcp` driven by the MCP SDK's real stdio client, as a host (Claude
 * Code, codex, an IDE agent) drives it: the host is its session's orchestrator,
 * every tool works as for an orchestrator pane, and when the host lets go
 * (stdin closes) or patterm is SIGKILLed, nothing it started is left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { textOf } from '../mcp/helpers/mcp-harness.js';
import { startHeadlessHost, structuredOf, type HeadlessHost } from './helpers/headless-host.js';

const BASH = ['bash', '--norc', '--noprofile', '-i'];
const BASH_ENV = { PS1: '$ ', HISTFILE: '/dev/null' };

async function spawned(host: HeadlessHost, args: Record<string, unknown>): Promise<string> {
  const result = await host.call('spawn_process', args);
  assert.equal(result.isError, undefined, textOf(result));
  return structuredOf<{ child_id: string }>(result).child_id;
}

async function matched(host: HeadlessHost, childId: string, pattern: string): Promise<void> {
  const result = await host.call('wait_for_pattern', { child_id: childId, pattern, timeout_seconds: 60 });
  assert.equal(structuredOf<{ matched: boolean }>(result).matched, true, textOf(result));
}

test('an SDK host orchestrates a session through patterm mcp: bash and vim, input, grid, waits, scratchpads, kill; closing stdin ends everything', async () => {
  const host = await startHeadlessHost({ clientName: 'headless-test-host' });
  const tools = (await host.client.listTools()).tools.map((tool) => tool.name);
  for (const name of ['spawn_agent', 'spawn_process', 'send_message_to', 'request_human_attention', 'read_output', 'wait_for_state', 'scratchpad_write']) assert.ok(tools.includes(name), `${name} in ${tools}`);
  assert.equal(host.client.getServerVersion()?.name, 'patterm');

  // bash: type a command, read it back from the grid, wait on its output and on its state.
  const bash = await spawned(host, { argv: BASH, env: BASH_ENV, name: 'shell' });
  await matched(host, bash, '^\\$ ?$');
  await host.call('send_input', { child_id: bash, kind: 'text', text: 'echo "hel""lo-$((6*7))"', submit: true });
  await matched(host, bash, '^hello-42$');
  const grid = structuredOf<{ content: string; status: string }>(await host.call('read_output', { child_id: bash, mode: 'grid' }));
  assert.match(grid.content, /^\$ echo "hel""lo-\$\(\(6\*7\)\)"\nhello-42\n\$ ?$/m);
  const state = await host.call('wait_for_state', { child_id: bash, states: ['idle'], timeout_ms: 60_000 });
  assert.equal(structuredOf<{ matched: boolean }>(state).matched, true, textOf(state));

  // vim: a full-screen program, on the alternate screen, driven by keys.
  const vim = await spawned(host, { argv: ['vim', '-u', 'NONE', '-i', 'NONE', '-N', 'notes.txt'], name: 'editor' });
  await matched(host, vim, 'notes\\.txt');
  await host.call('send_input', { child_id: vim, kind: 'text', text: 'ityped through patterm mcp' });
  await host.call('send_input', { child_id: vim, kind: 'key', key: 'escape' });
  await matched(host, vim, '^typed through patterm mcp$');
  const screen = structuredOf<{ active_screen: string }>(await host.call('read_output', { child_id: vim, mode: 'grid' }));
  assert.equal(screen.active_screen, 'alternate');
  await host.call('send_input', { child_id: vim, kind: 'text', text: ':wq', submit: true });
  const notes = join(host.project, 'notes.txt');
  await eventually(() => (existsSync(notes) && readFileSync(notes, 'utf8') === 'typed through patterm mcp\n') || null, { message: 'vim to write notes.txt in the project', timeoutMs: 30_000 });

  // Scratchpads, in the project's data directory.
  const written = await host.call('scratchpad_write', { name: 'plan.md', content: '# plan\nstep one' });
  assert.equal(written.isError, undefined, textOf(written));
  const read = structuredOf<{ content: string }>(await host.call('scratchpad_read', { name: 'plan.md' }));
  assert.equal(read.content, '# plan\nstep one');

  // The host is named by what it said in initialize.
  const listed = structuredOf<{ children: { child_id: string; name: string; spawned_by: string | null }[] }>(await host.call('list_children'));
  const shell = listed.children.find((child) => child.child_id === bash);
  assert.equal(shell?.name, 'shell');
  assert.equal(shell?.spawned_by, 'headless-test-host');

  // A timer fires into no input box: its message rides on the host's next result.
  await host.call('timer_wait', { seconds: 0, label: 'wake-up' });
  const withMessage = await eventually(async () => {
    const result = await host.call('list_children');
    return structuredOf<{ messages?: string[] }>(result).messages ? result : null;
  }, { message: 'the timer message on a result', timeoutMs: 30_000 });
  assert.deepEqual(structuredOf<{ messages: string[] }>(withMessage).messages, ['[system] Your timer [wake-up] has completed.']);
  assert.match(textOf(withMessage), /Messages for you since your last call:\n\[system\] Your timer \[wake-up\] has completed\.$/);

  // No terminal, no human: request_human_attention says so.
  const attention = await host.call('request_human_attention', { child_id: bash, reason: 'please look' });
  assert.equal(attention.isError, true);
  assert.match(textOf(attention), /no human is attached: this patterm runs headless \(patterm mcp\) without a terminal/);

  const killed = await host.call('kill', { child_id: bash });
  assert.equal(structuredOf<{ status: string }>(killed).status, 'killed', textOf(killed));

  assert.ok(host.markedProcesses().length >= 2, 'patterm mcp and its processes carry the marker');
  assert.equal(await host.closeStdin(), 0, `patterm mcp exits with 0 when its host closes stdin; stderr: ${host.stderr()}`);
  await eventually(() => host.markedProcesses().length === 0 || null, { message: `no process of patterm mcp's tree left (left: ${host.markedProcesses().join(' ')})`, timeoutMs: 15_000 });
  assert.equal(host.stderr(), '', 'nothing to complain about');
});

test('SIGKILL of patterm mcp leaves none of its children, even a setsid one that ignores SIGHUP and SIGTERM', async () => {
  const host = await startHeadlessHost();
  const tree = await spawned(host, {
    argv: ['bash', '--norc', '--noprofile', '-c', 'setsid sh -c \'trap "" HUP TERM; sleep 300\' & sleep 300 & echo tree-started; wait'],
  });
  await matched(host, tree, 'tree-started');
  // patterm mcp, its watchdog, the pane's bash, two sleeps and the setsid sh.
  await eventually(() => host.markedProcesses().length >= 6 || null, { message: 'the whole tree to be up', timeoutMs: 15_000 });
  process.kill(host.pid, 'SIGKILL');
  await eventually(() => host.markedProcesses().length === 0 || null, { message: `the watchdog to end every child (left: ${host.markedProcesses().join(' ')})`, timeoutMs: 15_000 });
});

test('spawn_agent from a headless host: the agent connects back through patterm mcp-stdio with an identity of its own, and its report reaches the host', async () => {
  const host = await startHeadlessHost({ clientName: 'reporting-host', fixturePresets: true });
  const spawned = await host.call('spawn_agent', { preset: 'fake', name: 'helper', initial_prompt: '/call report_to_parent {"message":"done with the task"}' });
  assert.equal(spawned.isError, undefined, textOf(spawned));
  const { child_id: helper, prompt_submitted: submitted } = structuredOf<{ child_id: string; prompt_submitted: boolean }>(spawned);
  assert.equal(submitted, true, textOf(spawned));
  // Through the agent's own MCP connection, as a sub-agent of this session. The report rides on the
  // host's next result, whichever that is: spawn_agent's own, when the agent was quick.
  const messages = [...(structuredOf<{ messages?: string[] }>(spawned).messages ?? [])];
  let listed: { children: { child_id: string; type: string; spawned_by: string }[] } | null = null;
  await eventually(async () => {
    const result = await host.call('list_children');
    listed = structuredOf(result);
    messages.push(...(structuredOf<{ messages?: string[] }>(result).messages ?? []));
    return messages.length > 0 || null;
  }, { message: 'the report on a result', timeoutMs: 30_000 }).catch(async (error: Error) => {
    throw new Error(`${error.message}; the agent's screen:\n${structuredOf<{ content: string }>(await host.call('read_output', { child_id: helper })).content}`);
  });
  assert.deepEqual(messages, ['[sub-agent:helper] done with the task']);
  const child = listed!.children.find((entry) => entry.child_id === helper);
  assert.deepEqual([child?.type, child?.spawned_by], ['agent', 'reporting-host']);
  assert.equal(await host.closeStdin(), 0, host.stderr());
  await eventually(() => host.markedProcesses().length === 0 || null, { message: `no process left (left: ${host.markedProcesses().join(' ')})`, timeoutMs: 15_000 });
});

test('SIGTERM to patterm mcp runs the exit cascade: exit 143, nothing left, and no complaint about the session ending', async () => {
  const host = await startHeadlessHost();
  await spawned(host, { argv: ['sleep', '300'] });
  process.kill(host.pid, 'SIGTERM');
  assert.equal(await host.exited, 143);
  await eventually(() => host.markedProcesses().length === 0 || null, { message: `no process left (left: ${host.markedProcesses().join(' ')})`, timeoutMs: 15_000 });
  assert.equal(host.stderr(), '');
});
