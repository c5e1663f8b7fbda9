/**
 * The session tree through the coordinator: where panes go, what closing a
 * root takes with it, and a child whose session closes while it starts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { execFileSync } from 'node:child_process';
import { useCoordinator } from '../../helpers/coordinator-fixture.js';

/** PIDs whose command line is exactly `argv` (a unique sleep length makes it ours). */
function processesRunning(argv: string[]): number[] {
  try {
    return execFileSync('pgrep', ['-fx', argv.join(' ')], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

test('children sit one level below their session root, and closing the root takes them all', async () => {
  const coordinator = useCoordinator();
  const root = await coordinator.spawn({ argv: ['cat'], kind: 'agent', name: 'lead' });
  const child = await coordinator.spawn({ argv: ['cat'], kind: 'process', parentId: root.id });
  const grandchild = await coordinator.spawn({ argv: ['cat'], kind: 'process', parentId: child.id });
  assert.equal(child.parentId, root.id);
  assert.equal(grandchild.parentId, root.id, 'a child of a child joins the same session, under its root');
  assert.equal(child.name, 'cat-1', 'unnamed panes are numbered per program');
  assert.deepEqual(coordinator.children(grandchild.id).map((pane) => pane.id), [child.id, grandchild.id]);
  assert.deepEqual(coordinator.listSessions().map((session) => [session.rootId, session.childIds]), [[root.id, [child.id, grandchild.id]]]);

  await coordinator.close(child.id);
  assert.deepEqual(coordinator.session(root.id)?.childIds, [grandchild.id], 'closing a child leaves its siblings');
  await coordinator.close(root.id);
  assert.deepEqual(coordinator.allPanes(), []);
  assert.deepEqual(coordinator.listSessions(), []);
});

test('a child whose session is closed while it starts is refused, and its process does not outlive the refusal', async () => {
  const coordinator = useCoordinator();
  const root = await coordinator.spawn({ argv: ['cat'], kind: 'agent' });
  // Hold every boot slot, so the child's spawn waits its turn while we close the session.
  let releaseSlots!: () => void;
  const slotsHeld = new Promise<void>((resolve) => (releaseSlots = resolve));
  const holders = Array.from({ length: availableParallelism() }, () => coordinator.bootGate.start(async () => ({ booted: slotsHeld })));
  await Promise.all(holders);
  const argv = ['sleep', '613.137'];
  const spawning = coordinator.spawn({ argv, kind: 'process', parentId: root.id });
  const refused = assert.rejects(spawning, (error: Error) => {
    assert.match(error.message, new RegExp(`the session of parent ${root.id} was closed while this pane started`));
    return true;
  });
  await coordinator.close(root.id);
  releaseSlots();
  await refused;
  assert.deepEqual(coordinator.allPanes(), [], 'the refused pane is not in the tree');
  assert.deepEqual(coordinator.listSessions(), [], 'no session was made up for it');
  assert.deepEqual(processesRunning(argv), [], 'its process was killed');
});
