import * as v from 'valibot';
import { defineTool, ok } from './tool-kit.js';
import { exitCodeOf } from '../../agents/exit-description.js';
import { ignoreError } from '../../../node/patterm-log.js';
import { stateFields } from '../services/pane-metadata.js';

export const listChildren = defineTool({
  name: 'list_children',
  title: 'List your children',
  access: 'any',
  annotations: { readOnlyHint: true },
  description: [
    'List your children with their state: child_id, name, type (agent, process, or shell: a shell pane from spawn_shell), status (running, exited, killed), exit_code, and state: starting, busy, waiting_permission (an approval dialog is up: read it with read_output, answer with send_input answer, or hand it to the user with request_human_attention), waiting_input (it asks a question), idle or exited.',
    'state_source says what the state rests on, strongest first: a preset pattern (the CLI\'s dialog, busy marker or ready prompt, found in its place on the screen), a terminal signal (a title that asks for you, progress, a notification, the bell), or quiet time (idle_ms, no output for the idle threshold, ~1 s by default: a hint, not proof that it is done). state_since says since when.',
    'For processes started with ready_pattern / error_pattern, first_match says which matched first.',
    'A shell pane also has shell: its integration, whether a command is running, the last exit code and its working directory.',
    "An orchestrator sees every child of its session; a sub-agent sees the processes it spawned.",
  ].join(' '),
  schema: v.strictObject({}),
  async run(_args, { caller, services }) {
    const children = await Promise.all(
      services.children.visibleTo(caller).map(async (pane) => {
        const running = pane.process.status === 'running';
        const idle = running ? await services.coordinator.idleState(pane.id).catch(ignoreError(`reading the idle state of ${pane.id}`, null)) : null;
        const state = await services.states.current(pane.id);
        const record = services.children.get(pane.id);
        const spawner = record && services.coordinator.has(record.spawnerId) ? services.coordinator.info(record.spawnerId).name : null;
        const health = record?.watch ? await record.watch.current() : undefined;
        const shell = services.shells.session(pane.id);
        return {
          child_id: pane.id,
          name: pane.name,
          type: shell ? 'shell' : pane.kind,
          preset: pane.presetName,
          status: pane.process.status,
          exit_code: exitCodeOf(pane.process),
          signal: pane.process.signal,
          ...stateFields(state),
          idle: idle?.idle ?? null,
          idle_ms: idle?.idleMs ?? null,
          owner: pane.owner,
          spawned_by: spawner,
          ...(health ? { first_match: health.first, ready_matched: health.ready, error_matched: health.error } : {}),
          ...(health?.patternProblem !== undefined ? { pattern_problem: `ready_pattern/error_pattern: ${health.patternProblem}` } : {}),
          ...(shell && pane.shell
            ? { shell: { integration: pane.shell.integration, running: pane.shell.running, last_exit_code: pane.shell.lastExitCode, cwd: shell.cwd, ledger: shell.ledger.file } }
            : {}),
        };
      }),
    );
    const lines = children.map((child) => {
      const state = child.status === 'running' ? `${child.state} (${child.state_source})` : `${child.status}, exit code ${child.exit_code}`;
      const match = 'first_match' in child && child.first_match ? `, ${child.first_match} pattern matched first` : '';
      return `${child.child_id}  ${child.name}  ${child.type}  ${state}${match}`;
    });
    if (children.length === 0) return ok({ children }, 'no children.');
    return ok({ children }, `${children.length} ${children.length === 1 ? 'child' : 'children'}:`, lines.join('\n'));
  },
});
