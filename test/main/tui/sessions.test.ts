/**
 * Sessions, the tree and focus, in a real terminal (tmux): two sessions and
 * switching by palette and by clicking a tab; children that exit cleanly (✓)
 * and with an error (✗); focusing a child by palette and by click; and the
 * ownership indicator as control moves between the user and the orchestrator.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TmuxPatterm, BASH_PRESET, eventually } from './tmux-harness.js';

const PRESETS = {
  bash: BASH_PRESET,
  other: { ...BASH_PRESET, name: 'other', env: { PS1: 'other$ ', HISTFILE: '/dev/null' } },
  ok: { name: 'ok', argv: ['sh', '-c', 'echo ok-done'] },
  fail: { name: 'fail', argv: ['sh', '-c', 'echo failing-now; exit 3'] },
};

async function withPatterm(run: (p: TmuxPatterm) => Promise<void>): Promise<void> {
  const patterm = TmuxPatterm.start({ processPresets: PRESETS });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await run(patterm);
  } finally {
    patterm.stop();
  }
}

const mainHas = (patterm: TmuxPatterm, text: string) => (lines: string[]) => patterm.mainArea(lines).some((line) => line.includes(text));

test('two sessions: each gets a tab; the palette and a click on a tab switch between them', () =>
  withPatterm(async (patterm) => {
    await patterm.spawnBash('the first prompt');
    patterm.type('echo first-session');
    patterm.keys('Enter');
    await patterm.waitFor(mainHas(patterm, 'first-session'), 'output in the first session');

    await patterm.runPalette('other', 'Run process: other');
    await patterm.waitFor((lines) => patterm.mainArea(lines)[0] === 'other$', 'the second session, focused');
    let lines = patterm.screen();
    assert.match(lines[0], /^ bash +other +\+/, 'two tabs, then +');
    assert.ok(lines.some((line) => line.includes('▶ other')), 'the tree shows the active session');
    assert.ok(!lines.some((line) => line.includes('▶ bash')), 'and only the active session');

    await patterm.runPalette('switch', 'Switch to session…');
    await patterm.waitFor(/Switch to session…/, 'the session list');
    patterm.type('bash');
    patterm.keys('Enter');
    lines = await patterm.waitFor(mainHas(patterm, 'first-session'), 'the first session again, with its screen');
    assert.ok(lines.some((line) => line.includes('▶ bash')), 'the tree swapped to the first session');

    const tab = patterm.screen()[0].indexOf('other');
    patterm.click(tab + 1, 0);
    await patterm.waitFor((l) => patterm.mainArea(l)[0] === 'other$', 'a click on the tab to switch');
  }));

test('the tree shows children that exited cleanly (✓) and with an error (✗); focusing a child shows its screen', () =>
  withPatterm(async (patterm) => {
    await patterm.spawnBash('the session prompt');

    await patterm.runPalette('in bash ok', 'Run process in bash: ok');
    await patterm.waitFor(mainHas(patterm, 'ok-done'), 'the ok child, focused as it starts');
    await patterm.waitFor(/ok exited 0 · Ctrl-D closes it/, 'the ok child to exit');
    await patterm.runPalette('in bash fail', 'Run process in bash: fail');
    await patterm.waitFor(mainHas(patterm, 'failing-now'), 'the fail child, focused');
    let lines = await patterm.waitFor(/fail exited 3/, 'the fail child to exit with its code');

    const tree = lines.map((line) => line.slice(line.indexOf('│') + 1).trim());
    const root = tree.findIndex((line) => line.startsWith('▶ bash'));
    assert.ok(root >= 0, 'the root is drawn with ▶');
    assert.match(tree[root + 1], /^├─ ✓ ok\b/);
    assert.match(tree[root + 2], /^└─ ✗ fail exit 3\b/);

    // A click on the root entry focuses the orchestrator pane.
    const row = lines.findIndex((line) => line.includes('▶ bash'));
    patterm.click(lines[row].indexOf('▶') + 2, row);
    lines = await patterm.waitFor((l) => patterm.mainArea(l)[0] === '$', 'the root pane after the click');
    assert.match(lines[lines.length - 1], /you have control/);

    await patterm.runPalette('focus pane', 'Focus pane…');
    await patterm.waitFor(/Focus pane…/, 'the pane list');
    patterm.type('ok');
    patterm.keys('Enter');
    await patterm.waitFor(mainHas(patterm, 'ok-done'), 'the ok child focused from the palette');
  }));

test('ownership: release to the orchestrator shows "orchestrator driving"; a keypress takes control back', () =>
  withPatterm(async (patterm) => {
    await patterm.spawnBash('the session prompt');
    await patterm.runPalette('in bash other', 'Run process in bash: other');
    let lines = await patterm.waitFor((l) => patterm.mainArea(l)[0] === 'other$', 'the child, focused');
    assert.match(lines[lines.length - 1], /you have control/);

    await patterm.runPalette('release', 'Release control to orchestrator');
    lines = await patterm.waitFor((l) => /orchestrator driving/.test(l[l.length - 1]), 'the orchestrator-owned indicator');
    patterm.keys('C-k');
    lines = await patterm.waitFor(/Command palette/, 'the palette');
    assert.ok(lines.some((line) => line.includes('Take input control')), 'taking control is offered now');
    assert.ok(!lines.some((line) => line.includes('Release control to orchestrator')), 'releasing is not');
    patterm.keys('Escape');
    await patterm.waitFor((l) => !l.some((line) => line.includes('Command palette')), 'the palette to close');

    patterm.type('x'); // any keypress in the pane flips ownership to the user
    await patterm.waitFor((l) => /you have control/.test(l[l.length - 1]), 'control back with the user');
    await patterm.waitFor(mainHas(patterm, 'other$ x'), 'and the key reached the program');
  }));

test('rename, "+" and the scratchpad list: the tab follows a rename, "+" opens the spawn list, a chosen scratchpad is previewed', async () => {
  const patterm = TmuxPatterm.start({ processPresets: PRESETS });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    // Two scratchpads on disk from an earlier run: the rail lists both and previews the newest.
    const { existsSync, mkdirSync, writeFileSync, utimesSync, readdirSync } = await import('node:fs');
    const projects = `${patterm.dirs.data}/patterm/projects`;
    // The project's directory comes with the MCP server, which starts after the first frame.
    await eventually(() => existsSync(projects) && readdirSync(projects).length > 0, 'the project data directory');
    const pads = `${projects}/${readdirSync(projects)[0]}/scratchpads`;
    mkdirSync(pads, { recursive: true });
    writeFileSync(`${pads}/older.md`, 'older content');
    utimesSync(`${pads}/older.md`, new Date(1_000_000), new Date(1_000_000));
    writeFileSync(`${pads}/newer.md`, 'newer content');

    patterm.click(1, 0); // "+" on the empty canvas
    await patterm.waitFor(/Spawn…/, 'the spawn list');
    patterm.type('bash');
    patterm.keys('Enter');
    await patterm.waitFor((l) => patterm.mainArea(l)[0] === '$', 'bash');
    await patterm.waitFor((l) => l.some((line) => line.includes('newer content')), 'the newest scratchpad previewed');

    await patterm.runPalette('open scratch', 'Open scratchpad…');
    await patterm.waitFor(/Open scratchpad…/, 'the scratchpad list');
    patterm.type('older');
    patterm.keys('Enter');
    await patterm.waitFor((l) => l.some((line) => line.includes('older content')), 'the chosen scratchpad previewed');

    await patterm.runPalette('rename', 'Rename…');
    await patterm.waitFor(/Rename bash/, 'the rename prompt, prefilled');
    patterm.keys('C-u');
    patterm.type('my-shell');
    patterm.keys('Enter');
    const lines = await patterm.waitFor((l) => l[0].startsWith(' my-shell '), 'the renamed tab');
    assert.ok(lines.some((line) => line.includes('▶ my-shell')), 'the tree follows');
  } finally {
    patterm.stop();
  }
});

test('a flooding pane blocks neither input nor the rest of the UI', async () => {
  const patterm = TmuxPatterm.start({ processPresets: { ...PRESETS, flood: { name: 'flood', argv: ['sh', '-c', 'yes "flooding flooding flooding"'] } } });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.runPalette('run process: flood', 'Run process: flood');
    await patterm.waitFor((l) => patterm.mainArea(l).filter((line) => line === 'flooding flooding flooding').length > 10, 'the flood on screen');
    // The palette opens and filters over the flooding pane.
    patterm.keys('C-k');
    await patterm.waitFor(/Command palette/, 'the palette over the flood');
    patterm.type('run process: bash');
    patterm.keys('Enter');
    await patterm.waitFor((l) => patterm.mainArea(l)[0] === '$', 'a second session while the first floods');
    patterm.type('echo typed-during-flood');
    patterm.keys('Enter');
    await patterm.waitFor((l) => patterm.mainArea(l).includes('typed-during-flood'), 'the echo while the other session floods');
    const tab = patterm.screen()[0].indexOf('flood');
    patterm.click(tab + 1, 0);
    await patterm.waitFor((l) => patterm.mainArea(l).filter((line) => line === 'flooding flooding flooding').length > 10, 'back to the flood');
    patterm.keys('C-c');
    await patterm.waitFor((l) => /flood (exited|killed)/.test(l[l.length - 1]), 'Ctrl-C to reach the flooding program');
  } finally {
    patterm.stop();
  }
});

test('a dozen sessions in 80 columns: the tab strip scrolls to keep the active tab whole, marking hidden tabs with ‹ and ›', async () => {
  const SESSIONS = 12;
  const patterm = TmuxPatterm.start({ processPresets: PRESETS, cols: 80, rows: 24 });
  const tabName = (i: number) => (i === 1 ? 'bash' : `bash-${i}`);
  const showsSession = (i: number) => (lines: string[]) =>
    patterm.mainArea(lines).includes(`in-session-${i}`) && lines[0].includes(` ${tabName(i)} `);
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    for (let i = 1; i <= SESSIONS; i++) {
      await patterm.runPalette('run process: bash', 'Run process: bash');
      await patterm.waitFor((lines) => lines[0].includes(` ${tabName(i)} `) && patterm.mainArea(lines).at(-1) !== undefined && patterm.mainArea(lines).includes('$'), `session ${i}`);
      patterm.type(`echo in-session-$(( ${i} ))`);
      patterm.keys('Enter');
      await patterm.waitFor(showsSession(i), `session ${i}'s own output`);
    }
    let lines = patterm.screen();
    assert.match(lines[0], /^‹/, 'the first tabs are scrolled off to the left');
    assert.ok(!lines[0].includes(' bash '), 'the first session\'s tab is hidden');

    await patterm.runPalette('switch', 'Switch to session…');
    await patterm.waitFor(/Switch to session…/, 'the session list');
    patterm.type('bash');
    patterm.keys('Enter');
    lines = await patterm.waitFor(showsSession(1), 'the first session, its tab shown whole');
    assert.ok(!lines[0].startsWith('‹'), 'nothing is hidden on the left');
    assert.match(lines[0], / bash-\d+ › \+ /, `the later tabs are hidden on the right, marked next to the last one shown: ${JSON.stringify(lines[0])}`);

    // Next session walks every session in order, each time with its tab whole and its own screen.
    for (let i = 2; i <= SESSIONS; i++) {
      await patterm.runPalette('next session', 'Next session');
      lines = await patterm.waitFor(showsSession(i), `next session: ${tabName(i)}`);
    }
    assert.match(lines[0], /^‹/, 'at the last session the strip is scrolled again');
  } finally {
    patterm.stop();
  }
});
