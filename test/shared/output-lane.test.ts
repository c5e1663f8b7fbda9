import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allocateOutputLane, OutputLaneReader, OutputLaneWriter, type LaneSpan } from '../../src/shared/output-lane.js';

const LANE = 1024;

function write(writer: OutputLaneWriter, text: string): LaneSpan | null {
  const slot = writer.slot(text.length);
  if (!slot) return null;
  slot.set(new TextEncoder().encode(text));
  return writer.commit(text.length);
}

const read = (reader: OutputLaneReader, span: LaneSpan) => new TextDecoder().decode(reader.view(span));

test('batches cross the lane in order, and wrap to the front instead of splitting', () => {
  const buffer = allocateOutputLane(LANE);
  const writer = new OutputLaneWriter(buffer);
  const reader = new OutputLaneReader(buffer);
  const seen: string[] = [];
  // 300-byte batches: the fourth would run past the end, so it starts at the front.
  for (let i = 0; i < 40; i++) {
    const text = String(i).padEnd(300, '.');
    const span = write(writer, text);
    assert.ok(span, `batch ${i} found room`);
    assert.ok(span.at + span.length <= LANE, `batch ${i} lies inside the lane`);
    seen.push(read(reader, span));
    reader.done(span);
  }
  assert.deepEqual(seen, Array.from({ length: 40 }, (_, i) => String(i).padEnd(300, '.')));
});

test('a full lane hands out no room until the reader is done with a batch, and then only as much as it freed', () => {
  const buffer = allocateOutputLane(LANE);
  const writer = new OutputLaneWriter(buffer);
  const reader = new OutputLaneReader(buffer);
  const first = write(writer, 'a'.repeat(400))!;
  const second = write(writer, 'b'.repeat(400))!;
  assert.equal(writer.slot(300), null, '800 of 1024 bytes are unread: 300 more do not fit');
  assert.ok(writer.slot(200), '200 do');
  reader.done(first);
  // 224 bytes are left before the end and 400 are free at the front: a 300-byte batch wraps there.
  const third = write(writer, 'c'.repeat(300))!;
  assert.equal(third.at, 0);
  assert.equal(read(reader, second), 'b'.repeat(400), 'the unread batch was not overwritten');
  assert.equal(writer.slot(200), null, 'the skipped tail counts as used until the reader passes it');
  reader.done(second);
  reader.done(third);
  assert.ok(writer.slot(LANE - 300), 'all of it is free again: up to the end');
});

test('positions keep working across 2^32 bytes written', () => {
  const buffer = allocateOutputLane(LANE);
  const writer = new OutputLaneWriter(buffer);
  const reader = new OutputLaneReader(buffer);
  // 2^32 / 256 batches would take a while: start just short of the wrap instead.
  (writer as unknown as { written: number }).written = -512;
  new Int32Array(buffer, 0, 1)[0] = -512;
  for (let i = 0; i < 20; i++) {
    const span = write(writer, String(i).padEnd(256, '-'))!;
    assert.equal(read(reader, span), String(i).padEnd(256, '-'));
    reader.done(span);
  }
});

test('a lane refuses sizes it cannot serve, naming the value', () => {
  assert.throws(() => allocateOutputLane(1000), /power of two \(received 1000\)/);
  const writer = new OutputLaneWriter(allocateOutputLane(LANE));
  assert.throws(() => writer.slot(LANE + 1), /1025 bytes cannot cross a lane of 1024/);
});
