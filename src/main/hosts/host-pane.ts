/**
 * The program in the root pane of a session whose orchestrator is an MCP host
 * outside patterm. A session's root has to be a pane (its children hang under
 * it, its exit ends them, its identity token is bound to it), and this one is
 * also the host's notice board for the human: patterm types into it what it
 * shows there (how to connect, whether the host is connected, the messages
 * kept for it), and the program prints each line it gets. It does not echo,
 * ignores Ctrl-C and drops control characters, so keys the human types cannot
 * end the session or mess up the board.
 */

/** The program's first line: seen on screen, it is ready to print what is typed into it. */
export const HOST_PANE_READY_LINE = "patterm: this session's orchestrator is an MCP host outside patterm.";

const SCRIPT = [
  'stty -echo -icanon -isig -ixon 2>/dev/null',
  `printf '%s\\n' "$1"`,
  // Control characters but tab and newline go; what is left is printed as it comes, a line at a time.
  "exec tr -d '\\000-\\010\\013-\\037\\177'",
].join('\n');

export function hostPaneArgv(): string[] {
  return ['sh', '-c', SCRIPT, 'patterm-host', HOST_PANE_READY_LINE];
}

/** `text` as lines the pane prints: no control characters, each line ended. */
export function boardText(lines: readonly string[]): string {
  return lines.map((line) => line.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, ' ') + '\n').join('');
}

/** "14:03:07": when something on the board happened. */
export function clock(now = new Date()): string {
  return now.toTimeString().slice(0, 8);
}
