/**
 * What send_input checks before its keys reach a child that may show a
 * permission dialog: `answer` turns into the keys the child's preset names
 * for its dialog, and, with the permission policy on, an approval is checked
 * against the dialog's text (permission-policy.ts). A refused approval is not
 * sent: the child keeps waiting, its tree entry asks for the user, and the
 * caller is told to hand the decision to a person. Keys that answer a dialog
 * are told to the pane's state (agent-states.ts), so the next dialog is a new wait.
 */
import type { PaneInfo } from '../../../shared/pane-types.js';
import type { AgentState } from '../../../shared/agent-state.js';
import { describeState } from '../services/pane-metadata.js';
import { decideApproval } from '../services/permission-policy.js';
import { ToolError } from './tool-kit.js';
import type { McpServices } from './tool-context.js';

export type Answer = 'approve_once' | 'approve_always' | 'deny';

/** The keys that give `answer` to the dialog the child shows now. */
export async function answerKeys(services: McpServices, pane: PaneInfo, answer: Answer): Promise<{ bytes: string; state: AgentState }> {
  const state = await services.states.current(pane.id);
  if (state.state !== 'waiting_permission') {
    throw new ToolError(
      `answer "${answer}" needs ${pane.name} (child_id ${pane.id}) to be waiting for permission, but it is ${describeState(state)}; read_output shows its screen, and wait_for_state with ["waiting_permission"] waits for a dialog`,
    );
  }
  const dialog = state.dialog ? services.launcher.presetFor(pane.id)?.dialogs?.[state.dialog.index] : undefined;
  const bytes = dialog?.keys?.[answer];
  if (bytes === undefined) {
    const which = state.dialog ? `its dialogs[${state.dialog.index}]` : 'the dialog (found by a terminal signal, not a preset pattern)';
    throw new ToolError(`the preset of ${pane.name} names no keys for "${answer}" in ${which}; read the dialog with read_output and press its keys with kind "key" or "text"`);
  }
  return { bytes, state };
}

/**
 * Whether `bytes` are one of the keys that the child's preset names for the
 * permission dialog it showed when last judged: typed by hand, they answer it as `answer` does.
 */
export function answersDialog(services: McpServices, pane: PaneInfo, bytes: string): boolean {
  const state = services.states.peek(pane.id);
  if (state?.state !== 'waiting_permission' || !state.dialog) return false;
  const keys = services.launcher.presetFor(pane.id)?.dialogs?.[state.dialog.index]?.keys ?? {};
  return Object.values(keys).includes(bytes);
}

/**
 * With the policy on, refuses input to a child in a permission dialog unless
 * it is that dialog's deny keys or the dialog's text is allow-listed. Any
 * other input could approve it, so it counts as an approval.
 */
export async function checkApproval(services: McpServices, pane: PaneInfo, bytes: string, known?: AgentState): Promise<void> {
  if (!services.policy.enabled) return;
  const state = known ?? (await services.states.current(pane.id));
  if (state.state !== 'waiting_permission') return;
  const denyKeys = state.dialog ? services.launcher.presetFor(pane.id)?.dialogs?.[state.dialog.index]?.keys?.deny : undefined;
  if (denyKeys !== undefined && bytes === denyKeys) return;
  const text = state.dialog?.text;
  const decision = text === undefined ? { allowed: false, reason: 'the dialog was found by a terminal signal, so its text cannot be checked' } : await decideApproval(services.policy, text);
  if (decision.allowed) return;
  services.coordinator.requestAttention(pane.id, `approval refused by the permission policy: ${decision.reason}`);
  throw new ToolError(
    `refused by the permission policy: ${decision.reason}. Nothing was sent; ${pane.name} (child_id ${pane.id}) keeps waiting. Call request_human_attention with this child_id and the reason, so that a person decides.`,
    { policy: 'refused', reason: decision.reason },
  );
}
