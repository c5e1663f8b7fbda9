/** The exited-panes scenario's short processes: each prints a test run's worth of lines and exits. */
export const EXITED_PANES = 40;
/** Lines each prints: a test suite's or a build's output, more than a screen, well under the scrollback. */
export const EXITED_PANE_LINES = 3000;

export function exitedPaneArgv(index: number): string[] {
  return ['sh', '-c', `i=0; while [ $i -lt ${EXITED_PANE_LINES} ]; do i=$((i+1)); echo "run ${index} test $i ok"; done`];
}
