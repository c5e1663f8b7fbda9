/**
 * The channel from an agent CLI's hook back to patterm: patterm gives the CLI
 * (through the preset's `conversation.report`) a command that appends what the
 * hook is told (a JSON object on stdin) as one line to a private file, and
 * reads the file's new lines (the command itself is report-command.ts). A
 * file, not a socket: the hook may fire while patterm is busy, and a line
 * waits for it.
 */
import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeAtExit } from '../process/exit-cleanups.js';
import { logIgnored } from '../../node/patterm-log.js';

export interface ReportChannel {
  file: string;
  /** Lines reported since the last call, each parsed (a line that is not JSON is skipped and logged). */
  readNew(): unknown[];
  dispose(): void;
}

/** A private (0700) directory with the report file; it goes when the pane ends, or with patterm. */
export function openReportChannel(): ReportChannel {
  const dir = mkdtempSync(join(tmpdir(), 'patterm-conversation-'));
  const forgetAtExit = removeAtExit(dir, 'tree');
  const file = join(dir, 'reports.jsonl');
  let offset = 0;
  let partial = '';
  return {
    file,
    readNew() {
      let fd: number;
      try {
        fd = openSync(file, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logIgnored(`reading conversation reports from ${file}`, error);
        return []; // the hook has not fired yet
      }
      try {
        const size = fstatSync(fd).size;
        if (size <= offset) return [];
        const buffer = Buffer.alloc(size - offset);
        const read = readSync(fd, buffer, 0, buffer.length, offset);
        offset += read;
        const lines = (partial + buffer.subarray(0, read).toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        return lines.filter((line) => line.trim() !== '').flatMap((line) => {
          try {
            return [JSON.parse(line) as unknown];
          } catch (error) {
            logIgnored(`a conversation report line in ${file} that is not JSON`, error);
            return [];
          }
        });
      } finally {
        closeSync(fd);
      }
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
      forgetAtExit();
    },
  };
}

/** `'…'` quoting for sh: the hook command is run by the CLI through a shell. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
