/**
 * Entry point of the PTY host thread: one per coordinator, owning every
 * pane's PTY (see pty-host-protocol.ts). Commands arrive over Comlink on
 * parentPort; exits go back on the events port.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { InputActivity } from '../shared/input-activity.js';
import type { PtyHostEvent, PtyHostInit } from '../shared/pty-host-protocol.js';
import { expose, nodeEndpoint } from '../node/comlink-node.js';
import { coreParseScheduler } from './flood/parse-scheduler.js';
import { PtyHostService } from './pty-host-service.js';

const init = workerData as PtyHostInit & { events: MessagePort };
const service = new PtyHostService(coreParseScheduler(new InputActivity(init.activity)), (event: PtyHostEvent) => init.events.postMessage(event));

expose(service, nodeEndpoint(parentPort!));
