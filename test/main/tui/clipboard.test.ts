/**
 * OSC 52 from a pane, in a real terminal (tmux with set-clipboard on, which
 * keeps every clipboard write it receives as a paste buffer): dropped by
 * default with a status-line notice, forwarded when config.json allows it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClipboardForwarding } from '../../../src/main/tui/clipboard-forwarding.js';
import { BASH_PRESET, TmuxPatterm } from './tmux-harness.js';

const COPIED = 'copied from a pane';
const WRITE_COMMAND = `printf '\\033]52;c;%s\\007' "$(printf '${COPIED}' | base64)"; echo osc52-sent`;

/** tmux's paste buffers: what reached the host terminal's clipboard. */
function buffers(patterm: TmuxPatterm): string {
  return patterm.tmux('list-buffers', '-F', '#{buffer_sample}');
}

async function withPatterm(config: string | undefined, run: (patterm: TmuxPatterm) => Promise<void>): Promise<void> {
  const patterm = TmuxPatterm.start({ processPresets: { bash: BASH_PRESET }, config });
  try {
    patterm.tmux('set-option', '-g', 'set-clipboard', 'on');
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.spawnBash();
    patterm.type(WRITE_COMMAND);
    patterm.keys('Enter');
    await patterm.waitFor((lines) => patterm.mainArea(lines).includes('osc52-sent'), 'the write to be printed');
    await run(patterm);
  } finally {
    patterm.stop();
  }
}

test('by default a pane\'s clipboard write is dropped, and the status line says so with the setting that allows it', () =>
  withPatterm(undefined, async (patterm) => {
    await patterm.waitFor(/Clipboard write from bash dropped: set clipboard\.write in config\.json /, 'the notice');
    assert.equal(buffers(patterm), '', 'nothing reached the host clipboard');
  }));

test('with "clipboard": {"write": true} a pane\'s clipboard write reaches the host terminal', () =>
  withPatterm(JSON.stringify({ clipboard: { write: true } }), async (patterm) => {
    await patterm.waitFor(() => buffers(patterm).includes(COPIED), 'the write in tmux\'s paste buffer');
    assert.equal(patterm.tmux('show-buffer'), COPIED);
    assert.doesNotMatch(patterm.screen().join('\n'), /dropped/);
  }));

test('a dropped write is told once per run; writes not in OSC 52\'s form never reach the host', () => {
  const forwarded: string[] = [];
  const notices: string[] = [];
  const dropping = new ClipboardForwarding({ write: false }, (selection, base64) => forwarded.push(`${selection};${base64}`), (text) => notices.push(text));
  dropping.handle('vim-1', { selection: 'c', base64: 'aGk=' });
  dropping.handle('vim-2', { selection: 'c', base64: 'aGk=' });
  assert.deepEqual(notices, ['Clipboard write from vim-1 dropped: set clipboard.write in config.json']);
  const allowing = new ClipboardForwarding({ write: true }, (selection, base64) => forwarded.push(`${selection};${base64}`), (text) => notices.push(text));
  allowing.handle('vim-1', { selection: 'c', base64: 'aGk=' });
  allowing.handle('vim-1', { selection: 'c\x1b]0;pwned', base64: 'aGk=' });
  allowing.handle('vim-1', { selection: 'c', base64: 'aGk=\x07\x1b[2J' });
  assert.deepEqual(forwarded, ['c;aGk=']);
});
