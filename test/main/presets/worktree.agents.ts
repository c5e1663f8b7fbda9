/**
 * Real CLI children in worktrees, offline against the fake model: an
 * orchestrator spawns claude, codex and opencode each with `worktree`, the
 * model has each append a line to a tracked file (a shell command, approved
 * once with the preset's keys), and the change shows in worktree_diff while
 * the project checkout stays as it was. The CLIs take a worktree of a project
 * they trust as trusted: no trust dialog is answered here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnView } from '../../fixtures/fake-model/script.js';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { makeRepo, statusOf } from '../../helpers/git-repo.js';
import { connectProxy, spawnFakeOrchestrator, structured, textOf, type Connection } from '../mcp/helpers/mcp-harness.js';
import { cliVersion, useWorld, VENDORS, type Vendor, type World } from './agent-world.js';
import { dialogOn } from './preset-dialogs.js';
import { shellCall } from './vendor-shell.js';

/** Generous: opencode needed 4–10 s to start on a loaded 2-core machine. */
const STEP_TIMEOUT_MS = 120_000;
const NOTES = 'notes.txt';

let world: World;
let orchestrator: Connection;
useWorld((started) => (world = started));

/** The worktree each vendor's child gets. */
const worktreeName = (vendor: Vendor) => `${vendor}-edit`;
const worktreePath = (vendor: Vendor) => `${world.project}.worktrees/${worktreeName(vendor)}`;

async function setUp(): Promise<void> {
  if (orchestrator) return;
  makeRepo(world.project, { [NOTES]: 'first line\n' });
  const lead = await spawnFakeOrchestrator(world.coordinator, world.mcp!.endpoint.identities, 'lead');
  orchestrator = await connectProxy(world.mcp!.endpoint.socketPath, lead.token);
}

for (const vendor of VENDORS) {
  const version = cliVersion(vendor);
  test(`${vendor}: a child started in a worktree edits a file there; worktree_diff shows it and the checkout does not`, { skip: version ? false : `${vendor} is not installed`, timeout: 4 * STEP_TIMEOUT_MS }, async () => {
    await setUp();
    const ask = `WORKTREE-EDIT-${vendor}`;
    const asked = (turn: TurnView) => turn.userTexts.some((text) => text.includes(ask)) && !turn.sideRequest;
    world.server.setRules([
      { name: 'edit', when: (turn) => asked(turn) && turn.toolResults.length === 0, reply: { toolCall: shellCall(vendor, `echo "edited by ${vendor}" >> ${NOTES}`, 'Append a line to the notes') } },
      { name: 'edit-done', when: (turn) => asked(turn) && turn.toolResults.length >= 1, reply: { text: 'EDIT-DONE' } },
    ]);
    const spawned = await orchestrator.call('spawn_agent', { preset: vendor, initial_prompt: `${ask}: append a line to ${NOTES}`, worktree: worktreeName(vendor) });
    assert.equal(spawned.isError, undefined, textOf(spawned));
    const child = structured<{ child_id: string; worktree: { path: string; branch: string } }>(spawned);
    assert.equal(child.worktree.path, worktreePath(vendor));
    assert.equal(world.coordinator.info(child.child_id).cwd, worktreePath(vendor));

    const preset = world.catalog.findAgent(vendor)!.preset;
    const anyDialog = (preset.dialogs ?? []).map((dialog) => dialog.pattern).join('|');
    const shown = await world.coordinator.waitFor(child.child_id, { pattern: anyDialog, timeoutMs: STEP_TIMEOUT_MS, stableMs: 500 });
    const grid = await world.coordinator.grid(child.child_id);
    assert.ok(shown.matched, `no approval dialog; the screen:\n${grid.lines.join('\n')}`);
    const dialog = dialogOn(preset, grid.lines);
    assert.ok(dialog?.keys?.approve_once, `the preset's dialog is in its place; the screen:\n${grid.lines.join('\n')}`);
    world.coordinator.write(child.child_id, dialog.keys.approve_once, 'orchestrator');
    await world.server.waitForRequest((request) => request.rule === 'edit-done', STEP_TIMEOUT_MS, `${vendor}'s turn after the edit`);
    await eventually(() => readFileSync(join(worktreePath(vendor), NOTES), 'utf8').includes(`edited by ${vendor}`), { timeoutMs: 10_000, message: `the edit in ${vendor}'s worktree` });

    const diff = structured<{ files: number; content: string }>(await orchestrator.call('worktree_diff', { name: worktreeName(vendor) }));
    assert.equal(diff.files, 1);
    assert.match(diff.content, new RegExp(`\\+\\+\\+ b/${NOTES}[\\s\\S]*\\n\\+edited by ${vendor}\\n`));
    assert.equal(readFileSync(join(world.project, NOTES), 'utf8'), 'first line\n', 'the checkout keeps its file as it was');
    assert.equal(statusOf(world.project), '', 'the checkout is clean');

    await orchestrator.call('kill', { child_id: child.child_id, close: true });
    const refused = structured<{ removed: boolean; reasons: string[] }>(await orchestrator.call('worktree_remove', { name: worktreeName(vendor) }));
    assert.equal(refused.removed, false);
    assert.ok(refused.reasons.some((reason) => reason.includes(`uncommitted change to tracked files: ${NOTES}`)), refused.reasons.join('\n'));
  });
}
