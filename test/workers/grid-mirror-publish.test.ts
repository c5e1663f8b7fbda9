/**
 * A PaneService publishes its grid to the GridMirror once the screen settles,
 * exactly as grid() returns it, and the mirror serves nothing while it may be behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PaneService } from '../../src/workers/pane-service.js';
import { armEmulatorTrap } from '../fixtures/fault-injection/emulator-trap.js';
import { sleep } from '../helpers/wait.js';
import { GridMirror } from '../../src/shared/grid-mirror.js';
import { MirrorPublisher } from '../../src/workers/mirror-publisher.js';
import { SharedAcks } from '../../src/shared/shared-acks.js';
import type { GridSnapshot } from '../../src/shared/pane-types.js';

async function paneWithMirror(): Promise<{ service: PaneService; mirror: GridMirror }> {
  const buffer = GridMirror.allocate();
  const init = { paneId: 'p', cols: 40, rows: 8, ringCapacity: 64 * 1024, scrollbackBytes: 2000, idleThresholdMs: 1000, version: 'test', gridMirror: buffer, acks: SharedAcks.allocate() };
  const service = new PaneService(init, await loadGhosttyModule(), () => {});
  return { service, mirror: new GridMirror(buffer) };
}

const output = (service: PaneService, text: string) => service.onOutput(new TextEncoder().encode(text));

/** Polls the mirror until it serves a snapshot (it is published once the screen has been quiet for 200 ms). */
async function settled(mirror: GridMirror): Promise<GridSnapshot> {
  const until = Date.now() + 5000;
  for (;;) {
    const read = mirror.read(Date.now());
    if (read) return read;
    assert.ok(Date.now() < until, 'the mirror was never published');
    await sleep(5);
  }
}

/** What the mirror stores: all but the time-dependent fields and the per-request row diff. */
function withoutIdle(grid: GridSnapshot): Omit<GridSnapshot, 'idleMs' | 'idle' | 'changedRows'> {
  const { idleMs: _idleMs, idle: _idle, changedRows: _changedRows, ...rest } = grid;
  return rest;
}

test('a settled screen is published exactly as grid() returns it; output makes it stale until it settles again', async () => {
  const { service, mirror } = await paneWithMirror();
  output(service, '\x1b]0;the title\x07hello 世界 e\u0301 \u2764\ufe0f 😀\r\n\x1b[?2004h\x1b[?1000h$ ');
  assert.equal(mirror.read(Date.now()), null, 'stale while the output is fresh');
  const first = await settled(mirror);
  assert.deepEqual(withoutIdle(first), withoutIdle(service.grid()));
  assert.equal(first.title, 'the title');
  assert.equal(first.bracketedPaste, true);
  assert.equal(first.mouseTracking, true);
  assert.match(first.lines[0], /hello 世界/);
  // The mirror's idle clock is the worker's: bracket one mirror read between two worker
  // readings, so a slow machine between the calls cannot make it look wrong. The 2 ms
  // allow for rounding and for the two clocks (performance.now and Date.now) drifting apart.
  const idleBefore = service.idleMs();
  const idleNow = mirror.read(Date.now())?.idleMs ?? -1;
  const idleAfter = service.idleMs();
  assert.ok(idleNow >= idleBefore - 2 && idleNow <= idleAfter + 2, `mirror idle ${idleNow} ms, worker ${idleBefore}..${idleAfter} ms`);

  const firstBytes = new TextEncoder().encode('\x1b]0;the title\x07hello 世界 e\u0301 \u2764\ufe0f 😀\r\n\x1b[?2004h\x1b[?1000h$ ').length;
  assert.equal(mirror.streamHead(), firstBytes, 'the output log head comes with the screen');

  output(service, 'ls\r\nfile\r\n$ ');
  assert.equal(mirror.read(Date.now()), null, 'more output: stale at once');
  assert.equal(mirror.streamHead(), null, 'and so is the head');
  const second = await settled(mirror);
  assert.equal(mirror.streamHead(), firstBytes + 'ls\r\nfile\r\n$ '.length);
  assert.ok(second.screenVersion > first.screenVersion);
  assert.deepEqual(second.lines.slice(1, 3), ['$ ls', 'file']);
  assert.deepEqual(withoutIdle(second), withoutIdle(service.grid()));
});

test('a resize makes the mirror stale until the resized screen is published', async () => {
  const { service, mirror } = await paneWithMirror();
  output(service, 'before resize');
  await settled(mirror);
  service.resize(60, 12);
  assert.equal(mirror.read(Date.now()), null);
  const resized = await settled(mirror);
  assert.deepEqual([resized.cols, resized.rows], [60, 12]);
  assert.deepEqual(withoutIdle(resized), withoutIdle(service.grid()));
});

test('a flooding pane is never published mid-flood', async () => {
  const { service, mirror } = await paneWithMirror();
  const until = Date.now() + 300;
  for (let i = 0; Date.now() < until; i++) {
    output(service, `line ${i}\r\n`);
    await sleep(2);
    assert.equal(mirror.read(Date.now()), null, `published mid-flood after batch ${i}`);
  }
  await settled(mirror);
});

test('an emulator rebuild makes the mirror stale, and the rebuilt screen is published', async () => {
  const { service, mirror } = await paneWithMirror();
  output(service, 'first');
  await settled(mirror);
  armEmulatorTrap();
  output(service, ' second');
  const rebuilt = await settled(mirror);
  assert.equal(rebuilt.emulatorRebuilds, 1);
  assert.deepEqual(withoutIdle(rebuilt), withoutIdle(service.grid()));
});

test('an RPC read of a quiet pane publishes, and threshold changes reach the mirror at once', async () => {
  const { service, mirror } = await paneWithMirror();
  assert.equal(mirror.read(Date.now()), null, 'nothing published before any output or read');
  const grid = service.grid(0);
  const read = mirror.read(Date.now());
  assert.ok(read, 'the grid computed for the read was published');
  assert.deepEqual(withoutIdle(read), withoutIdle(grid));
  assert.equal('changedRows' in read, false);

  service.setIdleThreshold(10 * 60_000);
  assert.equal(mirror.read(Date.now())?.idle, false);
  service.setIdleThreshold(0);
  assert.equal(mirror.read(Date.now())?.idle, true);
});

test('a screen redrawn every 80 ms (an agent\'s spinner) is not published until it has been quiet for a while', async () => {
  const { service, mirror } = await paneWithMirror();
  const started = Date.now();
  let lastRedraw = started;
  for (let step = 0; step < 12; step++) {
    output(service, `\x1b[8;1H\x1b[2K${'⠋⠙⠹⠸'[step % 4]} Thinking… ${step}`);
    lastRedraw = Date.now();
    await sleep(80);
    assert.equal(mirror.read(Date.now()), null, `not published while it keeps changing (step ${step}, ${Date.now() - started} ms)`);
  }
  const published = await settled(mirror);
  assert.ok(Date.now() - lastRedraw >= 190, `published ${Date.now() - lastRedraw} ms after the last redraw`);
  assert.match(published.lines[7], /Thinking… 11$/);
});

test('while a screen keeps changing, the check for quiet backs off; once quiet, it is published, and the next burst is checked promptly again', async () => {
  const publisher = new MirrorPublisher(GridMirror.allocate(), 1000);
  let publishedAt = 0;
  const change = () => {
    publisher.onOutput();
    publisher.publishWhenSettled(() => (publishedAt = Date.now()));
  };
  const started = Date.now();
  while (Date.now() - started < 3000) {
    change();
    await sleep(80);
  }
  const lastChange = Date.now() - 80;
  const checksWhileChanging = publisher.settleChecks;
  assert.equal(publishedAt, 0, 'never published while changing');
  // Without the back-off the 200 ms check would have run ~15 times in 3 s; with it, 200+400+800+1600 ms.
  assert.ok(checksWhileChanging <= 5, `${checksWhileChanging} checks in 3 s`);
  await eventuallyTrue(() => publishedAt > 0, SETTLE_DEADLINE_MS);
  assert.ok(publishedAt - lastChange >= 190, `published ${publishedAt - lastChange} ms after the last change, not before it was quiet`);
  // Counted, not timed: the check armed before the last change saw it and re-armed; the next one publishes.
  assert.ok(publisher.settleChecks - checksWhileChanging <= 2, `published at check ${publisher.settleChecks - checksWhileChanging} after the changes stopped, not at the first quiet one`);
  // A back-off past its cap would next wait 3200 ms; the capped one publishes within one longest interval of the last change.
  assert.ok(publishedAt - lastChange < 2 * LONGEST_CHECK_MS, `published ${publishedAt - lastChange} ms after the last change: the back-off is capped`);

  publishedAt = 0;
  const burst = Date.now();
  change();
  await eventuallyTrue(() => publishedAt > 0, SETTLE_DEADLINE_MS);
  // A back-off left in place would check 1600 ms later at the earliest; the reset one checks after 200 ms.
  assert.ok(publishedAt - burst < LONGEST_CHECK_MS, `a lone change after that is published ${publishedAt - burst} ms later: the back-off was reset`);
});

/** The publisher's longest check interval (MAX_SETTLE_CHECK_MS), which a reset back-off stays clear of. */
const LONGEST_CHECK_MS = 1600;
/** Only a deadline for a publish that never comes: a loaded machine may run timers late. */
const SETTLE_DEADLINE_MS = 30_000;

async function eventuallyTrue(probe: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!probe()) {
    assert.ok(Date.now() < until, `not within ${timeoutMs} ms`);
    await sleep(10);
  }
}

test('output waiting in the lane, not yet taken, keeps the screen from counting as settled', async () => {
  let waiting = true;
  const publisher = new MirrorPublisher(GridMirror.allocate(), 1000, () => waiting);
  let published = 0;
  publisher.onOutput();
  publisher.publishWhenSettled(() => published++);
  // No change reaches the publisher after this, as when an unwatched spinner's redraws wait to be drained.
  await eventuallyTrue(() => publisher.settleChecks >= 2, SETTLE_DEADLINE_MS);
  assert.equal(published, 0, `published at check ${publisher.settleChecks} with output still waiting`);
  waiting = false;
  await eventuallyTrue(() => published > 0, SETTLE_DEADLINE_MS);
  assert.equal(published, 1);
});
