/**
 * What patterm's shell integration adds to an interactive prompt: bash and
 * zsh on a bare PTY (node-pty, no terminal in between), started as a shell
 * pane starts them (shell-launch.ts) with the integration and without it,
 * the same start-up files either way. Timed from Enter (the command `true`
 * typed at once) until the next prompt is on the last line of the output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { renderText } from '../../src/shared/ansi-strip.js';
import { installIntegrationFiles } from '../../src/main/shells/integration-files.js';
import { shellLaunch } from '../../src/main/shells/shell-launch.js';
import { PANE } from '../harness/fence.js';
import { PROMPT, shellHome } from '../harness/shell-home.js';

const TIMEOUT_MS = 30_000;

/** Resolves once the rendered output since `from` ends with the prompt on a line after the command's echo. */
function promptBack(output: () => string, from: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const check = () => {
      const lines = renderText(output().slice(from)).split('\n');
      if (lines.length >= 2 && lines[lines.length - 1] === PROMPT.trimEnd()) return resolve();
      if (performance.now() - started > TIMEOUT_MS) return reject(new Error(`no prompt after: ${JSON.stringify(output().slice(from))}`));
      setImmediate(check);
    };
    check();
  });
}

async function measure(program: string, integration: boolean, samples: number, home: string): Promise<number[]> {
  const files = integration ? installIntegrationFiles() : null;
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, TERM: 'xterm-256color' };
  const launch = shellLaunch({ program, integration, login: true, nonce: '0123456789abcdef0123456789abcdef', files, env });
  const child = pty.spawn(launch.argv[0], launch.argv.slice(1), { ...PANE, name: 'xterm-256color', cwd: home, env: { ...env, ...launch.env } as Record<string, string> });
  let output = '';
  child.onData((data) => (output += data));
  try {
    await promptBack(() => `\n${output}`, 0);
    const ms: number[] = [];
    for (let i = 0; i < samples; i++) {
      const from = output.length;
      const started = performance.now();
      child.write('true\r');
      await promptBack(() => output, from);
      ms.push(performance.now() - started);
    }
    return ms;
  } finally {
    child.kill('SIGKILL');
    files?.dispose();
  }
}

export default async function shellPromptOverhead(args: { samples: number }): Promise<Record<string, number[]>> {
  const root = mkdtempSync(join(tmpdir(), 'patterm-bench-prompt-'));
  try {
    const home = shellHome(root);
    const result: Record<string, number[]> = {};
    for (const shell of ['bash', 'zsh']) {
      for (const integration of [false, true]) result[`${shell} ${integration ? 'with' : 'without'}`] = await measure(shell, integration, args.samples, home);
    }
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
