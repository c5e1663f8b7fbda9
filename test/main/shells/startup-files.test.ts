/**
 * bash and zsh read the user's own start-up files exactly as without patterm,
 * and the user's hooks, traps, prompts and history file work as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, structured } from '../mcp/helpers/mcp-harness.js';
import { run, scratchHome, spawnShell } from '../mcp/helpers/shells.js';
import { eventually } from '../../helpers/coordinator-fixture.js';

const harness = await startHarness();
const { pane: orchestrator, token } = await harness.orchestrator('orch');
const mcp = await harness.connect(token);
const log = (home: string, file: string) => readFileSync(join(home, file), 'utf8');

test('bash, login: /etc/profile, then the first of ~/.bash_profile, ~/.bash_login, ~/.profile; and POSIX mode is off again', async () => {
  const home = scratchHome(harness.root, {
    '.bash_profile': 'echo bash_profile >> ~/order.log\n',
    '.bash_login': 'echo bash_login >> ~/order.log\n',
    '.profile': 'echo profile >> ~/order.log\n',
    '.bashrc': 'echo bashrc >> ~/order.log\n',
  });
  const { child_id: id } = await spawnShell(mcp, { shell: 'bash' }, home);
  const options = await run(mcp, id, 'shopt -q login_shell && echo login; shopt -qo posix || echo no-posix; shopt -q inherit_errexit || echo no-inherit-errexit');
  assert.equal(options.output, 'login\nno-posix\nno-inherit-errexit');
  assert.equal(log(home, 'order.log'), 'bash_profile\n');
  const env = await run(mcp, id, 'echo "ENV=${ENV-unset}"; env | grep -cE "^(PATTERM_SHELL_NONCE|PATTERM_BASH_|ENV=)"');
  assert.equal(env.output, 'ENV=unset\n0', 'nothing of the integration is left in the environment');
});

test('bash, not a login shell: ~/.bashrc only', async () => {
  const home = scratchHome(harness.root, { '.profile': 'echo profile >> ~/order.log\n', '.bashrc': 'echo bashrc >> ~/order.log\n' });
  const { session } = await harness.mcp.shells.spawn({ shell: 'bash', login: false, env: { HOME: home }, parentId: orchestrator.id });
  await session.integrationSettled(30_000);
  const record = await run(mcp, session.paneId, 'shopt -q login_shell || echo not-login');
  assert.equal(record.output, 'not-login');
  assert.equal(log(home, 'order.log'), 'bashrc\n');
});

test("bash: the user's PROMPT_COMMAND (a string, or an array) and DEBUG trap still run, each hook seeing the command's status as bash gives it", async () => {
  const hooks = `trap 'echo "debug: $BASH_COMMAND" >> ~/debug.log' DEBUG\n`;
  const asString = scratchHome(harness.root, { '.bashrc': `PROMPT_COMMAND='echo "pc-string status=$?" >> ~/hooks.log'\n${hooks}`, '.bash_profile': '. ~/.bashrc\n' });
  const asArray = scratchHome(harness.root, { '.bashrc': `PROMPT_COMMAND=('echo "pc-array-1 status=$?" >> ~/hooks.log' 'echo "pc-array-2 status=$?" >> ~/hooks.log')\n${hooks}`, '.bash_profile': '. ~/.bashrc\n' });
  for (const [home, expected] of [[asString, ['pc-string status=1']], [asArray, ['pc-array-1 status=1', 'pc-array-2 status=1']]] as const) {
    const { child_id: id } = await spawnShell(mcp, { shell: 'bash' }, home);
    const record = await run(mcp, id, 'false');
    assert.equal(record.exit_code, 1);
    await eventually(() => log(home, 'hooks.log').split('\n').filter(Boolean).length >= 1 + expected.length, { message: 'the hooks ran after the command' });
    assert.deepEqual(log(home, 'hooks.log').split('\n').filter(Boolean).slice(-expected.length), expected);
    const trap = await run(mcp, id, 'echo marker-for-debug; trap -p DEBUG');
    assert.equal(trap.output, `marker-for-debug\ntrap -- 'echo "debug: $BASH_COMMAND" >> ~/debug.log' DEBUG`);
    assert.match(log(home, 'debug.log'), /debug: echo marker-for-debug/);
  }
});

test('bash: a prompt that sends OSC 133 marks of its own and rebuilds PS1 each time (as starship does) changes nothing', async () => {
  const home = scratchHome(harness.root, {
    '.bashrc': [
      "starship_like() { local status=$?; PS1=\"\\[\\e]133;A\\a\\]star-$status> \\[\\e]133;B\\a\\]\"; printf '\\e]133;D;0\\a'; }",
      'PROMPT_COMMAND=starship_like',
      "PS0='\\e]133;C\\a'",
    ].join('\n'),
    '.bash_profile': '. ~/.bashrc\n',
  });
  const { child_id: id } = await spawnShell(mcp, { shell: 'bash' }, home);
  for (const [command, code, output] of [['(exit 3)', 3, ''], ['echo second', 0, 'second'], ['sleep 0.2; false', 1, '']] as const) {
    const record = await run(mcp, id, command);
    assert.deepEqual([record.exit_code, record.output], [code, output], record.summary);
  }
  const prompt = structured<{ matched: boolean; snippet: string }>(await mcp.call('wait_for_pattern', { child_id: id, pattern: '^star-1>$', timeout_seconds: 60 }));
  assert.ok(prompt.matched, `the user's prompt is drawn, with the status it was given: ${prompt.snippet}`);
});

test('bash: history goes where it went before: ~/.bash_history unless the user chose another file', async () => {
  const plain = scratchHome(harness.root);
  const custom = scratchHome(harness.root, { '.bashrc': 'HISTFILE=~/my_history\n', '.bash_profile': '. ~/.bashrc\n' });
  for (const [home, file] of [[plain, '.bash_history'], [custom, 'my_history']] as const) {
    const { child_id: id } = await spawnShell(mcp, { shell: 'bash' }, home);
    const declared = await run(mcp, id, 'declare -p HISTFILE');
    assert.equal(declared.output, `declare -- HISTFILE="${join(home, file)}"`, 'set, and not exported');
    await run(mcp, id, 'echo remember-me');
    await run(mcp, id, 'history -a');
    assert.match(log(home, file), /echo remember-me/);
  }
});

test("zsh: the user's ZDOTDIR files run in zsh's order, each seeing the user's ZDOTDIR, and history goes to the user's HISTFILE", async () => {
  const note = (file: string) => `echo "${file} ZDOTDIR=\${ZDOTDIR-unset}" >> ~/order.log\n`;
  const home = scratchHome(harness.root, {
    'zdot/.zshenv': note('zshenv'),
    'zdot/.zprofile': note('zprofile'),
    'zdot/.zshrc': `${note('zshrc')}HISTFILE=\${ZDOTDIR:-$HOME}/.zsh_history\nSAVEHIST=100\nHISTSIZE=100\nsetopt inc_append_history\n`,
    'zdot/.zlogin': note('zlogin'),
  });
  const zdot = join(home, 'zdot');
  const { child_id: id } = await spawnShell(mcp, { shell: 'zsh', env: { ZDOTDIR: zdot } }, home);
  assert.equal(log(home, 'order.log'), ['zshenv', 'zprofile', 'zshrc', 'zlogin'].map((file) => `${file} ZDOTDIR=${zdot}\n`).join(''));
  const values = await run(mcp, id, 'echo "$ZDOTDIR $HISTFILE"; env | grep -c -E "^(PATTERM_SHELL_NONCE|PATTERM_USER_ZDOTDIR)="');
  assert.equal(values.output, `${zdot} ${zdot}/.zsh_history\n0`);
  await run(mcp, id, 'echo remember-me');
  await eventually(() => /echo remember-me/.test(log(zdot, '.zsh_history')), { message: "the command in the user's history file" });
});

test("zsh: a ZDOTDIR set by the user's ~/.zshenv is where the rest is read from, and it stays unexported as the user left it", async () => {
  const home = scratchHome(harness.root, {
    '.zshenv': 'ZDOTDIR=$HOME/cfg\n',
    'cfg/.zshrc': 'echo "zshrc from cfg" >> ~/order.log\nHISTFILE=${ZDOTDIR:-$HOME}/.zsh_history\n',
  });
  const { child_id: id } = await spawnShell(mcp, { shell: 'zsh' }, home);
  assert.equal(log(home, 'order.log'), 'zshrc from cfg\n');
  const values = await run(mcp, id, 'echo "$ZDOTDIR $HISTFILE"; env | grep -c ^ZDOTDIR=');
  assert.equal(values.output, `${home}/cfg ${home}/cfg/.zsh_history\n0`);
});

test("zsh: the user's precmd and preexec hooks still run, seeing the status and the command; a prompt with marks of its own changes nothing", async () => {
  const home = scratchHome(harness.root, {
    '.zshrc': [
      'user_precmd() { echo "precmd status=$?" >> ~/hooks.log }',
      'user_preexec() { echo "preexec $1" >> ~/hooks.log }',
      'precmd_functions+=(user_precmd)',
      'preexec_functions+=(user_preexec)',
      "precmd() { print -n '\\e]133;D;0\\a' }",
      "PROMPT=$'%{\\e]133;A\\a%}own-marks%# %{\\e]133;B\\a%}'",
    ].join('\n'),
  });
  const { child_id: id } = await spawnShell(mcp, { shell: 'zsh' }, home);
  const record = await run(mcp, id, 'false');
  assert.equal(record.exit_code, 1);
  await eventually(() => /precmd status=1/.test(log(home, 'hooks.log')), { message: 'the precmd hook saw status 1' });
  assert.match(log(home, 'hooks.log'), /preexec false/);
  const next = await run(mcp, id, 'echo two');
  assert.deepEqual([next.exit_code, next.output], [0, 'two']);
});
