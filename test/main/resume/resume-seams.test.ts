/**
 * The seams shell panes and worktrees plug into (docs/resume.md): launch facts
 * a feature updates are recorded; on resume a shell pane goes to the shell
 * feature's restarter, in its last directory, under its parent with its name,
 * and a pane in a worktree comes back there, or is skipped once the worktree
 * is gone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Emitter } from '../../../src/shared/events.js';
import type { PaneInfo } from '../../../src/shared/pane-types.js';
import { LayoutRecorder } from '../../../src/main/resume/layout-recorder.js';
import type { PaneRecord } from '../../../src/main/resume/layout-record.js';
import { recordPanes } from '../../../src/main/resume/layout-record.js';
import { planResume } from '../../../src/main/resume/resume-plan.js';
import { runResume } from '../../../src/main/resume/resume-runner.js';
import { PresetAgentLauncher } from '../../../src/main/presets/agent-launcher.js';
import { PresetCatalog } from '../../../src/main/presets/preset-catalog.js';
import { writeFixturePresets } from '../../fixtures/fake-agent-presets.js';
import { BASH, BASH_ENV, eventually, useCoordinator } from '../../helpers/coordinator-fixture.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

test('launch facts a feature updates are recorded, and a resume hands shells to their restarter and panes back to their worktrees', async () => {
  const root = scratchDir('patterm-seams-');
  const [first, last, worktree] = ['first', 'last', 'worktree'].map((dir) => join(root, dir));
  for (const dir of [first, last, worktree]) mkdirSync(dir);
  const catalog = PresetCatalog.load({ dirs: writeFixturePresets(join(root, 'presets')), bundled: null });
  const conversations = { snapshot: () => undefined, onChange: new Emitter<string>().event };

  // The first run: a shell pane (as the shell feature would start it) and a process in a worktree.
  const before = useCoordinator(root);
  const launcher = new PresetAgentLauncher({ coordinator: before, endpoint: null, catalog });
  const recorder = new LayoutRecorder({ coordinator: before, path: join(root, 'state', 'layout-x.json'), conversations });
  const shell = await before.spawn({ argv: BASH, env: BASH_ENV, kind: 'process', name: 'sh-main', cwd: first, launch: { kind: 'shell', preset: null, argv: BASH, ledger: 'sh-main', lastCwd: first } });
  await launcher.spawnProcess({ argv: ['sleep', '60'], workingDir: worktree, parentId: shell.id, name: 'in-tree', launch: { worktree: { name: 'feature-x', path: worktree } } });
  await launcher.spawnProcess({ argv: ['sleep', '60'], workingDir: first, parentId: shell.id, name: 'tree-gone', launch: { worktree: { name: 'feature-y', path: join(root, 'removed') } } });
  before.updateLaunch(shell.id, { lastCwd: last });
  const record = await eventually(() => {
    const snapshot = recorder.snapshot();
    return recordPanes(snapshot).length === 3 && snapshot.sessions[0].root.cwd === last ? snapshot : null;
  }, { message: 'the record following the shell into its last directory' });
  await recorder.freeze();
  const shellRecord = record.sessions[0].root;
  assert.deepEqual({ kind: shellRecord.kind, ledger: shellRecord.ledger, cwd: shellRecord.cwd }, { kind: 'shell', ledger: 'sh-main', cwd: last });
  assert.deepEqual(record.sessions[0].children.map((child) => child.worktree?.name), ['feature-x', 'feature-y']);

  // The resume: in a new coordinator, the shell restarter of the shell feature.
  const after = useCoordinator(root);
  const relauncher = new PresetAgentLauncher({ coordinator: after, endpoint: null, catalog });
  const reopened: { pane: PaneRecord; parentId: string | undefined; name: string }[] = [];
  const reopenShell = async (pane: PaneRecord, place: { parentId?: string; name: string; owner: 'user' | 'orchestrator' }): Promise<PaneInfo> => {
    reopened.push({ pane, parentId: place.parentId, name: place.name });
    return after.spawn({ argv: BASH, env: BASH_ENV, kind: 'process', name: place.name, cwd: pane.cwd, parentId: place.parentId, launch: { kind: 'shell', preset: null, argv: pane.argv, ledger: pane.ledger, lastCwd: pane.cwd } });
  };
  const plans = await planResume(record, { catalog, projectDir: root, shellsSupported: true });
  const [session] = await runResume(plans, { launcher: relauncher, adoptChild: () => undefined, tellAgent: () => undefined, reopenShell });
  assert.deepEqual(reopened.map(({ pane, parentId, name }) => ({ ledger: pane.ledger, cwd: pane.cwd, parentId, name })), [{ ledger: 'sh-main', cwd: last, parentId: undefined, name: 'sh-main' }]);
  assert.equal(session.root.kind, 'reopened');
  assert.deepEqual(session.children.map((child) => `${child.pane.name}: ${child.kind} (${child.detail})`), [
    'in-tree: started (started again)',
    `tree-gone: skipped (worktree gone: feature-y (${join(root, 'removed')}) no longer exists)`,
  ]);
  const inTree = session.children[0];
  assert.ok('info' in inTree);
  assert.equal(inTree.info.cwd, worktree);
  assert.deepEqual(inTree.info.launch?.worktree, { name: 'feature-x', path: worktree }, 'the worktree goes into the new run\'s record too');
  assert.equal(inTree.info.parentId, session.root.kind === 'reopened' ? session.root.info.id : null);
});
