/**
 * One project for a resume test: its directory, a state home (where layout
 * records go) and the fake agent's transcripts, shared by every patterm the
 * test starts there, each in its own tmux (tmux-harness.ts). The fake agent
 * keeps its conversations as Claude Code does and its preset carries the
 * default claude preset's `conversation` section (fake-agent/conversation.ts).
 */
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASH_PRESET, TmuxPatterm, eventually } from '../tui/tmux-harness.js';
import { resumableFakeAgentPreset } from '../../fixtures/fake-agent-presets.js';
import { parseLayoutRecord, recordPanes, type LayoutRecord, type PaneRecord } from '../../../src/main/resume/layout-record.js';
import { resumeDir } from '../../../src/main/resume/record-store.js';

export class ResumeWorld {
  readonly root = mkdtempSync(join(tmpdir(), 'patterm-resume-'));
  readonly project = join(this.root, 'project');
  readonly state = join(this.root, 'state');
  readonly fakeHome = join(this.root, 'fake-agent-home');
  private readonly running: TmuxPatterm[] = [];

  constructor(private readonly extraAgents: Record<string, unknown> = {}) {
    for (const dir of [this.project, this.state, this.fakeHome]) mkdirSync(dir, { recursive: true });
  }

  get resumeDir(): string {
    return resumeDir(this.project, this.state);
  }

  start(args: string[] = []): TmuxPatterm {
    const patterm = TmuxPatterm.start({
      projectDir: this.project,
      args,
      env: { XDG_STATE_HOME: this.state },
      processPresets: { bash: BASH_PRESET },
      agentPresets: { fake: resumableFakeAgentPreset(this.fakeHome), ...this.extraAgents },
    });
    this.running.push(patterm);
    return patterm;
  }

  /** The layout records in the project's resume directory (not the ones set aside). */
  recordFiles(): string[] {
    try {
      return readdirSync(this.resumeDir).filter((file) => /^layout-.*\.json$/.test(file)).map((file) => join(this.resumeDir, file));
    } catch {
      return [];
    }
  }

  /** The one record there, parsed; null while there is none (or it is being replaced). */
  record(): LayoutRecord | null {
    const files = this.recordFiles();
    if (files.length !== 1) return null;
    try {
      const parsed = parseLayoutRecord(readFileSync(files[0], 'utf8'));
      return parsed.ok ? parsed.record : null;
    } catch {
      return null; // renamed away meanwhile
    }
  }

  /** Waits for a record in which every agent's conversation is known, and returns it. */
  async settledRecord(what: string, test: (record: LayoutRecord) => boolean = () => true): Promise<LayoutRecord> {
    const found = await eventually(() => {
      const record = this.record();
      if (!record) return null;
      const agents = recordPanes(record).filter((pane) => pane.kind === 'agent');
      return agents.every((pane) => pane.conversation?.status === 'known') && test(record) ? record : null;
    }, what, 60_000);
    return found!;
  }

  /** The lines the fake agent kept in a conversation. */
  transcript(id: string): string[] {
    try {
      return readFileSync(join(this.fakeHome, `${id}.jsonl`), 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { text: string }).text);
    } catch {
      return [];
    }
  }

  stop(): void {
    for (const patterm of this.running.splice(0)) patterm.stop();
    rmSync(this.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}

export function paneNamed(record: LayoutRecord, name: string): PaneRecord {
  const pane = recordPanes(record).find((candidate) => candidate.name === name);
  assert.ok(pane, `no pane named ${name} in the record: ${recordPanes(record).map((candidate) => candidate.name).join(', ')}`);
  return pane;
}

/** Types a tool call into the focused fake agent and waits for its result line. */
export function call(patterm: TmuxPatterm, tool: string, args: unknown, outcome: 'result' | 'error' = 'result'): Promise<string> {
  return patterm.callTool(tool, args, outcome);
}

/** A fresh world per test, all stopped when the file ends. */
export function worldsForThisFile(): (extraAgents?: Record<string, unknown>) => ResumeWorld {
  const worlds: ResumeWorld[] = [];
  after(() => worlds.forEach((world) => world.stop()));
  return (extraAgents) => {
    const world = new ResumeWorld(extraAgents);
    worlds.push(world);
    return world;
  };
}

/** Starts the fake agent as a new session from the palette, with a first prompt, and waits for its MCP connection. */
export async function startOrchestrator(patterm: TmuxPatterm, prompt: string): Promise<void> {
  await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
  await patterm.runPalette('spawn agent fake', 'Spawn agent: fake');
  await patterm.waitFor(/Initial prompt for fake/, 'the initial-prompt sub-palette');
  patterm.type(prompt);
  patterm.keys('Enter');
  await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.startsWith('mcp| connected')), 'the orchestrator to connect to MCP');
  await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.includes(`got| ${prompt}`)), 'its first prompt submitted');
}

/** Picks `name` from one of the palette's lists ("Switch to session…", "Focus pane…"). */
export async function pick(patterm: TmuxPatterm, list: 'Switch to session…' | 'Focus pane…', name: string): Promise<void> {
  await patterm.runPalette(list === 'Focus pane…' ? 'focus pane' : 'switch to session', list);
  await patterm.waitFor((lines) => lines.some((line) => line.includes(list)), `the ${list} list`);
  patterm.type(name);
  await patterm.waitFor((lines) => lines.some((line) => line.includes(name)), `${name} in the list`);
  patterm.keys('Enter');
}
