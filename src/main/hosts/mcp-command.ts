/**
 * Entry of `patterm mcp`. Kept light on purpose: it starts reading stdin and
 * answers the host's `initialize` (stdio-front.ts) before loading the rest of
 * patterm (headless-host.ts), so the host's start-up clock stops at about the
 * cost of starting Node.
 */
import { StdioFront } from './stdio-front.js';
import type { McpCommandOptions } from './mcp-flags.js';
import type { CachedBundle } from '../../node/code-cache.js';

/**
 * Runs `patterm mcp`; `loadHeadless` loads headless.ts's bundle (from cli.ts, whose
 * module loader the bundle's imports need). Resolves once the host's session is up.
 */
export async function runMcpCommand(options: McpCommandOptions, loadHeadless: () => Promise<CachedBundle>): Promise<void> {
  // stdout is the host's JSON-RPC channel: anything a module prints by mistake goes to stderr.
  console.log = console.info = console.debug = console.error;
  const front = new StdioFront(process.stdin, process.stdout);
  // Before the first read, so an early EOF (a host that gave up at once) is not missed.
  const stdinClosed = new Promise<void>((resolve) => process.stdin.once('end', () => resolve()));
  front.start();
  const bundle = await loadHeadless();
  await (bundle.exports as typeof import('./headless-host.js')).runHeadless({ projectDir: options.projectDir, front, stdinClosed });
}
