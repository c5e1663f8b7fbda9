/**
 * Starts a pane's worker thread with everything it owns from the first
 * instruction: its size, ring and scrollback budgets, idle threshold, the
 * shared memory it publishes into (grid mirror, acks), the compiled ghostty
 * module, and the two ports (output from the PTY host, events to the pane).
 * Or hands the same to a spare worker booted before its pane (adoptPane).
 */
import { Worker, type MessagePort } from 'node:worker_threads';
import { DEFAULT_IDLE_THRESHOLD_MS, DEFAULT_RING_CAPACITY, DEFAULT_SCROLLBACK_BYTES, type PaneWorkerInit } from '../../shared/pane-protocol.js';
import type { PaneId } from '../../shared/pane-types.js';
import { VERSION } from '../version.js';
import { SMALL_HEAP_LIMITS, workerStart } from './worker-entry.js';


export interface PaneWorkerLaunch {
  paneId: PaneId;
  cols: number;
  rows: number;
  module: WebAssembly.Module;
  idleThresholdMs?: number;
  ringCapacity?: number;
  /** See PaneWorkerInit.nice. */
  nice?: number;
  /** See PaneWorkerInit.inputActivity. */
  inputActivity?: SharedArrayBuffer;
  /** See PaneWorkerInit.wake. */
  wake?: SharedArrayBuffer;
  gridMirror: SharedArrayBuffer;
  acks: SharedArrayBuffer;
  /** See PaneWorkerInit.lane. */
  lane: SharedArrayBuffer;
  /** Output from the PTY host (transferred), as pane-worker.ts expects it. */
  dataPort: MessagePort;
  /** The worker's notices to the pane, and its commands back; transferred. */
  eventPort: MessagePort;
}

export function launchPaneWorker(launch: PaneWorkerLaunch): Worker {
  const { data, transferList } = paneWorkerData(launch);
  const start = workerStart('workers/pane-worker');
  return withQuietOutput(new Worker(start.url, { workerData: { ...data, ...start.data }, transferList, resourceLimits: SMALL_HEAP_LIMITS, stdout: true, stderr: true }));
}

/**
 * A worker that boots without a pane and waits for one (spare-pane-worker.ts):
 * `adoptPane` makes it a pane's. Its stdout and stderr are drained only from
 * then on: a flowing worker stdio stream keeps the process alive even with the
 * worker unref()'d, which a spare must not. Until then it prints nothing.
 */
export function launchSpareWorker(): Worker {
  const start = workerStart('workers/pane-worker');
  return new Worker(start.url, { workerData: { spare: true, ...start.data }, resourceLimits: SMALL_HEAP_LIMITS, stdout: true, stderr: true });
}

/** Makes a spare the pane's worker: what a launch puts in workerData, as its first message. */
export function adoptPane(spare: Worker, launch: PaneWorkerLaunch): void {
  const { data, transferList } = paneWorkerData(launch);
  spare.postMessage(data, transferList);
  withQuietOutput(spare);
}

function paneWorkerData(launch: PaneWorkerLaunch) {
  const data = {
    init: {
      paneId: launch.paneId,
      cols: launch.cols,
      rows: launch.rows,
      ringCapacity: launch.ringCapacity ?? DEFAULT_RING_CAPACITY,
      scrollbackBytes: DEFAULT_SCROLLBACK_BYTES,
      idleThresholdMs: launch.idleThresholdMs ?? DEFAULT_IDLE_THRESHOLD_MS,
      nice: launch.nice,
      gridMirror: launch.gridMirror,
      acks: launch.acks,
      lane: launch.lane,
      inputActivity: launch.inputActivity,
      wake: launch.wake,
      version: VERSION,
    } satisfies PaneWorkerInit,
    module: launch.module,
    dataPort: launch.dataPort,
    eventPort: launch.eventPort,
  };
  return { data, transferList: [launch.dataPort, launch.eventPort] };
}

/** Logs never go to stdout: the TUI and the MCP proxy own it. */
function withQuietOutput(worker: Worker): Worker {
  worker.stdout.resume();
  worker.stderr.resume();
  return worker;
}
