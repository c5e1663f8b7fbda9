import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withFileLock } from '../../../src/main/scratchpads/file-lock.js';

const LOCK_URL = new URL('../../../src/main/scratchpads/file-lock.js', import.meta.url).href;

/**
 * A real other process using the lock: on {hold_ms, stale_after_ms} it takes
 * the lock, writes "+<id>" to the log, holds it, writes "-<id>", releases and
 * answers "done" ("held" once it is inside).
 */
const CONTENDER = `
  import { appendFileSync } from 'node:fs';
  import { withFileLock } from ${JSON.stringify(LOCK_URL)};
  const [lockPath, logPath, id] = process.argv.slice(2);
  process.on('message', async ({ hold_ms, stale_after_ms }) => {
    await withFileLock(lockPath, async () => {
      appendFileSync(logPath, '+' + id + '\\n');
      process.send('held');
      await new Promise((resolve) => setTimeout(resolve, hold_ms));
      appendFileSync(logPath, '-' + id + '\\n');
    }, stale_after_ms === undefined ? undefined : { staleAfterMs: stale_after_ms });
    process.send('done');
  });
  process.send('ready');`;

function setUp(t: { after: (fn: () => void) => void }) {
  const root = mkdtempSync(join(tmpdir(), 'patterm-file-lock-'));
  const script = join(root, 'contender.mjs');
  writeFileSync(script, CONTENDER);
  const lockPath = join(root, '.plan.md.lock');
  const logPath = join(root, 'log');
  writeFileSync(logPath, '');
  const children: ChildProcess[] = [];
  t.after(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });
  const start = async (id: string): Promise<ChildProcess> => {
    const child = fork(script, [lockPath, logPath, id], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    await nextMessage(child, 'ready');
    return child;
  };
  return { root, lockPath, logPath, start };
}

function nextMessage(child: ChildProcess, expected: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (message !== expected) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve();
    };
    const onExit = (code: number | null, signal: string | null) => reject(new Error(`contender exited (${code ?? signal}) before "${expected}"`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** "+a -a +b -b …" is mutual exclusion; "+a +b" is two holders at once. */
function overlaps(log: string): string[] {
  const lines = log.trim().split('\n').filter(Boolean);
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    if (!lines[i].startsWith('+') || lines[i + 1] !== `-${lines[i].slice(1)}`) problems.push(`lines ${i + 1}-${i + 2}: ${lines[i]} ${lines[i + 1]}`);
  }
  return problems;
}

/** A lock file as a crashed patterm leaves it, last touched a minute ago. */
function plantStaleLock(lockPath: string): void {
  writeFileSync(lockPath, '');
  const old = new Date(Date.now() - 60_000);
  utimesSync(lockPath, old, old);
}

test('processes that all find the same stale lock take it over one at a time', async (t) => {
  const { root, lockPath, logPath, start } = setUp(t);
  const contenders = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map(start));
  for (let round = 0; round < 8; round++) {
    plantStaleLock(lockPath);
    const done = contenders.map((child) => nextMessage(child, 'done'));
    for (const child of contenders) child.send({ hold_ms: 20 });
    await Promise.all(done);
  }
  const log = readFileSync(logPath, 'utf8');
  assert.deepEqual(overlaps(log), [], `two processes held the lock at once:\n${log}`);
  assert.equal(log.trim().split('\n').length, 6 * 8 * 2);
  assert.deepEqual(readdirSync(root).sort(), ['contender.mjs', 'log'], 'no lock or claim file is left behind');
});

test('a takeover cut short by a crash does not block the lock for good', async (t) => {
  const { root, lockPath } = setUp(t);
  plantStaleLock(lockPath);
  // What a process that died between claiming the stale lock and removing it leaves behind.
  const { ino, mtimeMs } = statSync(lockPath);
  const claim = `${lockPath}.${ino}-${mtimeMs}.claim`;
  writeFileSync(claim, '');
  const old = new Date(Date.now() - 60_000);
  utimesSync(claim, old, old);
  await withFileLock(lockPath, async () => undefined);
  assert.deepEqual(readdirSync(root).sort(), ['contender.mjs', 'log']);
});

test('the lock of a process that died is taken over at once, not after the stale age', async (t) => {
  const { lockPath, start } = setUp(t);
  const holder = await start('dead');
  const held = nextMessage(holder, 'held');
  holder.send({ hold_ms: 60_000 });
  await held;
  const exited = new Promise((resolve) => holder.once('exit', resolve));
  holder.kill('SIGKILL');
  await exited;
  const started = Date.now();
  await withFileLock(lockPath, async () => undefined);
  const waited = Date.now() - started;
  assert.ok(waited < 2000, `waited ${waited} ms for a dead process's lock`);
});

test('a holder that is slow but alive keeps its lock past the stale age', async (t) => {
  const { lockPath, logPath, start } = setUp(t);
  const holder = await start('slow');
  const held = nextMessage(holder, 'held');
  // Held five times as long as a silent lock stays valid.
  holder.send({ hold_ms: 1500, stale_after_ms: 300 });
  await held;
  await withFileLock(lockPath, async () => {
    appendFileSync(logPath, '+me\n-me\n');
  }, { staleAfterMs: 300 });
  const log = readFileSync(logPath, 'utf8');
  assert.deepEqual(log.trim().split('\n'), ['+slow', '-slow', '+me', '-me'], 'the lock was taken from a live holder');
});

test('a holder whose lock was taken over while it was stopped does not remove its successor\'s lock', async (t) => {
  const { lockPath, start } = setUp(t);
  const holder = await start('stopped');
  const held = nextMessage(holder, 'held');
  holder.send({ hold_ms: 100, stale_after_ms: 300 });
  await held;
  // Frozen (Ctrl-Z, a debugger): it stops touching its lock, which goes stale.
  holder.kill('SIGSTOP');
  await withFileLock(lockPath, async () => {
    const done = nextMessage(holder, 'done');
    holder.kill('SIGCONT');
    await done;
    assert.ok(existsSync(lockPath), 'the resumed holder removed the lock this process holds');
  }, { staleAfterMs: 300 });
  assert.equal(existsSync(lockPath), false);
});
