/**
 * A child whose spawn was still under way when its session root exited: the
 * root's kill cascade (killing a session's root ends its children) ran before
 * the child was in the tree, so the registry must stop it when it arrives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SpawnRequest } from '../../../../src/main/coordinator.js';
import { eventually } from '../../../helpers/coordinator-fixture.js';
import { startHarness } from '../helpers/mcp-harness.js';

const harness = await startHarness();

test('a child that arrives after its orchestrator exited is stopped, not left running unowned', async () => {
  const { pane: root, token } = await harness.orchestrator('short-lived');
  const mcp = await harness.connect(token);
  const coordinator = harness.coordinator;
  const spawn = coordinator.spawn.bind(coordinator);
  // The call has passed its identity check; the orchestrator dies before the new pane is entered.
  coordinator.spawn = async (request: SpawnRequest) => {
    await coordinator.kill(root.id, 'SIGKILL', 0);
    await coordinator.exitPromise(root.id);
    return spawn(request);
  };
  try {
    // The orchestrator's exit closes its connection, so the call itself fails; its spawn goes on.
    await mcp.call('spawn_process', { argv: ['sleep', '300'], name: 'late' }).catch(() => undefined);
    await eventually(() => coordinator.allPanes().some((pane) => pane.name === 'late'), { timeoutMs: 10_000, message: 'the late child to be entered in the tree' });
  } finally {
    coordinator.spawn = spawn;
  }
  const late = coordinator.allPanes().find((pane) => pane.name === 'late')!;
  await eventually(() => coordinator.info(late.id).process.status !== 'running', { timeoutMs: 10_000, message: 'the late child to be stopped' });
});
