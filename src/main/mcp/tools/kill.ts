import * as v from 'valibot';
import { DEFAULT_KILL_GRACE_MS } from '../../../node/process-reaper.js';
import { defineTool, ok } from './tool-kit.js';
import { describeExit, exitCodeOf } from '../../agents/exit-description.js';
import type { PtyExit } from '../../../shared/pty-host-protocol.js';
import { ChildIdSchema } from './schemas.js';

/** After the grace window's SIGKILL, the exit still has to be reaped and its last output drained. */
const EXIT_REPORT_MARGIN_MS = 3000;

export const kill = defineTool({
  name: 'kill',
  title: 'Stop a child',
  access: 'any',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  description: [
    "Stop a child and everything it started: sends signal (default SIGTERM) to the child's whole process tree, then SIGKILL to whatever is still alive after 2 seconds.",
    'Returns once it has exited, with its exit code. Its final screen and output stay readable with read_output.',
    'Pass close: true to also remove it from your children once it has exited (list_children and the sidebar stop showing it; its screen and output are gone): for finished builds and test runs you have already read. A child that has already exited is closed at once.',
    'To interrupt a running command without ending the program, use send_input with kind "key" and key "ctrl-c" instead.',
  ].join(' '),
  schema: v.strictObject({
    child_id: ChildIdSchema,
    signal: v.optional(v.pipe(v.picklist(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGKILL']), v.description('First signal to send. Default SIGTERM.')), 'SIGTERM'),
    close: v.optional(v.pipe(v.boolean(), v.description('Once it has exited, remove it from your children; its output can no longer be read. Default false.')), false),
  }),
  async run(args, { caller, services }) {
    const pane = services.children.resolveTarget(caller, args.child_id);
    const already = pane.process.status !== 'running';
    let exit: PtyExit | null = null;
    if (!already) {
      services.children.markKilledBy(caller, pane.id);
      const exitReported = services.coordinator.exitPromise(pane.id);
      await services.coordinator.kill(pane.id, args.signal, DEFAULT_KILL_GRACE_MS);
      exit = await Promise.race([exitReported, new Promise<null>((resolve) => setTimeout(() => resolve(null), EXIT_REPORT_MARGIN_MS))]);
    }
    if (!services.coordinator.has(pane.id)) {
      // Another call (a second kill with close, or the user in the sidebar) closed it meanwhile: it is gone, as asked.
      const ended = exit ?? pane.process;
      const result = { child_id: pane.id, name: pane.name, status: ended.status, exit_code: ended.exitCode ?? null, signal: ended.signal ?? null, already_exited: already, closed: true };
      return ok(result, `${pane.name} has exited, and another call closed it.`);
    }
    const process = services.coordinator.info(pane.id).process;
    // A child still running (its exit not reported yet) stays: closing it would hide a live process.
    const closed = args.close && process.status !== 'running';
    if (closed) await services.coordinator.close(pane.id);
    const result = { child_id: pane.id, name: pane.name, status: process.status, exit_code: exitCodeOf(process), signal: process.signal, already_exited: already, closed };
    const text = already ? `${pane.name} had already exited with ${describeExit(process)}.` : process.status === 'running' ? `sent ${args.signal} to ${pane.name}; it has not reported its exit yet.` : `${pane.name} exited with ${describeExit(process)}.`;
    return ok(result, `${text}${closedNote(args.close, closed)}`);
  },
});

function closedNote(asked: boolean, closed: boolean): string {
  if (!asked) return '';
  return closed ? ' Closed: it is no longer among your children.' : ' Not closed, as it is still running.';
}
