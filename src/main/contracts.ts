/**
 * Seams between the parts built by different hands: the MCP server, the preset
 * system and the TUI all meet here. Each interface has one owner module that
 * implements it; consumers depend only on these shapes.
 */
import type { PaneId, PaneInfo, PaneLaunch, PaneSize } from '../shared/pane-types.js';
import type { AgentPreset } from '../shared/preset-schema.js';

/** Who is calling over an MCP connection, derived from its identity token. */
export interface CallerIdentity {
  token: string;
  paneId: PaneId;
  sessionId: string;
  /** The session root is the orchestrator; everything below it is a sub-agent. */
  role: 'orchestrator' | 'child';
}

/** Implemented by src/main/mcp/services/identity-registry.ts. */
export interface IdentityIssuer {
  /** A fresh unguessable token, not yet bound to a pane (the pane needs it in its argv before it exists). */
  issue(): string;
  bind(token: string, paneId: PaneId): void;
  /** Revokes every token bound to the pane (called when it exits). */
  revokePane(paneId: PaneId): void;
  resolve(token: string): CallerIdentity | null;
}

/** Where spawned agents reach patterm's MCP server. Implemented by src/main/mcp/. */
export interface McpEndpoint {
  socketPath: string;
  identities: IdentityIssuer;
  /** argv of the stdio proxy for a token: [node, <patterm bin>, 'mcp-stdio', '--socket', path, '--identity', token]. */
  proxyCommand(token: string): string[];
}

export interface SubmitResult {
  submitted: boolean;
  attempts: number;
  /** What the confirmation saw, for the caller's error message when not submitted. */
  detail: string;
}

/**
 * Follows agents' conversations (implemented by src/main/resume/): the launcher
 * asks it for each agent pane's extra arguments, and tells it when the pane started.
 */
export interface ConversationHooks {
  /** `resume`: the conversation to continue (from a layout record); null starts a new one. */
  prepare(preset: AgentPreset, resume: ResumedConversation | null): PreparedConversation;
  /** patterm typed a message into the pane and saw it submitted (started at `startedAt`): evidence of a turn. */
  submitted(paneId: PaneId, startedAt: number): void;
}

export interface ResumedConversation {
  id: string;
  /** Where the CLI keeps it, as recorded. */
  file?: string;
}

export interface PreparedConversation {
  /** Go after the preset's argv, before patterm's MCP wiring (claude `--session-id <uuid> --settings <hook>`, codex `resume <id>`). */
  args: string[];
  /** The pane started: its conversation is followed from here. */
  started(pane: PaneInfo): void;
  /** The spawn failed: whatever was prepared for it goes. */
  abandoned(): void;
}

/** Facts a spawn's caller adds to PaneInfo.launch (a worktree, tags), merged over what the launcher records. */
export type LaunchExtras = Partial<Pick<PaneLaunch, 'worktree' | 'ledger' | 'lastCwd' | 'tags' | 'unrecorded'>>;

/** Implemented by src/main/presets/ (agent launcher). Used by the MCP tools and the TUI palette alike. */
export interface AgentLauncher {
  /**
   * Spawn an agent preset, wait for its ready signal, then type and confirm `initialPrompt` if given.
   * `resume` continues a recorded conversation (null id: the record had none, so a new one starts).
   */
  spawnAgent(request: {
    preset: string;
    initialPrompt?: string;
    name?: string;
    parentId?: PaneId;
    owner?: 'user' | 'orchestrator';
    ownSize?: PaneSize;
    notifyOnExit?: boolean;
    /** Where to start instead of the preset's working_dir (a worktree, a resumed pane's directory). */
    workingDir?: string;
    /** Variables over the preset's (a worktree's PATTERM_WORKTREE, …). */
    env?: Record<string, string>;
    resume?: { conversation: ResumedConversation | null };
    /** Without an initial prompt: return only once the agent shows its ready signal (or gave up on it). */
    waitReady?: boolean;
    launch?: LaunchExtras;
  }): Promise<{ pane: PaneInfo; submit: SubmitResult | null }>;
  /** Spawn a process preset or a freeform argv. */
  spawnProcess(request: {
    preset?: string;
    argv?: string[];
    shell?: boolean;
    workingDir?: string;
    env?: Record<string, string>;
    name?: string;
    parentId?: PaneId;
    owner?: 'user' | 'orchestrator';
    ownSize?: PaneSize;
    notifyOnExit?: boolean;
    launch?: LaunchExtras;
  }): Promise<PaneInfo>;
  /** Type a message into a pane (bracketed paste when enabled or multi-line) and confirm it was submitted. */
  submit(paneId: PaneId, text: string, source: 'orchestrator' | 'system' | 'user'): Promise<SubmitResult>;
  /** The agent preset the pane runs (its dialogs, ready signal, idle threshold), if it is an agent from a preset. */
  presetFor(paneId: PaneId): AgentPreset | undefined;
  /**
   * Rows to drop from grid reads of this pane, from its preset's chrome_trim_hints
   * (matched on a pattern matcher thread; rejects, naming the pattern, when one overruns its budget).
   */
  chromeTrim(paneId: PaneId, lines: string[]): Promise<{ lines: string[]; trimmedRows: number[] }>;
}
