/**
 * Resize order (as in xterm and tmux): the emulator takes the new size before
 * the PTY does, so that whatever the program writes after its SIGWINCH is
 * parsed at the new size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useCoordinator } from '../../helpers/coordinator-fixture.js';
import type { Pane } from '../../../src/main/panes/pane.js';

const coordinator = useCoordinator();
const TIMEOUT = 15_000;

/**
 * On the alternate screen (which ghostty does not reflow), redraws on every
 * SIGWINCH: a row of exactly the new width, then the size it was drawn for.
 */
const REDRAW_ON_WINCH = `
const draw = () => process.stdout.write('\\x1b[H\\x1b[2J' + '#'.repeat(process.stdout.columns) + '\\r\\nsize ' + process.stdout.columns + '\\r\\n');
process.stdout.write('\\x1b[?1049h');
process.stdout.on('resize', draw);
draw();
setInterval(() => undefined, 60_000);
`;

test("a program's redraw after SIGWINCH is parsed at the new size", async () => {
  const pane = await coordinator.spawn({ argv: [process.execPath, '-e', REDRAW_ON_WINCH], kind: 'process' });
  try {
    await coordinator.waitFor(pane.id, { pattern: `^size ${coordinator.paneSize.cols}$`, timeoutMs: TIMEOUT });
    // Each one wider than the last: a row drawn at the old, narrower width would wrap onto a second row.
    for (const cols of [60, 90, 121, 150]) {
      coordinator.setPaneSize(cols, 20);
      const seen = await coordinator.waitFor(pane.id, { pattern: `^size ${cols}$`, timeoutMs: TIMEOUT });
      assert.equal(seen.matched, true, `the redraw for ${cols} columns`);
      const grid = await coordinator.grid(pane.id);
      assert.deepEqual(grid.lines.slice(0, 2), ['#'.repeat(cols), `size ${cols}`], `at ${cols} columns`);
    }
  } finally {
    coordinator.setPaneSize(120, 40);
    await coordinator.kill(pane.id, 'SIGKILL', 0);
  }
});

test('the PTY is resized only once the emulator has been', async () => {
  // The race itself is narrow (the emulator's resize message usually wins), so the order is observed directly.
  const info = await coordinator.spawn({ argv: ['sleep', '60'], kind: 'process' });
  const pane = (coordinator as unknown as { tree: { get(id: string): Pane } }).tree.get(info.id);
  const internals = pane as unknown as { client: { call: (invoke: unknown) => Promise<unknown> }; pty: { host: { call: (invoke: (remote: object) => Promise<unknown>) => Promise<unknown> } } };
  const events: string[] = [];
  const worker = internals.client;
  const workerCall = worker.call.bind(worker);
  worker.call = (invoke) => workerCall(invoke).then((result) => (events.push('emulator resized'), result));
  const host = internals.pty.host;
  const hostCall = host.call.bind(host);
  host.call = (invoke) =>
    hostCall((remote) => invoke(new Proxy(remote, { get: (target, key) => (key === 'resize' && events.push('pty resize sent'), Reflect.get(target, key)) })));
  try {
    await pane.resize(70, 21);
    await coordinator.waitFor(info.id, { pattern: '', timeoutMs: TIMEOUT }); // a round trip, in case the host call is still on its way
    assert.deepEqual(events.slice(0, 2), ['emulator resized', 'pty resize sent']);
  } finally {
    await coordinator.kill(info.id, 'SIGKILL', 0);
  }
});
