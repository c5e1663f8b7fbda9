/**
 * An offline world for the vendor CLIs: a fake model server, throwaway
 * HOME / XDG / CODEX_HOME dirs that point the CLIs at it, a Coordinator with
 * patterm's MCP server (when it is built) and the preset launcher, and a
 * cassette recorder on every pane. Used by the *.agents.ts suites.
 */
import { after, before } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Coordinator } from '../../../src/main/coordinator.js';
import type { AgentLauncher } from '../../../src/main/contracts.js';
import type { McpServerHandle } from '../../../src/main/mcp/index.js';
import type { PermissionPolicy } from '../../../src/main/mcp/services/permission-policy.js';
import { PresetAgentLauncher } from '../../../src/main/presets/agent-launcher.js';
import { PresetCatalog } from '../../../src/main/presets/preset-catalog.js';
import { FakeModelServer } from '../../fixtures/fake-model/server.js';
import { createVendorEnv } from '../../fixtures/fake-model/vendor-env.js';
import { CassetteRecorder, type Scrub } from '../../fixtures/cassette/cassette-recorder.js';

export const VENDORS = ['claude', 'codex', 'opencode'] as const;
export type Vendor = (typeof VENDORS)[number];

/** Pane size for every run, so cassettes replay at the size they were recorded at. */
export const WORLD_COLS = 120;
export const WORLD_ROWS = 40;

/** The CLI's version string, or null when it is not installed (the suite then skips). */
export function cliVersion(vendor: Vendor): string | null {
  try {
    return execFileSync(vendor, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export interface World {
  root: string;
  project: string;
  server: FakeModelServer;
  coordinator: Coordinator;
  launcher: AgentLauncher & PresetAgentLauncher;
  catalog: PresetCatalog;
  recorder: CassetteRecorder;
  /** Whether patterm's MCP server is running (false while src/main/mcp is not built). */
  mcp: { endpoint: McpServerHandle; dispose(): Promise<void> } | null;
  /** What cassettes recorded in this world must not keep: the run's temp dir (same-length placeholder keeps the layout). */
  scrubs: Scrub[];
  /** Names of the variables this world sets for the CLIs (recorded in cassettes; values are not). */
  envNames: string[];
  stop(): Promise<void>;
}

export interface WorldOptions {
  withMcp: boolean;
  /** The MCP server's permission policy (as config.json's "permissions" gives it); default off. */
  permissionPolicy?: PermissionPolicy;
}

export async function startWorld(options: WorldOptions): Promise<World> {
  // realpath: the CLIs resolve the project dir, and trust entries must match what they see.
  const root = realpathSync(mkdtempSync('/tmp/patterm-e2e-'));
  const project = join(root, 'project');
  mkdirSync(project);
  const server = await new FakeModelServer().start();
  const vendorEnv = createVendorEnv(root, server.baseUrl, project);
  const saved = Object.fromEntries(Object.keys(vendorEnv.env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, vendorEnv.env);

  const coordinator = new Coordinator(project);
  coordinator.setPaneSize(WORLD_COLS, WORLD_ROWS);
  const recorder = new CassetteRecorder(coordinator);
  const catalog = PresetCatalog.load();
  let launcher: PresetAgentLauncher = new PresetAgentLauncher({ coordinator, endpoint: null, catalog });
  let mcp: World['mcp'] = null;
  if (options.withMcp) {
    const { startMcpServer } = await import('../../../src/main/mcp/index.js');
    const handle = await startMcpServer({
      coordinator,
      projectDir: project,
      socketPath: join(root, 'mcp.sock'),
      dataHome: vendorEnv.env.XDG_DATA_HOME,
      launcher: (endpoint) => (launcher = new PresetAgentLauncher({ coordinator, endpoint, catalog })),
      permissionPolicy: options.permissionPolicy,
    });
    mcp = { endpoint: handle, dispose: () => handle.dispose() };
  }

  return {
    root,
    project,
    server,
    coordinator,
    launcher,
    catalog,
    recorder,
    mcp,
    envNames: Object.keys(vendorEnv.env).sort(),
    scrubs: [{ secret: root, placeholder: root.replace(/[^/]{6}$/, 'XXXXXX'), why: 'temp dir of the run (same-length placeholder keeps the layout)' }],
    async stop() {
      recorder.dispose();
      await coordinator.shutdown(1000);
      await mcp?.dispose();
      await server.stop();
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    },
  };
}

/** One world with patterm's MCP server for a whole test file: started before its first test, stopped after its last. */
export function useWorld(started: (world: World) => void, options: Omit<WorldOptions, 'withMcp'> = {}): void {
  let world: World | undefined;
  before(async () => {
    world = await startWorld({ withMcp: true, ...options });
    started(world);
  });
  after(() => world?.stop());
}
