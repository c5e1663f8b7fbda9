/**
 * worktree-spawn: a child spawned with `worktree` (spawn call to its ready line) in a
 * repository of 5,000 files, against `git worktree add` alone plus the same child's own
 * start, all in the same run.
 */
import type { Scenario } from '../harness/scenario.js';
import type { WorktreeSpawnResult } from '../probes/worktree-spawn.js';
import { median } from '../harness/stats.js';

const FILES = 5000;

const scenario: Scenario = {
  name: 'worktree-spawn',
  description: 'spawn_process with worktree in a 5,000-file repository, to the ready line, vs git worktree add + the child alone',
  defaultRuns: 3,
  secondsPerRun: 20,
  async run(ctx) {
    const iterations = ctx.quick ? 2 : 3;
    for (let run = 0; run < ctx.runs; run++) {
      const result = await ctx.probe<WorktreeSpawnResult>('worktree-spawn', { dir: `${ctx.tmpDir}/run-${run}`, files: ctx.quick ? 500 : FILES, iterations }, { timeoutMs: 300_000 });
      const git = median(result.gitAddMs);
      const child = median(result.childMs);
      const spawned = median(result.worktreeSpawnMs);
      ctx.record({ metric: 'git worktree add', contender: 'git', unit: 'ms', better: 'lower', value: git, run });
      ctx.record({ metric: 'child start (no worktree)', contender: 'patterm', unit: 'ms', better: 'lower', value: child, run });
      ctx.record({ metric: 'spawn in a new worktree', contender: 'patterm', unit: 'ms', better: 'lower', value: spawned, run });
      ctx.record({ metric: 'worktree spawn / (git worktree add + child start)', contender: 'ratio', unit: 'x', better: 'lower', value: spawned / (git + child), run });
      ctx.log(`run ${run + 1}: git worktree add ${git.toFixed(0)} ms, child ${child.toFixed(0)} ms, spawn in a worktree ${spawned.toFixed(0)} ms`);
    }
    ctx.target({ label: 'within 1.5x of git worktree add plus the child\'s own start', metric: 'worktree spawn / (git worktree add + child start)', contender: 'ratio', op: '<=', threshold: 1.5 });
    ctx.note(`median of ${iterations} of each per run, rotated; both spawns are spawn_process over the MCP stdio proxy with a ready_pattern, so the MCP hops count on both sides; no setup command, no submodules, no .worktreeinclude`);
  },
};

export default scenario;
