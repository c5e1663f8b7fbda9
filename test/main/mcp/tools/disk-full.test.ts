import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectProxy, structured, textOf } from '../helpers/mcp-harness.js';

const HOST = new URL('../../../fixtures/mcp-host.js', import.meta.url).pathname;
/** Small enough to fill with one scratchpad write, big enough for meta.json and a first file. */
const TMPFS_SIZE = '64k';

// A real full disk: a tiny tmpfs as XDG data, mounted in a private mount namespace (no root needed).
const canMount = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=4k tmpfs /tmp'], { stdio: 'ignore' }).status === 0;

test('a full disk on scratchpad write returns an error to the caller and keeps the old content', { skip: canMount ? false : 'needs unshare -rm (user and mount namespaces) to mount a tiny tmpfs' }, async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'patterm-diskfull-'));
  const data = join(root, 'data');
  const project = join(root, 'project');
  mkdirSync(data);
  mkdirSync(project);
  const socketPath = join(root, 'host.sock');
  const host = spawn('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=${TMPFS_SIZE} tmpfs "$1" && exec "$2" "$3" "$4" "$5" "$6"`, 'sh', data, process.execPath, HOST, socketPath, data, project], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  t.after(() => {
    host.stdin.end();
    rmSync(root, { recursive: true, force: true });
  });
  const ready = await new Promise<string>((resolve, reject) => {
    let out = '';
    host.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    host.once('exit', (code) => reject(new Error(`host exited with ${code} before serving`)));
  });
  const { token } = JSON.parse(ready) as { token: string };
  const mcp = await connectProxy(socketPath, token);
  t.after(() => mcp.close());

  const first = await mcp.call('scratchpad_write', { name: 'log.md', content: 'a'.repeat(40 * 1024) });
  assert.equal(first.isError, undefined, textOf(first));
  const full = await mcp.call('scratchpad_write', { name: 'log.md', content: 'b'.repeat(60 * 1024) });
  assert.equal(full.isError, true);
  assert.match(textOf(full), /^disk full: could not write scratchpad "log.md" \(ENOSPC\); its previous content is unchanged$/);
  assert.equal(structured<{ code: string }>(full).code, 'disk-full');
  const read = structured<{ content: string }>(await mcp.call('scratchpad_read', { name: 'log.md' }));
  assert.equal(read.content, 'a'.repeat(40 * 1024));
  // The server is still fine for everything else.
  assert.equal((await mcp.call('scratchpad_list')).isError, undefined);
});
