/**
 * Starts the renderer thread before anyone knows its terminal. CommonJS, and
 * with no import but Node's, so the launcher (bin/patterm, itself CommonJS)
 * can start the thread before Node has set up its ES module loader for the
 * CLI's modules.
 */
import { Worker } from 'node:worker_threads';

/**
 * The thread runs `entry` (the renderer's bundle) and then waits for its
 * RendererInit, the first message a RendererHost posts. Started first thing,
 * its boot overlaps the main thread loading the app instead of following it,
 * and the first frame comes sooner. Unreferenced until adopted: an app that
 * fails before its TUI starts still exits.
 */
export function startRendererThread(entry: URL | string): Worker {
  const worker = new Worker(entry, {
    // Never the host terminal: the renderer draws there itself, and stray output would corrupt frames.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  worker.unref();
  return worker;
}
