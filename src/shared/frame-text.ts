/**
 * A CellFrame as plain text: one string per row, a wide character once (its
 * spacer cell skipped), graphemes whole, trailing blanks trimmed. For reading
 * frames that did not come with text, such as a pane's history rows.
 */
import type { CellFrame } from './pane-types.js';

export function frameLines(frame: CellFrame): string[] {
  const lines: string[] = [];
  for (let row = 0; row < frame.rows; row++) {
    let line = '';
    for (let col = 0; col < frame.cols; col++) {
      const index = row * frame.cols + col;
      const base = index * 4;
      if (((frame.cells[base + 3] >>> 8) & 0xff) === 0) continue; // behind a wide character
      const codepoint = frame.cells[base];
      line += frame.graphemes[index] ?? (codepoint === 0 ? ' ' : String.fromCodePoint(codepoint));
    }
    lines.push(line.trimEnd());
  }
  return lines;
}
