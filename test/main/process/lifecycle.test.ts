import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { startWithFirstLine } from '../../helpers/node-script.js';
import { environHasEntry, INSTANCE_MARKER_VAR } from '../../../src/node/process-reaper.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/headless-patterm.js', import.meta.url));

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
