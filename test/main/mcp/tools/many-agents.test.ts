/**
 * A heavy multi-agent session: a dozen orchestrators, each an agent pane with
 * its own `patterm mcp-stdio` proxy, drive their own children at the same time.
 * Every reply must reach the agent that asked, every child must land under the
 * session that spawned it, and appends to one shared scratchpad must all survive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, structured, textOf, type Connection } from '../helpers/mcp-harness.js';

const AGENTS = 12;
const harness = await startHarness();

interface Agent {
  index: number;
  rootId: string;
  mcp: Connection;
}

async function ok(mcp: Connection, name: string, args: Record<string, unknown>) {
  const result = await mcp.call(name, args);
  assert.notEqual(result.isError, true, `${name} failed: ${textOf(result)}`);
  return result;
}

/** One agent's whole turn: spawn a child, wait for it, type into it, read it back, log to the shared pad, kill it. */
async function work(agent: Agent): Promise<string> {
  const { index, mcp } = agent;
  const spawned = structured<{ child_id: string }>(
    await ok(mcp, 'spawn_process', { argv: ['sh', '-c', `echo started-${index}; exec cat`], name: `worker-${index}` }),
  );
  const child = spawned.child_id;
  const started = structured<{ matched: boolean }>(await ok(mcp, 'wait_for_pattern', { child_id: child, pattern: `^started-${index}$`, timeout_seconds: 60 }));
  assert.equal(started.matched, true, `agent ${index}: its child started`);

  await ok(mcp, 'send_input', { child_id: child, text: `echo-${index}-${'x'.repeat(index)}`, submit: true });
  const echoed = structured<{ matched: boolean }>(await ok(mcp, 'wait_for_pattern', { child_id: child, pattern: `^echo-${index}-x{${index}}$`, timeout_seconds: 60 }));
  assert.equal(echoed.matched, true, `agent ${index}: its input reached its child`);

  const grid = structured<{ content: string }>(await ok(mcp, 'read_output', { child_id: child, mode: 'grid' })).content;
  assert.match(grid, new RegExp(`^started-${index}$`, 'm'));
  for (let other = 0; other < AGENTS; other++) {
    if (other !== index) assert.doesNotMatch(grid, new RegExp(`(started|echo)-${other}\\b`), `agent ${index} sees only its own child`);
  }

  const children = structured<{ children: { child_id: string; name: string }[] }>(await ok(mcp, 'list_children', {})).children;
  assert.deepEqual(children.map((c) => c.name), [`worker-${index}`], `agent ${index} lists only its own child`);

  await ok(mcp, 'scratchpad_append', { name: 'shared-log.md', content: `agent ${index} done\n` });
  await ok(mcp, 'kill', { child_id: child });
  return child;
}

test(`${AGENTS} agents, each through its own mcp-stdio proxy, drive their own children at once`, async () => {
  const agents: Agent[] = await Promise.all(
    Array.from({ length: AGENTS }, async (_, index) => {
      const { pane, token } = await harness.orchestrator(`lead-${index}`);
      return { index, rootId: pane.id, mcp: await harness.connect(token) };
    }),
  );

  const childIds = await Promise.all(agents.map(work));

  assert.equal(new Set(childIds).size, AGENTS, 'every child is a distinct pane');
  for (const [index, childId] of childIds.entries()) {
    const info = harness.coordinator.info(childId);
    assert.equal(info.parentId, agents[index].rootId, `worker-${index} sits under the session that spawned it`);
    assert.notEqual(info.process.status, 'running', `worker-${index} was killed`);
  }

  const log = structured<{ content: string }>(await ok(agents[0].mcp, 'scratchpad_read', { name: 'shared-log.md' })).content;
  const lines = log.split('\n').filter(Boolean).sort();
  assert.deepEqual(lines, Array.from({ length: AGENTS }, (_, i) => `agent ${i} done`).sort(), 'no append was lost');
  for (const agent of agents) assert.equal(agent.mcp.stderr(), '', `agent ${agent.index}'s proxy complained`);
});

test('one agent starts 20 interactive shells at once, drives each, then kills them all and no process is left', async () => {
  const SHELLS = 20;
  const { pane, token } = await harness.orchestrator('fan-out');
  const mcp = await harness.connect(token);
  const children = await Promise.all(
    Array.from({ length: SHELLS }, async (_, i) => {
      const spawned = structured<{ child_id: string }>(
        await ok(mcp, 'spawn_process', { argv: ['bash', '--norc', '--noprofile', '-i'], name: `shell-${i}`, env: { PS1: `shell-${i}$ `, HISTFILE: '/dev/null' } }),
      );
      return spawned.child_id;
    }),
  );
  await Promise.all(
    children.map(async (child, i) => {
      await ok(mcp, 'send_input', { child_id: child, text: `echo $(( ${i} * 1000 + 7 ))`, submit: true });
      const answer = structured<{ matched: boolean }>(await ok(mcp, 'wait_for_pattern', { child_id: child, pattern: `^${i * 1000 + 7}$`, timeout_seconds: 60 }));
      assert.equal(answer.matched, true, `shell-${i} answered`);
    }),
  );
  const listed = structured<{ children: { name: string; status: string }[] }>(await ok(mcp, 'list_children', {})).children;
  assert.equal(listed.length, SHELLS);
  assert.ok(listed.every((child) => child.status === 'running'));

  const pids = children.map((child) => harness.coordinator.info(child).process.pid);
  // Interactive bash ignores SIGTERM: each kill has to escalate to SIGKILL after the grace window.
  await Promise.all(children.map((child) => ok(mcp, 'kill', { child_id: child })));
  for (const [i, child] of children.entries()) {
    assert.notEqual(harness.coordinator.info(child).process.status, 'running', `shell-${i} ended`);
  }
  const alive = pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
  assert.deepEqual(alive, [], 'every shell process is gone');
  assert.equal(harness.coordinator.info(pane.id).process.status, 'running', 'the orchestrator itself is untouched');
});
