/**
 * scripts/system-tools.sh (run by bootstrap) installs the programs the tests drive where they are
 * missing: zsh among them, so shell panes are tested with both shells on a fresh machine. Run on a
 * PATH without zsh, with apt-get and id replaced by stubs that record what they were asked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '../helpers/scratch-dir.js';

const SCRIPT = fileURLToPath(new URL('../../../scripts/system-tools.sh', import.meta.url));

function stub(dir: string, name: string, body: string): void {
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, name), 0o755);
}

test('bootstrap asks apt-get for zsh where it is missing, and only for what is missing', () => {
  const bin = scratchDir('patterm-system-tools-');
  const calls = join(bin, 'apt-calls.log');
  // The tools the script looks for, except zsh, linked from where they are; what it needs to run too.
  for (const tool of ['tmux', 'vim', 'less', 'top', 'script', 'htop', 'man', 'python3', 'git', 'bash', 'env']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (found && existsSync(found)) symlinkSync(found, join(bin, tool));
  }
  stub(bin, 'id', 'echo 0');
  stub(bin, 'apt-get', `echo "$*" >> ${calls}`);
  const result = spawnSync('bash', [SCRIPT], { encoding: 'utf8', env: { PATH: bin } });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stderr, /installing .*\bzsh\b.* with apt-get/);
  const asked = readFileSync(calls, 'utf8').trim().split('\n');
  assert.equal(asked[0], 'update -qq');
  assert.match(asked[1], /^install -y -qq .*\bzsh$/);
  assert.doesNotMatch(asked[1], /\btmux\b/, 'a tool that is there is not installed again');
});
