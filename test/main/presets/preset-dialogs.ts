/**
 * Reads a preset's `dialogs` on a screen the way the contract describes them
 * (the pattern, looked for only in the dialog's region), so the tests can check
 * the default presets against what the real CLIs draw.
 */
import type { AgentPreset, Dialog } from '../../../src/shared/preset-schema.js';
import type { Cassette } from '../../fixtures/cassette/cassette-player.js';
import { matchScreenPatterns } from '../../../src/shared/agent-state.js';

/** The preset's dialog showing on this screen, if any, found as patterm finds it (agent-state.ts). */
export function dialogOn(preset: AgentPreset, lines: readonly string[]): (Dialog & { text: string }) | undefined {
  const dialogs = preset.dialogs ?? [];
  const found = matchScreenPatterns({ dialogs }, lines).dialog;
  return found ? { ...dialogs[found.index], text: found.text } : undefined;
}

/** Every key sequence the preset's dialogs answer with. */
export function dialogKeys(preset: AgentPreset): Set<string> {
  return new Set((preset.dialogs ?? []).flatMap((dialog) => Object.values(dialog.keys ?? {})));
}

/** The launcher's submissions in a cassette: a text write followed by an Enter from the same (non-human) source. */
export function submissions(cassette: Cassette): { text: number; enter: number; next: number }[] {
  const inputs = cassette.inputEvents;
  const found: { text: number; enter: number; next: number }[] = [];
  inputs.forEach((input, i) => {
    const following = inputs[i + 1];
    if (input.source === 'user' || input.data === '\r' || following?.data !== '\r' || following.source !== input.source) return;
    found.push({ text: i, enter: i + 1, next: i + 2 < inputs.length ? i + 2 : Number.POSITIVE_INFINITY });
  });
  return found;
}

/** Answers to a dialog: inputs that are one of the preset's dialog keys, other than the Enter that submits a message. */
export function approvals(cassette: Cassette, preset: AgentPreset): number[] {
  const keys = dialogKeys(preset);
  const submitEnters = new Set(submissions(cassette).map((sent) => sent.enter));
  return cassette.inputEvents.flatMap((input, i) => (keys.has(input.data) && !submitEnters.has(i) ? [i] : []));
}
