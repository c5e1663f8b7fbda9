import * as v from 'valibot';
import { defineTool, fail, ok, ToolError } from './tool-kit.js';
import { callerPane } from './tool-context.js';
import { subAgentMessage } from '../services/message-delivery.js';
import { messageSchema } from './schemas.js';

export const reportToParent = defineTool({
  name: 'report_to_parent',
  title: 'Report to your orchestrator',
  access: 'any',
  annotations: { readOnlyHint: false, destructiveHint: false },
  description: [
    'Send a message to the agent that spawned you (your orchestrator). It is typed into its input as "[sub-agent:<your name>] <message>" and submitted.',
    'Use it to report results, progress or questions, instead of waiting for the orchestrator to read your screen.',
  ].join(' '),
  schema: v.strictObject({
    message: messageSchema('What to tell your orchestrator.'),
  }),
  async run(args, context) {
    const { caller, services } = context;
    const parentId = services.children.parentOf(caller.paneId);
    if (caller.role === 'orchestrator' || parentId === null) {
      throw new ToolError('you are the orchestrator of your session; there is no parent to report to');
    }
    if (!services.coordinator.has(parentId) || services.coordinator.info(parentId).process.status !== 'running') {
      throw new ToolError('your parent has exited; there is no one to report to');
    }
    const me = callerPane(context);
    const parent = services.coordinator.info(parentId);
    const submit = await services.delivery.deliver(parentId, subAgentMessage(me.name, args.message), 'system');
    const result = { parent: parent.name, submitted: submit.submitted, attempts: submit.attempts, detail: submit.detail };
    if (!submit.submitted) return fail(`typed the report into ${parent.name}, but could not confirm it was submitted: ${submit.detail}`, result);
    return ok(result, `reported to ${parent.name}.`);
  },
});
