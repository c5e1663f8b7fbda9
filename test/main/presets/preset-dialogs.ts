/**
 * Reads a preset's `dialogs` on a screen the way the contract describes them
 * (the pattern, looked for only in the dialog's region), so the tests can check
 * the default presets against what the real CLIs draw.
 */
import type { AgentPreset, Dialog } from '../../../src/shared/preset-schema.js';

/** The rows a dialog is looked for in: the bottom N, or those below the last row matching `below`. */
export function regionRows(dialog: Dialog, lines: readonly string[]): string[] {
  if ('bottom_rows' in dialog.region) return lines.slice(Math.max(0, lines.length - dialog.region.bottom_rows));
  const rule = new RegExp(dialog.region.below, dialog.flags);
  let last = -1;
  lines.forEach((line, row) => {
    if (rule.test(line)) last = row;
  });
  return last === -1 ? [] : lines.slice(last + 1);
}

/** The preset's dialog showing on this screen, if any. */
export function dialogOn(preset: AgentPreset, lines: readonly string[]): Dialog | undefined {
  return preset.dialogs?.find((dialog) => new RegExp(dialog.pattern, `${dialog.flags ?? ''}m`).test(regionRows(dialog, lines).join('\n')));
}

/** Every key sequence the preset's dialogs answer with. */
export function dialogKeys(preset: AgentPreset): Set<string> {
  return new Set((preset.dialogs ?? []).flatMap((dialog) => Object.values(dialog.keys ?? {})));
}
