/**
 * The MCP SDK is loaded when the first agent connects (or once the TUI is up),
 * not with patterm's main module graph: importing it took ~120 ms of the
 * start-up before the first frame (src/main/mcp/transport/mcp-sdk.ts). A static import
 * of it anywhere in that graph would put the cost back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMcpSdk } from '../../../../src/main/mcp/transport/mcp-sdk.js';
import { runWithImportForbidden } from '../../../helpers/forbidden-import.js';
import { APP_ENTRY, bundleUrl } from '../../../../src/main/bundles.js';

const APP = new URL('../../../../src/main/app.js', import.meta.url).href;
const MCP_SDK = new URL('../../../../src/main/mcp/transport/mcp-sdk.js', import.meta.url).href;

const HERE = fileURLToPath(new URL('.', import.meta.url));
const runWithSdkForbidden = (script: string) => runWithImportForbidden('@modelcontextprotocol/sdk', script, HERE);

test("patterm's main module graph loads without the MCP SDK, from tsc's files and from the app's bundle", () => {
  for (const app of [APP, bundleUrl(APP_ENTRY).href]) {
    const run = runWithSdkForbidden(`await import(${JSON.stringify(app)});`);
    assert.equal(run.status, 0, `${app}: ${run.stderr}`);
  }
});

test("the app's bundle loads without the MCP SDK as cli.ts loads it too, through the code cache", () => {
  const loader = new URL('../../../../src/node/code-cache.js', import.meta.url).href;
  const cacheDir = mkdtempSync(join(tmpdir(), 'patterm-sdk-cache-'));
  try {
    const load = `const { requireWithCodeCache } = await import(${JSON.stringify(loader)}); requireWithCodeCache(${JSON.stringify(fileURLToPath(bundleUrl(APP_ENTRY)))}, ${JSON.stringify(cacheDir)}).saveCache();`;
    for (const launch of ['without a cache', 'from the cache']) {
      const run = runWithSdkForbidden(load);
      assert.equal(run.status, 0, `${launch}: ${run.stderr}`);
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test('the check would see a require() of the SDK, as a CommonJS bundle makes', () => {
  const run = runWithSdkForbidden(`import { createRequire } from 'node:module'; createRequire(import.meta.url)('@modelcontextprotocol/sdk/types.js');`);
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /@modelcontextprotocol\/sdk required by /);
});

test('the check above would see the SDK being loaded (loadMcpSdk fails under the same hook)', () => {
  const run = runWithSdkForbidden(`const { loadMcpSdk } = await import(${JSON.stringify(MCP_SDK)}); await loadMcpSdk();`);
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /@modelcontextprotocol\/sdk imported by .*external-import\.js/);
});

test('loadMcpSdk loads the server classes once and hands the same ones out after', async () => {
  const first = loadMcpSdk();
  assert.equal(loadMcpSdk(), first);
  const sdk = await first;
  assert.equal(typeof sdk.Server, 'function');
  assert.equal(sdk.CallToolRequestSchema, (await loadMcpSdk()).CallToolRequestSchema);
  assert.ok(sdk.ListToolsRequestSchema);
});
