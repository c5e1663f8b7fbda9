/**
 * request_human_attention in a headless patterm (`patterm mcp`), which has no
 * screen of its own. When it runs under a terminal (its controlling terminal,
 * the one the host runs in) the request goes there as a desktop notification
 * (OSC 9, which iTerm2, WezTerm, kitty, Ghostty, foot and Windows Terminal
 * show); patterm cannot tell whether anyone saw it. Without a terminal no
 * human is attached, and the tool says so instead of pretending.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { HumanAttention } from '../mcp/tools/tool-context.js';
import { ToolError } from '../mcp/services/tool-error.js';
import { logIgnored } from '../../node/patterm-log.js';

/** What fits a notification: its body is cut past this. */
const MAX_NOTIFICATION_CHARS = 240;
/** The controlling terminal of the process, whatever its stdio is. */
export const CONTROLLING_TERMINAL = '/dev/tty';

export function terminalAttention(terminal: string = CONTROLLING_TERMINAL): HumanAttention {
  return {
    async request(pane, reason) {
      let fd: number;
      try {
        fd = openSync(terminal, 'w');
      } catch (error) {
        logIgnored(`opening ${terminal} for request_human_attention`, error);
        throw new ToolError(
          `no human is attached: this patterm runs headless (patterm mcp) without a terminal, so nobody can be asked to look at ${pane.name}. ` +
            'Decide yourself if it is safe, or tell your own user (the one talking to you) what needs their call and stop.',
          { child_id: pane.id, requested: false },
        );
      }
      try {
        writeSync(fd, notification(`patterm: ${pane.name}: ${reason}`));
      } finally {
        closeSync(fd);
      }
      return `sent as a desktop notification to the terminal patterm runs in (${terminal}); whether a human saw it is unknown`;
    },
  };
}

/** OSC 9 with `text`, its control characters (which could end the sequence early) made spaces. */
export function notification(text: string): string {
  const clean = [...text.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ')].slice(0, MAX_NOTIFICATION_CHARS).join('');
  return `\x1b]9;${clean}\x07`;
}
