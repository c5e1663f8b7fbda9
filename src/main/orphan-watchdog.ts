/**
 * Guarantees that no pane process outlives patterm, even after SIGKILL.
 *
 * A tiny detached `sh` holds the read end of a pipe whose write end only patterm
 * holds. When patterm dies for any reason the kernel closes the pipe, `read`
 * returns, and the watchdog SIGKILLs every process whose environment carries this
 * instance's marker: grandchildren that called setsid or ignore SIGHUP included.
 */
import { spawn } from 'node:child_process';
import { INSTANCE_MARKER_VAR } from './process-reaper.js';

/** Two sweeps a short while apart catch processes forked while the first sweep ran. */
const SWEEP_SCRIPT = `
read _ignored
sweep() {
  for dir in /proc/[0-9]*; do
    pid=\${dir#/proc/}
    [ "$pid" = "$$" ] && continue
    if grep -qzx "$MARKER" "$dir/environ" 2>/dev/null; then kill -9 "$pid" 2>/dev/null; fi
  done
}
sweep; sleep 0.3; sweep
`;

export function startOrphanWatchdog(instanceId: string): void {
  const env = { ...process.env };
  delete env[INSTANCE_MARKER_VAR];
  const child = spawn('sh', ['-c', SWEEP_SCRIPT], {
    detached: true, // own process group: a signal to patterm's group must not take it down too
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { ...env, MARKER: `${INSTANCE_MARKER_VAR}=${instanceId}` },
  });
  child.unref();
  // Keep the pipe open but never let it hold patterm's event loop alive.
  const stdin = child.stdin as unknown as { unref?: () => void; _handle?: { unref?: () => void } };
  stdin._handle?.unref?.();
  child.on('error', () => undefined);
}
