/**
 * Lists and runs tools for one caller. Every failure becomes a tool result with
 * isError and a message naming the problem, so the calling model can correct
 * itself; nothing a caller sends can throw past this point.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallerIdentity } from '../../contracts.js';
import { UnknownPaneError } from '../../coordinator.js';
import { ScratchpadError } from '../../scratchpads/scratchpad-store.js';
import { WorktreeError } from '../../worktrees/worktree-error.js';
import { describeTool, fail, parseArguments, ToolError, type ToolDefinition } from './tool-kit.js';
import type { McpServices } from './tool-context.js';
import { PROGRESS_INTERVAL_MS, progressReporter, type SendProgress } from '../services/progress-keepalive.js';

export class ToolDispatcher {
  private readonly tools = new Map<string, { definition: ToolDefinition; listing: Tool }>();

  constructor(
    definitions: readonly ToolDefinition[],
    private readonly services: McpServices,
    /** How often a long call sends progress; tests shorten it. */
    private readonly progressIntervalMs = PROGRESS_INTERVAL_MS,
  ) {
    for (const definition of definitions) this.tools.set(definition.name, { definition, listing: describeTool(definition) });
  }

  /** Sub-agents are not shown the orchestrator-only tools (they would be refused anyway). */
  list(caller: CallerIdentity): Tool[] {
    return [...this.tools.values()].filter(({ definition }) => definition.access === 'any' || caller.role === 'orchestrator').map(({ listing }) => listing);
  }

  async call(name: string, rawArgs: unknown, token: string, signal: AbortSignal, sendProgress: SendProgress | null = null): Promise<CallToolResult> {
    // An orchestrator's call is interactive work, like a keystroke: floods step aside while it runs.
    this.services.coordinator.inputActivity.markInput();
    const state = this.services.identities.state(token);
    if (state.kind !== 'live') {
      return fail(state.kind === 'revoked' ? `your identity is no longer valid: pane ${JSON.stringify(state.paneName)} has exited` : 'your identity token is not valid in this patterm process');
    }
    const result = await this.callAs(state.identity, name, rawArgs, signal, sendProgress);
    return withKeptMessages(result, this.services.delivery.inbox.take(state.identity.paneId));
  }

  private async callAs(caller: CallerIdentity, name: string, rawArgs: unknown, signal: AbortSignal, sendProgress: SendProgress | null): Promise<CallToolResult> {
    const tool = this.tools.get(name)?.definition;
    if (!tool) {
      const available = this.list(caller).map((entry) => entry.name);
      return fail(`unknown tool ${JSON.stringify(name)}; available tools: ${available.join(', ')}`);
    }
    if (tool.access === 'orchestrator' && caller.role !== 'orchestrator') {
      return fail(
        `${name} is only available to a session's orchestrator, and you are a sub-agent. patterm keeps a two-level tree: sub-agents cannot spawn agents or message other agents. Use report_to_parent to ask your orchestrator instead.`,
      );
    }
    try {
      const args = parseArguments(tool, rawArgs);
      const progress = progressReporter(sendProgress, `${name} from ${caller.paneId}`, this.progressIntervalMs);
      return await tool.run(args, { caller, services: this.services, signal, progress });
    } catch (error) {
      if (error instanceof ToolError) return fail(error.message, error.details);
      if (error instanceof ScratchpadError) return fail(error.message, { code: error.code });
      if (error instanceof WorktreeError) return fail(error.message, error.details);
      if (error instanceof UnknownPaneError) return fail(`no child with child_id ${JSON.stringify(error.paneId)} (it may have been closed); list_children shows the ids you can use`);
      return fail(`${name} failed: ${(error as Error)?.message ?? String(error)}`);
    }
  }
}

/**
 * Messages kept for a caller with no input of its own (an MCP host, caller-inbox.ts) ride on its
 * next result: in `messages` for the structure, which claude and codex show their models, and
 * after the text, which opencode shows.
 */
function withKeptMessages(result: CallToolResult, messages: string[]): CallToolResult {
  if (messages.length === 0) return result;
  const note = `\n\nMessages for you since your last call:\n${messages.join('\n')}`;
  const content = [...result.content];
  const last = content.length - 1;
  if (last >= 0 && content[last].type === 'text') content[last] = { ...content[last], text: content[last].text + note };
  else content.push({ type: 'text', text: note.trimStart() });
  return { ...result, content, structuredContent: { ...result.structuredContent, messages } };
}
