/**
 * Entry point of the renderer thread. It draws straight to the host terminal's
 * fd, so a main thread busy with PTY output never delays a frame.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fdSink } from './host-output.js';
import type { RendererInit, ToRendererMessage } from './protocol.js';
import { RendererApp } from './renderer-app.js';

const init = workerData as RendererInit;
const port = parentPort!;
const app = new RendererApp(init.cols, init.rows, fdSink(init.outputFd), (message) => port.postMessage(message));
port.on('message', (message: ToRendererMessage) => {
  if (init.crashOn && message.t === 'input' && Buffer.from(message.bytes).includes(init.crashOn)) {
    throw new Error('test crash on the renderer thread (PATTERM_TEST_CRASH)');
  }
  app.onMessage(message);
});
app.start();
