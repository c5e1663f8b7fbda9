/**
 * The agent's side of shell-run, in its own process as an agent CLI is: the
 * MCP SDK client over `bin/patterm mcp-stdio`, starting a shell pane and
 * timing each run_command call. The probe forks it with the job as its
 * argument and gets the timings back over the IPC channel.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PATTERM_BIN } from '../../src/main/version.js';
import { commandOf } from './shell-home.js';

export interface ShellRunJob {
  socketPath: string;
  token: string;
  home: string;
  shell: string;
  warmup: number;
  calls: number;
}

export type ShellRunReply = { t: 'done'; ms: number[] } | { t: 'error'; message: string };

async function main(job: ShellRunJob): Promise<void> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [PATTERM_BIN, 'mcp-stdio', '--socket', job.socketPath, '--identity', job.token], stderr: 'inherit' });
  const client = new Client({ name: 'patterm-bench', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, unknown>;
  };
  const shell = await call('spawn_shell', { shell: job.shell, env: { HOME: job.home } });
  if (shell.integration !== 'full') throw new Error(`the shell's integration is ${String(shell.integration)}, not full`);
  const childId = shell.child_id as string;
  for (let i = 0; i < job.warmup; i++) await call('run_command', { child_id: childId, command: commandOf(i) });
  const ms: number[] = [];
  for (let i = 0; i < job.calls; i++) {
    const started = performance.now();
    const record = await call('run_command', { child_id: childId, command: commandOf(job.warmup + i) });
    ms.push(performance.now() - started);
    if (record.exit_code !== 0) throw new Error(`run_command ${i}: exit code ${String(record.exit_code)}`);
  }
  await client.close();
  process.send!({ t: 'done', ms } satisfies ShellRunReply);
}

main(JSON.parse(process.argv[2]) as ShellRunJob).catch((error: Error) => {
  process.send!({ t: 'error', message: error.stack ?? error.message } satisfies ShellRunReply);
});
