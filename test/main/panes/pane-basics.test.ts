import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startBash, useCoordinator } from '../../helpers/coordinator-fixture.js';
import { UTF8_LOCALE } from '../../helpers/locale.js';

const coordinator = useCoordinator();
const TIMEOUT = 10_000;

const bash = () => startBash(coordinator, TIMEOUT);

test('bash echoes a command and its output into the grid', async () => {
  const pane = await bash();
  coordinator.write(pane.id, 'echo "sum=$((40+2))"\r', 'user');
  // The output and the next prompt can arrive in separate reads: wait for both.
  const result = await coordinator.waitFor(pane.id, { pattern: '^sum=42\\n\\$$', timeoutMs: TIMEOUT });
  assert.equal(result.matched, true);
  const grid = await coordinator.grid(pane.id);
  assert.deepEqual(grid.lines.slice(0, 2), ['$ echo "sum=$((40+2))"', 'sum=42']);
  assert.equal(grid.activeScreen, 'primary');
  assert.deepEqual([grid.rows, grid.cols], [40, 120]);
  assert.deepEqual(grid.cursor, { x: 2, y: 2, visible: true, textIndex: 2 });
});

test('exit codes are reported', async () => {
  const pane = await bash();
  coordinator.write(pane.id, 'exit 7\r', 'user');
  assert.deepEqual(await coordinator.exitPromise(pane.id), { status: 'exited', exitCode: 7, signal: null });
  assert.equal(coordinator.info(pane.id).process.status, 'exited');
});

test('death by signal is reported as killed with the signal name', async () => {
  const pane = await coordinator.spawn({ argv: ['sh', '-c', 'kill -TERM $$'], kind: 'process' });
  assert.deepEqual(await coordinator.exitPromise(pane.id), { status: 'killed', exitCode: null, signal: 'SIGTERM' });
});

test('the child sees TERM=xterm-256color, COLORTERM=truecolor and the env we merged in', async () => {
  const pane = await coordinator.spawn({
    argv: ['sh', '-c', 'echo "$TERM $COLORTERM $EXTRA_VAR"; sleep 5'],
    env: { EXTRA_VAR: 'merged' },
    kind: 'process',
  });
  const result = await coordinator.waitFor(pane.id, { pattern: 'xterm-256color truecolor merged', timeoutMs: TIMEOUT });
  assert.equal(result.matched, true);
});

test('DA1, DA2 and DSR queries get answers so programs do not stall', async () => {
  const pane = await bash();
  const ask = (query: string, terminator: string, label: string) =>
    `printf '${query}'; IFS= read -rs -d '${terminator}' -t 2 r; printf '${label}=%q\\n' "$r"\r`;
  coordinator.write(pane.id, ask('\\033[c', 'c', 'DA1'), 'user');
  assert.equal((await coordinator.waitFor(pane.id, { pattern: "DA1=\\$'\\\\E\\[\\?62;22'", timeoutMs: TIMEOUT })).matched, true);
  coordinator.write(pane.id, ask('\\033[>c', 'c', 'DA2'), 'user');
  assert.equal((await coordinator.waitFor(pane.id, { pattern: "DA2=\\$'\\\\E\\[>1;10;0'", timeoutMs: TIMEOUT })).matched, true);
  coordinator.write(pane.id, ask('\\033[6n', 'R', 'DSR'), 'user');
  assert.equal((await coordinator.waitFor(pane.id, { pattern: "DSR=\\$'\\\\E\\[\\d+;1'", timeoutMs: TIMEOUT })).matched, true);
});

test('escape sequences split into single bytes across writes render correctly', async () => {
  // Each byte is written (and flushed) separately, with a pause between, so each
  // arrives in its own PTY read.
  const script = `
    const seq = '\\x1b]2;split-title\\x07\\x1b[1;31mRED\\x1b[0m \\u4e16\\u754c e\\u0301 done\\r\\n';
    const bytes = Buffer.from(seq);
    let i = 0;
    const tick = () => { if (i < bytes.length) { process.stdout.write(bytes.subarray(i, ++i)); setTimeout(tick, 2); } else setTimeout(() => {}, 3000); };
    tick();`;
  const pane = await coordinator.spawn({ argv: [process.execPath, '-e', script], kind: 'process' });
  assert.equal((await coordinator.waitFor(pane.id, { pattern: 'done', timeoutMs: TIMEOUT })).matched, true);
  const grid = await coordinator.grid(pane.id);
  assert.equal(grid.lines[0], 'RED 世界 e\u0301 done');
  assert.equal(grid.title, 'split-title');
  const frame = await coordinator.cells(pane.id);
  // 'R' is bold red (palette red 205,0,0); the wide '世' occupies 2 cells.
  assert.equal(frame.cells[1], 0xcd0000);
  assert.equal(frame.cells[3] & 0xff, 1);
  assert.equal((frame.cells[4 * 4 + 3] >> 8) & 0xff, 2);
  assert.equal(coordinator.info(pane.id).title, 'split-title');
});

test('wide, combining and emoji graphemes come out once each', async () => {
  const pane = await coordinator.spawn({ argv: ['printf', '漢字 a\\u0301 👍🏽 x\\n'], env: UTF8_LOCALE, kind: 'process' });
  await coordinator.exitPromise(pane.id);
  const grid = await coordinator.grid(pane.id);
  assert.equal(grid.lines[0], '漢字 a\u0301 👍🏽 x');
});

test('started with no locale set, a pane runs its programs in a UTF-8 locale', async () => {
  const saved = { LC_ALL: process.env.LC_ALL, LC_CTYPE: process.env.LC_CTYPE, LANG: process.env.LANG };
  for (const key of Object.keys(saved)) delete process.env[key];
  try {
    const pane = await coordinator.spawn({ argv: ['locale', 'charmap'], kind: 'process' });
    await coordinator.exitPromise(pane.id);
    assert.equal((await coordinator.grid(pane.id)).lines[0], 'UTF-8');
  } finally {
    for (const [key, value] of Object.entries(saved)) if (value !== undefined) process.env[key] = value;
  }
});

test('empty writes and writes to an exited pane are harmless', async () => {
  const pane = await bash();
  coordinator.write(pane.id, '', 'user');
  coordinator.write(pane.id, new Uint8Array(0), 'user');
  coordinator.write(pane.id, 'exit 0\r', 'user');
  await coordinator.exitPromise(pane.id);
  coordinator.write(pane.id, 'still fine\r', 'user');
  const grid = await coordinator.grid(pane.id);
  assert.equal(grid.lines.some((line) => line.includes('still fine')), false);
});

test('screen_version changes exactly when the screen does', async () => {
  const pane = await bash();
  const before = await coordinator.grid(pane.id);
  const again = await coordinator.grid(pane.id);
  assert.equal(again.screenVersion, before.screenVersion);
  coordinator.write(pane.id, 'echo changed\r', 'user');
  // Wait for the next prompt too, so rows 0-2 have all been drawn before the diff.
  assert.equal((await coordinator.waitFor(pane.id, { pattern: '^changed\\n\\$$', timeoutMs: TIMEOUT })).matched, true);
  const after = await coordinator.grid(pane.id, before.screenVersion);
  assert.ok(after.screenVersion > before.screenVersion);
  assert.deepEqual(after.changedRows, [0, 1, 2]);
});

test('wait_for_pattern supports absent and stable conditions, and times out cleanly', async () => {
  const pane = await bash();
  coordinator.write(pane.id, 'echo marker; sleep 0.3; clear\r', 'user');
  await coordinator.waitFor(pane.id, { pattern: '^marker$', timeoutMs: TIMEOUT });
  const gone = await coordinator.waitFor(pane.id, { pattern: '^marker$', absent: true, timeoutMs: TIMEOUT });
  assert.equal(gone.matched, true);
  const stable = await coordinator.waitFor(pane.id, { pattern: '\\$', stableMs: 200, timeoutMs: TIMEOUT });
  assert.equal(stable.matched, true);
  assert.ok(stable.elapsedMs >= 200);
  const missing = await coordinator.waitFor(pane.id, { pattern: 'never-printed', timeoutMs: 100 });
  assert.equal(missing.matched, false);
  await assert.rejects(coordinator.waitFor(pane.id, { pattern: '(', timeoutMs: 100 }), /not a valid regular expression/);
});

test('a wait whose caller gave up ends at once in the worker, not at its timeout', async () => {
  const pane = await bash();
  const controller = new AbortController();
  const started = performance.now();
  const waiting = coordinator.waitFor(pane.id, { pattern: 'never-printed', timeoutMs: 60_000 }, controller.signal);
  setTimeout(() => controller.abort(), 100);
  const result = await waiting;
  assert.equal(result.matched, false);
  assert.ok(performance.now() - started < 5_000, `ended ${Math.round(performance.now() - started)} ms after it started`);
  coordinator.write(pane.id, 'echo after-cancel\r', 'user');
  assert.equal((await coordinator.waitFor(pane.id, { pattern: '^after-cancel$', timeoutMs: TIMEOUT }, new AbortController().signal)).matched, true, 'waits still work');
});

test('stream reads return bytes since an offset and report drops', async () => {
  const pane = await coordinator.spawn({ argv: ['sh', '-c', 'printf "first\\n"; sleep 0.2; printf "second\\n"; sleep 5'], kind: 'process' });
  await coordinator.waitFor(pane.id, { pattern: 'second', timeoutMs: TIMEOUT });
  const all = await coordinator.stream(pane.id, 0);
  assert.equal(new TextDecoder().decode(all.bytes), 'first\r\nsecond\r\n');
  const tail = await coordinator.stream(pane.id, 7);
  assert.equal(new TextDecoder().decode(tail.bytes), 'second\r\n');
  assert.equal(tail.droppedBytes, 0);
  assert.equal(tail.headOffset, all.endOffset);
});

test('an unknown pane id is a clear error', async () => {
  await assert.rejects(coordinator.grid('nope'), /no pane with id "nope"/);
});
