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
