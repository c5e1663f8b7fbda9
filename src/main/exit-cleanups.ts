/**
 * Synchronous cleanups that must run even when patterm exits before their
 * owner ends on its own: an agent's private MCP config file holds its
 * identity token, and shutdown can call process.exit before a killed pane's
 * exit is reported. One 'exit' listener serves them all, so twenty agents do
 * not trip Node's listener-leak warning (it fires past ten).
 */
const pending = new Set<() => void>();
let hooked = false;

function runAll(): void {
  for (const cleanup of [...pending]) {
    pending.delete(cleanup);
    try {
      cleanup();
    } catch {
      // the process is exiting: one failed cleanup must not stop the others
    }
  }
}

/** Runs `cleanup` at process exit unless the returned function is called first. */
export function cleanupAtExit(cleanup: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.on('exit', runAll);
  }
  pending.add(cleanup);
  return () => {
    pending.delete(cleanup);
  };
}
