/**
 * Node scripts a test starts as separate processes (a headless patterm, a
 * watchdog harness), each announcing itself with one line on stdout. Every
 * one started through here is SIGKILLed when the test file ends, so a failed
 * assertion never leaves one running, which would hold the file open.
 */
import { after } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';

const started = new Set<ChildProcess>();
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts `node <argv>` and resolves with the first line it prints; `stdin: 'pipe'` to write to it. */
export async function startWithFirstLine(argv: string[], env: NodeJS.ProcessEnv = process.env, stdin: 'ignore' | 'pipe' = 'ignore'): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, argv, { stdio: [stdin, 'pipe', 'inherit'], env });
  started.add(child);
  const line = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk) => {
      buffered += chunk;
      if (buffered.includes('\n')) resolve(buffered.split('\n')[0]);
    });
    child.on('exit', (code) => reject(new Error(`${argv.join(' ')} exited early with ${code}`)));
  });
  return { child, line };
}
