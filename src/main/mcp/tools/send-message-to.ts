import * as v from 'valibot';
import { defineTool, fail, ok } from './tool-kit.js';
import { orchestratorMessage } from '../services/message-delivery.js';
import { ChildIdSchema, messageSchema } from './schemas.js';

export const sendMessageTo = defineTool({
  name: 'send_message_to',
  title: 'Message a sub-agent',
  access: 'orchestrator',
  annotations: { readOnlyHint: false, destructiveHint: false },
  description: [
    'Type a message into a sub-agent\'s input box and submit it, prefixed with "[orchestrator] " so it knows the message is from you.',
    'Multi-line messages are sent as one bracketed paste, so they never submit early. patterm confirms that the message was actually submitted and reports an error if it could not confirm it.',
    'The reply will not come back through this tool: watch the child with wait_for_pattern / read_output, or ask it to answer with report_to_parent.',
  ].join(' '),
  schema: v.strictObject({
    target: ChildIdSchema,
    message: messageSchema('What to tell the sub-agent.'),
  }),
  async run(args, { caller, services }) {
    const pane = services.children.resolveTarget(caller, args.target);
    if (pane.process.status !== 'running') {
      return fail(`${pane.name} (child_id ${pane.id}) has exited; it cannot receive messages`, { target: pane.id, status: pane.process.status });
    }
    const submit = await services.delivery.deliver(pane.id, orchestratorMessage(args.message), 'orchestrator');
    const result = { target: pane.id, name: pane.name, submitted: submit.submitted, attempts: submit.attempts, detail: submit.detail };
    if (!submit.submitted) {
      return fail(`typed the message into ${pane.name}, but could not confirm it was submitted: ${submit.detail}. Check its screen with read_output.`, result);
    }
    return ok(result, `message submitted to ${pane.name}.`);
  },
});
