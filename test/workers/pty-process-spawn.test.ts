/**
 * How a pane's child starts. node-pty is patched (patches/node-pty@1.1.0.patch)
 * to spawn with posix_spawn instead of forkpty: these pin down that the child
 * still gets what forkpty gave it, and what the patch adds.
 */
import { after, test } from 'node:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { eventually, startBash, useCoordinator } from '../helpers/coordinator-fixture.js';

const coordinator = useCoordinator('/tmp');
const TIMEOUT = 10_000;

/** Whether the foreground group of `shellPid`'s terminal (tpgid, field 8 of /proc/<pid>/stat) is another group, led by `sleep`. */
function foregroundIsSleep(shellPid: number): boolean {
  const stat = readFileSync(`/proc/${shellPid}/stat`, 'utf8');
  const foreground = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[5]);
  if (foreground <= 0 || foreground === shellPid) return false;
  try {
    return readFileSync(`/proc/${foreground}/comm`, 'utf8').trim() === 'sleep';
  } catch {
    return false; // the group's leader is gone or not yet visible
  }
}

async function outputOf(argv: string[], pattern: string, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  const pane = await coordinator.spawn({ argv, kind: 'process', ...options });
  await coordinator.exitPromise(pane.id);
  const result = await coordinator.waitFor(pane.id, { pattern, timeoutMs: TIMEOUT });
  assert.equal(result.matched, true, `${argv.join(' ')} printed ${pattern}`);
  return (await coordinator.grid(pane.id)).lines.join('\n');
}

test('the child leads its own session, with the pane as its controlling terminal, so job control and Ctrl-C work', async () => {
  const pane = await startBash(coordinator, TIMEOUT);
  coordinator.write(pane.id, 'ps -o sid=,tpgid= -p $$; echo "pid=$$ tty=$(tty)"\r', 'user');
  const shown = await coordinator.waitFor(pane.id, { pattern: 'pid=\\d+ tty=/dev/pts/\\d+', timeoutMs: TIMEOUT });
  assert.equal(shown.matched, true);
  const text = (await coordinator.grid(pane.id)).lines.join('\n');
  const [, sid, tpgid] = /^\s*(\d+)\s+(\d+)\s*$/m.exec(text) ?? [];
  const [, pid] = /pid=(\d+)/.exec(text) ?? [];
  assert.equal(sid, pid, 'bash is a session leader');
  assert.ok(Number(tpgid) > 0, `the terminal has a foreground process group (tpgid ${tpgid})`);

  coordinator.write(pane.id, 'sleep 30\r', 'user');
  // The echo of the line comes before bash has made sleep the foreground job, and
  // bash's child keeps bash's SIGINT handler until it execs sleep: a Ctrl-C sent
  // before then reaches bash, or is handled by the child, and sleep runs on. Send
  // it once the terminal's foreground group (tpgid, from bash's /proc stat) is led
  // by a process that is already sleep.
  await eventually(() => foregroundIsSleep(Number(pid)), { timeoutMs: TIMEOUT, message: 'sleep to be the foreground job' });
  coordinator.write(pane.id, '\x03', 'user');
  coordinator.write(pane.id, 'echo "after=$?"\r', 'user');
  const interrupted = await coordinator.waitFor(pane.id, { pattern: 'after=130', timeoutMs: TIMEOUT });
  assert.equal(interrupted.matched, true, 'Ctrl-C reached the foreground job as SIGINT');
});

test("the child starts in the requested directory, and its program is found on the PATH of its own environment", async () => {
  const bin = mkdtempSync(join(tmpdir(), 'patterm-spawn-'));
  after(() => rmSync(bin, { recursive: true, force: true }));
  writeFileSync(join(bin, 'patterm-spawn-probe'), '#!/bin/sh\necho "probe in $PWD"\n', { mode: 0o755 });
  const text = await outputOf(['patterm-spawn-probe'], 'probe in', { cwd: '/usr', env: { PATH: `${bin}:/usr/bin:/bin` } });
  assert.match(text, /^probe in \/usr$/m);
});

test('a program that is not on PATH fails the way it always did: a message in the pane and exit code 1', async () => {
  const pane = await coordinator.spawn({ argv: ['patterm-no-such-program'], kind: 'process' });
  assert.deepEqual(await coordinator.exitPromise(pane.id), { status: 'exited', exitCode: 1, signal: null });
  const result = await coordinator.waitFor(pane.id, { pattern: 'execvp\\(3\\) failed', timeoutMs: TIMEOUT });
  assert.equal(result.matched, true);
});

test("a child holds no other pane's terminal open: only its stdin, stdout and stderr are terminals", async () => {
  await startBash(coordinator, TIMEOUT); // an earlier pane, whose master must not leak into later children
  const text = await outputOf(['sh', '-c', 'ls -l /proc/$$/fd; echo listed'], 'listed');
  const terminals = [...text.matchAll(/ (\d+) -> (\/dev\/(?:ptmx|pts\/\d+))$/gm)].map(([, fd, target]) => ({ fd, target }));
  assert.deepEqual(terminals.map(({ fd }) => fd).sort(), ['0', '1', '2'], JSON.stringify(terminals));
  assert.equal(new Set(terminals.map(({ target }) => target)).size, 1, 'all three are the pane\'s own terminal');
});
