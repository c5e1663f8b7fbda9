/**
 * Seams between the parts built by different hands: the MCP server, the preset
 * system and the TUI all meet here. Each interface has one owner module that
 * implements it; consumers depend only on these shapes.
 */
import type { PaneId, PaneInfo, PaneSize } from '../shared/pane-types.js';
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

/** Implemented by src/main/presets/ (agent launcher). Used by the MCP tools and the TUI palette alike. */
export interface AgentLauncher {
  /** Spawn an agent preset, wait for its ready signal, then type and confirm `initialPrompt` if given. */
  spawnAgent(request: {
    preset: string;
    initialPrompt?: string;
    name?: string;
    parentId?: PaneId;
    owner?: 'user' | 'orchestrator';
    ownSize?: PaneSize;
    /** Where to start instead of the preset's working_dir (a worktree). */
    workingDir?: string;
    /** Variables over the preset's (a worktree's PATTERM_WORKTREE, …). */
    env?: Record<string, string>;
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
