/**
 * kill with close: an orchestrator that runs a build or a test suite per task
 * ends the day with dozens of exited children; `close` takes each out of the
 * tree once it has exited, so list_children (and the sidebar) show what is
 * still going on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';

const harness = await startHarness();
const { token } = await harness.orchestrator();
const mcp = await harness.connect(token);

interface Killed {
  child_id: string;
  status: string;
  exit_code: number | null;
  already_exited: boolean;
  closed: boolean;
}

async function spawn(argv: string[], name: string): Promise<string> {
  return structured<{ child_id: string }>(await mcp.call('spawn_process', { argv, name })).child_id;
}

async function listedIds(): Promise<string[]> {
  return structured<{ children: { child_id: string }[] }>(await mcp.call('list_children')).children.map((child) => child.child_id);
}

test('close removes an exited child from the tree; its output can no longer be read', async () => {
  const build = await spawn(['sh', '-c', 'echo build finished; exit 3'], 'build');
  await harness.coordinator.exitPromise(build);
  assert.ok((await listedIds()).includes(build));

  const result = await mcp.call('kill', { child_id: build, close: true });
  const killed = structured<Killed>(result);
  assert.equal(killed.already_exited, true);
  assert.equal(killed.exit_code, 3);
  assert.equal(killed.closed, true);
  assert.match(textOf(result), /^build had already exited with code 3\. Closed: it is no longer among your children\.$/);
  assert.equal(harness.coordinator.has(build), false);
  assert.ok(!(await listedIds()).includes(build));
  const read = await mcp.call('read_output', { child_id: build });
  assert.equal(read.isError, true);
  assert.match(textOf(read), /no child with child_id/);
});

test('close on a running child stops it first, then closes it, and leaves no process behind', async () => {
  const server = await spawn(['sleep', '60'], 'server');
  const pid = harness.coordinator.info(server).process.pid;
  const killed = structured<Killed>(await mcp.call('kill', { child_id: server, close: true }));
  assert.equal(killed.already_exited, false);
  assert.equal(killed.status, 'killed');
  assert.equal(killed.closed, true);
  assert.equal(harness.coordinator.has(server), false);
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
});

test('without close, a killed child stays listed and readable, as before', async () => {
  const tests = await spawn(['sh', '-c', 'echo 12 passing; exec sleep 60'], 'tests');
  await mcp.call('wait_for_pattern', { child_id: tests, pattern: 'passing', timeout_seconds: 60 });
  const killed = structured<Killed>(await mcp.call('kill', { child_id: tests }));
  assert.equal(killed.closed, false);
  assert.ok((await listedIds()).includes(tests));
  const read = structured<{ content: string }>(await mcp.call('read_output', { child_id: tests, mode: 'stream' }));
  assert.match(read.content, /12 passing/);
});

test('close never hides a child that has not reported its exit: it stays listed, running and readable', async () => {
  const stuck = await spawn(['sh', '-c', 'echo still here; exec sleep 60'], 'stuck');
  await mcp.call('wait_for_pattern', { child_id: stuck, pattern: 'still here', timeout_seconds: 60 });
  // A process that outlives the signals (in uninterruptible sleep, say) cannot be made on demand: the kill reaches nothing instead.
  const coordinator = harness.coordinator;
  const realKill = coordinator.kill;
  coordinator.kill = async () => undefined;
  let result;
  try {
    result = await mcp.call('kill', { child_id: stuck, close: true });
  } finally {
    coordinator.kill = realKill;
  }
  const killed = structured<Killed>(result);
  assert.equal(killed.already_exited, false);
  assert.equal(killed.status, 'running');
  assert.equal(killed.closed, false);
  assert.match(textOf(result), /^sent SIGTERM to stuck; it has not reported its exit yet\. Not closed, as it is still running\.$/);
  assert.ok((await listedIds()).includes(stuck), 'still among the children');
  const read = structured<{ content: string }>(await mcp.call('read_output', { child_id: stuck, mode: 'stream' }));
  assert.match(read.content, /still here/);
  await coordinator.kill(stuck, 'SIGKILL', 0);
});

test('two kills with close at once both succeed: the second finds it closed, as it asked', async () => {
  const server = await spawn(['sleep', '60'], 'twice');
  const results = await Promise.all([mcp.call('kill', { child_id: server, close: true }), mcp.call('kill', { child_id: server, close: true })]);
  for (const result of results) {
    assert.equal(result.isError, undefined, textOf(result));
    assert.equal(structured<Killed>(result).closed, true);
    assert.equal(structured<Killed>(result).status, 'killed');
  }
  assert.equal(harness.coordinator.has(server), false);
});
