/**
 * N panes flood at once through one Coordinator, while a quiet `cat` pane is
 * typed into: aggregate MB/s until every flood's fence is answered, and the
 * quiet pane's keystroke-to-echo latency throughout.
 */
import { readFileSync } from 'node:fs';
import { Coordinator, INTERACTIVE_WORKER_NICE } from '../../src/main/coordinator.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { EchoProbe, QUIET_PANE_ARGV } from '../harness/echo-probe.js';
import { cookForPty } from '../harness/flood-data.js';
import { DSR_QUERY, fencedFloodArgv, PANE } from '../harness/fence.js';
import { busySince, systemBusyMs } from '../harness/system-cpu.js';
import { monotonicUs, ThreadCpuTracker, type ThreadCpuMs } from '../harness/thread-cpu.js';
import { sleep } from '../harness/timing.js';

/** Pause between echo samples: a brisk typist, and enough samples over a few seconds of flood. */
const ECHO_INTERVAL_MS = 10;

export interface FanInResult {
  ms: number;
  bytes: number;
  /** Echo samples once every flood pane was up and producing output (what the target is about). */
  echoMs: number[];
  /** Samples taken while the flood panes were still starting (16 workers loading at once). */
  startupEchoMs: number[];
  /** Machine CPU ms (every process and the kernel) from the first spawn to the last fence; null off Linux. */
  busyMs: number | null;
  /** patterm's CPU ms by thread over the same span; null off Linux. */
  threads: ThreadCpuMs | null;
  /** The span the figures cover, in process.hrtime microseconds (profile-stages.ts). */
  windowUs: [number, number];
}

export default async function fanInPatterm(args: { path: string; panes: number }): Promise<FanInResult> {
  const perPane = cookForPty(readFileSync(args.path)).length + DSR_QUERY.length;
  await loadGhosttyModule();
  const coordinator = new Coordinator();
  coordinator.workerNice = INTERACTIVE_WORKER_NICE; // as in the app: floods nobody watches yield to the watched pane
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  try {
    const quiet = await coordinator.spawn({ argv: QUIET_PANE_ARGV, kind: 'process', name: 'quiet' });
    const echo = new EchoProbe(coordinator, quiet.id);
    await echo.ready();
    const busyBefore = systemBusyMs();
    const threadCpu = new ThreadCpuTracker();
    const windowStart = monotonicUs();
    const started = performance.now();
    const floods = await Promise.all(Array.from({ length: args.panes }, (_, i) => coordinator.spawn({ argv: fencedFloodArgv(args.path), kind: 'process', name: `flood-${i}` })));
    let finished = 0;
    let busyMs: number | null = null;
    let threads: ThreadCpuMs | null = null;
    let windowEnd = 0;
    const allDone = Promise.all(floods.map((pane) => coordinator.exitPromise(pane.id).finally(() => threadCpu.sample()))).then((exits) => {
      finished = performance.now();
      busyMs = busySince(busyBefore);
      threads = threadCpu.stop();
      windowEnd = monotonicUs();
      const failed = exits.filter((exit) => exit.exitCode !== 0);
      if (failed.length > 0) throw new Error(`${failed.length} flood pane(s) did not end cleanly: ${JSON.stringify(failed[0])}`);
    });
    // A flood pane is up once its first output reached its worker (a dirty notice).
    const flowing = new Set<string>();
    const subscriptions = floods.map((pane) => {
      const subscription = coordinator.onScreenDirty(pane.id, () => {
        flowing.add(pane.id);
        subscription.dispose(); // one notice is all this needs; listening longer would cost the coordinator a wake-up per tick
      });
      return subscription;
    });
    const floodIds = floods.map((pane) => pane.id);
    const echoMs: number[] = [];
    const startupEchoMs: number[] = [];
    while (finished === 0) {
      const steady = floodIds.every((id) => flowing.has(id));
      (steady ? echoMs : startupEchoMs).push(await echo.sample());
      await sleep(ECHO_INTERVAL_MS);
    }
    for (const subscription of subscriptions) subscription.dispose();
    await allDone;
    echo.dispose();
    return { ms: finished - started, bytes: perPane * args.panes, echoMs, startupEchoMs, busyMs, threads, windowUs: [windowStart, windowEnd] };
  } finally {
    await coordinator.shutdown(500);
  }
}
