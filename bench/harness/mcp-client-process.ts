/**
 * The orchestrating agent's side of the mcp scenario, in its own process as a
 * real agent CLI is: its JSON handling, JIT and garbage collection are not
 * patterm's (a worker thread in the probe shared patterm's heap limits and
 * V8's helper threads). It talks to patterm the way agents do: the MCP SDK
 * client, over `bin/patterm mcp-stdio`, over patterm's unix socket. The probe
 * forks it with the job as its argument and talks to it over the IPC channel.
 *
 * Times cross processes as absolute milliseconds (timeOrigin + now), which both
 * processes take from the same system clock.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { absoluteNow } from '../../src/main/mcp/transport/request-timing.js';
import { PATTERM_BIN } from '../../src/main/version.js';

export interface McpClientJob {
  socketPath: string;
  token: string;
  /** A relay floor server (mcp-relay-floor.ts): the same hops, none of patterm's work. */
  floorSocketPath: string;
  quietId: string;
  floodId: string;
  readSamples: number;
  /** Quiet reads spaced SPARSE_GAP_MS apart, after the brisk ones. */
  sparseSamples: number;
  waitSamples: number;
}

/** A call's start and end, in absolute milliseconds. */
export type CallSpan = [startedAt: number, returnedAt: number];
export type ClientToProbe =
  | { t: 'arm'; mark: string }
  | { t: 'done'; quietReads: CallSpan[]; floodReads: CallSpan[]; floorCalls: CallSpan[]; sparseReads: CallSpan[]; waitReturnedAt: number[] }
  | { t: 'error'; message: string };
export type ProbeToClient = { t: 'written'; mark: string };

/** Gap between reads: an agent polling briskly, not a tight loop that would measure only queueing. */
const READ_GAP_MS = 5;
/**
 * Gap between the sparse reads: longer than INPUT_BURST_GAP_MS, so each call
 * arrives while the floods run at full speed, as an agent's calls do between
 * its turns, instead of inside the yield that the previous brisk call started.
 */
const SPARSE_GAP_MS = 50;
/** Time for a wait_for_pattern call to reach the pane before the marker is typed, so the event path is what is timed. */
const ARM_DELAY_MS = 30;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const tell = (message: ClientToProbe) => process.send!(message);

/** An SDK client over `patterm mcp-stdio`, as an agent CLI connects. */
async function connectClient(socketPath: string, token: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [PATTERM_BIN, 'mcp-stdio', '--socket', socketPath, '--identity', token],
    stderr: 'inherit',
  });
  const client = new Client({ name: 'patterm-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function timeCall(client: Client, name: string, args: Record<string, unknown>): Promise<{ span: CallSpan; replyChars: number }> {
  const started = absoluteNow();
  const result = await client.callTool({ name, arguments: args });
  const returned = absoluteNow();
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return { span: [started, returned], replyChars: JSON.stringify(result).length };
}

async function main(job: McpClientJob): Promise<void> {
  const client = await connectClient(job.socketPath, job.token);
  const floor = await connectClient(job.floorSocketPath, job.token);
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
  const timeRead = async (childId: string) => (await timeCall(client, 'read_output', { child_id: childId, mode: 'grid' })).span;
  let replyChars = 0;
  for (let i = 0; i < 5; i++) {
    // Warm-up: the first calls compile code paths. The floor's replies are as large as a quiet read's.
    replyChars = (await timeCall(client, 'read_output', { child_id: job.quietId, mode: 'grid' })).replyChars;
    await timeCall(floor, 'read_output', { reply_chars: replyChars });
  }
  const quietReads: CallSpan[] = [];
  const floodReads: CallSpan[] = [];
  const floorCalls: CallSpan[] = [];
  for (let i = 0; i < job.readSamples; i++) {
    quietReads.push(await timeRead(job.quietId));
    await sleep(READ_GAP_MS);
    floodReads.push(await timeRead(job.floodId));
    await sleep(READ_GAP_MS);
    // Interleaved, so the floor meets the same floods, yields and machine load as the reads beside it.
    floorCalls.push((await timeCall(floor, 'read_output', { reply_chars: replyChars })).span);
    await sleep(READ_GAP_MS);
  }
  await floor.close();
  const sparseReads: CallSpan[] = [];
  for (let i = 0; i < job.sparseSamples; i++) {
    await sleep(SPARSE_GAP_MS);
    sparseReads.push(await timeRead(job.quietId));
  }
  const waitReturnedAt: number[] = [];
  for (let i = 0; i < job.waitSamples; i++) {
    const mark = `MARK${i}END`;
    const waiting = call('wait_for_pattern', { child_id: job.quietId, pattern: mark, timeout_seconds: 10 });
    await sleep(ARM_DELAY_MS);
    const written = new Promise<void>((resolve) => {
      const listener = (message: ProbeToClient) => {
        if (message.t === 'written' && message.mark === mark) {
          process.off('message', listener);
          resolve();
        }
      };
      process.on('message', listener);
    });
    tell({ t: 'arm', mark });
    const result = await waiting;
    waitReturnedAt.push(absoluteNow());
    await written;
    if (!(result.structuredContent as { matched?: boolean } | undefined)?.matched) throw new Error(`wait_for_pattern did not match ${mark}: ${JSON.stringify(result.content)}`);
  }
  await client.close();
  tell({ t: 'done', quietReads, floodReads, floorCalls, sparseReads, waitReturnedAt });
}

main(JSON.parse(process.argv[2]) as McpClientJob).then(
  () => process.disconnect(),
  (error: unknown) => {
    tell({ t: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.disconnect();
  },
);
