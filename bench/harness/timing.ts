/** Small async helpers shared by probes. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Shell-quotes one word for a `sh -c` command line (tmux runs pane commands through the shell). */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
