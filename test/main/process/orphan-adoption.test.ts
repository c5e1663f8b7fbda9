import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { startWithFirstLine } from '../../helpers/node-script.js';
import { environHasEntry, readStat } from '../../../src/node/process-reaper.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/escaping-patterm.js', import.meta.url));
const ESCAPE_KINDS = ['setsid', 'double-fork', 'nohup'];

/** Live (not zombie) processes whose environment holds ESCAPE_TAG=<tag>, by their ESCAPE_KIND. */
function escapes(tag: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`);
      if (!environHasEntry(environ, `ESCAPE_TAG=${tag}`) || readStat(Number(name))?.state === 'Z') continue;
      const kind = /ESCAPE_KIND=([a-z-]+)/.exec(environ.toString('latin1'))?.[1] ?? '?';
      found.set(kind, Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

interface Escaping {
  child: ChildProcess;
  pid: number;
  tag: string;
  log: string;
}

/** A headless patterm whose pane left three escaped processes, each adopted by patterm and known to its watchdog. */
async function startEscaping(seconds: number): Promise<Escaping> {
  const tag = randomBytes(6).toString('hex');
  const log = join(scratchDir('patterm-adoption-'), 'patterm.log');
  const { child, line } = await startWithFirstLine([FIXTURE, tag, String(seconds)], { ...process.env, PATTERM_LOG: log }, 'pipe');
  const { pid } = JSON.parse(line) as { pid: number };
  const adopted = await eventually(
    () => {
      const found = escapes(tag);
      if (found.size < ESCAPE_KINDS.length) return null;
      const text = existsSync(log) ? readFileSync(log, 'utf8') : ''; // written at the first adoption
      return [...found.values()].every((escaped) => readStat(escaped)?.ppid === pid && text.includes(`adopted orphan ${escaped} `)) ? found : null;
    },
    { timeoutMs: 10_000, message: 'the three escaped processes to be adopted by patterm and logged' },
  );
  assert.deepEqual([...adopted.keys()].sort(), [...ESCAPE_KINDS].sort());
  return { child, pid, tag, log };
}

const exitPaths: [string, (child: ChildProcess) => void][] = [
  ['quit', (child) => child.stdin!.write('quit\n')],
  ['SIGTERM', (child) => child.kill('SIGTERM')],
  ['SIGHUP', (child) => child.kill('SIGHUP')],
  ['SIGKILL', (child) => child.kill('SIGKILL')],
];

for (const [name, exit] of exitPaths) {
  test(`${name} of patterm ends what escaped its pane: setsid -f env -i, a double fork, nohup ignoring HUP and TERM`, async () => {
    const { child, tag } = await startEscaping(1000);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    exit(child);
    await exited;
    // SIGKILL leaves it to the watchdog, which runs after patterm is gone; the other paths end them before exiting.
    if (name === 'SIGKILL') await eventually(() => escapes(tag).size === 0, { timeoutMs: 10_000, message: 'the watchdog to kill every escaped process' });
    assert.deepEqual([...escapes(tag).keys()], []);
  });
}

test('an escaped process that exits is reaped by patterm, not left a zombie', async () => {
  const { child, pid, tag } = await startEscaping(3);
  await eventually(() => escapes(tag).size === 0, { timeoutMs: 10_000, message: 'the short sleeps to exit' });
  const zombieChildren = () =>
    readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .filter((childPid) => readStat(Number(childPid))?.state === 'Z');
  await eventually(() => zombieChildren().length === 0, { message: `no zombie children of patterm (saw ${zombieChildren().join(', ')})` });
  child.kill('SIGKILL');
});
