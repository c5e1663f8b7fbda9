/**
 * How the shell tools return a command record: the record as structured
 * content, a headline saying how it went, and its output below.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ok } from './tool-kit.js';
import { describeOutcome, type CommandRecord } from '../../shells/index.js';

export function recordResult(shellName: string, childId: string | null, record: CommandRecord, waitedSeconds: number): CallToolResult {
  const where = record.seq === null ? shellName : `${shellName} seq ${record.seq}`;
  let headline = `${where}: ${describeOutcome(record)}`;
  if (record.timed_out) {
    headline =
      record.seq === null
        ? record.continuation
          ? `${shellName}: the command has not started after ${waitedSeconds} s: the shell shows a continuation prompt, asking for the rest of it (an unclosed quote or bracket?). Send the rest with send_input, or abandon it with send_input key "ctrl-c"`
          : `${shellName}: the command was typed but has not started after ${waitedSeconds} s (timed out; the shell may be waiting for more input, such as a closing quote). It will be recorded if it starts`
        : `${where}: still running after ${waitedSeconds} s (timed out; it keeps running: wait_for_command with seq ${record.seq} picks it up, send_input key "ctrl-c" interrupts it)`;
  }
  if (record.truncated_bytes > 0) headline += `; ${record.truncated_bytes} bytes of output not shown (output_file holds it all)`;
  return ok({ ...(childId !== null ? { child_id: childId } : {}), name: shellName, ...record }, `${headline}.`, record.output === '' ? undefined : record.output);
}
