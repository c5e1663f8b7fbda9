/**
 * An exited pane's pid is free for the kernel to reuse: closing (or retiring)
 * the pane later must not signal whatever process holds that pid by then.
 * Runs in a private PID namespace, where writing ns_last_pid hands the old pid
 * to a bystander without touching anything else on the machine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const coordinatorUrl = new URL('../../src/main/coordinator.js', import.meta.url).href;

const SCRIPT = `
  import { spawn } from 'node:child_process';
  import { writeFileSync } from 'node:fs';
  import { Coordinator } from ${JSON.stringify(coordinatorUrl)};
  const coordinator = new Coordinator('/tmp');
  coordinator.retirement.afterExitMs = Infinity;
  const pane = await coordinator.spawn({ argv: ['sh', '-c', 'echo done'], kind: 'process' });
  await coordinator.exitPromise(pane.id);
  const pid = pane.process.pid;
  writeFileSync('/proc/sys/kernel/ns_last_pid', String(pid - 1));
  const bystander = spawn('sleep', ['30'], { stdio: 'ignore' });
  const ended = new Promise((resolve) => bystander.on('exit', (code, signal) => resolve(signal ?? 'exit ' + code)));
  await coordinator.close(pane.id);
  const outcome = await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve('running'), 1000))]);
  bystander.kill('SIGKILL');
  await coordinator.shutdown(500);
  console.log(JSON.stringify({ samePid: bystander.pid === pid, outcome }));
  process.exit(0);`;

const probe = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']);
const skip = probe.status === 0 ? false : `needs a private PID namespace (unshare: ${probe.error?.message ?? probe.stderr.toString().trim()})`;

test('closing an exited pane does not signal a process that got its pid since', { skip }, () => {
  // A file, not --eval: the pane workers would inherit --input-type and refuse to start.
  const dir = mkdtempSync(join(tmpdir(), 'patterm-pid-reuse-'));
  const script = join(dir, 'close-after-reuse.mjs');
  writeFileSync(script, SCRIPT);
  const run = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', process.execPath, script], { encoding: 'utf8', timeout: 30_000 });
  rmSync(dir, { recursive: true, force: true });
  assert.equal(run.status, 0, run.stderr);
  const { samePid, outcome } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { samePid: boolean; outcome: string };
  assert.equal(samePid, true, 'the bystander got the pane\'s old pid');
  assert.equal(outcome, 'running', 'the bystander was not signalled');
});
