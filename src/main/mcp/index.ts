/** patterm's MCP server: what app.ts and the preset launcher need from it. */
export { startMcpServer } from './start-mcp-server.js';
export type { StartMcpServerOptions, McpServerHandle } from './start-mcp-server.js';
export { IdentityRegistry } from './services/identity-registry.js';
export { claimSocketPath, runtimeSocketPath, SOCKET_PATH_VAR } from './transport/socket-path.js';
export { ALL_TOOLS } from './tools/index.js';
