/**
 * How each agent pane's conversation id is learnt, per the shipped presets'
 * `conversation` sections: the file its processes hold open (codex), and the
 * CLI's own listing (opencode), where a conversation goes to a pane only when
 * the evidence names that pane alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Conversation } from '../../../src/shared/conversation-schema.js';
import { compilePattern } from '../../../src/shared/pattern.js';
import { liveProcessStats } from '../../../src/node/process-reaper.js';
import { attributeConversations, type ListedPane } from '../../../src/main/resume/session-listing.js';
import { findOpenConversation } from '../../../src/main/resume/open-conversation-files.js';
import { ConversationTracker } from '../../../src/main/resume/conversation-tracker.js';
import { PresetAgentLauncher } from '../../../src/main/presets/agent-launcher.js';
import { PresetCatalog } from '../../../src/main/presets/preset-catalog.js';
import { presetDirs } from '../../../src/main/presets/preset-paths.js';
import { writeFileSync } from 'node:fs';
import { eventually, useCoordinator } from '../../helpers/coordinator-fixture.js';
import { startWithFirstLine } from '../../helpers/node-script.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

const HOLDS_OPEN = fileURLToPath(new URL('../../fixtures/resume/holds-open.js', import.meta.url));
const LISTING_CLI = fileURLToPath(new URL('../../fixtures/resume/listing-cli.js', import.meta.url));
const shipped = (name: string) => (JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../presets/agents/${name}.json`, import.meta.url)), 'utf8')) as { conversation: Conversation }).conversation;

const pane = (paneId: string, spawnedAt: number, activity: [number, number][], current: ListedPane['current'] = null): ListedPane => ({ paneId, cwd: '/p', spawnedAt, exitedAt: null, activity, current });
const entry = (id: string, created: number, directory = '/p') => ({ id, directory, created });

test('a listed conversation goes to the one pane active in its directory when it was made, and to no other', () => {
  const a = pane('a', 0, [[10_000, 12_000]]);
  const b = pane('b', 20_000, [[30_000, 31_000]]);
  // Turns far apart: each pane gets its own; a conversation made before a pane existed is never its.
  assert.deepEqual(attributeConversations([entry('s1', 10_500), entry('s2', 30_200)], [a, b], new Set()), [
    { paneId: 'a', conversation: entry('s1', 10_500) },
    { paneId: 'b', conversation: entry('s2', 30_200) },
  ]);
  // Both active at once: neither gets it, and the result says so.
  const busyTogether = [pane('a', 0, [[10_000, 12_000]]), pane('b', 0, [[10_400, 11_000]])];
  assert.deepEqual(attributeConversations([entry('s1', 10_500)], busyTogether, new Set()), [{ ambiguous: entry('s1', 10_500), panes: ['a', 'b'] }]);
  // Made where nobody was active (another opencode outside patterm): nobody's.
  assert.deepEqual(attributeConversations([entry('s9', 50_000)], [a, b], new Set()), []);
  // Another directory, an id already taken: nobody's.
  assert.deepEqual(attributeConversations([entry('s3', 10_500, '/elsewhere'), entry('s4', 10_600)], [a], new Set(['s4'])), []);
  // A newer one (/new) replaces the current one; an older one never does.
  const holding = pane('a', 0, [[10_000, 12_000], [40_000, 41_000]], { id: 's1', created: 40_500 });
  assert.deepEqual(attributeConversations([entry('s0', 10_500)], [holding], new Set()), []);
  assert.deepEqual(attributeConversations([entry('s5', 40_600)], [holding], new Set()), [{ paneId: 'a', conversation: entry('s5', 40_600) }]);
});

test('the codex preset finds the rollout its process holds open, the one written last, and confirms it', async () => {
  const dir = scratchDir('patterm-open-');
  const { id: source } = shipped('codex');
  assert.equal(source.kind, 'open_file');
  if (source.kind !== 'open_file') return;
  const [first, second] = [randomUUID(), randomUUID()];
  const rollout = (id: string, day: string) => join(dir, 'codex-home', 'sessions', '2026', '12', day, `rollout-2026-12-${day}T10-00-00-${id}.jsonl`);
  const meta = (id: string, cwd: string) => JSON.stringify({ timestamp: 'x', type: 'session_meta', payload: { id, cwd } });
  const { child } = await startWithFirstLine([HOLDS_OPEN, rollout(first, '06'), rollout(second, '07'), join(dir, 'other.jsonl')], {
    ...process.env,
    HOLDS_OPEN_FIRST_LINE_0: meta(first, dir),
    HOLDS_OPEN_FIRST_LINE_1: meta(second, dir),
  });
  const query = { rootPid: child.pid!, pattern: compilePattern(source.path_pattern), cwd: dir, confirm: source.confirm };
  const found = findOpenConversation({ ...query, stats: liveProcessStats() });
  assert.ok(found.found, JSON.stringify(found));
  assert.deepEqual({ id: found.found.id, file: found.found.file, candidates: found.candidates }, { id: second, file: rollout(second, '07'), candidates: 2 });
  // The file's own id or directory disagreeing: not taken, and the problem says which field.
  const elsewhere = findOpenConversation({ ...query, cwd: join(dir, 'codex-home'), stats: liveProcessStats() });
  assert.ok(!elsewhere.found && /payload\.cwd is ".*", not the pane's directory/.test(elsewhere.problem ?? ''), JSON.stringify(elsewhere));
  child.kill('SIGKILL');
});

test('the tracker follows panes by the shipped presets: the open rollout, and listed conversations with their evidence', async () => {
  const root = scratchDir('patterm-tracker-');
  const project = join(root, 'project');
  mkdirSync(project);
  const store = join(root, 'listing.json');
  const dirs = presetDirs({ XDG_CONFIG_HOME: join(root, 'config') });
  mkdirSync(dirs.agents, { recursive: true });
  mkdirSync(dirs.processes, { recursive: true });
  const opencode = shipped('opencode');
  const listingConversation = { ...opencode, id: { ...opencode.id, argv: [process.execPath, LISTING_CLI, 'session', 'list', '--format', 'json'] } };
  const ready = { kind: 'pattern', pattern: 'ready>$', stable_ms: 50, timeout_ms: 20_000 };
  writeFileSync(join(dirs.agents, 'lister.json'), JSON.stringify({ name: 'lister', argv: [process.execPath, LISTING_CLI], env: { LISTING_CLI_STORE: store }, ready_signal: ready, submit: { enter_delay_ms: 50, confirm_timeout_ms: 10_000 }, conversation: listingConversation }));
  const rolloutId = randomUUID();
  const rollout = join(root, 'codex-home', 'sessions', '2026', '12', '07', `rollout-2026-12-07T10-00-00-${rolloutId}.jsonl`);
  writeFileSync(
    join(dirs.agents, 'holder.json'),
    JSON.stringify({ name: 'holder', argv: [process.execPath, HOLDS_OPEN, rollout], env: { HOLDS_OPEN_FIRST_LINE_0: JSON.stringify({ payload: { id: rolloutId, cwd: project } }) }, conversation: shipped('codex') }),
  );
  const catalog = PresetCatalog.load({ dirs, bundled: null });
  assert.deepEqual(catalog.errors, []);
  const coordinator = useCoordinator(project);
  const tracker = new ConversationTracker({ coordinator, reportCommand: () => ['true'], tickMs: 100 });
  const launcher = new PresetAgentLauncher({ coordinator, endpoint: null, catalog, conversations: tracker });

  const { pane: holder } = await launcher.spawnAgent({ preset: 'holder' });
  const held = await eventually(() => (tracker.snapshot(holder.id)?.status === 'known' ? tracker.snapshot(holder.id) : null), { message: 'the held rollout found' });
  assert.deepEqual({ id: held.id, file: held.file }, { id: rolloutId, file: rollout });
  assert.match(held.provenance, /^held open by the pane's process \d+$/);

  // Two listing panes in one directory, their first turns one after the other: each gets its own.
  const { pane: one, submit: oneSubmit } = await launcher.spawnAgent({ preset: 'lister', name: 'one', initialPrompt: 'first for one' });
  assert.ok(oneSubmit?.submitted, oneSubmit?.detail);
  const oneRecord = await eventually(() => (tracker.snapshot(one.id)?.status === 'known' ? tracker.snapshot(one.id) : null), { message: 'one\'s conversation listed' });
  const { pane: two, submit: twoSubmit } = await launcher.spawnAgent({ preset: 'lister', name: 'two', initialPrompt: 'first for two' });
  assert.ok(twoSubmit?.submitted, twoSubmit?.detail);
  const twoRecord = await eventually(() => (tracker.snapshot(two.id)?.status === 'known' ? tracker.snapshot(two.id) : null), { message: 'two\'s conversation listed' });
  const listed = JSON.parse(readFileSync(store, 'utf8')) as { id: string }[];
  assert.deepEqual([oneRecord.id, twoRecord.id], listed.map((conversation) => conversation.id));
  assert.match(oneRecord.provenance, /while this pane alone was active there/);

  // Both start a new conversation at once: neither is guessed, and neither keeps claiming its old one.
  await Promise.all([launcher.submit(one.id, '/new', 'orchestrator'), launcher.submit(two.id, '/new', 'orchestrator')]);
  for (const id of [one.id, two.id]) {
    const record = await eventually(() => (tracker.snapshot(id)?.status === 'unknown' ? tracker.snapshot(id) : null), { message: `${id} left without a guessed id` });
    assert.match(record.reason ?? '', /while panes .* were all active there; patterm does not guess which one it belongs to/);
  }
  tracker.dispose();
});
