/**
 * Splits client-side call times into their legs, using the times patterm's MCP
 * transport publishes (src/main/mcp/transport/request-timing.ts): there (client, proxy,
 * socket, until patterm's thread runs the request), inside patterm (until the
 * reply is written), and back (proxy, client, until the call returns).
 */
import type { McpRequestTiming } from '../../src/main/mcp/transport/request-timing.js';
import type { CallSpan } from './mcp-client-process.js';

export interface CallLegs {
  there: number[];
  inside: number[];
  back: number[];
}

/**
 * The client makes one call at a time, so the request patterm received within
 * a call's span is that call's. A span with no such request (it cannot happen
 * unless timings were lost) is left out of every leg.
 */
export function callLegs(spans: readonly CallSpan[], timings: readonly McpRequestTiming[]): CallLegs {
  const received = [...timings].sort((a, b) => a.receivedAt - b.receivedAt);
  const legs: CallLegs = { there: [], inside: [], back: [] };
  let next = 0;
  for (const [startedAt, returnedAt] of [...spans].sort((a, b) => a[0] - b[0])) {
    while (next < received.length && received[next].receivedAt < startedAt) next++;
    const timing = received[next];
    if (!timing || timing.receivedAt > returnedAt || timing.repliedAt > returnedAt) continue;
    legs.there.push(timing.receivedAt - startedAt);
    legs.inside.push(timing.repliedAt - timing.receivedAt);
    legs.back.push(returnedAt - timing.repliedAt);
    next++;
  }
  return legs;
}
