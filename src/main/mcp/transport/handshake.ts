/**
 * The one line each side sends before MCP traffic starts on the socket. The
 * proxy says who it is; the server welcomes it or refuses with a reason that
 * the proxy prints on stderr. After the handshake the socket carries
 * newline-delimited JSON-RPC, exactly as MCP's stdio transport does.
 */
import * as v from 'valibot';

export const HANDSHAKE_VERSION = 1;
/** A hello is ~100 bytes; anything far larger is not a patterm proxy. */
export const MAX_HANDSHAKE_BYTES = 4096;

const TokenSchema = v.pipe(
  v.string('identity must be a string'),
  v.regex(/^[A-Za-z0-9_-]{16,256}$/, (issue) => `identity token ${JSON.stringify(String(issue.input).slice(0, 40))} is not in the form patterm issues (base64url)`),
);

export const HelloSchema = v.strictObject({
  patterm: v.literal('hello'),
  version: v.literal(HANDSHAKE_VERSION, (issue) => `handshake version ${JSON.stringify(issue.input)} is not supported; this patterm speaks version ${HANDSHAKE_VERSION}`),
  identity: TokenSchema,
});

export const ReplySchema = v.variant('patterm', [
  v.object({ patterm: v.literal('welcome'), pane: v.string(), role: v.picklist(['orchestrator', 'child']) }),
  v.object({ patterm: v.literal('refused'), error: v.string() }),
]);

export type Hello = v.InferOutput<typeof HelloSchema>;
export type HandshakeReply = v.InferOutput<typeof ReplySchema>;

export function encodeLine(message: unknown): string {
  return JSON.stringify(message) + '\n';
}

/** Parses one handshake line against a schema; the error names what was wrong. */
export function decodeLine<S extends v.GenericSchema>(schema: S, line: string): { ok: true; value: v.InferOutput<S> } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, error: `the handshake is not JSON (it began ${JSON.stringify(line.slice(0, 60))})` };
  }
  const result = v.safeParse(schema, json);
  if (result.success) return { ok: true, value: result.output };
  return { ok: false, error: result.issues.map((issue) => (v.getDotPath(issue) ? `${v.getDotPath(issue)}: ` : '') + issue.message).join('; ') };
}

/**
 * Splits the first line off a byte stream. Resolves with the line and whatever
 * arrived after it (which belongs to the next layer), or rejects when the peer
 * closes, sends too much, or takes too long.
 */
export function readFirstLine(stream: NodeJS.ReadableStream, timeoutMs: number): Promise<{ line: string; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const cleanup = () => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(0x0a);
      if (newline === -1) {
        if (buffered.length > MAX_HANDSHAKE_BYTES) {
          cleanup();
          reject(new Error(`the handshake line is longer than ${MAX_HANDSHAKE_BYTES} bytes`));
        }
        return;
      }
      cleanup();
      stream.pause();
      resolve({ line: buffered.subarray(0, newline).toString('utf8'), rest: buffered.subarray(newline + 1) });
    };
    const onEnd = () => {
      cleanup();
      reject(new Error('the connection closed before the handshake finished'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no handshake within ${timeoutMs} ms`));
    }, timeoutMs);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    // Listeners first, then flow: bytes that arrive with no listener would be lost.
    stream.resume();
  });
}
