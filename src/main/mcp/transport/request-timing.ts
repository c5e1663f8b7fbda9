/**
 * Publishes when each MCP request reached patterm and when its reply left, on
 * a node:diagnostics_channel, so a latency figure can be split into the time
 * inside patterm and the time in the hops around it (the proxy, the client,
 * the scheduler). Nothing is recorded unless something subscribes: the bench
 * does; the app does not.
 */
import { channel } from 'node:diagnostics_channel';

export const MCP_REQUEST_TIMING_CHANNEL = 'patterm:mcp-request-timing';

export interface McpRequestTiming {
  id: string | number;
  method: string;
  /** Absolute milliseconds (performance.timeOrigin + performance.now()), comparable across threads. */
  receivedAt: number;
  repliedAt: number;
}

const timingChannel = channel(MCP_REQUEST_TIMING_CHANNEL);

export const absoluteNow = (): number => performance.timeOrigin + performance.now();

/** One per connection: request ids are only unique within one. */
export class RequestTimer {
  private readonly pending = new Map<string | number, { method: string; receivedAt: number }>();

  get enabled(): boolean {
    return timingChannel.hasSubscribers;
  }

  received(id: string | number, method: string, receivedAt: number): void {
    if (this.enabled) this.pending.set(id, { method, receivedAt });
  }

  replied(id: string | number): void {
    const request = this.pending.get(id);
    if (!request) return;
    this.pending.delete(id);
    timingChannel.publish({ id, method: request.method, receivedAt: request.receivedAt, repliedAt: absoluteNow() } satisfies McpRequestTiming);
  }

  clear(): void {
    this.pending.clear();
  }
}
