/**
 * The agent state machine on recorded sessions of the real CLIs (the cassettes
 * in test/fixtures/cassettes/), replayed through the real emulator with every
 * output chunk split in two and a fake clock set to the recorded times, and on
 * screens and signals made up to pin down each rule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { matchScreenPatterns, terminalSignalFromOsc, type StateRules } from '../../src/shared/agent-state.js';
import type { AgentPreset, Dialog } from '../../src/shared/preset-schema.js';
import { parsePreset } from '../../src/shared/preset-schema.js';
import { bundledPresetDirs } from '../../src/main/presets/preset-paths.js';
import { loadPresetDir } from '../../src/main/presets/preset-loader.js';
import { loadCassette } from '../fixtures/cassette/cassette-player.js';
import { replayStates, ScreenMachine, type Observed } from '../fixtures/cassette/state-replay.js';
import { approvals } from '../main/presets/preset-dialogs.js';

const CASSETTES = fileURLToPath(new URL('../../../test/fixtures/cassettes/', import.meta.url));
const presets = new Map(loadPresetDir('agent', bundledPresetDirs().agents).presets.map((entry) => [entry.id, entry.preset]));

const show = (seen: Observed | undefined) => (seen ? `${JSON.stringify(seen.state)}\n${seen.lines.filter((line) => line.trim() !== '').join('\n')}` : '(nothing)');

function preset(vendor: string): AgentPreset {
  const found = presets.get(vendor);
  assert.ok(found, `no bundled preset ${vendor}`);
  return found;
}

for (const name of readdirSync(CASSETTES).sort()) {
  const cassette = loadCassette(`${CASSETTES}${name}`);
  const vendor = cassette.manifest.harness.preset;
  const states = replayStates(cassette, preset(vendor));

  test(`${name}: starting, then idle at the ready prompt before the first message, busy after its Enter`, async () => {
    const seen = await states;
    assert.equal(seen[0].state.state, 'starting', show(seen[0]));
    const beforeTyping = seen.filter((s) => s.inputsBefore === 0).at(-1);
    assert.equal(beforeTyping?.state.state, 'idle', show(beforeTyping));
    assert.deepEqual(beforeTyping?.state.source, { kind: 'pattern', detail: 'ready_signal.pattern' });
    const firstEnter = cassette.inputEvents.findIndex((input) => input.data === '\r');
    // Between the typed text and the busy marker the screen is neither ready nor busy: recent output says busy, by quiet time.
    const signal = preset(vendor).ready_signal;
    assert.ok(signal?.kind === 'pattern' && signal.busy_pattern);
    const marker = new RegExp(signal.busy_pattern, 'm');
    const shown = seen.find((s) => s.inputsBefore > firstEnter && marker.test(s.lines.join('\n')));
    // One recording lost its marker to the scrubber ("esc inteXrupt"): there, quiet time alone says busy.
    const busy = shown ?? seen.find((s) => s.inputsBefore > firstEnter && s.state.state === 'busy');
    assert.ok(busy, `never busy after the first Enter; last:\n${show(seen.at(-1))}`);
    assert.equal(busy.state.state, 'busy', show(busy));
    assert.deepEqual(busy.state.source.detail, shown ? 'ready_signal.busy_pattern' : busy.state.source.detail, show(busy));
    // `since` is the clock at the change, and stays put while the state holds.
    const entered = seen.find((s) => s.state.state === 'busy' && s.state.since === busy.state.since);
    assert.equal(entered?.t, busy.state.since);
  });

  // Only recordings with a dialog in them have one to check; the *-shell-approval cassettes were made for it.
  const answers = approvals(cassette, preset(vendor));
  if (answers.length > 0 || name.endsWith('-shell-approval')) test(`${name}: a permission dialog is waiting_permission, found by the preset's dialog pattern in its region`, async () => {
    const seen = await states;
    assert.ok(answers.length > 0, 'the recording answers a dialog with one of its preset\'s keys');
    for (const index of answers) {
      // The recorder can log the approval a chunk before the dialog's bytes: look between the inputs around it.
      const around = seen.filter((s) => s.inputsBefore >= index - 1 && s.inputsBefore <= index + 1);
      const waiting = around.find((s) => s.state.state === 'waiting_permission');
      assert.ok(waiting, `no waiting_permission around approval #${index}; last:\n${show(around.at(-1))}`);
      assert.equal(waiting.state.source.kind, 'pattern');
      assert.match(waiting.state.source.detail, /^dialogs\[\d+\] \(permission\)$/);
      assert.match(waiting.state.dialog?.text ?? '', /Do you want to proceed\?|Allow the patterm MCP server to run tool "kill"|Would you like to run the following command\?|Permission required/);
      assert.match(waiting.state.dialog?.text ?? '', /kill|touch|external directory/i, 'the dialog text names the tool, command or directory it asks about');
      const after = seen.slice(seen.indexOf(waiting)).find((s) => s.inputsBefore > index && s.state.state !== 'waiting_permission');
      assert.ok(after, 'the state moves on once the dialog is answered');
    }
  });
}

// ---- rules pinned down on made-up screens ----

const PERMISSION: Dialog = { kind: 'permission', pattern: '^Allow\\?', region: { bottom_rows: 3 }, keys: { approve_once: 'y', deny: 'n' } };
const QUESTION: Dialog = { kind: 'question', pattern: 'Which file\\?', region: { below: '^─{5,}$' } };

function machine(rules: Partial<StateRules> = {}) {
  const clock = { now: 0 };
  const full: StateRules = { dialogs: [PERMISSION, QUESTION], readyPattern: '^> $', busyPattern: 'working', idleThresholdMs: 1000, startLimitMs: 60_000, ...rules };
  return { clock, machine: new ScreenMachine(full, () => clock.now, 0) };
}

const screen = (...rows: string[]) => [...Array(10 - rows.length).fill(''), ...rows];

test('dialog text printed outside its region does not count; in its region it does', () => {
  const { clock, machine: m } = machine();
  clock.now = 100;
  assert.equal(m.see({ lines: ['Allow?', 'cat notes.txt', ...screen('> ').slice(2)], idleMs: 2000 }).state, 'idle');
  clock.now = 200;
  const waiting = m.see({ lines: screen('Run rm -rf build', 'Allow?', '1 yes 2 no'), idleMs: 0 });
  assert.equal(waiting.state, 'waiting_permission');
  assert.equal(waiting.since, 200);
  // The region's rows, which name what is asked (a policy checks this text).
  assert.equal(waiting.dialog?.text, 'Run rm -rf build\nAllow?\n1 yes 2 no');
  // "below": only under the last rule line; with no rule on screen, nowhere.
  assert.equal(m.see({ lines: screen('Which file?', '─────', '> '), idleMs: 2000 }).state, 'idle');
  assert.equal(m.see({ lines: screen('─────', 'Which file?', ''), idleMs: 0 }).state, 'waiting_input');
  assert.equal(m.see({ lines: screen('Which file?'), idleMs: 0 }).state, 'busy');
});

test('a dialog wins over activity: a blinking title keeps the output going, the dialog still shows waiting_permission', () => {
  const { clock, machine: m } = machine();
  const dialog = screen('working on it', 'Allow?', '1 yes');
  for (clock.now = 0; clock.now < 3000; clock.now += 100) {
    // Output every 100 ms (a title blink) and a busy marker above: still the dialog.
    const state = m.see({ lines: dialog, idleMs: 50 });
    assert.equal(state.state, 'waiting_permission');
    assert.equal(state.since, 0);
  }
});

test('a screen half drawn inside a synchronized update is not judged, unless the program leaves it so past a frame\'s time', () => {
  const { clock, machine: m } = machine();
  clock.now = 100;
  assert.equal(m.see({ lines: screen('> '), idleMs: 2000 }).state, 'idle');
  clock.now = 200;
  // The top of a dialog over the rest of the old screen: no verdict yet.
  const half = m.see({ lines: screen('Run rm -rf build', 'Allow?', '> '), idleMs: 0, synchronizedUpdate: true });
  assert.equal(half.state, 'idle');
  assert.equal(half.since, 100);
  clock.now = 250;
  assert.equal(m.see({ lines: screen('Run rm -rf build', 'Allow?', '1 yes 2 no'), idleMs: 0 }).dialog?.text, 'Run rm -rf build\nAllow?\n1 yes 2 no');
  clock.now = 5000;
  assert.equal(m.see({ lines: screen('> '), idleMs: 4000, synchronizedUpdate: true }).state, 'idle', 'a program that never ends its update is judged as it stands');
});

test('starting lasts until a pattern judges, or until the start limit; without a ready pattern until the first quiet spell', () => {
  const { clock, machine: m } = machine({ startLimitMs: 5000 });
  clock.now = 2000;
  assert.equal(m.see({ lines: screen('loading…'), idleMs: 1500 }).state, 'starting');
  clock.now = 5000;
  const fallback = m.see({ lines: screen('loading…'), idleMs: 1500 });
  assert.equal(fallback.state, 'idle');
  assert.equal(fallback.source.kind, 'quiet');
  const plain = machine({ readyPattern: undefined, busyPattern: undefined, dialogs: [] });
  plain.clock.now = 300;
  assert.equal(plain.machine.see({ lines: screen('$ '), idleMs: 300 }).state, 'starting');
  plain.clock.now = 1500;
  assert.equal(plain.machine.see({ lines: screen('$ '), idleMs: 1200 }).state, 'idle');
  assert.equal(plain.machine.see({ lines: screen('$ make'), idleMs: 10 }).state, 'busy');
  // Once started, a screen that shows neither pattern is busy or idle by quiet time, never starting again.
  m.see({ lines: screen('> '), idleMs: 10 });
  assert.equal(m.see({ lines: screen('compiling'), idleMs: 10 }).state, 'busy');
  // A program that never pauses is starting only until the start limit, then busy.
  const endless = machine({ readyPattern: undefined, busyPattern: undefined, dialogs: [], startLimitMs: 5000 });
  endless.clock.now = 4000;
  assert.equal(endless.machine.see({ lines: screen('|'), idleMs: 50 }).state, 'starting');
  endless.clock.now = 6000;
  assert.equal(endless.machine.see({ lines: screen('/'), idleMs: 50 }).state, 'busy');
});

test('OSC 9;4 progress says busy until removed; a notification or bell speaks only until the next output', () => {
  const { clock, machine: m } = machine({ readyPattern: undefined, busyPattern: undefined });
  clock.now = 2000;
  m.noteSignal({ type: 'progress', state: 3 });
  assert.deepEqual(m.see({ lines: screen('thinking'), idleMs: 5000 }).source, { kind: 'signal', detail: 'OSC 9;4 progress' });
  m.noteSignal({ type: 'progress', state: 0 });
  assert.equal(m.see({ lines: screen('done'), idleMs: 5000 }).source.kind, 'quiet');
  clock.now = 10_000;
  m.noteSignal({ type: 'notification', text: 'Claude needs your permission to use Bash' });
  clock.now = 10_050;
  assert.equal(m.see({ lines: screen('?'), idleMs: 60 }).state, 'waiting_permission');
  clock.now = 12_000;
  // Output 100 ms ago, long after the notification: it no longer describes the screen.
  assert.equal(m.see({ lines: screen('!'), idleMs: 100 }).state, 'busy');
  m.noteSignal({ type: 'bell' });
  assert.deepEqual(m.see({ lines: screen('!'), idleMs: 100 }).source, { kind: 'signal', detail: 'bell' });
});

test('a title that asks for the user (codex blinks "[ ! ] Action Required") is waiting_permission while it stands, whatever the output', () => {
  const { clock, machine: m } = machine({ readyPattern: undefined, busyPattern: undefined, dialogs: [] });
  clock.now = 5000;
  for (const title of ['[ . ] Action Required', '[ ! ] Action Required']) {
    const state = m.see({ lines: screen('Would you like to run it?'), idleMs: 40, title });
    assert.equal(state.state, 'waiting_permission');
    assert.equal(state.source.detail, `title ${JSON.stringify(title)}`);
  }
  assert.equal(m.see({ lines: screen('running'), idleMs: 40, title: 'codex' }).state, 'busy');
  // The preset's patterns are stronger: a dialog pattern or busy marker on screen decides first.
  const withPatterns = machine();
  withPatterns.clock.now = 5000;
  assert.equal(withPatterns.machine.see({ lines: screen('working'), idleMs: 40, title: '[ ! ] Action Required' }).state, 'busy');
});

test('when the preset\'s patterns cannot be used, signals and quiet time judge, and the evidence says why', () => {
  const { clock, machine: m } = machine({ startLimitMs: 60_000 });
  const why = 'dialogs[0].pattern ".*X" overran';
  clock.now = 1000;
  // With a ready pattern the pane would be starting until it shows; unusable, the first quiet spell says idle.
  const quiet = m.observe({ patterns: { unusable: why }, idleMs: 1500 });
  assert.equal(quiet.state, 'idle');
  assert.deepEqual(quiet.source, { kind: 'quiet', detail: `no output for 1500 ms (idle threshold 1000 ms); ${why}` });
  assert.equal(m.observe({ patterns: { unusable: why }, idleMs: 10 }).source.detail, `output 10 ms ago (idle threshold 1000 ms); ${why}`);
  m.noteSignal({ type: 'progress', state: 1 });
  assert.deepEqual(m.observe({ patterns: { unusable: why }, idleMs: 5000 }).source, { kind: 'signal', detail: `OSC 9;4 progress; ${why}` });
});

test('exited is final', () => {
  const { machine: m } = machine();
  assert.equal(m.noteExit('code 0').state, 'exited');
  assert.equal(m.see({ lines: screen('Allow?'), idleMs: 0 }).state, 'exited');
});

test('OSC 9 and 777 payloads: progress, notifications, and ConEmu commands that are neither', () => {
  assert.deepEqual(terminalSignalFromOsc(9, '4;3;'), { type: 'progress', state: 3 });
  assert.deepEqual(terminalSignalFromOsc(9, '4;0'), { type: 'progress', state: 0 });
  assert.deepEqual(terminalSignalFromOsc(9, 'Build finished'), { type: 'notification', text: 'Build finished' });
  assert.equal(terminalSignalFromOsc(9, '9;/home/me'), null);
  assert.deepEqual(terminalSignalFromOsc(777, 'notify;Codex;Approval requested'), { type: 'notification', text: 'Codex: Approval requested' });
  assert.equal(terminalSignalFromOsc(777, 'precmd'), null);
});

test('the preset schema checks dialogs and names the field', () => {
  const base = { name: 'x', argv: ['x'] };
  assert.equal(parsePreset('agent', { ...base, dialogs: [PERMISSION, QUESTION] }).ok, true);
  const problems = (value: unknown) => {
    const parsed = parsePreset('agent', { ...base, dialogs: [value] });
    return parsed.ok ? [] : parsed.problems;
  };
  assert.match(problems({ ...PERMISSION, kind: 'approval' }).join('\n'), /dialogs\.0\.kind: expected \("permission" \| "question"\), received "approval"/);
  assert.match(problems({ ...PERMISSION, pattern: '(' }).join('\n'), /dialogs\.0\.pattern: is not a valid regular expression/);
  assert.match(problems({ ...PERMISSION, region: { top_rows: 3 } }).join('\n'), /dialogs\.0\.region\.top_rows: unknown field/);
  assert.match(problems({ ...PERMISSION, region: { bottom_rows: 3, below: '^─+$' } }).join('\n'), /dialogs\.0\.region: must give exactly one of bottom_rows .* and below/);
  assert.match(problems({ ...PERMISSION, keys: { approve_once: '' } }).join('\n'), /dialogs\.0\.keys\.approve_once: must not be empty/);
  assert.match(problems({ ...PERMISSION, keys: { accept: 'y' } }).join('\n'), /dialogs\.0\.keys\.accept: unknown field/);
});
