import type { PtyExit } from './pty-host-protocol.js';

/** The signals a pane's process is usually ended by, as people name them; others read SIG<number>. */
const SIGNAL_NAMES: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 6: 'SIGABRT', 9: 'SIGKILL', 13: 'SIGPIPE', 15: 'SIGTERM' };

/**
 * How a pane's process ended, from what the PTY reported (`signal` 0: none):
 * 'killed' when a signal ended it or someone asked for it to be killed.
 */
export function describePtyExit(raw: { exitCode: number; signal: number }, killRequested: boolean): PtyExit {
  const signalName = raw.signal ? (SIGNAL_NAMES[raw.signal] ?? `SIG${raw.signal}`) : null;
  return {
    status: killRequested || signalName ? 'killed' : 'exited',
    exitCode: signalName ? null : raw.exitCode,
    signal: signalName,
  };
}
