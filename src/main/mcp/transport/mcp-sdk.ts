/**
 * The MCP SDK's server side, imported when the first agent connects rather
 * than at start-up. Importing it (its zod schemas and ajv, a few hundred
 * modules) was about half of loading the main thread before the first frame
 * (docs/perf-notes.md); nothing needs it until an agent has connected and
 * introduced itself, and `warmMcpSdk` loads it once the TUI is up, so the
 * first connection usually finds it ready.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { importExternal } from '../../../node/external-import.js';
import { logIgnored } from '../../../node/patterm-log.js';

export interface McpSdk {
  Server: typeof Server;
  CallToolRequestSchema: typeof CallToolRequestSchema;
  ListToolsRequestSchema: typeof ListToolsRequestSchema;
}

let loading: Promise<McpSdk> | null = null;

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    importExternal<typeof import('@modelcontextprotocol/sdk/server/index.js')>('@modelcontextprotocol/sdk/server/index.js'),
    importExternal<typeof import('@modelcontextprotocol/sdk/types.js')>('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, types]) => ({
    Server: server.Server,
    CallToolRequestSchema: types.CallToolRequestSchema,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
  }));
  return loading;
}

/** Starts loading the SDK without waiting for it; a failure surfaces at the first connection, which loads it again. */
export function warmMcpSdk(): void {
  loadMcpSdk().catch((error) => {
    logIgnored('loading the MCP SDK ahead of the first connection', error);
    loading = null;
  });
}
