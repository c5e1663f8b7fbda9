/**
 * A thread that owns PTYs can be torn down while its children are exiting
 * (worker.terminate(), or the PTY host dying), and the process survives.
 * node-pty's exit callback used to turn the failed call into JS into a C++
 * exception or a fatal error (patches/node-pty@1.1.0.patch), which aborted
 * the whole process: patterm, every pane, the TUI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

/** With the unpatched exit callback, 60 rounds aborted in every run here, mostly within the first few. */
const ROUNDS = 60;

test('terminating a thread while its PTY children exit does not abort the process', () => {
  const nodePty = createRequire(import.meta.url).resolve('node-pty');
  // Each round: a thread spawns 20 children that exit within 0-40 ms, and is terminated at a random moment in between.
  const thread = `
    const pty = require(${JSON.stringify(nodePty)});
    for (let i = 0; i < 20; i++) pty.spawn('sh', ['-c', 'sleep 0.0$((RANDOM % 5))'], { cols: 80, rows: 24, encoding: null });
    require('node:worker_threads').parentPort.postMessage('spawned');`;
  const script = `
    const { Worker } = require('node:worker_threads');
    (async () => {
      for (let round = 0; round < ${ROUNDS}; round++) {
        const worker = new Worker(${JSON.stringify(thread)}, { eval: true });
        await new Promise((resolve) => worker.once('message', resolve));
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 60));
        await worker.terminate();
      }
      console.log('survived');
    })();`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.signal, null, `the process was killed by ${run.signal}: ${run.stderr.slice(0, 400)}`);
  assert.equal(run.status, 0, run.stderr.slice(0, 400));
  assert.match(run.stdout, /survived/);
});
