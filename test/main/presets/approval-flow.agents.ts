/**
 * A real claude, codex or opencode as a child, its approval dialog answered by
 * an orchestrator through MCP. The orchestrator is the fake agent
 * pane; the test calls tools as it through the real `patterm mcp-stdio` proxy
 * and the SDK client, and reads what patterm types into it on its screen.
 * The fake model asks the child for a shell command its default preset makes
 * it ask about. The orchestrator sees waiting_permission in wait_for_state and
 * list_children, reads the dialog, hears of it with a [system] notice, answers
 * with send_input `answer: "approve_once"`, and the command really runs.
 * With the permission policy on, approving `rm -rf` is refused and the child
 * keeps waiting. Two dialogs in a row are two waits, each with its own
 * notice; with PATTERM_RECORD_CASSETTES=1 opencode's run is saved as the
 * opencode-two-dialogs cassette.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePermissionPolicy } from '../../../src/main/mcp/services/permission-policy.js';
import { presetDirs } from '../../../src/main/presets/preset-paths.js';
import type { TurnView } from '../../fixtures/fake-model/script.js';
import { writeFixturePresets } from '../../fixtures/fake-agent-presets.js';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { connectProxy, spawnFakeOrchestrator, structured, textOf, type Connection } from '../mcp/helpers/mcp-harness.js';
import { expectScreen, literal, systemNotices } from '../mcp/helpers/screen.js';
import type { StateResult } from '../mcp/helpers/state-calls.js';
import { cliVersion, useWorld, VENDORS, type Vendor, type World } from './agent-world.js';
import { shellCall } from './vendor-shell.js';

/** Generous: opencode needed 4–10 s to start on a loaded 2-core machine, up to 50 s under heavy load. */
const STEP_TIMEOUT_MS = 120_000;
/** A state wait in one tool call, under the SDK client's 120 s call timeout. */
const STATE_WAIT_MS = 100_000;
const CASSETTES = fileURLToPath(new URL('../../../../test/fixtures/cassettes/', import.meta.url));
const RECORD = process.env.PATTERM_RECORD_CASSETTES === '1';
/** What config.json's `"permissions": { "enabled": true }` gives: on, the default deny list, nothing allowed. */
const POLICY_ON = parsePermissionPolicy({ enabled: true });

interface Session {
  root: string;
  mcp: Connection;
  childId: string;
  childName: string;
}

/**
 * The fake model asks the child (its prompt carries `mark`) to run each of
 * `commands` in turn, each as soon as the one before has its result, then
 * ends its turn with `${mark}-DONE`.
 */
function askForShell(world: World, vendor: Vendor, mark: string, ...commands: string[]): void {
  const asked = (turn: TurnView) => turn.userTexts.some((text) => text.includes(mark)) && !turn.sideRequest;
  world.server.setRules([
    ...commands.map((command, i) => ({ name: `${mark} shell ${i}`, when: (turn: TurnView) => asked(turn) && turn.toolResults.length === i, reply: { toolCall: shellCall(vendor, command, 'Run the command') } })),
    { name: `${mark} done`, when: asked, reply: { text: `${mark}-DONE` } },
  ]);
}

/** An orchestrator (the fake agent) connected over MCP, and the real CLI it spawned as its child with `spawn_agent`. */
async function orchestrate(world: World, vendor: Vendor, mark: string): Promise<Session> {
  if (!world.catalog.findAgent('fake')) {
    writeFixturePresets(presetDirs().root);
    world.catalog.reload();
  }
  const { pane: root, token } = await spawnFakeOrchestrator(world.coordinator, world.mcp!.endpoint.identities, `orch-${vendor}`);
  const mcp = await connectProxy(world.mcp!.endpoint.socketPath, token);
  const childName = `${vendor}-kid`;
  const spawned = await mcp.call('spawn_agent', { preset: vendor, initial_prompt: `${mark}: run the command`, name: childName });
  assert.equal(spawned.isError, undefined, textOf(spawned));
  assert.equal(structured<{ prompt_submitted: boolean }>(spawned).prompt_submitted, true, textOf(spawned));
  return { root: root.id, mcp, childId: structured<{ child_id: string }>(spawned).child_id, childName };
}

async function waitState(session: Session, states: string[], timeoutMs = STATE_WAIT_MS): Promise<StateResult> {
  const result = await session.mcp.call('wait_for_state', { child_id: session.childId, states, timeout_ms: timeoutMs });
  assert.equal(result.isError, undefined, textOf(result));
  return structured<StateResult>(result);
}

/** The child is at its approval dialog, for `command`, as wait_for_state, list_children and read_output all tell it. */
async function expectDialog(world: World, session: Session, command: string): Promise<void> {
  const waiting = await waitState(session, ['waiting_permission']);
  const screen = async () => (await world.coordinator.grid(session.childId)).lines.join('\n');
  assert.equal(waiting.matched, true, `${JSON.stringify(waiting)}; the screen:\n${await screen()}`);
  assert.match(waiting.state_source, /^pattern: dialogs\[\d+\] \(permission\)$/);
  const listed = structured<{ children: (StateResult & { child_id: string })[] }>(await session.mcp.call('list_children'));
  assert.equal(listed.children.find((child) => child.child_id === session.childId)?.state, 'waiting_permission', JSON.stringify(listed));
  const read = structured<StateResult>(await session.mcp.call('read_output', { child_id: session.childId }));
  assert.equal(read.state, 'waiting_permission');
  assert.match(read.dialog ?? '', new RegExp(literal(command)), `the dialog names the command; read_output's dialog:\n${read.dialog}\nthe screen:\n${await screen()}`);
}

async function endSession(world: World, session: Session): Promise<void> {
  await session.mcp.close();
  await world.coordinator.kill(session.childId);
  await world.coordinator.kill(session.root);
}

describe('an orchestrator answers a real CLI child’s approval dialog through MCP', () => {
  let world: World;
  useWorld((started) => (world = started));

  for (const vendor of VENDORS) {
    const version = cliVersion(vendor);
    test(`${vendor} child: waiting_permission, the dialog, a [system] notice; approve_once runs the command`, { skip: version ? false : `${vendor} is not installed`, timeout: 4 * STEP_TIMEOUT_MS }, async () => {
      const marker = `approved-for-${vendor}.txt`;
      const command = `touch ${marker}`;
      const mark = `APPROVE-FLOW-${vendor}`;
      const started = performance.now();
      askForShell(world, vendor, mark, command);
      const session = await orchestrate(world, vendor, mark);
      try {
        await expectDialog(world, session, command);
        await expectScreen(world.coordinator, session.root, `\\[system\\] ${literal(session.childName)} is waiting for permission: `, STEP_TIMEOUT_MS);
        assert.equal(existsSync(join(world.project, marker)), false, 'nothing ran before the approval');

        const answered = await session.mcp.call('send_input', { child_id: session.childId, answer: 'approve_once' });
        assert.equal(answered.isError, undefined, textOf(answered));
        await world.server.waitForRequest((r) => r.rule === `${mark} done`, STEP_TIMEOUT_MS, `${vendor}'s turn after the approved command`);
        await eventually(() => existsSync(join(world.project, marker)), { timeoutMs: 10_000, message: `${marker} created by the approved command` });
        const after = await waitState(session, ['idle']);
        assert.equal(after.matched, true, `${vendor} back at its prompt after the command: ${JSON.stringify(after)}`);
        process.stderr.write(`# ${vendor} ${version}: spawned, asked, approved and back at its prompt in ${Math.round(performance.now() - started)} ms\n`);
      } finally {
        await endSession(world, session);
      }
    });
  }
});

/**
 * Two approvals in a row: opencode asks for the directory outside the project,
 * then for the command itself; claude and codex for two commands the model
 * asks for one straight after the other.
 */
const CHAINS: Record<Vendor, { commands: string[]; files: string[]; dialogs: string[] }> = {
  opencode: { commands: ['touch x && cat /etc/hostname'], files: ['x'], dialogs: ['Access external directory /etc', '$ touch x && cat /etc/hostname'] },
  claude: { commands: ['touch first-claude.txt', 'touch second-claude.txt'], files: ['first-claude.txt', 'second-claude.txt'], dialogs: ['touch first-claude.txt', 'touch second-claude.txt'] },
  codex: { commands: ['touch first-codex.txt', 'touch second-codex.txt'], files: ['first-codex.txt', 'second-codex.txt'], dialogs: ['touch first-codex.txt', 'touch second-codex.txt'] },
};

describe('a dialog that follows a dialog is a new wait', () => {
  let world: World;
  useWorld((started) => (world = started));

  for (const vendor of VENDORS) {
    const version = cliVersion(vendor);
    test(`${vendor} child: two dialogs in a row, each its own wait and notice, each answered with approve_once after wait_for_state`, { skip: version ? false : `${vendor} is not installed`, timeout: 6 * STEP_TIMEOUT_MS }, async () => {
      const chain = CHAINS[vendor];
      const mark = `CHAIN-${vendor}`;
      const started = performance.now();
      askForShell(world, vendor, mark, ...chain.commands);
      const session = await orchestrate(world, vendor, mark);
      const squash = (text: string) => text.replace(/\s+/g, '');
      try {
        let since = '';
        for (const [i, expected] of chain.dialogs.entries()) {
          const waiting = await waitState(session, ['waiting_permission']);
          const screen = (await world.coordinator.grid(session.childId)).lines.join('\n');
          assert.equal(waiting.matched, true, `dialog ${i + 1}: ${JSON.stringify(waiting)}; the screen:\n${screen}`);
          assert.ok(waiting.dialog?.includes(expected), `dialog ${i + 1} is its own: ${JSON.stringify(waiting.dialog)} should name ${JSON.stringify(expected)}`);
          for (const other of chain.dialogs.filter((_, j) => j !== i)) assert.ok(!waiting.dialog?.includes(other), `dialog ${i + 1} quotes ${JSON.stringify(other)}:\n${waiting.dialog}`);
          assert.notEqual(waiting.state_since, since, 'a new wait');
          since = waiting.state_since;
          // The parent hears of this dialog, and of no other since the last.
          const notices = await eventually(
            async () => {
              const told = (await systemNotices(world.coordinator, session.root)).filter((notice) => notice.includes(`${session.childName} is waiting for permission`));
              return told.length > i ? told : null;
            },
            { timeoutMs: STEP_TIMEOUT_MS, message: `a notice of dialog ${i + 1}` },
          );
          assert.equal(notices.length, i + 1, `one notice per dialog:\n${notices.join('\n')}`);
          assert.ok(squash(notices[i]).includes(squash(expected)), `notice ${i + 1} quotes its dialog: ${notices[i]}`);
          assert.equal(existsSync(join(world.project, chain.files.at(-1)!)), false, 'the last command has not run before its approval');

          const answered = await session.mcp.call('send_input', { child_id: session.childId, answer: 'approve_once' });
          assert.equal(answered.isError, undefined, textOf(answered));
        }
        await world.server.waitForRequest((r) => r.rule === `${mark} done`, STEP_TIMEOUT_MS, `${vendor}'s turn after the approved commands`);
        for (const file of chain.files) await eventually(() => existsSync(join(world.project, file)), { timeoutMs: 10_000, message: `${file} created by an approved command` });
        const done = await world.coordinator.waitFor(session.childId, { pattern: `${mark}-DONE`, timeoutMs: STEP_TIMEOUT_MS, stableMs: 1500 });
        assert.ok(done.matched, `the model's last word on screen: ${done.snippet}`);
        const after = await waitState(session, ['idle']);
        assert.equal(after.matched, true, `${vendor} back at its prompt: ${JSON.stringify(after)}`);
        const told = (await systemNotices(world.coordinator, session.root)).filter((notice) => notice.includes(session.childName));
        assert.equal(told.length, chain.dialogs.length, `one notice per dialog, none for an answered one:\n${told.join('\n')}`);
        process.stderr.write(`# ${vendor} ${version}: two dialogs waited on, told and answered in ${Math.round(performance.now() - started)} ms\n`);
        if (RECORD && vendor === 'opencode') {
          await world.recorder.save(session.childId, `${CASSETTES}opencode-two-dialogs`, {
            name: vendor,
            version: version!,
            preset: vendor,
            scenario: `the model asks for \`${chain.commands[0]}\`; opencode asks for the external directory, then for the command; an orchestrator answers each with send_input approve_once after wait_for_state`,
            argv: world.catalog.findAgent(vendor)!.preset.argv,
            final: { exit: null, duration_ms: Math.round(performance.now() - started), ready_ms: world.launcher.readyTimes.get(session.childId)?.elapsedMs ?? null, submit: null },
            scrub: world.scrubs,
            envNames: world.envNames,
          });
        }
      } finally {
        await endSession(world, session);
      }
    });
  }
});

describe('with the permission policy on', () => {
  let world: World;
  useWorld((started) => (world = started), { permissionPolicy: POLICY_ON.policy });

  for (const vendor of VENDORS) {
    const version = cliVersion(vendor);
    test(`${vendor} child: approving its rm -rf dialog is refused, naming request_human_attention, and it keeps waiting`, { skip: version ? false : `${vendor} is not installed`, timeout: 4 * STEP_TIMEOUT_MS }, async () => {
      assert.deepEqual(POLICY_ON.problems, []);
      const victim = `precious-${vendor}`;
      const kept = join(world.project, victim, 'keep.txt');
      mkdirSync(join(world.project, victim));
      writeFileSync(kept, 'keep');
      const command = `rm -rf ${victim}`;
      const mark = `POLICY-FLOW-${vendor}`;
      askForShell(world, vendor, mark, command);
      const session = await orchestrate(world, vendor, mark);
      try {
        await expectDialog(world, session, command);
        const refused = await session.mcp.call('send_input', { child_id: session.childId, answer: 'approve_once' });
        assert.equal(refused.isError, true, textOf(refused));
        assert.match(textOf(refused), new RegExp(`^refused by the permission policy: the dialog matches the deny pattern .*Nothing was sent; ${literal(session.childName)} \\(child_id \\w+\\) keeps waiting\\. Call request_human_attention`));
        const still = await waitState(session, ['waiting_permission'], 0);
        assert.equal(still.state, 'waiting_permission');
        assert.equal(existsSync(kept), true, 'nothing was deleted');
        // Denying is always allowed; the dialog closes and the command never runs.
        const denied = await session.mcp.call('send_input', { child_id: session.childId, answer: 'deny' });
        assert.equal(denied.isError, undefined, textOf(denied));
        const closed = await waitState(session, ['idle']);
        assert.equal(closed.matched, true, JSON.stringify(closed));
        assert.equal(existsSync(kept), true, 'nothing was deleted after the denial');
      } finally {
        await endSession(world, session);
      }
    });
  }
});
