/**
 * Entry point of a pane worker thread: wires one PaneService to its PTY and
 * the coordinator. Output bytes arrive from the PTY host on the data port
 * (acks and query replies go back there); RPC arrives over Comlink on
 * parentPort; screen notices go to the coordinator on the event port, which
 * also brings the TUI's frame port.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { SPARE_READY, type FromWorkerMessage, type PaneWorkerApi, type PaneWorkerInit, type ToWorkerMessage } from '../shared/pane-protocol.js';
import { OutputLaneReader } from '../shared/output-lane.js';
import { expose, nodeEndpoint, transfer } from '../node/comlink-node.js';
import { nameThisThread, PANE_WORKER_THREAD_NAME } from '../node/thread-name.js';
import { FloodPriority } from './flood/flood-priority.js';
import { InputPark } from './flood/input-park.js';
import { InputActivity } from '../shared/input-activity.js';
import { WorkerWake } from '../shared/worker-wake.js';
import { PaneService } from './pane-service.js';
import { isOutputMessage, OutputReceiver } from './output-receiver.js';
import { saveWorkerCodeCache } from '../node/worker-code-cache.js';

/**
 * How long after its first output a pane worker writes its bundle's code
 * cache, when it compiled without one: by then the output path (parse, screen
 * ticks, frames) has run and been compiled, and V8 caches it too.
 */
const CODE_CACHE_SAVE_DELAY_MS = 500;

/** What makes a worker one pane's: its workerData at launch, or a spare's first message (see SPARE_READY). */
interface PaneWorkerData {
  init: PaneWorkerInit;
  module: WebAssembly.Module;
  dataPort: MessagePort;
  eventPort: MessagePort;
}

nameThisThread(PANE_WORKER_THREAD_NAME);
const launched = workerData as PaneWorkerData | { spare: true };
if (!('spare' in launched)) startPane(launched);
else {
  // A spare: the module graph is loaded (the costly part of a boot); the pane comes in one message.
  parentPort!.once('message', (data: PaneWorkerData) => startPane(data));
  parentPort!.postMessage(SPARE_READY);
}

/** Becomes the pane's worker. Synchronous, so Comlink is listening before the next message on parentPort is dispatched. */
function startPane({ init, module, dataPort, eventPort }: PaneWorkerData): void {
  const priority = new FloodPriority(init.nice ?? 0);
  const park = init.inputActivity && init.wake ? new InputPark(new InputActivity(init.inputActivity), new WorkerWake(init.wake)) : null;
  const lane = init.lane ? new OutputLaneReader(init.lane) : null;
  const service = new PaneService(
    init,
    module,
    (message: FromWorkerMessage) => {
      if (message.t === 'ack' || message.t === 'reply') dataPort.postMessage(message);
      else eventPort.postMessage(message);
    },
    { outputWaiting: () => lane?.hasUnread() ?? false, ...(park ? { slices: park } : {}) },
  );

  const output = new OutputReceiver(service, lane, (buffer) => dataPort.postMessage({ t: 'recycle', buffer } satisfies FromWorkerMessage, [buffer]));
  let framePort: MessagePort | null = null;

  let cacheSaveScheduled = false;
  dataPort.on('message', (message: ToWorkerMessage) => {
    if (!isOutputMessage(message)) return;
    if (!cacheSaveScheduled) {
      cacheSaveScheduled = true;
      setTimeout(saveWorkerCodeCache, CODE_CACHE_SAVE_DELAY_MS).unref();
    }
    const flood = message.t === 'skim' || (message.t !== 'lane-drain' && message.flooding);
    if (service.watched) priority.onWatched();
    else if (flood) priority.onFlood();
    park?.onBatch(flood && !service.watched);
    output.receive(message);
    output.updateEager(); // a waiter may have matched
  });

  /**
   * Whatever may start someone watching (a waiter, the TUI's frames, the
   * coordinator's notices) or read the pane runs between two drains: output
   * left in the lane is taken before it, and any written before the PTY host
   * saw the pane turn eager is taken after it.
   */
  function drained<A extends unknown[], R>(call: (...args: A) => R): (...args: A) => R {
    return (...args) => {
      output.drain();
      const result = call(...args);
      output.updateEager();
      output.drain();
      return result;
    };
  }

  eventPort.on(
    'message',
    drained((message: ToWorkerMessage) => {
      if (message.t === 'frame-sink') setFramePort(message.port as MessagePort | null);
      else if (message.t === 'screen-notices') service.setScreenNotices(message.on);
    }),
  );

  /** The TUI's focused-pane port: frames go straight to the renderer thread, not through the coordinator. */
  function setFramePort(port: MessagePort | null): void {
    framePort?.close();
    framePort = port;
    if (!port) {
      service.setFrameSink(null);
      return;
    }
    port.on('close', () => {
      if (framePort === port) {
        framePort = null;
        service.setFrameSink(null);
      }
    });
    service.setFrameSink((frame) => port.postMessage(frame, [frame.cells.buffer as ArrayBuffer]));
  }

  const api: PaneWorkerApi = {
    resize: drained((cols, rows) => service.resize(cols, rows)),
    grid: drained((sinceVersion, styled) => service.grid(sinceVersion, styled)),
    cells: drained(() => {
      const frame = service.cells();
      return transfer(frame, [frame.cells.buffer]);
    }),
    history: drained((first, count) => {
      const slice = service.historySlice(first, count);
      return transfer(slice, [slice.frame.cells.buffer]);
    }),
    stream: drained((fromOffset, limit) => {
      const chunk = service.stream(fromOffset, limit);
      return transfer(chunk, [chunk.bytes.buffer]);
    }),
    remains: drained((historyCells) => service.remains(historyCells)),
    waitFor: drained((request) => service.waitFor(request)),
    cancelWait: drained((id) => service.cancelWait(id)),
    idleMs: drained(() => service.idleMs()),
    idleState: drained(() => service.idleState()),
    setIdleThreshold: drained((ms) => service.setIdleThreshold(ms)),
    promptRows: drained(() => service.promptRows()),
  };

  expose(api, nodeEndpoint(parentPort!));
  const ready: FromWorkerMessage = { t: 'ready' };
  eventPort.postMessage(ready);
}
