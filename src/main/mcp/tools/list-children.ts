import * as v from 'valibot';
import { defineTool, ok } from '../tool-kit.js';
import { exitCodeOf } from '../exit-description.js';

export const listChildren = defineTool({
  name: 'list_children',
  title: 'List your children',
  access: 'any',
  annotations: { readOnlyHint: true },
  description: [
    'List your children with their state: child_id, name, type (agent or process), status (running, exited, killed), exit_code, and whether each is idle (no output for its idle threshold, ~1 s by default; idle is a hint that it may be waiting for input, not proof that it is done).',
    'For processes started with ready_pattern / error_pattern, first_match says which matched first.',
    "An orchestrator sees every child of its session; a sub-agent sees the processes it spawned.",
  ].join(' '),
  schema: v.strictObject({}),
  async run(_args, { caller, services }) {
    const children = await Promise.all(
      services.children.visibleTo(caller).map(async (pane) => {
        const running = pane.process.status === 'running';
        const idle = running ? await services.coordinator.idleState(pane.id).catch(() => null) : null;
        const record = services.children.get(pane.id);
        const spawner = record && services.coordinator.has(record.spawnerId) ? services.coordinator.info(record.spawnerId).name : null;
        const health = record?.watch ? await record.watch.current() : undefined;
        return {
          child_id: pane.id,
          name: pane.name,
          type: pane.kind,
          preset: pane.presetName,
          status: pane.process.status,
          exit_code: exitCodeOf(pane.process),
          signal: pane.process.signal,
          idle: idle?.idle ?? null,
          idle_ms: idle?.idleMs ?? null,
          owner: pane.owner,
          spawned_by: spawner,
          ...(health ? { first_match: health.first, ready_matched: health.ready, error_matched: health.error } : {}),
          ...(health?.patternProblem !== undefined ? { pattern_problem: `ready_pattern/error_pattern: ${health.patternProblem}` } : {}),
        };
      }),
    );
    const lines = children.map((child) => {
      const state = child.status === 'running' ? (child.idle ? `idle ${child.idle_ms} ms` : 'busy') : `${child.status}, exit code ${child.exit_code}`;
      const match = 'first_match' in child && child.first_match ? `, ${child.first_match} pattern matched first` : '';
      return `${child.child_id}  ${child.name}  ${child.type}  ${state}${match}`;
    });
    if (children.length === 0) return ok({ children }, 'no children.');
    return ok({ children }, `${children.length} ${children.length === 1 ? 'child' : 'children'}:`, lines.join('\n'));
  },
});
