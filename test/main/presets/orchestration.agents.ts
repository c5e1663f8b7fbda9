/**
 * End to end with the real CLIs: an orchestrator CLI inside patterm,
 * driven by the fake model, calls spawn_agent for another default preset; the
 * child answers its initial prompt; the orchestrator waits for and reads that
 * answer, sends a message; the child calls report_to_parent and the tag shows
 * in the parent's pane; the orchestrator sets a timer, writes a scratchpad and
 * kills the child. The test plays the human only to approve `kill`, the one
 * patterm tool the default presets leave asking.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripAnsi } from '../../../src/shared/ansi-strip.js';
import type { Protocol } from '../../fixtures/fake-model/script.js';
import { cliVersion, startWorld, type Vendor, type World } from './agent-world.js';
import { MARK, scenarioRules } from './orchestration-script.js';
import { approvePrompts } from './prompt-approver.js';

const CASSETTES = fileURLToPath(new URL('../../../../test/fixtures/cassettes/', import.meta.url));
const RECORD = process.env.PATTERM_RECORD_CASSETTES === '1';
/** The whole scenario: two CLI start-ups, seven tool calls, a 2 s timer; opencode alone can take 15 s to answer. */
const SCENARIO_TIMEOUT_MS = 300_000;

const PROTOCOL: Record<Vendor, Protocol> = { claude: 'anthropic', codex: 'responses', opencode: 'chat' };
const PAIRS: [Vendor, Vendor][] = [
  ['claude', 'codex'],
  ['codex', 'opencode'],
  ['opencode', 'claude'],
];

let world: World;
before(async () => {
  world = await startWorld({ withMcp: true });
});
after(() => world?.stop());

function findFile(dir: string, name: string): string | null {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findFile(path, name);
      if (found) return found;
    } else if (entry.name === name) return path;
  }
  return null;
}

for (const [parent, child] of PAIRS) {
  const missing = [parent, child].filter((vendor) => cliVersion(vendor) === null);
  test(`${parent} → ${child}: spawn, answer, read, message, report, timer, scratchpad, kill`, { skip: missing.length ? `${missing.join(' and ')} not installed` : false, timeout: SCENARIO_TIMEOUT_MS + 60_000 }, async () => {
    const childName = `${child}-kid`;
    world.server.requests.length = 0;
    world.server.setRules(scenarioRules({ orchestrator: PROTOCOL[parent], child: PROTOCOL[child], childPreset: child, childName }));
    const started = performance.now();
    const orch = await world.launcher.spawnAgent({ preset: parent, initialPrompt: `${MARK.start}: orchestrate a ${child}` });
    assert.ok(orch.submit?.submitted, `orchestrator prompt: ${JSON.stringify(orch.submit)}`);
    const approver = approvePrompts(world.coordinator, orch.pane.id, world.catalog.findAgent(parent)!.preset);
    try {
      const step = (rule: string) => world.server.waitForRequest((r) => r.rule === rule, SCENARIO_TIMEOUT_MS, `${parent}→${child} step ${rule}`);
      await step('child-answer');
      const message = await step('orch-message');
      assert.match(message.turn!.toolResults[2] ?? '', new RegExp(MARK.childAnswer), 'read_output returned the child answer');
      await step('child-report');
      const timer = await step('orch-timer');
      assert.ok(timer.turn!.userTexts.some((text) => text.includes(`[sub-agent:${childName}] ${MARK.report} from ${childName}`)), 'the report reached the orchestrator as a tagged message');
      const scratchpad = await step('orch-scratchpad');
      assert.ok(scratchpad.turn!.userTexts.some((text) => text.includes(`[system] Your timer [${MARK.timerLabel}] has completed.`)));
      await step('orch-done');
    } finally {
      approver.dispose();
    }
    process.stderr.write(`# ${parent} → ${child}: scenario done ${Math.round(performance.now() - started)} ms after the orchestrator spawned; approvals: ${approver.approved.map((a) => a.tool).join(', ') || 'none'}\n`);

    const kid = world.coordinator.children(orch.pane.id).find((pane) => pane.name === childName);
    assert.ok(kid, `child ${childName} in the orchestrator's session`);
    assert.equal(kid.kind, 'agent');
    assert.equal(kid.presetName, child);
    assert.notEqual(world.coordinator.info(kid.id).process.status, 'running', 'kill ended the child');

    const parentOutput = stripAnsi(Buffer.from((await world.coordinator.stream(orch.pane.id, 0)).bytes).toString('utf8'));
    assert.ok(parentOutput.includes(`[sub-agent:${childName}]`), "the tag showed in the parent's pane");

    const notes = findFile(process.env.XDG_DATA_HOME!, MARK.scratchpad);
    assert.ok(notes, 'scratchpad file written');
    assert.equal(readFileSync(notes, 'utf8'), `written by the ${PROTOCOL[parent]} orchestrator`);

    assert.deepEqual([...new Set(approver.approved.map((a) => a.tool))], ['kill'], `only kill should ask; prompts seen:\n${approver.approved.map((a) => a.screen).join('\n---\n')}`);

    if (RECORD) {
      // End the orchestrator's cassette on its final answer, painted and still.
      await world.coordinator.waitFor(orch.pane.id, { pattern: MARK.done, timeoutMs: 30_000, stableMs: 1000 });
      for (const [pane, vendor, role] of [[orch.pane.id, parent, 'orchestrator'], [kid.id, child, 'child']] as const) {
        await world.recorder.save(pane, `${CASSETTES}${parent}-to-${child}-${role}`, {
          name: vendor,
          version: cliVersion(vendor)!,
          preset: vendor,
          scenario: `${role} in ${parent} → ${child}: spawn, answer, read, message, report, timer, scratchpad, kill`,
          argv: world.catalog.findAgent(vendor)!.preset.argv,
          final: { exit: null, duration_ms: Math.round(performance.now() - started), ready_ms: world.launcher.readyTimes.get(pane)?.elapsedMs ?? null, submit: role === 'orchestrator' ? (orch.submit ?? null) : null },
          scrub: world.scrubs,
        envNames: world.envNames,
        });
      }
    }
    await world.coordinator.close(orch.pane.id);
  });
}
