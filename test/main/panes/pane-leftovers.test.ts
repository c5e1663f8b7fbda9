import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useCoordinator } from '../../helpers/coordinator-fixture.js';
import { isAlive } from '../../../src/node/process-reaper.js';

const coordinator = useCoordinator();
const TIMEOUT = 15_000;

async function pidPrinted(paneId: string, label: string): Promise<number> {
  const result = await coordinator.waitFor(paneId, { pattern: `${label}=\\d+`, timeoutMs: TIMEOUT });
  assert.equal(result.matched, true, `expected ${label}= line`);
  return Number(/=(\d+)/.exec(result.snippet)![1]);
}

test('kill also ends a helper that the child forks from its SIGTERM trap', async () => {
  const pane = await coordinator.spawn({
    argv: ['bash', '-c', `trap 'setsid sleep 311 </dev/null >/dev/null 2>&1 & sleep 0.3; exit 0' TERM; echo up; while :; do sleep 0.05; done`],
    kind: 'process',
  });
  await coordinator.waitFor(pane.id, { pattern: 'up', timeoutMs: TIMEOUT });
  await coordinator.kill(pane.id, 'SIGTERM', 2000);
  await coordinator.exitPromise(pane.id);
  const late = (await import('node:child_process')).execSync('pgrep -f "^sleep 311$" || true').toString().trim();
  assert.equal(late, '', `the helper forked during the kill (pid ${late}) outlived it`);
});

test('kill of an exited child ends what it left running, with SIGTERM first', async () => {
  const pane = await coordinator.spawn({
    argv: ['bash', '-c', `setsid bash -c 'trap "exit 0" TERM; while :; do sleep 0.05; done' </dev/null >/dev/null 2>&1 & echo LEFT=$!; sleep 0.2; exit 0`],
    kind: 'process',
  });
  const left = await pidPrinted(pane.id, 'LEFT');
  await coordinator.exitPromise(pane.id);
  assert.equal(isAlive(left), true, 'the setsid helper outlives its pane');
  await coordinator.kill(pane.id, 'SIGTERM', 2000);
  await eventually(() => !isAlive(left), { message: `leftover ${left} to be gone` });
});
