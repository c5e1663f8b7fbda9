/**
 * What a resume decides for each recorded pane, and the reasons it gives for
 * what it skips; and the command an agent CLI's hook runs to report its
 * conversation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LayoutRecord, PaneRecord } from '../../../src/main/resume/layout-record.js';
import { planResume, type PaneDecision } from '../../../src/main/resume/resume-plan.js';
import { PresetCatalog } from '../../../src/main/presets/preset-catalog.js';
import { presetDirs } from '../../../src/main/presets/preset-paths.js';
import { PATTERM_BIN } from '../../../src/main/version.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

const shippedConversation = (name: string) => (JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../presets/agents/${name}.json`, import.meta.url)), 'utf8')) as { conversation: unknown }).conversation;

function catalogIn(root: string): PresetCatalog {
  const dirs = presetDirs({ XDG_CONFIG_HOME: root });
  mkdirSync(dirs.agents, { recursive: true });
  mkdirSync(dirs.processes, { recursive: true });
  writeFileSync(join(dirs.agents, 'claude.json'), JSON.stringify({ name: 'claude', argv: ['sh'], conversation: shippedConversation('claude') }));
  writeFileSync(join(dirs.agents, 'opencode.json'), JSON.stringify({ name: 'opencode', argv: ['sh'], conversation: shippedConversation('opencode') }));
  writeFileSync(join(dirs.agents, 'gone.json'), JSON.stringify({ name: 'gone', argv: ['no-such-cli-anywhere'] }));
  writeFileSync(join(dirs.processes, 'bash.json'), JSON.stringify({ name: 'bash', argv: ['bash'] }));
  const catalog = PresetCatalog.load({ dirs, bundled: null });
  assert.deepEqual(catalog.errors, []);
  return catalog;
}

test('each pane gets its decision, and each skip its reason; a skipped root takes its children with it', async () => {
  const root = scratchDir('patterm-plan-');
  const catalog = catalogIn(join(root, 'config'));
  const transcript = join(root, 'kept.jsonl');
  writeFileSync(transcript, '{}\n');
  const at = 1;
  let n = 0;
  const pane = (fields: Partial<PaneRecord>): PaneRecord => ({ id: `p${++n}`, name: `pane-${n}`, kind: 'agent', preset: 'claude', argv: ['claude'], cwd: root, parent: 'p0', owner: 'orchestrator', tags: [], ...fields });
  const known = (id: string, file?: string) => ({ status: 'known' as const, id, provenance: 'test', ...(file ? { file } : {}), at });
  const children: PaneRecord[] = [
    pane({ name: 'resumes', conversation: known('c-1', transcript) }),
    pane({ name: 'fresh', conversation: { status: 'none_yet', id: 'c-2', provenance: 'chosen', at } }),
    pane({ name: 'untracked', conversation: { status: 'untracked', id: null, provenance: 'none', reason: 'preset has no "conversation" section', at } }),
    pane({ name: 'file-gone', conversation: known('c-3', join(root, 'deleted.jsonl')) }),
    pane({ name: 'id-unknown', conversation: { status: 'unknown', id: null, provenance: 'listing', reason: 'two panes were active', at } }),
    pane({ name: 'cli-gone', preset: 'gone', conversation: known('c-4') }),
    pane({ name: 'preset-gone', preset: 'deleted-preset' }),
    pane({ name: 'listed', preset: 'opencode', conversation: known('ses_listed') }),
    pane({ name: 'unlisted', preset: 'opencode', conversation: known('ses_deleted') }),
    pane({ name: 'exited', kind: 'process', preset: 'bash', exited: { code: 0, signal: null } }),
    pane({ name: 'worktree-gone', kind: 'process', preset: 'bash', worktree: { name: 'wt', path: join(root, 'no-worktree') } }),
    pane({ name: 'dir-gone', kind: 'process', preset: null, argv: ['sleep', '1'], cwd: join(root, 'no-dir') }),
    pane({ name: 'shell', kind: 'shell', preset: null, argv: ['bash'], ledger: 'shell-1' }),
    pane({ name: 'process', kind: 'process', preset: null, argv: ['sleep', '1'] }),
  ];
  const record: LayoutRecord = {
    format: 'patterm-layout',
    version: 1,
    instance: { id: 'i', pid: 1, pidStart: null, startedAt: 0 },
    projectDir: root,
    savedAt: 2,
    sessions: [
      { name: 'boss', root: pane({ id: 'p0', name: 'boss', parent: null, conversation: known('c-0', transcript) }), children },
      { name: 'lost', root: pane({ name: 'lost', parent: null, preset: 'gone' }), children: [pane({ name: 'orphan', kind: 'process', preset: 'bash' })] },
    ],
  };
  const listings: string[] = [];
  const plans = await planResume(record, {
    catalog,
    projectDir: root,
    shellsSupported: false,
    listing: async (fields, cwd) => {
      listings.push(`${fields.argv.join(' ')} in ${cwd}`);
      return [{ id: 'ses_listed', directory: root, created: 0 }];
    },
  });
  const show = (decision: PaneDecision) => `${decision.pane.name}: ${decision.action}${decision.action === 'skip' ? ` (${decision.reason})` : decision.action === 'fresh' ? ` (${decision.why})` : ''}`;
  assert.deepEqual(plans.map((plan) => [show(plan.root), ...plan.children.map(show)]), [
    [
      'boss: resume',
      'resumes: resume',
      'fresh: fresh (it had no conversation yet)',
      'untracked: fresh (preset has no "conversation" section)',
      `file-gone: skip (conversation file gone: ${join(root, 'deleted.jsonl')})`,
      'id-unknown: skip (conversation id unknown: two panes were active)',
      'cli-gone: skip (CLI missing: program "no-such-cli-anywhere" was not found on PATH (' + process.env.PATH + '); install it or put its full path in the preset\'s argv)',
      'preset-gone: skip (agent preset "deleted-preset" is no longer there)',
      'listed: resume',
      'unlisted: skip (conversation gone: ses_deleted is no longer listed by `opencode session list --format json`)',
      'exited: skip (it had exited before patterm stopped (code 0))',
      `worktree-gone: skip (worktree gone: wt (${join(root, 'no-worktree')}) no longer exists)`,
      `dir-gone: skip (directory gone: ${join(root, 'no-dir')} no longer exists)`,
      'shell: skip (this patterm cannot reopen shell panes)',
      'process: start',
    ],
    ['lost: skip (CLI missing: program "no-such-cli-anywhere" was not found on PATH (' + process.env.PATH + '); install it or put its full path in the preset\'s argv)', "orphan: skip (its session's root lost did not come back)"],
  ]);
  assert.deepEqual(listings, [`opencode session list --format json in ${root}`], 'one listing per directory, however many panes it answers for');
  const resumed = plans[0].children[0];
  assert.ok(resumed.action === 'resume');
  assert.deepEqual(resumed.conversation, { id: 'c-1', file: transcript });
});

test('`patterm conversation-report` appends what the hook was told as one line, and never fails the hook', async () => {
  const dir = scratchDir('patterm-report-');
  const file = join(dir, 'reports.jsonl');
  const report = (input: string) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [PATTERM_BIN, 'conversation-report', '--file', file], (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }));
      child.stdin!.end(input);
    });
  assert.deepEqual(await report('{"session_id": "a",\n "source": "startup"}'), { code: 0, stderr: '' });
  assert.deepEqual(await report('{"session_id":"b","source":"clear"}'), { code: 0, stderr: '' });
  const bad = await report('not json');
  assert.equal(bad.code, 0);
  assert.match(bad.stderr, /the hook's input is not JSON/);
  assert.deepEqual(readFileSync(file, 'utf8').split('\n'), ['{"session_id":"a","source":"startup"}', '{"session_id":"b","source":"clear"}', '']);
});
