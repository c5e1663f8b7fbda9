/**
 * Golden tests on recorded sessions of the real vendor CLIs (cassettes in
 * test/fixtures/cassettes/, recorded by the *.agents.ts suite): replayed
 * through the real emulator, the default presets' ready signal, submission
 * check and chrome trimming must read the screens the way they did live.
 * No CLI is needed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AgentPreset, ReadySignal } from '../../../src/shared/preset-schema.js';
import { trimChrome } from '../../../src/shared/chrome-trim.js';
import { bundledPresetDirs } from '../../../src/main/presets/preset-paths.js';
import { loadPresetDir } from '../../../src/main/presets/preset-loader.js';
import { screenState } from '../../../src/main/presets/ready-state.js';
import { confirmSubmission, typedInput, type ScreenView, type TypedInput } from '../../../src/main/presets/submission-check.js';
import { frameBeforeInput, loadCassette, replayFrames, type Cassette, type Frame } from '../../fixtures/cassette/cassette-player.js';
import { approvals, dialogOn, submissions } from './preset-dialogs.js';

const CASSETTES = fileURLToPath(new URL('../../../../test/fixtures/cassettes/', import.meta.url));
const presets = new Map(loadPresetDir('agent', bundledPresetDirs().agents).presets.map((entry) => [entry.id, entry.preset]));

/** Text that is chrome in each CLI and must be gone after trimming. */
const CHROME: Record<string, RegExp[]> = {
  claude: [/Claude Code v\d/, /\? for shortcuts/, /^─{20,}$/],
  codex: [/>_ OpenAI Codex/, /\? for shortcuts/, /[\u2800-\u28ff]{4}/],
  opencode: [/ctrl\+p commands/, /╹▀/],
};

/** A frame as the submission check reads it: with the ready signal's verdict on it. */
async function viewOf(signal: ReadySignal, frame: Frame): Promise<ScreenView> {
  return { lines: frame.lines, cursor: frame.cursor, state: await screenState(signal, frame.lines) };
}

/** The first of `frames` the submission check takes as proof that `typed` was submitted. */
async function firstConfirming(signal: ReadySignal, typed: TypedInput, frames: Frame[]): Promise<Frame | undefined> {
  for (const frame of frames) if (confirmSubmission(typed, await viewOf(signal, frame)) !== null) return frame;
  return undefined;
}

const show = (frame: Frame | undefined) => (frame ? frame.lines.filter((l) => l.trim() !== '').join('\n') : '(no frame)');

function presetFor(vendor: string): AgentPreset {
  const preset = presets.get(vendor);
  assert.ok(preset, `no bundled preset ${vendor}`);
  return preset;
}

/** What must survive trimming on the final screen of each kind of recording. */
function finalText(name: string, vendor: string): string {
  if (name.endsWith('-hello')) return `PONG from the fake model to ${vendor}`;
  if (name === 'codex-paste-burst') return 'PONG after the retried Enter';
  if (name.endsWith('-queued-while-busy')) return 'SECOND-DONE';
  if (name.endsWith('-shell-approval')) return 'SHELL-DONE';
  if (name.endsWith('-two-dialogs')) return `CHAIN-${vendor}-DONE`;
  return name.endsWith('-orchestrator') ? 'ORCH-DONE' : 'CHILD-ANSWER-OK';
}

for (const name of readdirSync(CASSETTES).sort()) {
  const cassette = loadCassette(`${CASSETTES}${name}`);
  const vendor = cassette.manifest.harness.preset;
  const preset = presetFor(vendor);
  const signal = preset.ready_signal!;
  const framesPromise = replayFrames(cassette);

  test(`${name}: the ready signal holds before the first message was typed, and not on the first screen`, async () => {
    const frames = await framesPromise;
    assert.ok(cassette.inputEvents.length >= 2, 'the cassette holds a typed message and its Enter');
    assert.notEqual(await screenState(signal, frames[0].lines), 'ready', `first screen already ready:\n${show(frames[0])}`);
    const beforeTyping = frameBeforeInput(frames, 0);
    assert.equal(await screenState(signal, beforeTyping!.lines), 'ready', `screen before typing:\n${show(beforeTyping)}`);
    assert.ok(cassette.final.ready_ms !== null, 'the live run saw the ready signal');
  });

  test(`${name}: each message is unconfirmed while typed and confirmed after its Enter, before the next input`, async () => {
    const frames = await framesPromise;
    const sent = submissions(cassette);
    assert.ok(sent.length >= 1, 'at least one submitted message');
    for (const { text, enter, next } of sent) {
      const message = JSON.stringify(cassette.inputEvents[text].data.slice(0, 60));
      const before = frameBeforeInput(frames, text)!;
      const typedFrame = frameBeforeInput(frames, enter)!;
      const typed = typedInput(await viewOf(signal, before), await viewOf(signal, typedFrame));
      assert.equal(confirmSubmission(typed, await viewOf(signal, typedFrame)), null, `${message} counted as submitted before Enter, on:\n${show(typedFrame)}`);
      const confirmed = await firstConfirming(signal, typed, frames.filter((frame) => frame.inputsBefore > enter && frame.inputsBefore <= next));
      assert.ok(confirmed, `${message}: no frame between its Enter and the next input confirms it`);
    }
  });

  const answered = approvals(cassette, preset);
  // Only recordings with a dialog in them have one to check; the *-shell-approval cassettes were made for it.
  if (answered.length > 0 || name.endsWith('-shell-approval')) {
    test(`${name}: a permission dialog shows where the preset says, is neither "ready" nor trimmed away, and is gone once answered`, async () => {
      const frames = await framesPromise;
      assert.ok(answered.length > 0, `none of the inputs is a key of the ${vendor} preset's dialogs: ${JSON.stringify(cassette.inputEvents.map((input) => input.data.slice(0, 20)))}`);
      for (const index of answered) {
        // The answer can be recorded a chunk before the dialog's bytes (the recorder reads output
        // asynchronously), so look for the dialog anywhere between the inputs around it.
        const frame = frames.find((f) => f.inputsBefore >= index - 1 && f.inputsBefore <= index + 1 && dialogOn(preset, f.lines));
        assert.ok(frame, `no permission dialog of the preset's on screen around answer #${index}`);
        const dialog = dialogOn(preset, frame.lines)!;
        assert.equal(dialog.kind, 'permission');
        assert.ok(Object.values(dialog.keys ?? {}).includes(cassette.inputEvents[index].data), `answer #${index} is one of the keys of the dialog on screen`);
        assert.equal(await screenState(signal, frame.lines), 'other', `a message would be typed into this dialog:\n${show(frame)}`);
        const kept = trimChrome(frame.lines, preset.chrome_trim_hints).lines;
        assert.match(kept.join('\n'), new RegExp(dialog.pattern, dialog.flags), `dialog trimmed away:\n${kept.join('\n')}`);
        assert.equal(dialogOn(preset, frames.at(-1)!.lines), undefined, `the dialog is still up at the end:\n${show(frames.at(-1))}`);
      }
    });
  }

  test(`${name}: chrome trimming keeps the conversation and drops the banner, input box and footer`, async () => {
    const frames = await framesPromise;
    const expected = finalText(name, vendor);
    // The last screen of the conversation: a killed child's very last screen is its exit message.
    const last = [...frames].reverse().find((frame) => frame.lines.some((line) => line.includes(expected)));
    assert.ok(last, `${expected} never on screen; last screen:\n${show(frames.at(-1))}`);
    const { lines, trimmedRows } = trimChrome(last.lines, preset.chrome_trim_hints);
    const kept = lines.join('\n');
    assert.ok(kept.includes(expected), `${expected} survives trimming:\n${kept}`);
    for (const chrome of CHROME[vendor] ?? []) assert.ok(!lines.some((line) => chrome.test(line)), `${chrome} survived trimming:\n${kept}`);
    assert.ok(trimmedRows.length > 0);
  });
}

test('codex: Enter sent with the text lands as a newline, and the check does not take that for a submit', async () => {
  const cassette = loadCassette(`${CASSETTES}codex-paste-burst`);
  const signal = presetFor('codex').ready_signal!;
  const frames = await replayFrames(cassette);
  const before = frameBeforeInput(frames, 0)!;
  const burst = frameBeforeInput(frames, 1)!;
  const textRow = burst.lines.find((line) => line.includes('BURST-TEXT'));
  assert.ok(textRow, `the text stays in the input:\n${show(burst)}`);
  assert.notEqual(burst.lines[burst.cursor.y], textRow, 'the cursor moved to a new input line');
  // What the launcher would have seen had it typed the text first: the text on the cursor row.
  const typed = { emptyRow: before.lines[before.cursor.y], echoRow: textRow, readyHidByTyping: true };
  assert.equal(confirmSubmission(typed, await viewOf(signal, burst)), null, `the burst screen was taken for a submit:\n${show(burst)}`);
  const after = await firstConfirming(signal, typed, frames.filter((frame) => frame.inputsBefore >= 2));
  assert.ok(after, 'the Enter sent on its own submits, and the check sees it');
});

test('codex keeps "? for shortcuts" up while busy, so the busy marker decides', async () => {
  const cassette = loadCassette(`${CASSETTES}codex-paste-burst`);
  const frames = await replayFrames(cassette);
  const both = frames.find((frame) => frame.lines.some((l) => /\? for shortcuts/.test(l)) && frame.lines.some((l) => /esc to interrupt/.test(l)));
  assert.ok(both, 'the recording shows codex busy with its ready hint up');
  assert.equal(await screenState(presetFor('codex').ready_signal!, both.lines), 'busy');
});

test('busy beats ready when both show', async () => {
  const signal = presetFor('codex').ready_signal!;
  assert.equal(await screenState(signal, ['• Working (0s • esc to interrupt)', '› Ask Codex', '  ? for shortcuts']), 'busy');
  assert.equal(await screenState(signal, ['› Ask Codex', '  ? for shortcuts']), 'ready');
  assert.equal(await screenState(signal, ['Allow the patterm MCP server to run tool "kill"?']), 'other');
});
