/**
 * Removes terminal control sequences from decoded output, leaving the text a
 * line-oriented reader wants: CSI, OSC, DCS/SOS/PM/APC strings, two-byte escapes
 * and C0 controls other than newline and tab. Carriage returns before a newline
 * are dropped; a lone CR (progress bars) becomes a newline so lines do not smear.
 */
// eslint-disable-next-line no-control-regex
const SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]|[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]/g;

export function stripAnsi(text: string): string {
  return text.replace(SEQUENCE, '').replace(/\r+\n/g, '\n').replace(/\r/g, '\n');
}

// eslint-disable-next-line no-control-regex
const TOKEN = /\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]|\x1b$|[\x00-\x1f\x7f]/g;

/**
 * The text a terminal would show for `text`, line by line, without styles:
 * unlike stripAnsi, a carriage return goes back to the line's start and what
 * follows overwrites it (a progress bar ends as its last state), backspace
 * steps back, and the line-editing sequences a shell's echo uses (cursor
 * left and right, erase in line, insert and delete characters) are applied.
 * Cursor moves between lines are not followed. Trailing blanks are dropped.
 */
export function renderText(text: string): string {
  const lines: string[] = [];
  let line: string[] = [];
  let column = 0;
  const put = (chars: string) => {
    for (const char of chars) {
      while (line.length < column) line.push(' ');
      line[column++] = char;
    }
  };
  const endLine = () => {
    lines.push(line.join('').trimEnd());
    line = [];
    column = 0;
  };
  let at = 0;
  for (const token of text.matchAll(TOKEN)) {
    put(text.slice(at, token.index));
    at = token.index + token[0].length;
    const sequence = token[0];
    if (token[2] !== undefined) {
      const count = Math.max(1, Number(token[1].split(';')[0]) || 1);
      switch (token[2]) {
        case 'C': column += count; break;
        case 'D': column = Math.max(0, column - count); break;
        case 'G': column = count - 1; break;
        case 'K': {
          const mode = Number(token[1]) || 0;
          if (mode === 0) line.length = Math.min(line.length, column);
          else if (mode === 1) for (let i = 0; i <= column && i < line.length; i++) line[i] = ' ';
          else line = [];
          break;
        }
        case 'P': line.splice(column, count); break;
        case '@': if (column < line.length) line.splice(column, 0, ...' '.repeat(count)); break;
        case 'X': for (let i = column; i < column + count && i < line.length; i++) line[i] = ' '; break;
      }
    } else if (sequence === '\n') endLine();
    else if (sequence === '\r') column = 0;
    else if (sequence === '\b') column = Math.max(0, column - 1);
    else if (sequence === '\t') put('\t');
  }
  put(text.slice(at));
  if (line.length > 0 || lines.length === 0) endLine();
  return lines.join('\n');
}
