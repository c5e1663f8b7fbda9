/**
 * A dialog that follows a dialog is a new wait: on made-up screens, each rule
 * of which dialog a pane waits on, and since when; on a recording of opencode
 * asking twice in a row (the opencode-two-dialogs cassette), two waits with
 * two texts, whether or not the screen between them is ever read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { AgentState, StateRules } from '../../src/shared/agent-state.js';
import { ANSWER_TAKE_MS, DIALOG_GAP_MS } from '../../src/shared/dialog-waits.js';
import type { Dialog } from '../../src/shared/preset-schema.js';
import { bundledPresetDirs } from '../../src/main/presets/preset-paths.js';
import { loadPresetDir } from '../../src/main/presets/preset-loader.js';
import { loadCassette, replayFrames } from '../fixtures/cassette/cassette-player.js';
import { replayStates, ScreenMachine, waitsIn, type Observed } from '../fixtures/cassette/state-replay.js';
import { approvals, dialogOn } from '../main/presets/preset-dialogs.js';

const PERMISSION: Dialog = { kind: 'permission', pattern: '^ Do you want to proceed\\?', region: { below: '^─{5,}$' }, keys: { approve_once: '1', deny: '3' } };
const QUESTION: Dialog = { kind: 'question', pattern: '^ Question: ', region: { below: '^─{5,}$' } };
const RULES: StateRules = { dialogs: [PERMISSION, QUESTION], readyPattern: '^> $', busyPattern: 'working', idleThresholdMs: 1000, startLimitMs: 60_000 };

const asking = (command: string, ...more: string[]) => ['transcript', '─────', ' Bash command', `   ${command}`, ' Do you want to proceed?', ' ❯ 1. Yes', '   3. No', ...more];
const question = (typed: string) => ['transcript', '─────', ' Question: which colour?', `> ${typed}`];
const working = ['transcript', '  working…'];

function machine() {
  const clock = { now: 0 };
  const m = new ScreenMachine(RULES, () => clock.now, 0);
  /** The state judged on `lines` at clock time `at`. */
  const at = (time: number, lines: string[], idleMs = 0): AgentState => {
    clock.now = time;
    return m.see({ lines, idleMs });
  };
  return { clock, m, at };
}

test('a dialog drawn over the one before it is a new wait, with its own text', () => {
  const { at } = machine();
  const first = at(100, asking('touch x'));
  assert.equal(first.state, 'waiting_permission');
  assert.equal(first.since, 100);
  const second = at(300, asking('cat /etc/hostname'));
  assert.equal(second.state, 'waiting_permission');
  assert.equal(second.since, 300, 'another dialog: a new wait');
  assert.match(second.dialog?.text ?? '', /cat \/etc\/hostname/);
  assert.equal(at(400, asking('cat /etc/hostname')).since, 300, 'the same dialog read again: the same wait');
});

test('a spinner, a timer and a countdown redrawing inside the dialog keep its wait, and its text follows the screen', () => {
  const { at } = machine();
  const spinner = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
  for (let tick = 0; tick < 700; tick++) {
    const age = Math.floor(tick / 10);
    const left = 600 - age;
    const row = ` ${spinner[tick % 10]} asked ${age}s ago · ${left >= 60 ? `${Math.floor(left / 60)}m ${left % 60}s` : `${left}s`} left`;
    const state = at(1000 + tick * 100, asking('npm test', '', row));
    assert.equal(state.state, 'waiting_permission');
    assert.equal(state.since, 1000, `one wait all along; at ${row}`);
    assert.ok(state.dialog?.text.endsWith(row), 'the text is the latest drawn');
  }
});

test('text typed into a question\'s field keeps its wait', () => {
  const { at } = machine();
  assert.equal(at(100, question('')).state, 'waiting_input');
  for (const [i, typed] of ['b', 'bl', 'blue', 'blue and green', 'blue'].entries()) assert.equal(at(200 + i * 100, question(typed)).since, 100, typed);
  assert.equal(at(900, ['transcript', '─────', ' Question: which size?', '> ']).since, 900, 'the next question is a new wait');
});

test('an answered dialog still on screen is busy until the program takes the answer; the one that follows is a new wait', () => {
  const { clock, m, at } = machine();
  at(100, asking('touch x'));
  clock.now = 200;
  const answered = m.noteAnswered();
  assert.equal(answered.state, 'busy');
  assert.deepEqual(answered.source, { kind: 'input', detail: 'dialogs[0] answered; the program has yet to take the answer' });
  assert.equal(answered.since, 200);
  assert.equal(answered.dialog, undefined, 'no dialog to quote');
  assert.equal(at(250, asking('touch x')).state, 'busy', 'still drawn: not waited on again');
  const next = at(300, asking('cat /etc/hostname'));
  assert.equal(next.state, 'waiting_permission');
  assert.equal(next.since, 300);
  assert.match(next.dialog?.text ?? '', /cat \/etc\/hostname/);
  // Answering needs a dialog: with none on screen, nothing changes.
  assert.equal(at(400, working).state, 'busy');
  assert.equal(m.noteAnswered().since, 400);
});

test('an answered dialog that stays past the time to take the answer waits again, as a new wait', () => {
  const { clock, m, at } = machine();
  at(100, asking('touch x'));
  clock.now = 200;
  m.noteAnswered();
  assert.equal(at(200 + ANSWER_TAKE_MS - 1, asking('touch x')).state, 'busy');
  const again = at(200 + ANSWER_TAKE_MS, asking('touch x'));
  assert.equal(again.state, 'waiting_permission');
  assert.equal(again.since, 200 + ANSWER_TAKE_MS);
});

test('the same dialog asked again after the answered one left the screen is a new wait at once', () => {
  const { clock, m, at } = machine();
  at(100, asking('touch x'));
  clock.now = 200;
  m.noteAnswered();
  assert.equal(at(300, working).state, 'busy');
  const again = at(400, asking('touch x'));
  assert.equal(again.state, 'waiting_permission');
  assert.equal(again.since, 400);
});

test('an unanswered dialog lost from a read or two keeps its wait; back after longer, it is a new one', () => {
  const { at } = machine();
  at(100, asking('touch x'));
  // A read half-way through a full redraw: the rule line is there, the dialog not yet.
  assert.equal(at(200, ['transcript', '─────']).state, 'busy');
  const back = at(700, asking('touch x'));
  assert.equal(back.state, 'waiting_permission');
  assert.equal(back.since, 100, 'the same wait');
  at(800, working);
  assert.equal(at(800 + DIALOG_GAP_MS + 1, asking('touch x')).since, 800 + DIALOG_GAP_MS + 1, 'asked again');
  at(3000, working);
  assert.equal(at(3100, asking('rm x')).since, 3100, 'another dialog after a gap is a new wait');
});

// ---- opencode 1.18.33 asking twice in a row, recorded offline ----

const CASSETTE = loadCassette(fileURLToPath(new URL('../../../test/fixtures/cassettes/opencode-two-dialogs', import.meta.url)));
const OPENCODE = loadPresetDir('agent', bundledPresetDirs().agents).presets.find((entry) => entry.id === 'opencode')!.preset;
const ANSWERS = approvals(CASSETTE, OPENCODE);
/** opencode's screens between its two dialogs: the coordinator, reading now and then, may never see one. */
const BETWEEN = (screen: { lines: readonly string[]; inputsBefore: number }) => screen.inputsBefore === ANSWERS[0] + 1 && dialogOn(OPENCODE, screen.lines) === undefined;

const show = (seen: readonly Observed[]) => seen.map((s) => `${s.t} ms, ${s.inputsBefore} inputs: ${s.state.state} since ${s.state.since} (${s.state.source.detail})\n${s.state.dialog?.text ?? ''}`).join('\n\n');

/** The two waits: opencode asks for the directory outside the project, then for the command, each text whole. */
function assertTwoWaits(seen: readonly Observed[]): void {
  const waits = waitsIn(seen);
  assert.equal(waits.length, 2, `two waits:\n${show(waits)}`);
  const [directory, command] = waits;
  assert.match(directory.state.dialog?.text ?? '', /Permission required[\s\S]*Access external directory \/etc[\s\S]*Allow once/);
  assert.match(command.state.dialog?.text ?? '', /Permission required[\s\S]*\$ touch x && cat \/etc\/hostname[\s\S]*Allow once/);
  assert.doesNotMatch(command.state.dialog?.text ?? '', /external directory/);
  assert.ok(command.state.since > directory.state.since);
  assert.ok(directory.inputsBefore <= ANSWERS[0] && command.inputsBefore > ANSWERS[0], 'one before the first answer, one after');
}

test('opencode-two-dialogs: the recording answers two dialogs with the preset\'s keys, and shows a screen between them', async () => {
  assert.equal(ANSWERS.length, 2, JSON.stringify(CASSETTE.inputEvents));
  const frames = await replayFrames(CASSETTE);
  assert.ok(frames.some((frame) => BETWEEN(frame)), 'a screen without a dialog between the two');
});

test('opencode-two-dialogs: judged after every output, two waits with two texts, none of them half drawn', async () => {
  assertTwoWaits(await replayStates(CASSETTE, OPENCODE));
});

test('opencode-two-dialogs: with the screens between the dialogs never read, still two waits', async () => {
  const seen = await replayStates(CASSETTE, OPENCODE, { unread: BETWEEN });
  assert.ok(seen.filter((s) => s.inputsBefore === ANSWERS[0] + 1).every((s) => s.state.state === 'waiting_permission'), 'waiting all along');
  assertTwoWaits(seen);
});

test('opencode-two-dialogs: answered through send_input, busy until opencode takes the answer, then the second wait', async () => {
  for (const unread of [undefined, BETWEEN]) {
    const seen = await replayStates(CASSETTE, OPENCODE, { answers: ANSWERS, unread });
    assertTwoWaits(seen);
    const answered = seen.find((s) => s.inputsBefore === ANSWERS[0] + 1);
    assert.equal(answered?.state.state, 'busy', show(seen.filter((s) => s.inputsBefore > ANSWERS[0]).slice(0, 3)));
    assert.equal(answered.state.source.kind, 'input');
  }
});
