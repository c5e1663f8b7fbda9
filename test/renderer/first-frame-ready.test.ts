/**
 * The renderer's 'ready': the main thread starts the MCP server and the orphan
 * guards on it (app.ts), so it must come after the first frame reached the
 * terminal, never before, and only once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RendererApp } from '../../src/renderer/renderer-app.js';
import { EMPTY_STATE_HINT } from '../../src/renderer/compositor.js';
import type { FromRendererMessage } from '../../src/shared/renderer-protocol.js';
import { eventually } from '../helpers/coordinator-fixture.js';

test("the renderer says 'ready' once, after its first frame was written", async () => {
  const events: string[] = [];
  const output = (text: string) => events.push(text.includes(EMPTY_STATE_HINT) ? 'frame' : 'output');
  const post = (message: FromRendererMessage) => {
    if (message.t === 'ready') events.push('ready');
  };
  const app = new RendererApp(100, 20, output, post, false, null, null);
  try {
    app.start();
    assert.ok(!events.includes('ready'), `not before the first frame (${events.join(', ')})`);
    await eventually(() => events.includes('ready'), { message: "the renderer's ready" });
    assert.deepEqual(events.slice(events.indexOf('frame')), ['frame', 'ready'], `the frame, then ready (${events.join(', ')})`);
    // A resize redraws the whole screen: a later frame says nothing more.
    app.onMessage({ t: 'resize', cols: 90, rows: 20 });
    await eventually(() => events.filter((event) => event === 'frame').length === 2, { message: 'the redrawn frame' });
    assert.equal(events.filter((event) => event === 'ready').length, 1, `ready once (${events.join(', ')})`);
  } finally {
    app.stop();
  }
});
