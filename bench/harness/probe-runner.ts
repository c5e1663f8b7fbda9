/**
 * Entry of a probe process: `node probe-runner.js <probe> <args-json>`.
 * Imports `bench/probes/<probe>.js`, runs its default export, and sends the
 * result to the bench over IPC. One fresh process per measurement, so no run
 * inherits another's heap, workers or children, and RSS figures are this run's.
 */
const [probeName, argsJson] = process.argv.slice(2);

async function main(): Promise<void> {
  if (!probeName || !/^[a-z0-9-]+$/.test(probeName)) throw new Error(`bad probe name ${JSON.stringify(probeName)}`);
  const module = (await import(`../probes/${probeName}.js`)) as { default: (args: unknown) => Promise<unknown> };
  const result = await module.default(JSON.parse(argsJson ?? 'null'));
  process.send!({ ok: true, result, pid: process.pid });
}

main().then(
  () => process.disconnect?.(),
  (error: unknown) => {
    process.send!({ ok: false, pid: process.pid, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.disconnect?.();
  },
);
