/** An orchestrator's calls about its children's agent states, for tests that check what they return. */
import assert from 'node:assert/strict';
import type { PaneInfo } from '../../../../src/shared/pane-types.js';
import { structured, textOf, type Connection, type Harness } from './mcp-harness.js';

/** Long enough for a loaded machine; the waits end as soon as the state shows. */
export const STATE_WAIT_MS = 60_000;

/** What wait_for_state (and read_output, list_children) report of a child's state. */
export interface StateResult {
  matched: boolean;
  state: string;
  state_source: string;
  state_since: string;
  dialog?: string;
}

/** A session whose root is the fake agent, and the test's MCP connection speaking for it. */
export async function orchestratorSession(harness: Harness): Promise<{ root: PaneInfo; mcp: Connection }> {
  const { pane, token } = await harness.orchestrator();
  return { root: pane, mcp: await harness.connect(token) };
}

/** Spawns the scripted CLI (fake-agent/dialog-agent.ts) with `prompt` submitted; its child_id. */
export async function spawnDialogAgent(mcp: Connection, prompt: string, name: string): Promise<string> {
  const result = await mcp.call('spawn_agent', { preset: 'dialog', initial_prompt: prompt, name });
  assert.equal(result.isError, undefined, textOf(result));
  assert.equal(structured<{ prompt_submitted: boolean }>(result).prompt_submitted, true, textOf(result));
  return structured<{ child_id: string }>(result).child_id;
}

export async function waitState(mcp: Connection, childId: string, states: string[], timeoutMs = STATE_WAIT_MS): Promise<StateResult> {
  const result = await mcp.call('wait_for_state', { child_id: childId, states, timeout_ms: timeoutMs });
  assert.equal(result.isError, undefined, textOf(result));
  return structured<StateResult>(result);
}
