import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFullConfig } from '../../../../src/main/tui/config.js';
import { DEFAULT_PANE_LIMITS } from '../../../../src/main/panes/pane-limits.js';
import { eventually } from '../../../helpers/coordinator-fixture.js';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';

const harness = await startHarness();
const { pane: root, token } = await harness.orchestrator();
const mcp = await harness.connect(token);
const CONFIG = '/home/someone/.config/patterm/config.json';

test('config.json "limits" sets the caps; a bad value names its field, what it got, and the default applies', () => {
  assert.deepEqual(parseFullConfig({}, CONFIG).limits, DEFAULT_PANE_LIMITS);
  assert.deepEqual(parseFullConfig({ limits: { panesPerSession: 4 } }, CONFIG).limits, { panesPerSession: 4, panesTotal: DEFAULT_PANE_LIMITS.panesTotal, source: CONFIG });
  const bad = parseFullConfig({ limits: { panesPerSession: 0, panesTotal: 'many' } }, CONFIG);
  assert.deepEqual(bad.limits, DEFAULT_PANE_LIMITS);
  assert.match(bad.ui.errors.join('\n'), /^limits\.panesPerSession: must allow at least 1 pane \(received 0\)/m);
  assert.match(bad.ui.errors.join('\n'), /^limits\.panesTotal: expected a number of panes \(received "many"\)/m);
  assert.match(parseFullConfig({ limits: { panes: 3 } }, CONFIG).ui.errors[0], /^limits\.panes: /);
});

test('spawn_process beyond limits.panesPerSession fails naming the cap and its config key; an exited pane frees its place', async () => {
  harness.coordinator.admission.limits = { panesPerSession: 2, panesTotal: 10, source: CONFIG };
  const first = structured<{ child_id: string }>(await mcp.call('spawn_process', { argv: ['sleep', '600'] }));
  const refused = await mcp.call('spawn_process', { argv: ['sleep', '600'] });
  assert.equal(refused.isError, true);
  assert.equal(
    textOf(refused),
    `could not start argv ["sleep","600"]: pane limit reached: session ${JSON.stringify(root.name)} has 2 live panes, the most limits.panesPerSession allows (2, set in ${CONFIG}); close or kill panes first`,
  );
  await mcp.call('kill', { child_id: first.child_id });
  await eventually(() => harness.coordinator.info(first.child_id).process.status !== 'running', { message: 'the child to exit' });
  const again = await mcp.call('spawn_process', { argv: ['sleep', '600'] });
  assert.equal(again.isError, undefined, textOf(again));
});

test('a new session beyond limits.panesTotal fails too, naming that key', async () => {
  const live = harness.coordinator.allPanes().filter((pane) => pane.process.status === 'running').length;
  harness.coordinator.admission.limits = { panesPerSession: 10, panesTotal: live, source: CONFIG };
  await assert.rejects(
    harness.coordinator.spawn({ argv: ['sleep', '600'], kind: 'process' }),
    { message: `pane limit reached: ${live} live panes in all sessions, the most limits.panesTotal allows (${live}, set in ${CONFIG}); close or kill panes first` },
  );
  harness.coordinator.admission.limits = DEFAULT_PANE_LIMITS;
});

test('spawns that start at once count against the cap while they start', async () => {
  const live = harness.coordinator.allPanes().filter((pane) => pane.process.status === 'running').length;
  harness.coordinator.admission.limits = { panesPerSession: 10, panesTotal: live + 2, source: CONFIG };
  const results = await Promise.allSettled([1, 2, 3, 4].map(() => harness.coordinator.spawn({ argv: ['sleep', '600'], kind: 'process' })));
  assert.deepEqual(results.map((result) => result.status).sort(), ['fulfilled', 'fulfilled', 'rejected', 'rejected']);
  harness.coordinator.admission.limits = DEFAULT_PANE_LIMITS;
});
