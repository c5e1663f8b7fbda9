/**
 * `patterm --resume` with the real CLIs, offline against the fake model: a
 * claude orchestrator and its children (claude, codex, opencode), each with a
 * turn; patterm quits (or is SIGKILLed); `patterm --resume` brings all of them
 * back, and the request each CLI then sends the model holds its earlier turns.
 * With claude's `/clear` before the quit, the new conversation is the one
 * resumed. Two codex and two opencode children in one directory each resume
 * their own. A child whose CLI, conversation file or worktree is gone is
 * skipped, with the reason. patterm runs for real, in tmux, with the default presets.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeModelServer, type LoggedRequest } from '../../fixtures/fake-model/server.js';
import { createVendorEnv, type VendorEnv } from '../../fixtures/fake-model/vendor-env.js';
import { recordPanes, type LayoutRecord } from '../../../src/main/resume/layout-record.js';
import { resumeDir, scanRecords } from '../../../src/main/resume/record-store.js';
import { cliVersion } from '../presets/agent-world.js';
import { eventually, TmuxPatterm } from '../tui/tmux-harness.js';
import { pick } from './resume-world.js';
import { MARK, resumeRules, type Kid } from './resume-script.js';

/** Five CLIs starting at once on a loaded two-core machine; opencode alone can take a minute. */
const STEP_TIMEOUT_MS = 240_000;
const missing = (['claude', 'codex', 'opencode'] as const).filter((cli) => cliVersion(cli) === null);
const skip = missing.length > 0 ? `${missing.join(', ')} not installed` : false;

let server: FakeModelServer;
before(async () => {
  server = await new FakeModelServer().start();
});
after(() => server?.stop());

class ResumeRun {
  readonly root = realpathSync(mkdtempSync('/tmp/patterm-resume-e2e-'));
  readonly project = join(this.root, 'project');
  readonly vendor: VendorEnv;
  private readonly started: TmuxPatterm[] = [];

  constructor() {
    mkdirSync(this.project);
    this.vendor = createVendorEnv(this.root, server.baseUrl, this.project);
  }

  /** patterm in the project, with the CLIs' throwaway homes; its presets are the defaults it installs. */
  start(args: string[] = []): TmuxPatterm {
    const patterm = TmuxPatterm.start({ projectDir: this.project, args, env: this.vendor.env, processPresets: {}, cols: 160, rows: 50 });
    this.started.push(patterm);
    return patterm;
  }

  record(): LayoutRecord | null {
    const scan = scanRecords(resumeDir(this.project, this.vendor.env.XDG_STATE_HOME));
    return scan.good.length === 1 ? scan.good[0].record : null;
  }

  /** The record once every agent's conversation is known, and `test` holds. */
  async knownRecord(what: string, test: (record: LayoutRecord) => boolean = () => true): Promise<LayoutRecord> {
    const found = await eventually(() => {
      const record = this.record();
      if (!record) return null;
      return recordPanes(record).every((pane) => pane.kind !== 'agent' || pane.conversation?.status === 'known') && test(record) ? record : null;
    }, what, STEP_TIMEOUT_MS);
    return found!;
  }

  stop(): void {
    for (const patterm of this.started.splice(0)) patterm.stop();
    rmSync(this.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}

const runs: ResumeRun[] = [];
after(() => runs.forEach((run) => run.stop()));

/** Waits for the request a rule answered; on a timeout the error also shows what patterm's tools told the orchestrator. */
async function step(rule: string, since: number): Promise<LoggedRequest> {
  try {
    return await server.waitForRequest((request) => request.rule === rule && request.at >= since, STEP_TIMEOUT_MS, rule);
  } catch (error) {
    const orchestrator = server.requests.filter((request) => request.turn?.userTexts.some((text) => text.includes(MARK.orchestrator))).pop();
    throw new Error(`${(error as Error).message}\nthe orchestrator's tool results so far:\n${(orchestrator?.turn?.toolResults ?? []).join('\n')}`, { cause: error });
  }
}

/** The orchestrator (from the palette, with its first prompt) spawns every kid, each of which has its first turn. */
async function setUp(run: ResumeRun, kids: readonly Kid[]): Promise<TmuxPatterm> {
  server.requests.length = 0;
  server.setRules(resumeRules(kids));
  const patterm = run.start();
  await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
  await patterm.runPalette('spawn agent claude', 'Spawn agent: claude');
  await patterm.waitFor(/Initial prompt for claude/, 'the initial-prompt sub-palette');
  patterm.type(`${MARK.orchestrator}: spawn your children`);
  patterm.keys('Enter');
  for (const kid of kids) await step(`${kid.name}-first`, 0);
  await step('orch-setup-done', 0);
  return patterm;
}

/** After `--resume`: the orchestrator is told, with its earlier turns; each kid, messaged, answers with its earlier turns. */
async function expectResumed(run: ResumeRun, kids: readonly Kid[], before: LayoutRecord, earlier: (kid: Kid) => { has: string; lacks?: string }): Promise<void> {
  const since = Date.now();
  const patterm = run.start(['--resume']);
  await patterm.waitFor((lines) => lines.some((line) => line.includes(`${kids.length + 1} of ${kids.length + 1} back, 0 not.`)), 'the summary pane', STEP_TIMEOUT_MS);
  const told = await step('orch-message', since);
  assert.ok(told.turn!.userTexts.some((text) => text.includes(MARK.orchestrator)), 'the orchestrator\'s request after the resume holds its earlier turns');
  for (const kid of kids) {
    const answered = await step(`${kid.name}-after-resume`, since);
    const { has, lacks } = earlier(kid);
    assert.ok(answered.turn!.userTexts.some((text) => text.includes(has)), `${kid.name}'s request after the resume holds ${JSON.stringify(has)}: ${JSON.stringify(answered.turn!.userTexts.map((text) => text.slice(0, 80)))}`);
    if (lacks) assert.ok(!answered.turn!.userTexts.some((text) => text.includes(lacks)), `${kid.name}'s resumed conversation is the new one, without ${JSON.stringify(lacks)}`);
  }
  await step('orch-resumed-done', since);
  const after = await run.knownRecord('the resumed run\'s record', (record) => record.instance.id !== before.instance.id);
  for (const pane of recordPanes(before)) {
    const now = recordPanes(after).find((candidate) => candidate.name === pane.name);
    assert.equal(now?.conversation?.id, pane.conversation?.id, `${pane.name} is on the conversation it had`);
  }
  process.stderr.write(`# resumed: ${recordPanes(after).map((pane) => `${pane.name} ${pane.conversation?.id} (${pane.conversation?.provenance})`).join('; ')}\n`);
}

/** A run of its own, set up with `kids`, once every conversation is known. */
async function setUpRun(kids: readonly Kid[]): Promise<{ run: ResumeRun; patterm: TmuxPatterm; before: LayoutRecord }> {
  const run = new ResumeRun();
  runs.push(run);
  const patterm = await setUp(run, kids);
  return { run, patterm, before: await run.knownRecord('every conversation known') };
}

async function quit(patterm: TmuxPatterm): Promise<void> {
  await patterm.runPalette('quit', 'Quit');
  await patterm.waitFor(/\[patterm exited 0\]/, 'patterm to quit', STEP_TIMEOUT_MS);
}

const THREE: Kid[] = [
  { name: 'kid-claude', preset: 'claude' },
  { name: 'kid-codex', preset: 'codex' },
  { name: 'kid-opencode', preset: 'opencode' },
];

test('quit, then --resume: the orchestrator and its claude, codex and opencode children go on with their conversations', { skip, timeout: 900_000 }, async () => {
  const { run, patterm, before } = await setUpRun(THREE);
  await quit(patterm);
  await expectResumed(run, THREE, before, (kid) => ({ has: MARK.firstTurn(kid.name) }));
});

test('SIGKILL, then --resume: the same', { skip, timeout: 900_000 }, async () => {
  const { run, patterm, before } = await setUpRun(THREE);
  const pid = patterm.pattermPid();
  assert.ok(pid, 'patterm\'s own process found');
  process.kill(pid, 'SIGKILL');
  await patterm.waitFor(/\[patterm exited 137\]/, 'patterm to die');
  await eventually(() => patterm.markedProcesses().length === 0, 'the watchdog to end the CLIs', STEP_TIMEOUT_MS);
  await expectResumed(run, THREE, before, (kid) => ({ has: MARK.firstTurn(kid.name) }));
});

test('claude\'s /clear before the quit: the new conversation is the one resumed', { skip, timeout: 900_000 }, async () => {
  const { run, patterm, before: first } = await setUpRun(THREE);
  const oldId = recordPanes(first).find((pane) => pane.name === 'kid-claude')!.conversation!.id;
  await pick(patterm, 'Focus pane…', 'kid-claude');
  await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.includes('kid-claude ANSWER-FIRST')), 'kid-claude shown');
  patterm.type('/clear');
  await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.includes('/clear')), '/clear typed');
  patterm.keys('Enter');
  const since = Date.now();
  await eventually(() => run.record()?.sessions[0].children.find((pane) => pane.name === 'kid-claude')?.conversation?.provenance.includes('source clear'), 'the hook reporting the new conversation', STEP_TIMEOUT_MS);
  patterm.type(MARK.cleared('kid-claude'));
  await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.includes(MARK.cleared('kid-claude'))), 'the next turn typed');
  patterm.keys('Enter');
  await step('kid-claude-cleared', since);
  const before = await run.knownRecord('kid-claude on its new conversation', (record) => record.sessions[0].children.find((pane) => pane.name === 'kid-claude')?.conversation?.id !== oldId);
  await quit(patterm);
  await expectResumed(run, THREE, before, (kid) => (kid.name === 'kid-claude' ? { has: MARK.cleared(kid.name), lacks: MARK.firstTurn(kid.name) } : { has: MARK.firstTurn(kid.name) }));
});

test('two codex and two opencode children in one directory each resume their own conversation', { skip, timeout: 900_000 }, async () => {
  const kids: Kid[] = [
    { name: 'codex-one', preset: 'codex' },
    { name: 'codex-two', preset: 'codex' },
    { name: 'opencode-one', preset: 'opencode' },
    { name: 'opencode-two', preset: 'opencode' },
  ];
  const { run, patterm, before } = await setUpRun(kids);
  const ids = recordPanes(before).map((pane) => pane.conversation?.id);
  assert.equal(new Set(ids).size, ids.length, `each pane holds a conversation of its own: ${JSON.stringify(ids)}`);
  await quit(patterm);
  await expectResumed(run, kids, before, (kid) => {
    const other = kids.find((candidate) => candidate.preset === kid.preset && candidate !== kid)!;
    return { has: MARK.firstTurn(kid.name), lacks: MARK.firstTurn(other.name) };
  });
});

test('a child whose CLI is not installed, whose conversation file was deleted or whose worktree is gone is skipped with the reason; the rest resume', { skip, timeout: 900_000 }, async () => {
  const { run, patterm, before } = await setUpRun(THREE);
  await quit(patterm);

  // Between the runs: opencode's preset now names a CLI that is not installed, codex's rollout
  // is deleted, and kid-claude's worktree (as the worktree feature records it) is removed.
  const presets = join(run.vendor.env.XDG_CONFIG_HOME, 'patterm', 'presets', 'agents');
  const opencode = JSON.parse(readFileSync(join(presets, 'opencode.json'), 'utf8')) as { argv: string[] };
  writeFileSync(join(presets, 'opencode.json'), JSON.stringify({ ...opencode, argv: ['opencode-not-installed', ...opencode.argv.slice(1)] }));
  const rollout = recordPanes(before).find((pane) => pane.name === 'kid-codex')!.conversation!.file!;
  rmSync(rollout);
  const [file] = scanRecords(resumeDir(run.project, run.vendor.env.XDG_STATE_HOME)).good.map((found) => found.path);
  const edited = JSON.parse(readFileSync(file, 'utf8')) as LayoutRecord;
  edited.sessions[0].children.find((pane) => pane.name === 'kid-claude')!.worktree = { name: 'gone-tree', path: join(run.root, 'worktrees', 'gone-tree') };
  writeFileSync(file, JSON.stringify(edited));

  const since = Date.now();
  const resumed = run.start(['--resume']);
  await resumed.waitFor((lines) => lines.some((line) => line.includes('1 of 4 back, 3 not.')), 'the summary pane', STEP_TIMEOUT_MS);
  const told = await step('orch-message', since);
  assert.ok(told.turn!.userTexts.some((text) => text.includes(MARK.orchestrator)), 'the orchestrator resumed with its earlier turns');
  const notice = told.turn!.userTexts.find((text) => text.includes(MARK.notice))!;
  assert.match(notice, /Not back: kid-claude \(worktree gone: gone-tree .*\); kid-codex \(conversation file gone: .*rollout-.*\.jsonl\); kid-opencode \(CLI missing: program "opencode-not-installed" was not found on PATH/);
});
