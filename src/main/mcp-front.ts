/**
 * Entry of the small bundle `patterm mcp` starts from (bundles.ts
 * MCP_FRONT_ENTRY): the command line's check and what answers the host's
 * `initialize` while the rest of patterm (headless.ts) loads.
 */
export { parseMcpFlags } from './hosts/mcp-flags.js';
export { runMcpCommand } from './hosts/mcp-command.js';
