import * as v from 'valibot';
import { defineTool, ok } from './tool-kit.js';
import { ChildIdSchema, messageSchema } from './schemas.js';

export const requestHumanAttention = defineTool({
  name: 'request_human_attention',
  title: 'Ask the human to look',
  access: 'orchestrator',
  annotations: { readOnlyHint: false, destructiveHint: false },
  description: [
    "Flag a child's pane for the human: patterm shows the reason in its status line, blinks the child in the session tree, and may focus it.",
    'Use it when you cannot safely decide yourself, e.g. a permission prompt for a destructive, network or credential action, and whenever the permission policy refused an approval you tried to send.',
    'Then wait until the human has dealt with it: wait_for_state for the states other than waiting_permission, or wait_for_pattern with absent: true on the prompt text.',
    'Without the TUI (patterm mcp) the request goes to the terminal patterm runs under as a desktop notification (via says how), and fails when no human is attached.',
  ].join(' '),
  schema: v.strictObject({
    child_id: ChildIdSchema,
    reason: messageSchema('One or two sentences for the human: what the child wants and why you need their call.'),
  }),
  async run(args, { caller, services }) {
    const pane = services.children.resolveTarget(caller, args.child_id);
    const via = await services.attention.request(pane, args.reason);
    return ok({ child_id: pane.id, name: pane.name, requested: true, via }, `asked the human to look at ${pane.name} (${via}).`);
  },
});
