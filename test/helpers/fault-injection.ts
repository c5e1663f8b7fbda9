/** Runs a test file's pane workers and PTY host from the fault-injecting entries (test/fixtures/fault-injection). */
import { after } from 'node:test';
import { replaceWorkerEntry } from '../../src/main/threads/worker-entry.js';

export { injectFault } from '../fixtures/fault-injection/faults.js';

export function useFaultInjection(): void {
  replaceWorkerEntry('workers/pane-worker', new URL('../fixtures/fault-injection/pane-worker.js', import.meta.url));
  replaceWorkerEntry('workers/pty-host-worker', new URL('../fixtures/fault-injection/pty-host-worker.js', import.meta.url));
  after(() => {
    replaceWorkerEntry('workers/pane-worker', null);
    replaceWorkerEntry('workers/pty-host-worker', null);
  });
}
