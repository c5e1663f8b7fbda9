import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allocateOutputLane, FRAME_ANNOUNCED, FRAME_AT_GROUND, laneHasUnread, OutputLaneReader, OutputLaneWriter, type LaneSpan } from '../../src/shared/output-lane.js';

const LANE = 1024;

function write(writer: OutputLaneWriter, text: string, flags = 0): LaneSpan | null {
  const slot = writer.slot(text.length);
  if (!slot) return null;
  slot.set(new TextEncoder().encode(text));
  return writer.commit(flags);
}

const decode = (reader: OutputLaneReader, span: LaneSpan) => new TextDecoder().decode(reader.view(span));

/** Takes the next frame the way the pane worker does: in order, found from the lane itself. */
function readNext(reader: OutputLaneReader): { text: string; flags: number; span: LaneSpan } | null {
  const frame = reader.peek();
  if (!frame) return null;
  reader.take(frame);
  return { text: decode(reader, frame.span), flags: frame.flags, span: frame.span };
}

test('frames cross the lane in order with their flags, and wrap to the front instead of splitting', () => {
  const buffer = allocateOutputLane(LANE);
  const writer = new OutputLaneWriter(buffer);
  const reader = new OutputLaneReader(buffer);
  const seen: string[] = [];
  // 300-byte batches (308 with the frame header, 312 aligned): the fourth would run past the end, so it starts at the front.
  for (let i = 0; i < 40; i++) {
    const text = String(i).padEnd(300, '.');
    const flags = i % 2 === 0 ? FRAME_AT_GROUND : FRAME_ANNOUNCED;
    const span = write(writer, text, flags);
    assert.ok(span, `batch ${i} found room`);
    assert.ok(span.at + span.length <= LANE, `batch ${i} lies inside the lane`);
    const frame = readNext(reader)!;
    assert.deepEqual(frame.span, span, `the reader finds batch ${i} where the writer put it`);
    assert.equal(frame.flags, flags);
    seen.push(frame.text);
    reader.done(frame.span);
    assert.equal(readNext(reader), null, 'nothing more was published');
  }
  assert.deepEqual(seen, Array.from({ length: 40 }, (_, i) => String(i).padEnd(300, '.')));
});

test('frames written while the reader was away are all found, across the wrap', () => {
  const buffer = allocateOutputLane(LANE);
  const writer = new OutputLaneWriter(buffer);
  const reader = new OutputLaneReader(buffer);
  for (let round = 0; round < 10; round++) {
    const texts = Array.from({ length: 3 }, (_, i) => `${round}:${i}`.padEnd(90 + 37 * i, '~'));
    for (const text of texts) assert.ok(write(writer, text));
    assert.ok(laneHasUnread(buffer), 'published and not yet consumed');
    const read: string[] = [];
    for (let frame = readNext(reader); frame; frame = readNext(reader)) {
      read.push(frame.text);
      reader.done(frame.span);
    }
    assert.deepEqual(read, texts);
    assert.equal(laneHasUnread(buffer), false, 'consumed up to what was written');
  }
});

test('a full lane hands out no room until the reader is done with a frame, and then only as much as it freed', () => {
  const buffer = allocateOutputLane(LANE);
  const writer = new OutputLaneWriter(buffer);
  const reader = new OutputLaneReader(buffer);
  const first = write(writer, 'a'.repeat(400))!;
  const second = write(writer, 'b'.repeat(400))!;
  assert.equal(writer.slot(300), null, '816 of 1024 bytes are unread: 300 more do not fit');
  assert.ok(writer.slot(200), '200 do');
  reader.done(first);
  // 208 bytes are left before the end and 408 are free at the front: a 300-byte batch wraps there.
  const third = write(writer, 'c'.repeat(300))!;
  assert.equal(third.at, 8, 'after its frame header, at the front');
  assert.equal(decode(reader, second), 'b'.repeat(400), 'the unread batch was not overwritten');
  assert.equal(writer.slot(200), null, 'the skipped tail counts as used until the reader passes it');
  reader.done(second);
  reader.done(third);
  assert.ok(writer.slot(LANE - 320 - 8), 'all of it is free again: up to the end');
});

test('positions keep working across 2^32 bytes written', () => {
  const buffer = allocateOutputLane(LANE);
  const writer = new OutputLaneWriter(buffer);
  const reader = new OutputLaneReader(buffer);
  // 2^32 / 256 batches would take a while: start just short of the wrap instead.
  (writer as unknown as { written: number }).written = -512;
  (reader as unknown as { position: number }).position = -512;
  const header = new Int32Array(buffer, 0, 2);
  header[0] = -512; // consumed
  header[1] = -512; // written
  for (let i = 0; i < 20; i++) {
    write(writer, String(i).padEnd(256, '-'));
    const frame = readNext(reader)!;
    assert.equal(frame.text, String(i).padEnd(256, '-'));
    reader.done(frame.span);
  }
});

test('a lane refuses sizes it cannot serve, naming the value', () => {
  assert.throws(() => allocateOutputLane(1000), /power of two of at least 8 \(received 1000\)/);
  const writer = new OutputLaneWriter(allocateOutputLane(LANE));
  assert.throws(() => writer.slot(LANE + 1), /1025 bytes cannot cross a lane of 1024/);
  assert.throws(() => writer.slot(LANE - 4), /1020 bytes cannot cross a lane of 1024/, 'with its header it is larger than the lane');
});

test('the worker\'s wish for every frame reaches the writer', () => {
  const buffer = allocateOutputLane(LANE);
  const writer = new OutputLaneWriter(buffer);
  const reader = new OutputLaneReader(buffer);
  assert.equal(writer.eager, false);
  reader.setEager(true);
  assert.equal(writer.eager, true);
  reader.setEager(false);
  assert.equal(writer.eager, false);
});
