/**
 * Does the piscina pool help? An agent pages through a large stream read
 * (1 MiB, read_output's cap: decode, ANSI strip; a grep runs on a pattern matcher thread instead) again and again, while
 * the user types into a quiet pane. Measured with the work inline on the
 * coordinator thread and on the pool: the read's own latency, the
 * coordinator's event-loop delay, and the quiet pane's echo latency.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { closeCpuPool, streamLinesOffThread } from '../../src/main/threads/cpu-pool.js';
import { Coordinator } from '../../src/main/coordinator.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { EchoProbe, QUIET_PANE_ARGV } from '../harness/echo-probe.js';
import { PANE } from '../harness/fence.js';
import { sleep } from '../harness/timing.js';

const READ_BYTES = 1024 * 1024;
const READS = 40;
/** An agent's think time between pages is far longer; back-to-back reads are the worst case for the coordinator. */
const READ_GAP_MS = 2;

export interface CpuPoolStreamResult {
  readMs: number[];
  echoMs: number[];
  loopDelayP99Ms: number;
}

export default async function cpuPoolStream(args: { path: string; mode: 'inline' | 'pool' }): Promise<CpuPoolStreamResult> {
  const source = readFileSync(args.path).subarray(0, READ_BYTES);
  await loadGhosttyModule();
  const coordinator = new Coordinator();
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  try {
    const quiet = await coordinator.spawn({ argv: QUIET_PANE_ARGV, kind: 'process' });
    const echo = new EchoProbe(coordinator, quiet.id);
    await echo.ready();
    // Warm both paths (pool thread start-up is a one-time cost, not what is measured).
    await streamLinesOffThread(new Uint8Array(source), { force: args.mode });
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    let reading = true;
    const readMs: number[] = [];
    const reader = (async () => {
      for (let i = 0; i < READS; i++) {
        const started = performance.now();
        await streamLinesOffThread(new Uint8Array(source), { force: args.mode });
        readMs.push(performance.now() - started);
        await sleep(READ_GAP_MS);
      }
      reading = false;
    })();
    const echoMs: number[] = [];
    while (reading) {
      echoMs.push(await echo.sample());
      await sleep(5);
    }
    await reader;
    delay.disable();
    echo.dispose();
    return { readMs, echoMs, loopDelayP99Ms: delay.percentile(99) / 1e6 };
  } finally {
    await closeCpuPool();
    await coordinator.shutdown(500);
  }
}
