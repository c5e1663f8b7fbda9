/**
 * Twenty agent panes (the fake agent, wired to patterm's MCP server and
 * following its conversation as claude does: `--session-id`, a SessionStart
 * hook) in four sessions of five, in a running patterm: started fresh, or
 * brought back by `patterm --resume`'s plan and runner from a layout record
 * whose every conversation exists. Timed from the launch until every pane
 * shows its ready signal.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Coordinator, INTERACTIVE_WORKER_NICE } from '../../src/main/coordinator.js';
import { startMcpServer } from '../../src/main/mcp/index.js';
import { createAgentLauncher } from '../../src/main/presets/agent-launcher.js';
import { PresetCatalog } from '../../src/main/presets/preset-catalog.js';
import { ConversationTracker } from '../../src/main/resume/conversation-tracker.js';
import { RECORD_FORMAT, RECORD_VERSION, type LayoutRecord, type PaneRecord } from '../../src/main/resume/layout-record.js';
import { planResume } from '../../src/main/resume/resume-plan.js';
import { runResume } from '../../src/main/resume/resume-runner.js';
import { PATTERM_BIN } from '../../src/main/version.js';
import { resumableFakeAgentPreset } from '../../test/fixtures/fake-agent-presets.js';

const SESSIONS = 4;
const PER_SESSION = 5;

export interface ResumeArgs {
  mode: 'fresh' | 'resume';
}

export interface ResumeResult {
  /** Launch to the last pane's ready signal. */
  allReadyMs: number;
  panes: number;
  notReady: string[];
}

export default async function resume20(args: ResumeArgs): Promise<ResumeResult> {
  const root = mkdtempSync(join(tmpdir(), 'patterm-bench-resume-'));
  const fakeHome = join(root, 'fake-agent-home');
  const dirs = { root: join(root, 'presets'), agents: join(root, 'presets', 'agents'), processes: join(root, 'presets', 'processes'), shells: join(root, 'presets', 'shells') };
  for (const dir of [fakeHome, dirs.agents, dirs.processes]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(dirs.agents, 'fake.json'), JSON.stringify(resumableFakeAgentPreset(fakeHome)));
  const coordinator = new Coordinator(root);
  coordinator.workerNice = INTERACTIVE_WORKER_NICE;
  coordinator.setPaneSize(120, 40);
  const catalog = PresetCatalog.load({ dirs, bundled: null });
  const tracker = new ConversationTracker({ coordinator, reportCommand: (file) => [process.execPath, PATTERM_BIN, 'conversation-report', '--file', file] });
  let launcher!: ReturnType<typeof createAgentLauncher>;
  const mcp = await startMcpServer({
    coordinator,
    projectDir: root,
    dataHome: join(root, 'data'),
    socketPath: join(root, 'patterm.sock'),
    launcher: (endpoint) => (launcher = createAgentLauncher({ coordinator, endpoint, catalog, conversations: tracker })),
  });
  try {
    // A running patterm: the PTY host and a spare worker are up before anything is timed.
    await coordinator.prewarm();
    const record = args.mode === 'resume' ? recordWithConversations(root, fakeHome) : null;
    const started = performance.now();
    if (record) {
      const plans = await planResume(record, { catalog, projectDir: root, shellsSupported: false });
      await runResume(plans, { launcher, adoptChild: mcp.adoptChild, tellAgent: () => undefined });
    } else {
      await Promise.all(
        Array.from({ length: SESSIONS }, async (_, session) => {
          const { pane: rootPane } = await launcher.spawnAgent({ preset: 'fake', name: `orchestrator-${session}` });
          await Promise.all(Array.from({ length: PER_SESSION - 1 }, (__, child) => launcher.spawnAgent({ preset: 'fake', name: `child-${session}-${child}`, parentId: rootPane.id, owner: 'orchestrator', waitReady: true })));
        }),
      );
    }
    const panes = coordinator.allPanes();
    while (panes.some((pane) => !launcher.readyTimes.has(pane.id))) await new Promise((resolve) => setTimeout(resolve, 5));
    const allReadyMs = performance.now() - started;
    const notReady = panes.filter((pane) => !launcher.readyTimes.get(pane.id)!.ready).map((pane) => `${pane.name}: ${launcher.readyTimes.get(pane.id)!.detail}`);
    return { allReadyMs, panes: panes.length, notReady };
  } finally {
    tracker.dispose();
    await coordinator.shutdown(500);
    await mcp.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The same twenty panes as a fresh start makes, each on a conversation the fake agent has on disk. */
function recordWithConversations(root: string, fakeHome: string): LayoutRecord {
  const pane = (name: string, parent: string | null): PaneRecord => {
    const id = randomUUID();
    const file = join(fakeHome, `${id}.jsonl`);
    writeFileSync(file, `${JSON.stringify({ text: `earlier turn of ${name}` })}\n`);
    return { id: `old-${name}`, name, kind: 'agent', preset: 'fake', argv: [], cwd: root, parent, owner: parent ? 'orchestrator' : 'user', tags: [], conversation: { status: 'known', id, provenance: 'bench', file, at: 0 } };
  };
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    instance: { id: 'bench', pid: 0, pidStart: null, startedAt: 0 },
    projectDir: root,
    savedAt: 0,
    sessions: Array.from({ length: SESSIONS }, (_, session) => ({
      name: `orchestrator-${session}`,
      root: pane(`orchestrator-${session}`, null),
      children: Array.from({ length: PER_SESSION - 1 }, (__, child) => pane(`child-${session}-${child}`, `old-orchestrator-${session}`)),
    })),
  };
}
