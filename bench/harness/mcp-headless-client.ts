/**
 * The MCP host's side of the mcp-headless scenario, in its own process as a
 * real host is. It drives two servers with the same calls, interleaved so both
 * meet the same machine load: `patterm mcp` as its stdio server, and a TUI's
 * socket through the entry "Connect an external orchestrator…" shows
 * (`patterm mcp-stdio`). On each it spawns a child that copies a FIFO to its
 * terminal; `read_output` reads that quiet child, and a `wait_for_pattern` is
 * timed from the marker written into the FIFO (outside patterm, the same for
 * both) until the call returns.
 *
 * Usage: forked with the job as its argument; sends the result over IPC.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface ServerCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface HeadlessClientJob {
  servers: Record<string, ServerCommand>;
  /** A directory for the FIFOs. */
  dir: string;
  readSamples: number;
  waitSamples: number;
}

export type HeadlessClientResult = Record<string, { readMs: number[]; waitMs: number[] }>;

/** Gap between calls: a host polling briskly, not a tight loop that would measure only queueing. */
const CALL_GAP_MS = 5;
/** Time for a wait_for_pattern call to reach the pane before the marker is written. */
const ARM_DELAY_MS = 30;
const WARM_UP_CALLS = 5;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Contender {
  name: string;
  client: Client;
  childId: string;
  fifo: string;
  readMs: number[];
  waitMs: number[];
}

async function open(name: string, server: ServerCommand, dir: string): Promise<Contender> {
  const transport = new StdioClientTransport({ command: server.command, args: server.args, env: server.env, stderr: 'inherit' });
  const client = new Client({ name: 'patterm-bench-host', version: '1.0.0' });
  await client.connect(transport);
  const fifo = join(dir, `${name.replace(/\W+/g, '-')}.fifo`);
  execFileSync('mkfifo', [fifo]);
  const spawned = await client.callTool({ name: 'spawn_process', arguments: { argv: ['sh', '-c', 'while :; do cat "$0"; done', fifo], name: 'quiet' } });
  if (spawned.isError) throw new Error(`${name}: spawn_process failed: ${JSON.stringify(spawned.content)}`);
  const childId = (spawned.structuredContent as { child_id: string }).child_id;
  return { name, client, childId, fifo, readMs: [], waitMs: [] };
}

async function read(contender: Contender): Promise<number> {
  const started = performance.now();
  const result = await contender.client.callTool({ name: 'read_output', arguments: { child_id: contender.childId, mode: 'grid' } });
  const ms = performance.now() - started;
  if (result.isError) throw new Error(`${contender.name}: read_output failed: ${JSON.stringify(result.content)}`);
  return ms;
}

async function reaction(contender: Contender, mark: string): Promise<number> {
  const waiting = contender.client.callTool({ name: 'wait_for_pattern', arguments: { child_id: contender.childId, pattern: mark, timeout_seconds: 10 } });
  await sleep(ARM_DELAY_MS);
  const written = performance.now();
  writeFileSync(contender.fifo, `${mark}\n`);
  const result = await waiting;
  const ms = performance.now() - written;
  if (!(result.structuredContent as { matched?: boolean } | undefined)?.matched) throw new Error(`${contender.name}: wait_for_pattern did not match ${mark}: ${JSON.stringify(result.content)}`);
  return ms;
}

async function main(job: HeadlessClientJob): Promise<HeadlessClientResult> {
  const contenders: Contender[] = [];
  for (const [name, server] of Object.entries(job.servers)) contenders.push(await open(name, server, job.dir));
  for (const contender of contenders) for (let i = 0; i < WARM_UP_CALLS; i++) await read(contender);
  for (let i = 0; i < job.readSamples; i++) {
    // Alternating who goes first, so neither always meets the other's wake-up.
    for (const contender of i % 2 === 0 ? contenders : [...contenders].reverse()) {
      contender.readMs.push(await read(contender));
      await sleep(CALL_GAP_MS);
    }
  }
  for (let i = 0; i < job.waitSamples; i++) {
    for (const contender of i % 2 === 0 ? contenders : [...contenders].reverse()) contender.waitMs.push(await reaction(contender, `MARK${i}END`));
  }
  for (const contender of contenders) await contender.client.close();
  return Object.fromEntries(contenders.map((contender) => [contender.name, { readMs: contender.readMs, waitMs: contender.waitMs }]));
}

main(JSON.parse(process.argv[2]) as HeadlessClientJob).then(
  (result) => {
    process.send!({ t: 'done', result });
    process.disconnect();
  },
  (error: unknown) => {
    process.send!({ t: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.disconnect();
  },
);
