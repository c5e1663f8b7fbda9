import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter } from '../../../../src/main/mcp/transport/line-splitter.js';
import { UnansweredRequests } from '../../../../src/main/mcp/transport/unanswered-requests.js';

/** The proxy's wiring: both directions cut into lines, fed in arbitrary chunks. */
function watched(maxBytes?: number) {
  const unanswered = new UnansweredRequests();
  const fromAgent = new LineSplitter((line) => unanswered.sent(line), maxBytes);
  const fromPatterm = new LineSplitter((line) => unanswered.received(line), maxBytes);
  const feed = (splitter: LineSplitter, text: string, chunk = 7) => {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += chunk) splitter.push(bytes.subarray(at, at + chunk));
  };
  const ids = () => unanswered.answerAll('gone').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: unknown }).id);
  return { unanswered, agent: (text: string) => feed(fromAgent, text), patterm: (text: string) => feed(fromPatterm, text), ids };
}

test('a reply larger than what the proxy keeps of a line still settles its request, by the id at its end', () => {
  const w = watched(1024);
  w.agent('{"method":"tools/call","params":{"name":"read_output"},"jsonrpc":"2.0","id":3}\n');
  w.agent('{"method":"tools/call","params":{"name":"read_output"},"jsonrpc":"2.0","id":4}\n');
  const text = '"id":4} '.repeat(2000); // what a screen could hold; only the envelope's id counts
  w.patterm(`{"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}]},"jsonrpc":"2.0","id":3}\n`);
  assert.deepEqual(w.ids(), [4]);
});

test('ids keep their type: an answer to "1" does not settle 1', () => {
  const w = watched();
  w.agent('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":"1","method":"ping"}\n');
  w.patterm('{"jsonrpc":"2.0","id":"1","result":{}}\n');
  assert.deepEqual(w.ids(), [1]);
});
