import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentLauncher } from '../../../../src/main/contracts.js';
import { MessageDelivery } from '../../../../src/main/mcp/services/message-delivery.js';
import { MAX_TIMERS_PER_PANE, TimerService } from '../../../../src/main/mcp/services/timer-service.js';
import { useCoordinator } from '../../../helpers/coordinator-fixture.js';

/** Records what would be typed; the MCP tests cover real typing into real panes. */
function recordingLauncher(typed: { paneId: string; text: string }[]): AgentLauncher {
  return {
    spawnAgent: () => Promise.reject(new Error('not used')),
    spawnProcess: () => Promise.reject(new Error('not used')),
    chromeTrim: async (_paneId, lines) => ({ lines, trimmedRows: [] }),
    presetFor: () => undefined,
    submit: async (paneId, text) => {
      typed.push({ paneId, text });
      return { submitted: true, attempts: 1, detail: 'recorded' };
    },
  };
}

async function setup() {
  const coordinator = useCoordinator();
  const typed: { paneId: string; text: string }[] = [];
  const timers = new TimerService(coordinator, new MessageDelivery(coordinator, recordingLauncher(typed)));
  const pane = await coordinator.spawn({ argv: ['sleep', '60'], kind: 'agent' });
  return { coordinator, typed, timers, pane };
}

test('timers die with their pane, and are capped per pane', async () => {
  const { coordinator, timers, pane } = await setup();
  timers.start(pane.id, 3600, 'much later');
  timers.start(pane.id, 3600);
  assert.equal(timers.pendingFor(pane.id), 2);
  for (let i = 2; i < MAX_TIMERS_PER_PANE; i++) timers.start(pane.id, 3600);
  assert.throws(() => timers.start(pane.id, 3600), /you already have 64 timers pending; the limit is 64/);
  await coordinator.kill(pane.id);
  await coordinator.exitPromise(pane.id);
  assert.equal(timers.pendingFor(pane.id), 0);
  timers.dispose();
});

test('a timer that fires types its message into the pane that set it', async () => {
  const { typed, timers, pane } = await setup();
  timers.start(pane.id, 0, 'now');
  while (typed.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(typed, [{ paneId: pane.id, text: '[system] Your timer [now] has completed.' }]);
  assert.equal(timers.pendingFor(pane.id), 0);
  timers.dispose();
});
