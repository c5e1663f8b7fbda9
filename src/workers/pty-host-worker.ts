/**
 * Entry point of the PTY host thread: one per coordinator, owning every
 * pane's PTY (see pty-host-protocol.ts). Commands arrive over Comlink on
 * parentPort; exits go back on the events port.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { InputActivity } from '../shared/input-activity.js';
import type { PtyHostEvent, PtyHostInit } from '../shared/pty-host-protocol.js';
import { expose, nodeEndpoint } from '../node/comlink-node.js';
import { AfterBurstSchedule, BURST_SETTLED_MS } from '../node/after-burst-schedule.js';
import { nativeAddon } from '../node/native-addon.js';
import { nameThisThread, PTY_HOST_THREAD_NAME } from '../node/thread-name.js';
import { coreParseScheduler } from './flood/parse-scheduler.js';
import { PtyHostService } from './pty-host-service.js';

nameThisThread(PTY_HOST_THREAD_NAME);
const init = workerData as PtyHostInit & { events: MessagePort };
/**
 * Once a burst of panes has gone, this thread's isolate is asked for its memory
 * back. Left to itself a quiet isolate collects when V8's memory reducer gets
 * to it, often after the coordinator's late trim (allocator.ts), and what it
 * frees then stays in glibc's arenas.
 */
const memoryRelease = new AfterBurstSchedule([{ delayMs: BURST_SETTLED_MS, run: () => nativeAddon()?.notifyMemoryPressure() }]);
const service = new PtyHostService(
  coreParseScheduler(new InputActivity(init.activity)),
  (event: PtyHostEvent) => init.events.postMessage(event),
  () => memoryRelease.paneEnded(),
);

expose(service, nodeEndpoint(parentPort!));
