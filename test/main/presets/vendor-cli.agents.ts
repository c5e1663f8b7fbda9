/**
 * The real vendor CLIs, offline against the fake model server: each default
 * preset starts, reaches its ready signal, takes a submitted prompt and shows
 * the model's answer; grid trimming keeps the answer and drops the chrome.
 * Skips a CLI that is not installed. With PATTERM_RECORD_CASSETTES=1 each run
 * is saved as a cassette under test/fixtures/cassettes/ for the golden tests.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { cliVersion, startWorld, VENDORS, type World } from './agent-world.js';

const CASSETTES = fileURLToPath(new URL('../../../../test/fixtures/cassettes/', import.meta.url));
const RECORD = process.env.PATTERM_RECORD_CASSETTES === '1';
/** Generous: opencode needed 4–10 s to start on a loaded 2-core machine. */
const ANSWER_TIMEOUT_MS = 120_000;

let world: World;
before(async () => {
  world = await startWorld({ withMcp: true });
});
after(() => world?.stop());

for (const vendor of VENDORS) {
  const version = cliVersion(vendor);
  test(`${vendor}: starts offline, is ready, takes a submitted prompt and answers`, { skip: version ? false : `${vendor} is not installed`, timeout: 240_000 }, async () => {
    const answer = `PONG from the fake model to ${vendor}`;
    world.server.setRules([{ name: 'ping', when: (turn) => turn.latestUserText.includes(`PING-${vendor}`), reply: { text: answer } }]);
    const started = performance.now();
    const { pane, submit } = await world.launcher.spawnAgent({ preset: vendor, initialPrompt: `PING-${vendor}: reply with one line` });
    const readyMs = world.launcher.readyTimes.get(pane.id)?.elapsedMs ?? null;
    assert.ok(submit?.submitted, `submit: ${JSON.stringify(submit)}`);
    await world.server.waitForRequest((r) => r.rule === 'ping', ANSWER_TIMEOUT_MS, `${vendor}'s prompt`);
    const grid = await eventually(async () => {
      const now = await world.coordinator.grid(pane.id);
      return now.lines.some((line) => line.includes(answer)) ? now : null;
    }, { timeoutMs: ANSWER_TIMEOUT_MS, intervalMs: 200, message: `${answer} on screen` });
    process.stderr.write(`# ${vendor} ${version}: ready after ${readyMs} ms, submit ${submit?.detail} in ${submit?.attempts} attempt(s), answer on screen ${Math.round(performance.now() - started)} ms after spawn\n`);

    const trimmed = await world.launcher.chromeTrim(pane.id, grid.lines);
    assert.ok(trimmed.lines.some((line) => line.includes(answer)), `the answer survives trimming:\n${trimmed.lines.join('\n')}`);
    assert.ok(trimmed.trimmedRows.length > 0, 'some chrome was trimmed');

    if (RECORD) {
      // Let the CLI settle (title request, final repaint) so the cassette ends on a still screen.
      await world.coordinator.waitFor(pane.id, { pattern: '[\\s\\S]', timeoutMs: 10_000, stableMs: 1500 });
      await world.recorder.save(pane.id, `${CASSETTES}${vendor}-hello`, {
        name: vendor,
        version: version!,
        preset: vendor,
        scenario: 'start, ready, submit one prompt, answer',
        argv: world.catalog.findAgent(vendor)!.preset.argv,
        final: { exit: null, duration_ms: Math.round(performance.now() - started), ready_ms: readyMs, submit: submit ?? null },
        scrub: world.scrubs,
        envNames: world.envNames,
      });
    }
    await world.coordinator.kill(pane.id);
  });
}

test('codex: text and Enter in one burst is not a submit; the check sees that, and the retried Enter submits', { skip: cliVersion('codex') ? false : 'codex is not installed', timeout: 240_000 }, async (t) => {
  const answer = 'PONG after the retried Enter';
  world.server.setRules([{ name: 'burst', when: (turn) => turn.latestUserText.includes('BURST-TEXT'), reply: { text: answer } }]);
  const { pane } = await world.launcher.spawnAgent({ preset: 'codex' });
  const ready = await eventually(() => world.launcher.readyTimes.get(pane.id), { timeoutMs: 60_000, message: 'codex ready' });
  assert.ok(ready.ready, ready.detail);
  // What a naive sender does: type the text and press Enter in the same write.
  world.coordinator.write(pane.id, 'BURST-TEXT one line\r', 'orchestrator');
  const settled = await world.coordinator.waitFor(pane.id, { pattern: 'BURST-TEXT', timeoutMs: 10_000, stableMs: 1500 });
  assert.ok(settled.matched, 'the text shows');
  if (world.server.requests.some((r) => r.rule === 'burst')) {
    // codex's paste detection is timing-based: about one run in five on this machine it submits anyway.
    await world.coordinator.kill(pane.id);
    t.skip('codex submitted text+Enter this time; its paste-burst detection depends on timing');
    return;
  }
  // The launcher's confirmation: Enter alone, after the burst window.
  world.coordinator.write(pane.id, '\r', 'orchestrator');
  await world.server.waitForRequest((r) => r.rule === 'burst', ANSWER_TIMEOUT_MS, 'the retried Enter');
  await world.coordinator.waitFor(pane.id, { pattern: answer, timeoutMs: ANSWER_TIMEOUT_MS, stableMs: 1000 });
  if (RECORD) {
    await world.recorder.save(pane.id, `${CASSETTES}codex-paste-burst`, {
      name: 'codex',
      version: cliVersion('codex')!,
      preset: 'codex',
      scenario: 'text+Enter in one write (read as a paste, not submitted), then Enter alone (submitted)',
      argv: world.catalog.findAgent('codex')!.preset.argv,
      final: { exit: null, duration_ms: 0, ready_ms: ready.elapsedMs, submit: null },
      scrub: world.scrubs,
        envNames: world.envNames,
    });
  }
  await world.coordinator.kill(pane.id);
});

for (const vendor of VENDORS) {
  test(`${vendor}: a message typed while it works is queued, confirmed, and reaches the model`, { skip: cliVersion(vendor) ? false : `${vendor} is not installed`, timeout: 240_000 }, async () => {
    world.server.setRules([
      // Hold the first answer back so the CLI is busy when the second message arrives.
      { name: 'slow', when: (turn) => turn.latestUserText.includes('SLOW-FIRST') && !turn.userTexts.some((t) => t.includes('QUEUED-SECOND')), reply: { text: 'FIRST-DONE', delayMs: 8000 } },
      { name: 'queued', when: (turn) => turn.userTexts.some((t) => t.includes('QUEUED-SECOND')), reply: { text: 'SECOND-DONE' } },
    ]);
    const { pane, submit } = await world.launcher.spawnAgent({ preset: vendor, initialPrompt: 'SLOW-FIRST: take your time' });
    assert.ok(submit?.submitted, submit?.detail);
    await world.server.waitForRequest((r) => r.rule === 'slow', ANSWER_TIMEOUT_MS, 'the slow first turn');
    const second = await world.launcher.submit(pane.id, 'QUEUED-SECOND: and then this', 'system');
    process.stderr.write(`# ${vendor}: message while busy: ${second.detail} (${second.attempts} attempt(s))\n`);
    assert.ok(second.submitted, second.detail);
    await world.server.waitForRequest((r) => r.rule === 'queued', ANSWER_TIMEOUT_MS, 'the queued message reaching the model');
    if (RECORD) {
      await world.coordinator.waitFor(pane.id, { pattern: 'SECOND-DONE', timeoutMs: ANSWER_TIMEOUT_MS, stableMs: 1500 });
      await world.recorder.save(pane.id, `${CASSETTES}${vendor}-queued-while-busy`, {
        name: vendor,
        version: cliVersion(vendor)!,
        preset: vendor,
        scenario: 'a second message typed and submitted while the first answer is still coming',
        argv: world.catalog.findAgent(vendor)!.preset.argv,
        final: { exit: null, duration_ms: 0, ready_ms: world.launcher.readyTimes.get(pane.id)?.elapsedMs ?? null, submit: second },
        scrub: world.scrubs,
        envNames: world.envNames,
      });
    }
    await world.coordinator.kill(pane.id);
  });
}
