/** An output lane reader that counts the frames the pane's worker takes, by how they came (output-lane.ts). */
import { FRAME_ANNOUNCED, FRAME_STREAMED, OutputLaneReader, type LaneFrame } from '../../src/shared/output-lane.js';

export type FrameKind = 'announced' | 'streamed' | 'deferred';

export class RecordingLaneReader extends OutputLaneReader {
  /** Frames taken, and their bytes, by kind; a skim's marker (a frame of no bytes) is not a batch and is left out. */
  readonly frames: Record<FrameKind, number> = { announced: 0, streamed: 0, deferred: 0 };
  readonly bytes: Record<FrameKind, number> = { announced: 0, streamed: 0, deferred: 0 };
  /** The most bytes in deferred frames taken one after another in one event-loop turn: what the worker found left to be drained at once. */
  largestDeferredRun = 0;
  private deferredRun = 0;
  private runEnds: ReturnType<typeof setImmediate> | null = null;

  override take(frame: LaneFrame): void {
    if (frame.span.length === 0) return super.take(frame);
    const kind: FrameKind = frame.flags & FRAME_ANNOUNCED ? 'announced' : frame.flags & FRAME_STREAMED ? 'streamed' : 'deferred';
    this.frames[kind]++;
    this.bytes[kind] += frame.span.length;
    this.deferredRun = kind === 'deferred' ? this.deferredRun + frame.span.length : 0;
    this.largestDeferredRun = Math.max(this.largestDeferredRun, this.deferredRun);
    this.runEnds ??= setImmediate(() => {
      this.runEnds = null;
      this.deferredRun = 0;
    });
    super.take(frame);
  }
}
