/**
 * opencode as orchestrator completes a 90 s wait_for_pattern.
 * opencode times an MCP call out after 60 s unless progress notifications
 * reset the clock, so two sessions run side by side: one with the default
 * preset (its MCP timeout raised past the longest wait), one with that
 * timeout left at opencode's default, where only patterm's progress
 * notifications keep the call alive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentPreset } from '../../../src/shared/preset-schema.js';
import { findToolName, type TurnView } from '../../fixtures/fake-model/script.js';
import { presetDirs } from '../../../src/main/presets/preset-paths.js';
import { cliVersion, useWorld, type World } from './agent-world.js';
import { childIdFrom } from './orchestration-script.js';
import { approvePrompts } from './prompt-approver.js';

/** Past opencode's own 60 s cut-off, as in the issue. */
const WAIT_SECONDS = 90;
/** Two start-ups one after the other (up to ~50 s each for opencode on a loaded machine), an approval each, then the waits. */
const SCENARIO_TIMEOUT_MS = 420_000;
/** The default opencode preset without its raised MCP timeout. */
const SDK_TIMEOUT_PRESET = 'opencode-sdk-timeout';

let world: World;
useWorld((started) => (world = started));

function writePresetWithoutTimeout(): void {
  const preset = structuredClone(world.catalog.findAgent('opencode')!.preset) as AgentPreset & { mcp_injection: { template: { mcp: Record<string, Record<string, unknown>> } } };
  delete preset.mcp_injection.template.mcp['{server}'].timeout;
  const dir = presetDirs().agents;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${SDK_TIMEOUT_PRESET}.json`), JSON.stringify({ ...preset, name: SDK_TIMEOUT_PRESET }, null, 2));
  world.catalog.reload();
  assert.ok(world.catalog.findAgent(SDK_TIMEOUT_PRESET), `preset ${SDK_TIMEOUT_PRESET} loads: ${JSON.stringify(world.catalog.errors)}`);
}

/** The session's wait_for_pattern returned its own "not matched" after the full wait, not opencode's timeout error. */
async function waitRanItsCourse(preset: string, mark: string, paneId: string): Promise<void> {
  const done = await world.server.waitForRequest((r) => r.rule === `${mark} done`, SCENARIO_TIMEOUT_MS, `${preset}: the turn after the wait`);
  const waited = done.turn!.toolResults[1] ?? '';
  assert.doesNotMatch(waited, /timed out|-32001/i, `${preset}: opencode cut the call off:\n${waited}`);
  assert.match(waited, new RegExp(`not matched within ${WAIT_SECONDS} s`), `${preset}: the wait ran its course:\n${waited}`);
  const elapsed = Number(/elapsed_ms"?:\s*(\d+)|, (\d+) ms\)/.exec(waited)?.slice(1).find(Boolean));
  assert.ok(elapsed >= WAIT_SECONDS * 1000, `${preset}: waited ${elapsed} ms`);
  process.stderr.write(`# ${preset}: wait_for_pattern returned after ${elapsed} ms\n`);
  await world.coordinator.kill(paneId);
}

test(`opencode as orchestrator completes a ${WAIT_SECONDS} s wait_for_pattern, with and without its raised MCP timeout`, { skip: cliVersion('opencode') ? false : 'opencode is not installed', timeout: SCENARIO_TIMEOUT_MS + 60_000 }, async () => {
  writePresetWithoutTimeout();
  // Neither mark may contain the other: each session's turns must match its own rules only.
  const sessions = [
    { preset: 'opencode', mark: 'LONG-WAIT-DEFAULT' },
    { preset: SDK_TIMEOUT_PRESET, mark: 'LONG-WAIT-SDK' },
  ];
  const inSession = (turn: TurnView, mark: string) => turn.userTexts.some((text) => text.includes(mark)) && !turn.sideRequest;
  world.server.setRules(
    sessions.flatMap(({ mark }) => [
      { name: `${mark} spawn`, when: (turn) => inSession(turn, mark) && turn.toolResults.length === 0, reply: (turn) => ({ toolCall: { name: findToolName(turn, 'spawn_process'), arguments: { argv: ['sleep', '600'] } } }) },
      {
        name: `${mark} wait`,
        when: (turn) => inSession(turn, mark) && turn.toolResults.length === 1,
        reply: (turn) => ({ toolCall: { name: findToolName(turn, 'wait_for_pattern'), arguments: { child_id: childIdFrom(turn) ?? 'missing-child-id', pattern: 'NEVER-SHOWS', timeout_seconds: WAIT_SECONDS } } }),
      },
      { name: `${mark} done`, when: (turn) => inSession(turn, mark) && turn.toolResults.length >= 2, reply: { text: `${mark}-DONE` } },
    ]),
  );
  const approvers: { dispose(): void }[] = [];
  const running: Promise<void>[] = [];
  try {
    // One start-up at a time (two opencodes starting at once on two loaded cores did not get
    // past a blank screen in 90 s); the waits themselves overlap.
    for (const { preset, mark } of sessions) {
      const { pane, submit } = await world.launcher.spawnAgent({ preset, initialPrompt: `${mark}: wait for the sleeper` });
      assert.ok(submit?.submitted, `${preset}: ${JSON.stringify(submit)}`);
      // spawn_process asks in opencode; play the human and approve it once.
      approvers.push(approvePrompts(world.coordinator, pane.id, world.catalog.findAgent(preset)!.preset));
      const waiting = waitRanItsCourse(preset, mark, pane.id);
      // Seen by Promise.all below; until then a failure must not count as unhandled.
      waiting.catch(() => undefined);
      running.push(waiting);
    }
    await Promise.all(running);
  } finally {
    for (const approver of approvers) approver.dispose();
  }
});
