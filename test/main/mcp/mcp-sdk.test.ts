/**
 * The MCP SDK is loaded when the first agent connects (or once the TUI is up),
 * not with patterm's main module graph: importing it took ~120 ms of the
 * start-up before the first frame (src/main/mcp/mcp-sdk.ts). A static import
 * of it anywhere in that graph would put the cost back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadMcpSdk } from '../../../src/main/mcp/mcp-sdk.js';

const APP = new URL('../../../src/main/app.js', import.meta.url).href;
const MCP_SDK = new URL('../../../src/main/mcp/mcp-sdk.js', import.meta.url).href;

/** A resolve hook that fails any import of the SDK, naming the module that asked for it. */
const FORBID_SDK = `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@modelcontextprotocol/sdk')) throw new Error('MCP SDK imported by ' + context.parentURL);
  return next(specifier, context);
}`)}`;

function runWithSdkForbidden(script: string): { status: number | null; stderr: string } {
  const register = `import { register } from 'node:module'; register(${JSON.stringify(FORBID_SDK)});`;
  const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stderr: result.stderr };
}

test("patterm's main module graph loads without the MCP SDK", () => {
  const run = runWithSdkForbidden(`await import(${JSON.stringify(APP)});`);
  assert.equal(run.status, 0, run.stderr);
});

test('the check above would see the SDK being loaded (loadMcpSdk fails under the same hook)', () => {
  const run = runWithSdkForbidden(`const { loadMcpSdk } = await import(${JSON.stringify(MCP_SDK)}); await loadMcpSdk();`);
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /MCP SDK imported by .*mcp-sdk\.js/);
});

test('loadMcpSdk loads the server classes once and hands the same ones out after', async () => {
  const first = loadMcpSdk();
  assert.equal(loadMcpSdk(), first);
  const sdk = await first;
  assert.equal(typeof sdk.Server, 'function');
  assert.equal(sdk.CallToolRequestSchema, (await loadMcpSdk()).CallToolRequestSchema);
  assert.ok(sdk.ListToolsRequestSchema);
});
