export interface StdioProxyOptions {
  socketPath: string;
  identity: string;
}

export async function runStdioProxy(_options: StdioProxyOptions): Promise<number> {
  process.stderr.write('patterm mcp-stdio: the MCP proxy is not built yet\n');
  return 1;
}
