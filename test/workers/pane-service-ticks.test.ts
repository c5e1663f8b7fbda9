/**
 * PaneService's screen ticks for a pane nobody watches: the tick that is due
 * when a batch ends runs with the batch (no event-loop turn of its own), and
 * a listener that turns screen notices on hears about output from just before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PaneService } from '../../src/workers/pane-service.js';
import { SharedAcks } from '../../src/shared/shared-acks.js';
import { FOCUS_IN, FOCUS_OUT } from '../../src/workers/focus-reporter.js';
import type { FromWorkerMessage } from '../../src/shared/pane-protocol.js';

async function unwatchedService() {
  const posted: FromWorkerMessage[] = [];
  const init = { paneId: 'p', cols: 40, rows: 8, ringCapacity: 64 * 1024, scrollbackBytes: 64 * 1024, idleThresholdMs: 1000, version: 'test', acks: SharedAcks.allocate() };
  const service = new PaneService(init, await loadGhosttyModule(), (message) => posted.push(message));
  const output = (text: string) => service.onOutput(new TextEncoder().encode(text));
  return { service, posted, output };
}

test('an unwatched pane ticks as its batch ends: a program turning on focus reporting is seen to at once', async () => {
  const { service, posted, output } = await unwatchedService();
  output('\x1b[?1004h');
  // No await: the tick ran inside onOutput, so the reporter knows the program asked, and showing
  // the pane tells it so there and then. (Hidden, it would hear CSI O after a grace: focus-reporter.ts.)
  service.setFrameSink(() => undefined);
  assert.deepEqual(posted.filter((message) => message.t === 'reply'), [{ t: 'reply', data: FOCUS_IN }]);
  service.setFrameSink(null);
  assert.deepEqual(posted.filter((message) => message.t === 'reply').at(-1), { t: 'reply', data: FOCUS_OUT }, 'hidden again: told at once');
});

test('turning screen notices on reports the output that came just before, whose tick had nobody to tell', async () => {
  const { service, posted, output } = await unwatchedService();
  output('ready\r\n');
  await nextTurn();
  assert.equal(posted.filter((message) => message.t === 'dirty').length, 0, 'no notice while nobody listens');
  service.setScreenNotices(true);
  // Within the unwatched pace of ticks (32 ms after the last one).
  const dirty = () => posted.filter((message) => message.t === 'dirty');
  for (let waited = 0; waited < 500 && dirty().length === 0; waited += 10) await sleep(10);
  const notices = dirty();
  assert.equal(notices.length, 1, 'the listener hears of the screen it has not seen');
  assert.equal(service.grid().lines[0], 'ready');
});
