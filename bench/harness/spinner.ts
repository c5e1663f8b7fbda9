/**
 * What an agent CLI does while it works: redraws one status line with a
 * spinner, ~12 times a second (Claude Code's and codex's spinners step every
 * 80-120 ms), and nothing else. The animating-agents scenario runs 20 of these.
 */
export const SPINNER_COUNT = 20;
/** One redraw per step: the status line at the bottom row of a PANE-sized screen, erased and written in colour. */
export const SPINNER_STEP_MS = 80;

export function spinnerArgv(rows: number): string[] {
  const script = [
    "printf '\\033[?25l'",
    'i=0',
    'while :; do',
    '  for s in ⠋ ⠙ ⠹ ⠸ ⠼ ⠴ ⠦ ⠧ ⠇ ⠏; do',
    '    i=$((i+1))',
    `    printf '\\033[${rows};1H\\033[2K\\033[33m%s\\033[0m Thinking… (%ds · esc to interrupt) %d' "$s" $SECONDS $i`,
    `    sleep ${SPINNER_STEP_MS / 1000}`,
    '  done',
    'done',
  ].join('\n');
  return ['bash', '--norc', '--noprofile', '-c', script];
}

/** Updates the spinners make in `ms`, all together. */
export function spinnerUpdates(ms: number): number {
  return (SPINNER_COUNT * ms) / SPINNER_STEP_MS;
}
