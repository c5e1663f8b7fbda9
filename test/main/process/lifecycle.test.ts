import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { startWithFirstLine } from '../../helpers/node-script.js';
import { environHasEntry, INSTANCE_MARKER_VAR } from '../../../src/node/process-reaper.js';

import { connectProxy, structured, textOf } from '../mcp/helpers/mcp-harness.js';
import { FILL_WITH_A } from '../mcp/helpers/meanwhile.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/headless-patterm.js', import.meta.url));
const MCP_FIXTURE = fileURLToPath(new URL('../../fixtures/headless-mcp-patterm.js', import.meta.url));

/** Every process whose environment carries this patterm instance's marker. */
function instanceProcesses(instanceId: string): number[] {
  // Whole entries only: the watchdog's own MARKER=PATTERM_INSTANCE=… must not count.
  const entry = `${INSTANCE_MARKER_VAR}=${instanceId}`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return environHasEntry(readFileSync(`/proc/${pid}/environ`), entry) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** bash, two sleeps and the setsid sh carry the marker once the background jobs have started (they may lag the echo). */
async function treeUp(instanceId: string): Promise<void> {
  await eventually(() => instanceProcesses(instanceId).length >= 4, { timeoutMs: 10_000, message: 'bash, two sleeps and the setsid sh to carry the marker' });
}

async function startHeadless(): Promise<{ child: ChildProcess; instanceId: string }> {
  const { child, line } = await startWithFirstLine([FIXTURE]);
  return { child, instanceId: (JSON.parse(line) as { instanceId: string }).instanceId };
}

test('SIGKILL of patterm leaves no process behind, even setsid children that ignore SIGHUP', async () => {
  const { child, instanceId } = await startHeadless();
  await treeUp(instanceId);
  child.kill('SIGKILL');
  await eventually(() => instanceProcesses(instanceId).length === 0, { timeoutMs: 10_000, message: 'the watchdog to reap every pane process' });
});

for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
  test(`${signal} to patterm cascades to every pane, then patterm exits`, async () => {
    const { child, instanceId } = await startHeadless();
    await treeUp(instanceId);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill(signal);
    const code = await exited;
    assert.equal(code, { SIGTERM: 143, SIGHUP: 129, SIGINT: 130 }[signal]);
    // The SIGTERM-ignoring grandchild needs the SIGKILL after the grace window, which
    // patterm sends before exiting: nothing may remain, and no watchdog needed for it.
    assert.deepEqual(instanceProcesses(instanceId), []);
  });
}

test('a second signal during the cascade exits at once, and the watchdog ends what is left', async () => {
  const { child, instanceId } = await startHeadless();
  await treeUp(instanceId);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // The setsid grandchild ignores SIGTERM, so the first cascade waits out its 2 s grace.
  child.kill('SIGTERM');
  // The cascade is under way once bash and its plain background sleep are gone.
  await eventually(() => instanceProcesses(instanceId).length <= 2, { timeoutMs: 10_000, message: 'the cascade to end what does not ignore SIGTERM' });
  child.kill('SIGHUP');
  assert.equal(await exited, 129, 'the second signal\'s exit code: it did not wait for the first cascade');
  await eventually(() => instanceProcesses(instanceId).length === 0, { timeoutMs: 10_000, message: 'every pane process to be gone' });
});

/** The identity token patterm wrote into a fake agent's private MCP config file. */
function identityIn(configFile: string): string {
  const token = /"--identity",\s*"([^"]+)"/.exec(readFileSync(configFile, 'utf8'))?.[1];
  assert.ok(token, `an identity in ${configFile}`);
  return token;
}

test('SIGTERM while a caller\'s pathological pattern is being matched ends patterm and every pane process', async () => {
  const root = mkdtempSync(join(tmpdir(), 'patterm-signal-'));
  try {
    const { child, line } = await startWithFirstLine([MCP_FIXTURE, root], { ...process.env, TMPDIR: root });
    const { socketPath, configFile, instanceId } = JSON.parse(line) as { socketPath: string; configFile: string; instanceId: string };
    const agent = await connectProxy(socketPath, identityIn(configFile));
    const spawned = await agent.call('spawn_process', { argv: ['sh', '-c', FILL_WITH_A] });
    assert.equal(spawned.isError, undefined, textOf(spawned));
    const childId = structured<{ child_id: string }>(spawned).child_id;
    assert.equal(structured<{ matched: boolean }>(await agent.call('wait_for_pattern', { child_id: childId, pattern: '^filled$', timeout_seconds: 60 })).matched, true);
    // Hours of matching on a screen full of "a" (its budget stops it after seconds).
    const pending = agent.call('wait_for_pattern', { child_id: childId, pattern: '.*.*.*.*.*X', timeout_seconds: 600 }).catch((error: Error) => error);
    // Asked after it, of the same pane: the answer means the pane took the pathological wait and is not held by it.
    assert.equal(structured<{ matched: boolean }>(await agent.call('wait_for_pattern', { child_id: childId, pattern: '^filled$', timeout_seconds: 60 })).matched, true);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 143);
    assert.deepEqual(instanceProcesses(instanceId), [], 'patterm ended every pane process itself');
    await pending;
    await agent.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
