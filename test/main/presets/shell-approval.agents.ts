/**
 * The real CLIs' own approval dialogs, offline against the fake model: the
 * model asks each CLI to run a shell command that its default preset's
 * permissions do not allow. The dialog shows in the place the preset says,
 * is not taken for "ready", and the preset's approve-once keys run the
 * command (the file appears). On the way, the model first calls
 * list_children, and its tool result must carry patterm's headline
 * (`summary`): claude and codex pass their models structuredContent only.
 * codex's requests must not offer codex's own sub-agent tools.
 * With PATTERM_RECORD_CASSETTES=1 each run is saved as <cli>-shell-approval.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { screenState } from '../../../src/main/presets/ready-state.js';
import { spawnProcess } from '../../../src/main/mcp/tools/spawn-process.js';
import type { TurnView } from '../../fixtures/fake-model/script.js';
import { findToolName } from '../../fixtures/fake-model/script.js';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { cliVersion, useWorld, VENDORS, type Vendor, type World } from './agent-world.js';
import { dialogOn } from './preset-dialogs.js';
import { shellCall } from './vendor-shell.js';

const CASSETTES = fileURLToPath(new URL('../../../../test/fixtures/cassettes/', import.meta.url));
const RECORD = process.env.PATTERM_RECORD_CASSETTES === '1';
/** Generous: opencode needed 4–10 s to start on a loaded 2-core machine. */
const STEP_TIMEOUT_MS = 120_000;

/** codex's own sub-agent tools (its multi-agent feature), which the preset turns off. */
const CODEX_SUBAGENT_TOOLS = ['spawn_agent', 'send_input', 'wait_agent', 'close_agent', 'resume_agent'];

interface CodexTool {
  type: string;
  name?: string;
  tools?: CodexTool[];
}

/** Names of the tools codex offers other than patterm's (namespaced ones as `<namespace>/<name>`). */
function codexOwnTools(body: unknown): string[] {
  const tools = (body as { tools?: CodexTool[] }).tools ?? [];
  return tools.flatMap((tool) => (tool.type === 'namespace' ? (tool.name === 'mcp__patterm' ? [] : (tool.tools ?? []).map((inner) => `${tool.name}/${inner.name}`)) : [tool.name ?? '']));
}

let world: World;
useWorld((started) => (world = started));

for (const vendor of VENDORS) {
  const version = cliVersion(vendor);
  test(`${vendor}: its shell approval dialog shows where the preset says, and the preset's keys approve it once`, { skip: version ? false : `${vendor} is not installed`, timeout: 4 * STEP_TIMEOUT_MS }, async () => {
    const marker = `approved-by-${vendor}.txt`;
    const ask = `SHELL-ASK-${vendor}`;
    const asked = (turn: TurnView) => turn.userTexts.some((text) => text.includes(ask)) && !turn.sideRequest;
    world.server.requests.length = 0;
    world.server.setRules([
      { name: 'list-children', when: (turn) => asked(turn) && turn.toolResults.length === 0, reply: (turn) => ({ toolCall: { name: findToolName(turn, 'list_children'), arguments: {} } }) },
      { name: 'shell', when: (turn) => asked(turn) && turn.toolResults.length === 1, reply: { toolCall: shellCall(vendor, `touch ${marker}`, 'Create the marker file') } },
      { name: 'shell-done', when: (turn) => asked(turn) && turn.toolResults.length >= 2, reply: { text: 'SHELL-DONE' } },
    ]);
    const started = performance.now();
    const preset = world.catalog.findAgent(vendor)!.preset;
    const { pane, submit } = await world.launcher.spawnAgent({ preset: vendor, initialPrompt: `${ask}: create the marker file` });
    assert.ok(submit?.submitted, `submit: ${JSON.stringify(submit)}`);

    // What the model got back from list_children: the headline, whatever part of the result the CLI passes on.
    const afterList = await world.server.waitForRequest((r) => r.rule === 'shell', STEP_TIMEOUT_MS, `${vendor}'s turn after list_children`);
    const listResult = afterList.turn!.toolResults[0];
    // claude and codex pass on structuredContent (as JSON), opencode the text, whose first line is the same headline.
    assert.match(listResult, vendor === 'opencode' ? /^no children\./ : /"summary":\s*"no children\."/, `the model sees the headline; it got:\n${listResult}`);
    if (vendor === 'codex') {
      const own = codexOwnTools(afterList.turn!.body);
      assert.deepEqual(own.filter((name) => CODEX_SUBAGENT_TOOLS.includes(name.split('/').pop()!)), [], `codex offers its own sub-agent tools: ${own.join(', ')}`);
      assert.ok(afterList.turn!.toolNames.includes('mcp__patterm/spawn_agent'), "patterm's spawn_agent is offered");
    }

    const anyDialog = (preset.dialogs ?? []).map((dialog) => dialog.pattern).join('|');
    const shown = await world.coordinator.waitFor(pane.id, { pattern: anyDialog, timeoutMs: STEP_TIMEOUT_MS, stableMs: 500 });
    const grid = await world.coordinator.grid(pane.id);
    const screen = grid.lines.join('\n');
    assert.ok(shown.matched, `no approval dialog; the screen:\n${screen}`);
    const dialog = dialogOn(preset, grid.lines);
    assert.ok(dialog, `the dialog is not in the place its preset says; the screen:\n${screen}`);
    assert.equal(dialog.kind, 'permission');
    assert.ok(dialog.keys?.approve_once, 'the preset says how to approve once');
    assert.match(dialog.text, new RegExp(`touch ${marker}`), 'the dialog names the command');
    assert.equal(await screenState(preset.ready_signal!, grid.lines), 'other', `the dialog would take a typed message:\n${screen}`);
    assert.equal(existsSync(join(world.project, marker)), false, 'nothing ran before the approval');

    world.coordinator.write(pane.id, dialog.keys.approve_once, 'orchestrator');
    await world.server.waitForRequest((r) => r.rule === 'shell-done', STEP_TIMEOUT_MS, `${vendor}'s turn after the approved command`);
    await eventually(() => existsSync(join(world.project, marker)), { timeoutMs: 10_000, message: `${marker} created by the approved command` });
    await world.coordinator.waitFor(pane.id, { pattern: 'SHELL-DONE', timeoutMs: STEP_TIMEOUT_MS, stableMs: 1500 });
    process.stderr.write(`# ${vendor} ${version}: dialog ${JSON.stringify(dialog.pattern)} approved with ${JSON.stringify(dialog.keys.approve_once)}, ${Math.round(performance.now() - started)} ms in all\n`);

    if (RECORD) {
      await world.recorder.save(pane.id, `${CASSETTES}${vendor}-shell-approval`, {
        name: vendor,
        version: version!,
        preset: vendor,
        scenario: 'the model calls list_children, then asks for a shell command the defaults do not allow; the dialog is approved once with the preset keys',
        argv: preset.argv,
        final: { exit: null, duration_ms: Math.round(performance.now() - started), ready_ms: world.launcher.readyTimes.get(pane.id)?.elapsedMs ?? null, submit: submit ?? null },
        scrub: world.scrubs,
        envNames: world.envNames,
      });
    }
    await world.coordinator.kill(pane.id);
  });
}

for (const vendor of VENDORS) {
  const version = cliVersion(vendor);
  test(`${vendor}: asks before patterm's spawn_process, and the preset's deny keys refuse it`, { skip: version ? false : `${vendor} is not installed`, timeout: 3 * STEP_TIMEOUT_MS }, async () => {
    const marker = `refused-for-${vendor}.txt`;
    const ask = `SPAWN-ASK-${vendor}`;
    world.server.setRules([
      { name: 'spawn', when: (turn) => turn.userTexts.some((text) => text.includes(ask)) && !turn.sideRequest && turn.toolResults.length === 0, reply: (turn) => ({ toolCall: { name: findToolName(turn, 'spawn_process'), arguments: { argv: ['touch', marker] } } }) },
      { name: 'after-spawn', when: (turn) => turn.userTexts.some((text) => text.includes(ask)) && !turn.sideRequest, reply: { text: 'SPAWN-REFUSED' } },
    ]);
    const preset = world.catalog.findAgent(vendor)!.preset;
    const { pane, submit } = await world.launcher.spawnAgent({ preset: vendor, initialPrompt: `${ask}: run touch` });
    assert.ok(submit?.submitted, `submit: ${JSON.stringify(submit)}`);
    const anyDialog = (preset.dialogs ?? []).map((dialog) => dialog.pattern).join('|');
    const shown = await world.coordinator.waitFor(pane.id, { pattern: anyDialog, timeoutMs: STEP_TIMEOUT_MS, stableMs: 500 });
    const grid = await world.coordinator.grid(pane.id);
    assert.ok(shown.matched, `${vendor} ran spawn_process without asking; the screen:\n${grid.lines.join('\n')}`);
    const dialog = dialogOn(preset, grid.lines);
    assert.ok(dialog?.keys?.deny, `the preset's dialog with deny keys is in its place; the screen:\n${grid.lines.join('\n')}`);
    // codex and opencode name the tool; claude shows its title.
    assert.match(dialog.text, new RegExp(`spawn_process|${spawnProcess.title}`), 'the dialog names the tool');

    world.coordinator.write(pane.id, dialog.keys.deny, 'orchestrator');
    const gone = await world.coordinator.waitFor(pane.id, { pattern: dialog.pattern, flags: dialog.flags, absent: true, timeoutMs: STEP_TIMEOUT_MS, stableMs: 1000 });
    assert.ok(gone.matched, 'the dialog closed');
    assert.deepEqual(world.coordinator.children(pane.id), [], 'no child was started');
    assert.equal(existsSync(join(world.project, marker)), false, 'nothing ran');
    await world.coordinator.kill(pane.id);
  });
}
