/**
 * Starts a real coordinator and MCP server in temp directories, and connects
 * the SDK's real Client through the real `bin/patterm mcp-stdio` proxy. Every
 * resource is torn down after the test file.
 */
import { after } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Coordinator } from '../../../../src/main/coordinator.js';
import { startMcpServer, type McpServerHandle } from '../../../../src/main/mcp/index.js';
import type { PaneInfo } from '../../../../src/shared/pane-types.js';
import type { IdentityIssuer } from '../../../../src/main/contracts.js';
import { createAgentLauncher, type PresetAgentLauncher } from '../../../../src/main/presets/agent-launcher.js';
import { PresetCatalog } from '../../../../src/main/presets/preset-catalog.js';
import type { PermissionPolicy } from '../../../../src/main/mcp/services/permission-policy.js';
import type { WorktreeSettings } from '../../../../src/main/worktrees/worktree-settings.js';
import { FAKE_AGENT_SCRIPT, writeFixturePresets } from '../../../fixtures/fake-agent-presets.js';

export interface Harness {
  coordinator: Coordinator;
  mcp: McpServerHandle;
  launcher: PresetAgentLauncher;
  /** Scratch directory for this harness (project dir, XDG dirs, socket). */
  root: string;
  projectDir: string;
  dataHome: string;
  /** XDG state home: the shells' ledgers are under it. */
  stateHome: string;
  /**
   * A new session whose root is a fake agent (no MCP connection of its own);
   * the test speaks for it through `connect(token)`, and reads what patterm
   * types into it on its screen.
   */
  orchestrator(name?: string): Promise<{ pane: PaneInfo; token: string }>;
  /** Binds a fresh token to an existing pane (e.g. a child, to act as that sub-agent). */
  tokenFor(paneId: string): string;
  connect(token: string): Promise<Connection>;
}

export interface Connection {
  client: Client;
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Tool calls in tests may wait on real processes under load; the SDK default (60 s) is fine, this is explicit. */
const CALL_TIMEOUT_MS = 120_000;

export async function startHarness(options: { permissionPolicy?: PermissionPolicy; progressIntervalMs?: number; worktreeSettings?: WorktreeSettings } = {}): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'patterm-mcp-test-'));
  const projectDir = join(root, 'project');
  const dataHome = join(root, 'data');
  const stateHome = join(root, 'state');
  mkdirSync(projectDir);
  const coordinator = new Coordinator(projectDir);
  const catalog = PresetCatalog.load({ dirs: writeFixturePresets(join(root, 'config', 'patterm', 'presets')), bundled: null });
  const mcp = await startMcpServer({
    coordinator,
    projectDir,
    dataHome,
    stateHome,
    worktreeSettings: options.worktreeSettings,
    catalog,
    socketPath: join(root, 'run', 'patterm', `${process.pid}.sock`),
    launcher: (endpoint) => createAgentLauncher({ coordinator, endpoint, catalog }),
    permissionPolicy: options.permissionPolicy,
    progressIntervalMs: options.progressIntervalMs,
  });
  const connections: Connection[] = [];
  after(async () => {
    await Promise.all(connections.map((connection) => connection.close().catch(() => undefined)));
    await mcp.dispose();
    await coordinator.shutdown(500);
    rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  });

  const harness: Harness = {
    coordinator,
    mcp,
    launcher: mcp.launcher as PresetAgentLauncher,
    root,
    projectDir,
    dataHome,
    stateHome,
    orchestrator: (name) => spawnFakeOrchestrator(coordinator, mcp.identities, name),
    tokenFor: (paneId) => tokenFor(mcp.identities, paneId),
    async connect(token) {
      const connection = await connectProxy(mcp.socketPath, token);
      connections.push(connection);
      return connection;
    },
  };
  return harness;
}

function tokenFor(identities: IdentityIssuer, paneId: string): string {
  const token = identities.issue();
  identities.bind(token, paneId);
  return token;
}

/**
 * A session root that is the fake agent (needs the `fake` preset in the
 * coordinator's catalog), with a token bound to it for the test to call tools as it.
 */
export async function spawnFakeOrchestrator(coordinator: Coordinator, identities: IdentityIssuer, name?: string): Promise<{ pane: PaneInfo; token: string }> {
  // presetName lets the launcher find the fake preset's ready signal when it types into this pane.
  const pane = await coordinator.spawn({ argv: [process.execPath, FAKE_AGENT_SCRIPT], kind: 'agent', name, presetName: 'fake' });
  const token = tokenFor(identities, pane.id);
  const ready = await coordinator.waitFor(pane.id, { pattern: '^ready>', timeoutMs: 30_000 });
  if (!ready.matched) throw new Error(`orchestrator pane did not start: ${JSON.stringify(ready)}`);
  return { pane, token };
}

export const PATTERM_BIN = new URL('../../../../../bin/patterm', import.meta.url).pathname;

export function proxyTransport(socketPath: string, token: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [PATTERM_BIN, 'mcp-stdio', '--socket', socketPath, '--identity', token],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    stderr: 'pipe',
  });
}

export async function connectProxy(socketPath: string, token: string): Promise<Connection> {
  const transport = proxyTransport(socketPath, token);
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'patterm-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    call: (name, args = {}) => client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS }) as Promise<CallToolResult>,
    close: () => client.close(),
  };
}

/** The text of a tool result (all text parts joined). */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

export function structured<T = Record<string, unknown>>(result: CallToolResult): T {
  return result.structuredContent as T;
}
