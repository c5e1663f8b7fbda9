import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PANE_LOCALE, HOST_TERMINAL_VARS, paneEnvironment } from '../../../src/main/panes/pane-environment.js';
import { INSTANCE_MARKER_VAR, PANE_MARKER_VAR } from '../../../src/node/process-reaper.js';

const inherited = { PATH: '/usr/bin', HOME: '/home/u', TMUX: '/tmp/tmux-0/default,1,0', TMUX_PANE: '%3', KITTY_WINDOW_ID: '2', COLUMNS: '200', LINES: '50', TERM: 'tmux-256color', TERM_PROGRAM: 'tmux', UNSET: undefined };

test("the host terminal's variables stay behind; everything else is inherited", () => {
  const env = paneEnvironment({ inherited, instanceId: 'i1', paneId: 'p1' });
  for (const key of ['TMUX', 'TMUX_PANE', 'KITTY_WINDOW_ID', 'COLUMNS', 'LINES', 'UNSET']) assert.equal(key in env, false, key);
  assert.equal(env.PATH, '/usr/bin');
  assert.equal(env.HOME, '/home/u');
  for (const key of HOST_TERMINAL_VARS) assert.equal(key in env, false, key);
});

test("the pane's terminal is patterm, and the pane carries its markers", () => {
  const env = paneEnvironment({ inherited, instanceId: 'i1', paneId: 'p1' });
  assert.equal(env.TERM, 'xterm-256color');
  assert.equal(env.COLORTERM, 'truecolor');
  assert.equal(env.TERM_PROGRAM, 'patterm');
  assert.equal(env[INSTANCE_MARKER_VAR], 'i1');
  assert.equal(env[PANE_MARKER_VAR], 'i1/p1');
});

test("a preset's own variables win, a host-terminal variable included; the emulator's and the markers do not yield", () => {
  const env = paneEnvironment({ inherited, extra: { HOME: '/elsewhere', COLUMNS: '80', TERM: 'dumb', [PANE_MARKER_VAR]: 'forged' }, instanceId: 'i1', paneId: 'p1' });
  assert.equal(env.HOME, '/elsewhere');
  assert.equal(env.COLUMNS, '80');
  assert.equal(env.TERM, 'xterm-256color');
  assert.equal(env[PANE_MARKER_VAR], 'i1/p1');
});

test('with no locale set anywhere, the pane gets a UTF-8 one; a locale the user or the preset set is kept', () => {
  assert.equal(paneEnvironment({ inherited, instanceId: 'i1', paneId: 'p1' }).LANG, DEFAULT_PANE_LOCALE);
  assert.equal(paneEnvironment({ inherited: { ...inherited, LANG: '' }, instanceId: 'i1', paneId: 'p1' }).LANG, DEFAULT_PANE_LOCALE);
  for (const key of ['LC_ALL', 'LC_CTYPE', 'LANG']) {
    const env = paneEnvironment({ inherited: { ...inherited, [key]: 'C' }, instanceId: 'i1', paneId: 'p1' });
    assert.equal(env[key], 'C', key);
    if (key !== 'LANG') assert.equal('LANG' in env, false, `LANG beside ${key}`);
  }
  assert.equal(paneEnvironment({ inherited, extra: { LANG: 'POSIX' }, instanceId: 'i1', paneId: 'p1' }).LANG, 'POSIX');
});
