/**
 * The renderer tells the main thread it is ready only once its first frame is
 * on the screen: the main thread holds its warm-up work (the MCP SDK, the PTY
 * host, a spare pane worker) until then, so that work cannot delay the frame.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RendererApp } from '../../src/renderer/renderer-app.js';
import { EMPTY_STATE_HINT } from '../../src/renderer/compositor.js';
import type { FromRendererMessage } from '../../src/renderer/protocol.js';

const TIMEOUT_MS = 5000;

/** Resolves once `condition` holds, checking after each turn of the event loop. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test("'ready' is posted after the first frame is written, not before", async () => {
  const events: string[] = [];
  const output = (text: string) => events.push(text.includes(EMPTY_STATE_HINT) ? 'frame' : 'other output');
  const post = (message: FromRendererMessage) => events.push(message.t);
  const app = new RendererApp(100, 30, output, post);
  try {
    app.start();
    assert.ok(!events.includes('ready'), `ready before any frame: ${events.join(', ')}`);
    await until(() => events.includes('ready'), "the renderer's ready");
    const frameAt = events.indexOf('frame');
    assert.ok(frameAt !== -1 && frameAt < events.indexOf('ready'), `the first frame comes first: ${events.join(', ')}`);
    assert.equal(events.filter((event) => event === 'ready').length, 1);
  } finally {
    app.stop();
  }
});
