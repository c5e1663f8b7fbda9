import * as v from 'valibot';
import { AGENT_STATES } from '../../../shared/agent-state.js';
import { defineTool, ok, ToolError } from './tool-kit.js';
import { describeState, stateFields } from '../services/pane-metadata.js';
import { ChildIdSchema, MAX_WAIT_SECONDS } from './schemas.js';

export const waitForState = defineTool({
  name: 'wait_for_state',
  title: "Wait for a child's state",
  access: 'any',
  annotations: { readOnlyHint: true },
  description: [
    'Block until a child is in one of the given states, or until timeout_ms pass. States: starting, busy, waiting_permission (an approval dialog is up), waiting_input (it asks a question), idle, exited.',
    'Typical: after sending a task, wait for ["idle", "waiting_permission", "waiting_input"] to learn when it needs you or has finished; then read_output.',
    'Returns matched, the state, state_source (the evidence: a preset pattern such as its dialog or ready prompt, a terminal signal, or quiet time), state_since, and dialog (the dialog\'s text) when one is up.',
    'Each dialog is its own wait: one that follows another (the next approval, drawn over the last) has a new state_since and its own dialog text. After answering a dialog with send_input answer, the child is busy until it takes the answer, so waiting again returns for the next dialog, not the answered one.',
    'If the child exits, the wait ends at once (state exited; matched only if you asked for exited).',
    'While it waits, it sends MCP progress notifications to a client that asked for them, so a client that times calls out does not cut a long wait off.',
  ].join(' '),
  schema: v.strictObject({
    child_id: ChildIdSchema,
    states: v.pipe(
      v.array(v.picklist(AGENT_STATES, (issue) => `each state must be one of ${AGENT_STATES.join(', ')}; received ${JSON.stringify(issue.input)}`)),
      v.minLength(1, 'states is empty; name at least one state to wait for'),
      v.description(`The states to wait for: any of ${AGENT_STATES.join(', ')}.`),
    ),
    timeout_ms: v.pipe(
      v.number(),
      v.integer('timeout_ms must be a whole number of milliseconds'),
      v.minValue(0, (issue) => `timeout_ms must be 0 or more, received ${issue.input}`),
      v.maxValue(MAX_WAIT_SECONDS * 1000, (issue) => `timeout_ms must be at most ${MAX_WAIT_SECONDS * 1000} (${MAX_WAIT_SECONDS / 60} minutes), received ${issue.input}; wait again if you need longer`),
      v.description('Give up after this many milliseconds (matched: false, with the state it is in).'),
    ),
  }),
  async run(args, { caller, services, signal, progress }) {
    const pane = services.children.resolveTarget(caller, args.child_id);
    if (signal.aborted) throw new ToolError('the wait was cancelled');
    const wanted = new Set(args.states);
    const outcome = await progress.during(
      services.states.waitFor(pane.id, wanted, args.timeout_ms, { signal }),
      (elapsedMs) => `${pane.name} is ${services.states.peek(pane.id)?.state ?? 'starting'} after ${Math.round(elapsedMs / 1000)} s`,
      args.timeout_ms,
    );
    if (signal.aborted) throw new ToolError('the wait was cancelled');
    const result = { child_id: pane.id, matched: outcome.matched, ...stateFields(outcome.state), elapsed_ms: outcome.elapsedMs };
    const headline = outcome.matched
      ? `${pane.name} is ${describeState(outcome.state)}`
      : `not in ${args.states.join('/')} after ${outcome.elapsedMs} ms: ${pane.name} is ${describeState(outcome.state)}`;
    return ok(result, outcome.state.dialog ? `${headline}\n${outcome.state.dialog.text}` : headline);
  },
});
