/**
 * Entry of `patterm mcp`. Kept light on purpose: it starts reading stdin and
 * answers the host's `initialize` (stdio-front.ts) before loading the rest of
 * patterm (headless-host.ts), so the host's start-up clock stops at about the
 * cost of starting Node.
 */
import { StdioFront } from './stdio-front.js';
import type { McpCommandOptions } from './mcp-flags.js';
import { CODE_CACHE_SAVE_DELAY_MS, HEADLESS_ENTRY, loadBundle } from '../bundles.js';

export async function runMcpCommand(options: McpCommandOptions): Promise<void> {
  // stdout is the host's JSON-RPC channel: anything a module prints by mistake goes to stderr.
  console.log = console.info = console.debug = console.error;
  const front = new StdioFront(process.stdin, process.stdout);
  // Before the first read, so an early EOF (a host that gave up at once) is not missed.
  const stdinClosed = new Promise<void>((resolve) => process.stdin.once('end', () => resolve()));
  front.start();
  const bundle = await loadBundle(HEADLESS_ENTRY);
  await (bundle.exports as typeof import('./headless-host.js')).runHeadless({ projectDir: options.projectDir, front, stdinClosed });
  setTimeout(() => bundle.saveCache(), CODE_CACHE_SAVE_DELAY_MS).unref();
}
