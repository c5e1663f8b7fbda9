/**
 * Launches presets into panes (from the palette, and for spawn_agent / spawn_process)
 * and types messages into agents. The MCP tools and the TUI palette share this
 * one implementation of AgentLauncher.
 */
import { homedir } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import type { AgentPreset, ReadySignal } from '../../shared/preset-schema.js';
import type { PaneId, PaneInfo } from '../../shared/pane-types.js';
import { DEFAULT_IDLE_THRESHOLD_MS } from '../../shared/pane-protocol.js';
import type { AgentLauncher, ConversationHooks, McpEndpoint, PreparedConversation, SubmitResult } from '../contracts.js';
import type { Coordinator } from '../coordinator.js';
import type { TrimResult } from '../../shared/chrome-trim.js';
import { patternMatcher } from '../../node/pattern-matcher.js';
import { buildInjection } from './mcp-injection.js';
import { assertProgramExists, assertWorkingDir } from './program-lookup.js';
import { submitText, waitReady, type ReadyOutcome } from './pane-driver.js';
import type { PresetCatalog } from './preset-catalog.js';
import { DEFAULT_READY_SIGNAL } from './ready-state.js';

export interface AgentLauncherOptions {
  coordinator: Coordinator;
  /** Where agents reach patterm's MCP server; null launches agents without MCP wiring. */
  endpoint: McpEndpoint | null;
  catalog: PresetCatalog;
  /** Follows each agent's conversation (src/main/resume/); without it agents start as their preset says. */
  conversations?: ConversationHooks;
}

export class UnknownPresetError extends Error {
  override readonly name = 'UnknownPresetError';
}

type SpawnAgentRequest = Parameters<AgentLauncher['spawnAgent']>[0];
type SpawnProcessRequest = Parameters<AgentLauncher['spawnProcess']>[0];

/** Shells that already take a command line, so shell:true leaves such an argv alone. */
const SHELL_FORM = /^(?:\/\S*\/)?(?:sh|bash|zsh|dash)$/;

export class PresetAgentLauncher implements AgentLauncher {
  private readonly coordinator: Coordinator;
  private readonly endpoint: McpEndpoint | null;
  private readonly catalog: PresetCatalog;
  private readonly conversations: ConversationHooks | undefined;
  /** The agent preset behind each pane this launcher started (for submit and chromeTrim). */
  private readonly agentPresets = new Map<PaneId, AgentPreset>();
  /** How long each agent took from spawn to its ready signal, for diagnostics and the issue's start-up figures. */
  readonly readyTimes = new Map<PaneId, ReadyOutcome>();

  constructor(options: AgentLauncherOptions) {
    this.coordinator = options.coordinator;
    this.endpoint = options.endpoint;
    this.catalog = options.catalog;
    this.conversations = options.conversations;
  }

  async spawnAgent(request: SpawnAgentRequest): Promise<{ pane: PaneInfo; submit: SubmitResult | null }> {
    const entry = this.catalog.findAgent(request.preset);
    if (!entry) throw new UnknownPresetError(`unknown agent preset ${JSON.stringify(request.preset)}; known agent presets: ${this.catalog.describeAgents()}`);
    const preset = entry.preset;
    const cwd = expandHome(request.workingDir ?? preset.working_dir);
    const presetEnv = { ...preset.env, ...request.env };
    this.checkProgram(preset.argv[0], cwd, presetEnv);
    const token = this.endpoint && preset.mcp_injection && preset.mcp_injection.kind !== 'none' ? this.endpoint.identities.issue() : null;
    const injection = buildInjection(token ? preset.mcp_injection : undefined, token ? this.endpoint!.proxyCommand(token) : [], { ...process.env, ...presetEnv });
    let conversation: PreparedConversation | null = null;
    let pane: PaneInfo;
    try {
      conversation = this.conversations?.prepare(preset, request.resume?.conversation ?? null) ?? null;
      pane = await this.coordinator.spawn({
        argv: [...preset.argv, ...(conversation?.args ?? []), ...injection.args],
        name: request.name,
        kind: 'agent',
        cwd,
        env: { ...presetEnv, ...injection.env },
        parentId: request.parentId,
        owner: request.owner,
        presetName: preset.name,
        idleThresholdMs: preset.idle_threshold_ms,
        ownSize: request.ownSize,
        launch: {
          kind: 'agent',
          preset: entry.id,
          argv: [...preset.argv],
          ...(request.workingDir !== undefined ? { workingDir: request.workingDir } : {}),
          ...(request.parentId !== undefined ? { spawnedBy: request.parentId } : {}),
          ...(request.notifyOnExit !== undefined ? { notifyOnExit: request.notifyOnExit } : {}),
          ...request.launch,
        },
      });
    } catch (error) {
      injection.cleanup();
      conversation?.abandoned();
      throw error;
    }
    conversation?.started(pane);
    if (token) this.endpoint!.identities.bind(token, pane.id);
    this.agentPresets.set(pane.id, preset);
    void this.coordinator.exitPromise(pane.id).then(() => {
      injection.cleanup();
      if (token) this.endpoint!.identities.revokePane(pane.id);
    });

    const readiness = waitReady(this.coordinator, pane.id, this.readySignal(preset), preset.idle_threshold_ms ?? DEFAULT_IDLE_THRESHOLD_MS).then((outcome) => {
      this.readyTimes.set(pane.id, outcome);
      return outcome;
    });
    // With nothing to type there is nothing to wait for (the palette returns at once), unless asked.
    if (request.initialPrompt === undefined || request.initialPrompt === '') {
      if (request.waitReady) await readiness;
      return { pane: this.coordinator.info(pane.id), submit: null };
    }
    const ready = await readiness;
    if (!ready.ready) {
      return { pane: this.coordinator.info(pane.id), submit: { submitted: false, attempts: 0, detail: `the initial prompt was not typed: ${ready.detail}` } };
    }
    const submit = await this.submit(pane.id, request.initialPrompt, request.owner === 'user' ? 'user' : 'orchestrator');
    return { pane: this.coordinator.info(pane.id), submit };
  }

  async spawnProcess(request: SpawnProcessRequest): Promise<PaneInfo> {
    const entry = request.preset !== undefined ? this.catalog.findProcess(request.preset) : undefined;
    if (request.preset !== undefined && !entry) {
      throw new UnknownPresetError(`unknown process preset ${JSON.stringify(request.preset)}; known process presets: ${this.catalog.describeProcesses()}`);
    }
    const argv = request.argv ?? entry?.preset.argv;
    if (!argv || argv.length === 0 || argv[0] === '') throw new Error('spawnProcess needs a preset or a non-empty argv (received neither)');
    const shell = request.shell ?? entry?.preset.shell ?? false;
    const finalArgv = shell ? shellArgv(argv) : argv;
    const cwd = expandHome(request.workingDir ?? entry?.preset.working_dir);
    const env = { ...entry?.preset.env, ...request.env };
    this.checkProgram(finalArgv[0], cwd, env);
    return this.coordinator.spawn({
      argv: finalArgv,
      name: request.name,
      kind: 'process',
      cwd,
      env,
      parentId: request.parentId,
      owner: request.owner,
      presetName: entry?.preset.name ?? null,
      ownSize: request.ownSize,
      launch: {
        kind: 'process',
        preset: entry?.id ?? null,
        argv: [...argv],
        ...(request.shell !== undefined ? { shell: request.shell } : {}),
        ...(request.env ? { env: { ...request.env } } : {}),
        ...(request.workingDir !== undefined ? { workingDir: request.workingDir } : {}),
        ...(request.parentId !== undefined ? { spawnedBy: request.parentId } : {}),
        ...(request.notifyOnExit !== undefined ? { notifyOnExit: request.notifyOnExit } : {}),
        ...request.launch,
      },
    });
  }

  async submit(paneId: PaneId, text: string, source: 'orchestrator' | 'system' | 'user', options: { inputWaitMs?: number } = {}): Promise<SubmitResult> {
    const preset = this.presetFor(paneId);
    const startedAt = Date.now();
    const result = await submitText(this.coordinator, paneId, {
      text,
      source,
      signal: preset ? this.readySignal(preset) : DEFAULT_READY_SIGNAL,
      options: preset?.submit ?? {},
      inputWaitMs: options.inputWaitMs,
    });
    if (result.submitted) this.conversations?.submitted(paneId, startedAt);
    return result;
  }

  async chromeTrim(paneId: PaneId, lines: string[]): Promise<TrimResult> {
    const preset = this.presetFor(paneId);
    const rules = preset?.chrome_trim_hints ?? [];
    if (rules.length === 0) return { lines: [...lines], trimmedRows: [] };
    const trimmed = await patternMatcher().trimChrome(rules, lines);
    if (!trimmed.ok) throw new Error(`chrome_trim_hints of preset ${JSON.stringify(preset!.name)}: ${trimmed.problem}; read with trim_chrome: false`);
    return trimmed.value;
  }

  /** The program must exist where the pane will look for it (its PATH, relative to its working dir). */
  private checkProgram(program: string, cwd: string | undefined, env: Record<string, string> | undefined): void {
    const dir = resolvePath(this.coordinator.projectDir, cwd ?? '.');
    assertWorkingDir(dir, cwd);
    assertProgramExists(program, dir, env?.PATH ?? process.env.PATH);
  }

  /** The preset a pane was launched from; panes started elsewhere are matched by their preset name. */
  presetFor(paneId: PaneId): AgentPreset | undefined {
    const known = this.agentPresets.get(paneId);
    if (known) return known;
    const name = this.coordinator.has(paneId) ? this.coordinator.info(paneId).presetName : null;
    return name !== null && this.coordinator.info(paneId).kind === 'agent' ? this.catalog.findAgent(name)?.preset : undefined;
  }

  private readySignal(preset: AgentPreset): ReadySignal {
    return preset.ready_signal ?? DEFAULT_READY_SIGNAL;
  }
}

export function createAgentLauncher(options: AgentLauncherOptions): PresetAgentLauncher {
  return new PresetAgentLauncher(options);
}

/** spawn_process's shell mode runs a command line through `sh -lc`; an argv that already is one is kept. */
export function shellArgv(argv: string[]): string[] {
  if (argv.length >= 3 && SHELL_FORM.test(argv[0]) && /^-\w*c$/.test(argv[1])) return argv;
  return ['sh', '-lc', argv.join(' ')];
}

function expandHome(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  if (dir === '~') return homedir();
  return dir.startsWith('~/') ? homedir() + dir.slice(1) : dir;
}
