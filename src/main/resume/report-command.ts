/**
 * `patterm conversation-report --file <path>`, the command an agent CLI's
 * hook runs (conversation-report.ts). Kept to Node's own modules: the CLI
 * waits for its hook, so the command must start fast.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

/** A hook's input is a small object; anything past this is not one. */
const MAX_REPORT_BYTES = 256 * 1024;

/**
 * `patterm conversation-report --file <path>`: appends the JSON object on stdin
 * as one line. It never fails the hook (a CLI may refuse to start over a failed
 * hook): a problem is written to stderr and the exit status is still 0.
 */
export async function runConversationReport(file: string): Promise<number> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_REPORT_BYTES) {
      process.stderr.write(`patterm conversation-report: input over ${MAX_REPORT_BYTES} bytes, not recorded\n`);
      return 0;
    }
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    process.stderr.write(`patterm conversation-report: the hook's input is not JSON (${(error as Error).message}), not recorded\n`);
    return 0;
  }
  try {
    // One write with O_APPEND: two hooks firing together never interleave their lines.
    const fd = openSync(file, 'a', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(parsed)}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    process.stderr.write(`patterm conversation-report: could not write ${file}: ${(error as Error).message}\n`);
  }
  return 0;
}
