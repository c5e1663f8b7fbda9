/**
 * PaneService.onOutput: how one output batch reaches the emulator when the
 * emulator has to be rebuilt in the middle of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/wasm-module.js';
import { PaneService } from '../../src/workers/pane-service.js';
import { SharedAcks } from '../../src/shared/shared-acks.js';

const output = (service: PaneService, text: string) => service.onOutput(new TextEncoder().encode(text));

test('a trap inside a batch that holds a query does not feed the rest of the batch twice', async () => {
  const init = { paneId: 'p', cols: 40, rows: 8, ringCapacity: 64 * 1024, scrollbackBytes: 2000, idleThresholdMs: 1000, version: 'test', acks: SharedAcks.allocate() };
  const service = new PaneService(init, await loadGhosttyModule(), () => {});
  output(service, 'hello\r\n');
  service.armTrap();
  // The batch is fed in two parts around its DA1 query; the trap hits the first, and the
  // rebuild replays the output ring, which already holds the whole batch.
  output(service, 'AB\x1b[cCD\r\n');
  const grid = service.grid();
  assert.equal(grid.emulatorRebuilds, 1);
  assert.deepEqual(grid.lines.slice(0, 3), ['hello', 'ABCD', '']);
});
