/**
 * Entry point of the renderer thread. It reads the host terminal's input and
 * draws straight to its output fd, so a main thread busy with PTY output
 * never delays a keystroke or a frame.
 */
import { ReadStream } from 'node:tty';
import { parentPort } from 'node:worker_threads';
import { fdWriter } from './host-output.js';
import { InputActivity } from '../shared/input-activity.js';
import type { FromRendererMessage, RendererInit, ToRendererMessage } from '../shared/renderer-protocol.js';
import { RendererApp } from './renderer-app.js';
import { loadWidthTables } from './text-width.js';
import { runWarnings, shareRunLog } from '../node/patterm-log.js';

const port = parentPort!;
const post = (message: FromRendererMessage) => port.postMessage(message);

// The first message is the RendererInit (bootRendererThread): this thread is started before the terminal is known.
port.once('message', (init: RendererInit) => start(init));

function start(init: RendererInit): void {
  // Booted before the run's log was started: from here on this thread writes there, and counts its warnings.
  if (init.runLog) shareRunLog(init.runLog);
  const app = new RendererApp(init.cols, init.rows, fdWriter(init.outputFd), post, false, new InputActivity(init.inputActivity), runWarnings());

  const onMessage = (message: ToRendererMessage): void => {
    if (message.t === 'shutdown') input.destroy();
    app.onMessage(message);
  };

  // The main thread put the terminal in raw mode; this thread only reads it.
  const input = new ReadStream(init.inputFd);
  input.on('data', (chunk: Buffer) => onMessage({ t: 'input', bytes: chunk }));
  input.on('error', (error) => post({ t: 'log', text: `renderer: reading the terminal failed: ${error.message}`, level: 'warn' }));
  port.on('message', onMessage);
  app.start();
  // Queued behind the first frame's draw (also a setImmediate): the chrome measures without the tables,
  // and a pane or preset name that needs them later should not wait for them.
  setImmediate(() => {
    try {
      loadWidthTables();
    } catch (error) {
      post({ t: 'log', text: `renderer: loading the text width tables failed (retried when text needs them): ${(error as Error).message}` });
    }
  });
}
