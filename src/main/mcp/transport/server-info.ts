/**
 * What every patterm MCP connection says of itself in its answer to
 * `initialize`, besides the protocol version. Its own small module: `patterm
 * mcp` gives that answer before anything else of the MCP side has loaded.
 */
import { VERSION } from '../../version.js';

export const SERVER_INFO = { name: 'patterm', version: VERSION } as const;
export const SERVER_CAPABILITIES = { tools: { listChanged: false } } as const;
