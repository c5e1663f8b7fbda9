/**
 * The child of the paste scenario: a program in raw mode with bracketed paste
 * on, like an agent CLI's input box. It reports how many bytes arrived between
 * the paste brackets, then waits for the next paste. Run as `node paste-sink.js`.
 */
const START = '\x1b[200~';
const END = '\x1b[201~';

let buffer = '';
let count = 0;
process.stdin.setRawMode?.(true);
process.stdin.setEncoding('utf8');
process.stdout.write('\x1b[?2004hPASTE-SINK-READY\r\n');
process.stdin.on('data', (chunk: string) => {
  buffer += chunk;
  const end = buffer.indexOf(END);
  if (end === -1) return;
  const start = buffer.indexOf(START);
  const body = buffer.slice(start === -1 ? 0 : start + START.length, end);
  buffer = buffer.slice(end + END.length);
  count++;
  process.stdout.write(`GOT-${count}-${Buffer.byteLength(body)}\r\n`);
});
