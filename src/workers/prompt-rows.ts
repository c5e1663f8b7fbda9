/**
 * Where a pane's prompts started (OSC 133 A marks), as row numbers over the
 * pane's life (row-numbering.ts): the TUI's history reader jumps between a
 * shell's commands by them. A resize renumbers the rows by position, so the
 * rows noted before it are forgotten.
 */
import type { ScannedEvent } from '../shared/sequence-scanner.js';
import type { RowNumbering } from '../shared/row-numbering.js';
import type { GhosttyEmulator } from './ghostty-emulator.js';

/** Far more commands than a scrollback holds. */
const MAX_PROMPT_ROWS = 10_000;

/** OSC 133 A: a prompt starts here (a shell's integration, patterm's or another's). */
export function isPromptStart(event: ScannedEvent): boolean {
  return event.type === 'osc' && event.code === 133 && (event.data === 'A' || event.data.startsWith('A;'));
}

export class PromptRows {
  private rows: number[] = [];

  /** The cursor's row, where the prompt that starts now is drawn (the emulator has parsed up to the mark). */
  note(emulator: GhosttyEmulator, numbering: RowNumbering): void {
    if (emulator.isAlternateScreen()) return;
    const dropped = emulator.withScrollbackRows((rows) => numbering.sync(rows));
    const row = dropped + emulator.scrollbackLength() + emulator.cursor().y;
    if (this.rows.at(-1) === row) return; // a prompt redrawn in place
    this.rows.push(row);
    if (this.rows.length > MAX_PROMPT_ROWS) this.rows.shift();
  }

  clear(): void {
    this.rows = [];
  }

  list(): number[] {
    return [...this.rows];
  }
}
