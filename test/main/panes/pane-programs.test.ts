import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LeasedWriter } from '../../../src/node/leased-writer.js';
import { eventually, startBash, useCoordinator } from '../../helpers/coordinator-fixture.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

const coordinator = useCoordinator();
const TIMEOUT = 15_000;
const dir = scratchDir('patterm-programs-');
const file = join(dir, 'sample.txt');
writeFileSync(file, Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');

const bash = () => startBash(coordinator, TIMEOUT);

test('vim enters the alternate screen, draws the file, and leaves it restoring the shell', async () => {
  const pane = await bash();
  coordinator.write(pane.id, 'echo before-vim\r', 'user');
  await coordinator.waitFor(pane.id, { pattern: '^before-vim$', timeoutMs: TIMEOUT });
  coordinator.write(pane.id, `vim -u NONE -i NONE -n ${file}\r`, 'user');
  await coordinator.waitFor(pane.id, { pattern: '^line 1$[\\s\\S]*^line 38$', timeoutMs: TIMEOUT });
  const inVim = await coordinator.grid(pane.id);
  assert.equal(inVim.activeScreen, 'alternate');
  assert.match(inVim.lines[39], /sample\.txt/);
  coordinator.write(pane.id, ':q\r', 'user');
  await coordinator.waitFor(pane.id, { pattern: 'line 1', absent: true, timeoutMs: TIMEOUT });
  const after = await coordinator.grid(pane.id);
  assert.equal(after.activeScreen, 'primary');
  assert.ok(after.lines.includes('before-vim'));
});

test('less pages through a file on the alternate screen and quits back', async () => {
  const pane = await bash();
  coordinator.write(pane.id, `LESS= LESSHISTFILE=- less ${file}\r`, 'user');
  await coordinator.waitFor(pane.id, { pattern: '^line 39$', timeoutMs: TIMEOUT });
  assert.equal((await coordinator.grid(pane.id)).activeScreen, 'alternate');
  coordinator.write(pane.id, ' ', 'user');
  const paged = await coordinator.waitFor(pane.id, { pattern: '^line 78$', timeoutMs: TIMEOUT });
  assert.equal(paged.matched, true);
  coordinator.write(pane.id, 'q', 'user');
  await coordinator.waitFor(pane.id, { pattern: 'line 78', absent: true, timeoutMs: TIMEOUT });
  assert.equal((await coordinator.grid(pane.id)).activeScreen, 'primary');
});

test('top keeps refreshing its screen', async () => {
  // Its config from the scratch directory: none there, so the user's toprc cannot change what it shows.
  const pane = await coordinator.spawn({ argv: ['top', '-d', '0.2'], kind: 'process', env: { HOME: dir, XDG_CONFIG_HOME: dir } });
  // top may paint its summary and its task table in separate writes, so wait for both.
  await coordinator.waitFor(pane.id, { pattern: 'load average[\\s\\S]*PID\\s+USER', timeoutMs: TIMEOUT });
  const first = await coordinator.grid(pane.id);
  assert.ok(first.lines.some((line) => /PID\s+USER/.test(line)), first.lines.join('\n'));
  await eventually(async () => (await coordinator.grid(pane.id)).screenVersion >= first.screenVersion + 3, { timeoutMs: TIMEOUT, message: 'three more top refreshes' });
  coordinator.write(pane.id, 'q', 'user');
  assert.equal((await coordinator.exitPromise(pane.id)).exitCode, 0);
});

test('resize reaches the program (stty size) and reflows long lines', async () => {
  const pane = await bash();
  const long = 'x'.repeat(100);
  coordinator.write(pane.id, `echo ${long}\r`, 'user');
  await coordinator.waitFor(pane.id, { pattern: `^${long}$`, timeoutMs: TIMEOUT });
  coordinator.setPaneSize(60, 20);
  await eventually(async () => (await coordinator.grid(pane.id)).cols === 60, { message: 'the grid to be 60 columns' });
  const grid = await coordinator.grid(pane.id);
  assert.equal(grid.rows, 20);
  // The 100-char output line soft-wraps into 60 + 40 columns.
  assert.ok(grid.lines.includes('x'.repeat(60)) && grid.lines.includes('x'.repeat(40)), grid.lines.join('\n'));
  coordinator.write(pane.id, 'stty size\r', 'user');
  assert.equal((await coordinator.waitFor(pane.id, { pattern: '^20 60$', timeoutMs: TIMEOUT })).matched, true);
  coordinator.setPaneSize(120, 40);
});

/** Resizes the pane six times under four floods, each time sending `stty size` at once with `type`. */
async function typeRightAfterResizes(type: (paneId: string, text: string) => void): Promise<void> {
  // Floods keep the PTY host thread busy, which is where resizes are carried out; input does not go through it.
  const floods = await Promise.all([0, 1, 2, 3].map(() => coordinator.spawn({ argv: ['yes', 'flood'], kind: 'process' })));
  const pane = await bash();
  try {
    for (const [i, [cols, rows]] of [[60, 20], [70, 22], [64, 21], [72, 23], [66, 19], [80, 24]].entries()) {
      coordinator.setPaneSize(cols, rows);
      type(pane.id, `clear; stty size; echo size-${i}\r`);
      const seen = await coordinator.waitFor(pane.id, { pattern: `^size-${i}$`, timeoutMs: TIMEOUT });
      assert.equal(seen.matched, true, `the command after resize ${i}`);
      const lines = (await coordinator.grid(pane.id)).lines;
      assert.ok(lines.includes(`${rows} ${cols}`), `resize ${i}: stty size should print "${rows} ${cols}"; the screen:\n${lines.join('\n')}`);
    }
  } finally {
    for (const flood of floods) await coordinator.kill(flood.id, 'SIGKILL', 0);
    coordinator.setPaneSize(120, 40);
  }
}

test('input sent right after a resize reaches the program after the resize, even with the PTY host busy', async () => {
  await typeRightAfterResizes((paneId, text) => coordinator.write(paneId, text, 'user'));
});

test('keys written straight to the master, as the TUI renderer writes them, also wait for a resize', async () => {
  const writers: LeasedWriter[] = [];
  await typeRightAfterResizes((paneId, text) => {
    const channel = coordinator.directInput(paneId);
    assert.ok(channel, 'a running pane offers direct input');
    const writer = new LeasedWriter(channel, `pane ${paneId}`, () => assert.fail('direct input failed'));
    writers.push(writer);
    assert.equal(writer.write(new TextEncoder().encode(text)), true);
  });
  for (const writer of writers) writer.detach();
});
