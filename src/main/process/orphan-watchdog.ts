/**
 * Guarantees that no pane process outlives patterm, even after SIGKILL.
 *
 * A tiny detached `sh` holds the read end of a pipe whose write end only patterm
 * holds. When patterm dies for any reason the kernel closes the pipe, `read`
 * returns, and the watchdog SIGKILLs every process whose environment carries this
 * instance's marker: grandchildren that called setsid or ignore SIGHUP included,
 * and the orphans patterm adopted (orphan-adoption.ts) with their descendants,
 * collected before any is killed. Then it removes the files patterm registered
 * with it (leftover-paths.ts): the MCP socket and the agents' token-holding
 * config directories.
 */
import { spawn } from 'node:child_process';
import { attachWatchdog } from './leftover-paths.js';
import { INSTANCE_MARKER_VAR } from '../../node/process-reaper.js';
import { warnError } from '../../node/patterm-log.js';

/**
 * Until patterm dies, stdin carries "+<entry>" / "-<entry>" lines (leftover-paths.ts);
 * $paths holds the registered entries between newlines, and "-" drops one of them.
 * Quoted parts of a pattern match literally, so a path's * ? [ are just characters.
 * An unterminated last line (impossible for these short, atomic pipe writes, but
 * cheap to rule out) never reaches the loop body: read fails on it.
 * Two sweeps a short while apart catch processes forked while the first sweep ran;
 * the files go last, once nothing of patterm's can recreate them.
 */
const SWEEP_SCRIPT = `
nl='
'
paths=$nl
pids=' '
while IFS= read -r line; do
  entry=\${line#?}
  case $line in
    +[rf]/*) paths=$paths$entry$nl ;;
    -[rf]/*)
      case $paths in
        *"$nl$entry$nl"*) paths=\${paths%%"$nl$entry$nl"*}$nl\${paths#*"$nl$entry$nl"} ;;
      esac ;;
    +p[0-9]*) pids="$pids$entry " ;;
    -p[0-9]*)
      case $pids in
        *" $entry "*) pids="\${pids%%" $entry "*} \${pids#*" $entry "}" ;;
      esac ;;
  esac
done
adopted_tree() {
  tree=$pids
  grown=1
  while [ -n "$grown" ]; do
    grown=
    for dir in /proc/[0-9]*; do
      pid=\${dir#/proc/}
      case $tree in *" p$pid "*) continue ;; esac
      read -r stat 2>/dev/null < "$dir/stat" || continue
      set -- \${stat##*") "}
      case $tree in *" p$2 "*) tree="\${tree}p$pid "; grown=1 ;; esac
    done
  done
}
sweep() {
  for dir in /proc/[0-9]*; do
    pid=\${dir#/proc/}
    [ "$pid" = "$$" ] && continue
    if grep -qzx "$MARKER" "$dir/environ" 2>/dev/null; then kill -9 "$pid" 2>/dev/null; fi
  done
  adopted_tree
  for entry in $tree; do kill -9 "\${entry#p}" 2>/dev/null; done
}
sweep; sleep 0.3; sweep
set -f
IFS=$nl
for entry in $paths; do
  case $entry in
    r/*) rm -rf -- "\${entry#r}" ;;
    f/*) rm -f -- "\${entry#f}" ;;
  esac
done
`;

/** Starts the watchdog; returns its pid (a child of this thread, which libuv waits for). */
export function startOrphanWatchdog(instanceId: string): number | undefined {
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
  child.on('error', warnError('the orphan watchdog process; after a SIGKILL of patterm, panes and files may be left'));
  attachWatchdog(child.stdin!);
  return child.pid;
}
