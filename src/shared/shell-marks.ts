/**
 * OSC 133 shell-integration marks, as patterm's own integration sends them
 * (shell-integration/ in the package) and as other programs may: a letter,
 * then `;`-separated fields. patterm's marks carry `patterm=<nonce>`, the
 * pane's secret, so output that merely contains a mark (a file being
 * printed, a prompt that sends marks of its own) is never taken for one:
 *
 *   A  the prompt starts             B  line editing starts (after a right prompt; k=s: a continuation line)
 *   C  the command's output starts   D;<exit>  the command is done (cwd=<dir>)
 *   E  bash: the command line, as history recorded it (raw=<text to the end>)
 *   I  zsh: the line being edited became empty or not (empty=0|1)
 *
 * A field's value is percent-encoded where it could hold `;` or a control
 * character; `raw=` takes the rest of the mark verbatim instead. Pure.
 */

/** The field that carries a mark's nonce. */
export const NONCE_FIELD = 'patterm';

export interface ShellMark {
  /** The mark's letter (A, B, C, D, E, I; others pass through unvalidated). */
  mark: string;
  /** D's first field, when it is a number. */
  exitCode?: number;
  /** `key=value` fields, values decoded. */
  fields: Record<string, string>;
}

/** Parses an OSC 133 payload (what follows `133;`); null when it is not a mark. */
export function parseShellMark(data: string): ShellMark | null {
  const match = /^([A-Z])(?:;|$)/.exec(data);
  if (!match) return null;
  const mark: ShellMark = { mark: match[1], fields: {} };
  let rest = data.slice(match[0].length);
  let position = 0;
  while (rest !== '') {
    if (rest.startsWith('raw=')) {
      mark.fields.raw = rest.slice(4);
      break;
    }
    const end = rest.indexOf(';');
    const field = end === -1 ? rest : rest.slice(0, end);
    rest = end === -1 ? '' : rest.slice(end + 1);
    const equals = field.indexOf('=');
    if (equals > 0) mark.fields[field.slice(0, equals)] = decodeField(field.slice(equals + 1));
    else if (position === 0 && mark.mark === 'D' && /^\d+$/.test(field)) mark.exitCode = Number(field);
    position++;
  }
  return mark;
}

/** Undoes the shells' encoding: `%XX` for the ASCII characters they escape; anything else stays. */
export function decodeField(value: string): string {
  if (!value.includes('%')) return value;
  return value.replace(/%([0-7][0-9A-Fa-f])/g, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The text a mark's field would carry for `value`: what the shells' `__patterm_encode` does. */
export function encodeField(value: string): string {
  return value.replace(/[%;\x07\x1b\n\r]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** bash's E mark holds `fc -ln` lines ("\t command"): the command line as typed. */
export function historyCommand(raw: string): string {
  return raw
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => line.replace(/^\t ?/, ''))
    .join('\n')
    .trim();
}
