import * as v from 'valibot';
import { callerPane } from './tool-context.js';
import { defineTool, ok, ToolError } from './tool-kit.js';
import { ChildIdSchema } from './schemas.js';
import { shellTarget } from '../services/shell-target.js';

export const subscribeCommands = defineTool({
  name: 'subscribe_commands',
  title: 'Hear of every command that ends in a shell pane',
  access: 'any',
  annotations: { readOnlyHint: false, idempotentHint: true },
  description: [
    'Subscribe to a shell pane: whenever a command ends there, run by the human, another agent or a process, you get a "[system]" message with the shell, the command, who ran it, its exit code, how long it took and its last lines of output.',
    'Commands you run yourself with run_command are not reported to you (you have their records). Messages are typed only when you are idle at your prompt.',
    'unsubscribe: true stops them.',
  ].join(' '),
  schema: v.strictObject({
    child_id: ChildIdSchema,
    unsubscribe: v.optional(v.pipe(v.boolean(), v.description('Stop the messages instead. Default false.')), false),
  }),
  async run(args, context) {
    const { caller, services } = context;
    if (callerPane(context).kind !== 'agent') throw new ToolError('only an agent pane can subscribe: the messages are typed into its input');
    const { pane } = shellTarget(services, caller, args.child_id);
    if (args.unsubscribe) {
      const was = services.commandNotices.unsubscribe(pane.id, caller.paneId);
      return ok({ child_id: pane.id, name: pane.name, subscribed: false }, was ? `unsubscribed from ${pane.name}'s commands.` : `you were not subscribed to ${pane.name}'s commands.`);
    }
    if (pane.process.status !== 'running') throw new ToolError(`${pane.name} (child_id ${pane.id}) has exited; no more commands will end there`);
    const fresh = services.commandNotices.subscribe(pane.id, caller.paneId);
    return ok({ child_id: pane.id, name: pane.name, subscribed: true }, fresh ? `subscribed: you will hear of every command that ends in ${pane.name}, except your own.` : `already subscribed to ${pane.name}'s commands.`);
  },
});
