/**
 * A minimal AgentLauncher for the MCP tests, used only while the presets
 * engineer's launcher (src/main/presets/agent-launcher.ts) does not exist.
 * It is real, not a mock: it spawns actual panes, injects MCP the way Claude
 * Code takes it (--mcp-config <file>), binds identity tokens, and types and
 * submits text the way a person would.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentLauncher, McpEndpoint, SubmitResult } from '../../../../src/main/contracts.js';
import type { Coordinator } from '../../../../src/main/coordinator.js';
import type { PaneId } from '../../../../src/shared/pane-types.js';
import { bracketedPaste } from '../../../../src/shared/key-bytes.js';

export const FAKE_AGENT = new URL('../../../fixtures/fake-agent.js', import.meta.url).pathname;
const READY = '^ready>';
const READY_TIMEOUT_MS = 30_000;
const CONFIRM_TIMEOUT_MS = 10_000;

export interface TestAgentPreset {
  argv: string[];
  /** Whether the agent gets an MCP config (`--mcp-config <file>` appended). */
  mcp: boolean;
}

export const TEST_AGENT_PRESETS: Record<string, TestAgentPreset> = {
  fake: { argv: [process.execPath, FAKE_AGENT], mcp: true },
};

export class TestLauncher implements AgentLauncher {
  private readonly configDir = mkdtempSync(join(tmpdir(), 'patterm-test-mcp-'));

  constructor(
    private readonly coordinator: Coordinator,
    private readonly endpoint: McpEndpoint,
    private readonly presets: Record<string, TestAgentPreset> = TEST_AGENT_PRESETS,
  ) {}

  async spawnAgent(request: Parameters<AgentLauncher['spawnAgent']>[0]) {
    const preset = this.presets[request.preset];
    if (!preset) throw new Error(`unknown agent preset ${JSON.stringify(request.preset)}; known: ${Object.keys(this.presets).join(', ')}`);
    const token = this.endpoint.identities.issue();
    const argv = [...preset.argv];
    if (preset.mcp) {
      const [command, ...args] = this.endpoint.proxyCommand(token);
      const file = join(this.configDir, `${token.slice(0, 12)}.json`);
      writeFileSync(file, JSON.stringify({ mcpServers: { patterm: { command, args } } }), { mode: 0o600 });
      argv.push('--mcp-config', file);
    }
    const pane = await this.coordinator.spawn({ argv, kind: 'agent', name: request.name, parentId: request.parentId, owner: request.owner, presetName: request.preset });
    this.endpoint.identities.bind(token, pane.id);
    const ready = await this.coordinator.waitFor(pane.id, { pattern: READY, timeoutMs: READY_TIMEOUT_MS });
    if (!ready.matched) throw new Error(`agent ${pane.name} did not become ready: ${ready.snippet}`);
    const submit = request.initialPrompt ? await this.submit(pane.id, request.initialPrompt, 'orchestrator') : null;
    return { pane: this.coordinator.info(pane.id), submit };
  }

  async spawnProcess(request: Parameters<AgentLauncher['spawnProcess']>[0]) {
    if (!request.argv) throw new Error('the test launcher has no process presets; pass argv');
    const argv = request.shell ? ['sh', '-lc', request.argv[0]] : request.argv;
    return this.coordinator.spawn({ argv, kind: 'process', name: request.name, parentId: request.parentId, owner: request.owner, cwd: request.workingDir, env: request.env });
  }

  async submit(paneId: PaneId, text: string, source: 'orchestrator' | 'system' | 'user'): Promise<SubmitResult> {
    const { bracketedPaste: pasteMode } = await this.coordinator.grid(paneId);
    const payload = pasteMode || text.includes('\n') ? bracketedPaste(text) : text;
    this.coordinator.write(paneId, payload, source);
    await this.coordinator.waitFor(paneId, { pattern: '', timeoutMs: 2000, stableMs: 50 });
    const before = (await this.coordinator.grid(paneId)).screenVersion;
    this.coordinator.write(paneId, '\r', source);
    const after = await this.coordinator.waitFor(paneId, { pattern: 'got\\| ', timeoutMs: CONFIRM_TIMEOUT_MS });
    const submitted = after.matched && after.screenVersion !== before;
    return { submitted, attempts: 1, detail: submitted ? 'the agent echoed the submission' : `no echo: ${after.snippet}` };
  }

  chromeTrim(_paneId: PaneId, lines: string[]) {
    return { lines, trimmedRows: [] };
  }

  dispose(): void {
    rmSync(this.configDir, { recursive: true, force: true });
  }
}
