/**
 * Killing a pane ends every process of it, found three ways (session and
 * group, descent from its root, the PATTERM_PANE marker in the environment),
 * hangs up a process that ignores SIGTERM but not SIGHUP, and SIGKILLs what
 * outlives the grace window. Real processes throughout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environHasEntry, findPaneProcesses, isAlive, killPaneTree, PANE_MARKER_VAR, readStat, readStatFile, withDescendants } from '../../src/node/process-reaper.js';
import { eventually } from '../helpers/coordinator-fixture.js';
import { scratchDir } from '../helpers/scratch-dir.js';

const TIMEOUT = 15_000;

function marker(): string {
  return `reaper-test-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Starts `script` under sh in a session of its own, as a pane's root is; it writes the pids it starts to `pids`. */
function startPane(script: string, paneMarker: string, pidsFile: string): ChildProcess {
  const child = spawn('sh', ['-c', script, 'sh', pidsFile], { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH, [PANE_MARKER_VAR]: paneMarker } });
  child.unref();
  return child;
}

async function pidsIn(file: string, count: number): Promise<number[]> {
  const { existsSync } = await import('node:fs');
  return eventually(
    () => {
      if (!existsSync(file)) return null;
      const pids = readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).map(Number);
      return pids.length >= count ? pids : null;
    },
    { timeoutMs: TIMEOUT, message: `${count} pids in ${file}` },
  );
}

test("the environment marker must be a whole entry, not a prefix of another's value", () => {
  const environ = Buffer.from('A=1\0PATTERM_PANE=i/p1\0B=2\0');
  assert.equal(environHasEntry(environ, 'PATTERM_PANE=i/p1'), true);
  assert.equal(environHasEntry(environ, 'PATTERM_PANE=i/p'), false);
  assert.equal(environHasEntry(Buffer.from('PATTERM_PANE=i/p1\0'), 'PATTERM_PANE=i/p1'), true, 'the first entry');
  assert.equal(environHasEntry(Buffer.from('X=PATTERM_PANE=i/p1\0'), 'PATTERM_PANE=i/p1'), false, 'inside a value');
});

test('a stat line is read past a command name holding spaces and parentheses', () => {
  const file = join(scratchDir('patterm-reaper-'), 'stat');
  writeFileSync(file, '4242 (odd) (name) S 1 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 5 1 0 777 0 0\n');
  assert.deepEqual(readStatFile(file, 4242), { pid: 4242, state: 'S', ppid: 1, pgrp: 4242, session: 4242, tpgid: -1, nice: 5, startTime: 777, comm: 'odd) (name' });
  assert.equal(readStatFile(join(file, 'missing'), 1), null);
  assert.equal(readStat(process.pid)?.ppid, process.ppid);
});

test('a pane is found by its session, its descendants and its marker, and a kill ends them all', async () => {
  const paneMarker = marker();
  const pidsFile = join(scratchDir('patterm-reaper-'), 'pids');
  // The root, a child in the background, and a grandchild that escapes the session with setsid.
  const root = startPane('sleep 600 & echo $! >> "$1"; setsid sh -c \'echo $$ >> "$1"; exec sleep 600\' sh "$1" & echo $$ >> "$1"; wait', paneMarker, pidsFile);
  const pids = await pidsIn(pidsFile, 3);
  try {
    const found = findPaneProcesses(root.pid!, paneMarker);
    for (const pid of pids) assert.ok(found.includes(pid), `pid ${pid} is found (found ${found.join(' ')})`);
    assert.ok(!found.includes(process.pid), 'never patterm itself');
    assert.deepEqual(withDescendants([]), [], 'no roots, no scan');
    await killPaneTree(root.pid!, paneMarker, 'SIGTERM', 2000);
    for (const pid of pids) assert.equal(isAlive(pid), false, `pid ${pid} is gone`);
  } finally {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
});

test('with its root gone, a pane is found by its marker alone; SIGTERM-ignoring processes are hung up or SIGKILLed', async () => {
  const paneMarker = marker();
  const pidsFile = join(scratchDir('patterm-reaper-'), 'pids');
  const hupFile = `${pidsFile}.hup`;
  // One ignores TERM but not HUP (as an interactive shell does), and notes the hangup; one ignores both and needs SIGKILL.
  startPane(
    `setsid sh -c 'trap "" TERM; trap "echo hup > ${hupFile}; exit 0" HUP; echo $$ >> "$1"; while :; do sleep 1; done' sh "$1" & ` +
      `setsid sh -c 'trap "" TERM HUP; echo $$ >> "$1"; while :; do sleep 1; done' sh "$1" &`,
    paneMarker,
    pidsFile,
  );
  const [hangsUp, stubborn] = await pidsIn(pidsFile, 2);
  try {
    const graceMs = 3000;
    const started = Date.now();
    await killPaneTree(null, paneMarker, 'SIGTERM', graceMs);
    assert.equal(isAlive(hangsUp), false);
    assert.equal(readFileSync(hupFile, 'utf8'), 'hup\n', 'the one that ignores only TERM was hung up, not SIGKILLed');
    assert.equal(isAlive(stubborn), false, 'the one that ignores both was SIGKILLed after the grace window');
    assert.ok(Date.now() - started >= graceMs, 'SIGKILL waited for the grace window');
    assert.deepEqual(findPaneProcesses(null, paneMarker), []);
  } finally {
    for (const pid of [hangsUp, stubborn]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
});
