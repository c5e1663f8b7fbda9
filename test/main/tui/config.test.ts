/**
 * config.json: key bindings to command IDs and the attention setting. Every
 * problem names its field; valid parts still apply. Then in a real terminal:
 * a bound key runs its command, config errors show in the status line, and a
 * broken preset file is a disabled palette entry with its error while the
 * other presets still work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../../src/main/tui/config.js';
import { TmuxPatterm, BASH_PRESET } from './tmux-harness.js';

test('valid bindings and settings are taken as written', () => {
  const config = parseConfig({ keybindings: { CTRL_N: 'patterm.session.next', F2: 'preset.process.bash' }, attention: { autoFocus: true } });
  assert.deepEqual(config, { keybindings: { CTRL_N: 'patterm.session.next', F2: 'preset.process.bash' }, autoFocusOnAttention: true, errors: [] });
  assert.deepEqual(parseConfig({}), { keybindings: {}, autoFocusOnAttention: false, errors: [] });
});

test('ALT_ with a lower-case letter binds the key the input names ALT_<capital>, as the README writes it', () => {
  const config = parseConfig({ keybindings: { ALT_p: 'preset.process.bash', ALT_SHIFT_X: 'patterm.session.next' } });
  assert.deepEqual(config.errors, []);
  assert.deepEqual(config.keybindings, { ALT_P: 'preset.process.bash', ALT_SHIFT_X: 'patterm.session.next' });
});

test('each problem names its field, and the valid rest still applies', () => {
  const config = parseConfig({
    keybindings: { CTRL_N: 'patterm.session.next', CTRL_K: 'patterm.quit', HYPER_Q: 'patterm.quit', F3: 'patterm.nope' },
    attention: { autoFocus: 'yes' },
  });
  assert.deepEqual(config.keybindings, { CTRL_N: 'patterm.session.next' });
  assert.equal(config.autoFocusOnAttention, false);
  const text = config.errors.join('\n');
  assert.match(text, /^attention\.autoFocus: /m);
  assert.match(text, /^keybindings\.CTRL_K: Ctrl-K is reserved/m);
  assert.match(text, /^keybindings\.HYPER_Q: unknown key name/m);
  assert.match(text, /^keybindings\.F3: unknown command ID "patterm\.nope"/m);
  assert.match(parseConfig({ keybindings: { CTRL_B: 7 } }).errors[0], /^keybindings\.CTRL_B: /);
  assert.match(parseConfig([]).errors[0], /top level/);
});

test('in the TUI: a bound key runs its command; config errors are shown; a broken preset is listed disabled with its error', async () => {
  const patterm = TmuxPatterm.start({
    processPresets: {
      bash: BASH_PRESET,
      other: { ...BASH_PRESET, name: 'other', env: { PS1: 'other$ ' } },
      broken: '{ "name": "broken", "argv": [] ',
      noargv: { name: 'noargv' },
    },
    config: JSON.stringify({ keybindings: { F2: 'preset.process.other', CTRL_N: 'patterm.session.next', CTRL_Q: 'patterm.nope' } }),
  });
  try {
    const empty = await patterm.waitFor(/keybindings\.CTRL_Q: unknown command ID/, 'the config error in the status line');
    assert.match(empty[empty.length - 1], /config\.json/);

    patterm.keys('C-k');
    patterm.type('noargv');
    let lines = await patterm.waitFor((l) => l.some((line) => line.includes('Run process: noargv')), 'the broken preset entry');
    assert.ok(lines.some((line) => /Run process: noargv .*argv/.test(line)), 'its error is shown beside it');
    patterm.keys('Enter');
    lines = await patterm.waitFor((l) => /noargv\.json cannot be used: argv/.test(l[l.length - 1]), 'the reason when it is chosen');
    assert.ok(lines.some((line) => line.includes('Command palette')), 'the palette stays open');
    patterm.keys('C-u');
    patterm.type('broken');
    await patterm.waitFor((l) => l.some((line) => /Run process: broken .*JSON/.test(line)), 'the unparsable preset, with its JSON error');
    patterm.keys('Escape');
    await patterm.waitFor((l) => !l.some((line) => line.includes('Command palette')), 'the palette to close');

    patterm.keys('F2'); // bound to preset.process.other: the other presets still work
    await patterm.waitFor((l) => patterm.mainArea(l)[0] === 'other$', 'F2 to start "other"');
    await patterm.runPalette('run process: bash', 'Run process: bash');
    await patterm.waitFor((l) => patterm.mainArea(l)[0] === '$', 'bash');
    patterm.keys('C-n'); // patterm.session.next wraps to the first session
    await patterm.waitFor((l) => patterm.mainArea(l)[0] === 'other$', 'Ctrl-N to switch sessions');
  } finally {
    patterm.stop();
  }
});
