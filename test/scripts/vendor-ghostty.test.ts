/**
 * Pane workers load ghostty-web from the copy scripts/vendor-ghostty.mjs writes
 * at build time, without the 564 KB base64 copy of ghostty-vt.wasm that each
 * worker's heap would otherwise keep (2.2 MiB a pane). The copy must be what
 * `#ghostty-web` resolves to, must lose only that payload, and a ghostty-web
 * build the script does not recognise must fail the build loudly rather than
 * ship a module that is broken or still carries the payload.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../scripts/vendor-ghostty.mjs', import.meta.url));
const PAYLOAD = /data:application\/wasm;base64,[A-Za-z0-9+/=]{1000,}/;

const COMPILED_SOURCES = fileURLToPath(new URL('../../src/', import.meta.url));

function runScript(args: string[]) {
  return spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
}

test('#ghostty-web resolves to the vendored copy: ghostty-web without its embedded WASM, and it still works', async () => {
  const vendored = fileURLToPath(import.meta.resolve('#ghostty-web'));
  const original = fileURLToPath(import.meta.resolve('ghostty-web'));
  assert.notEqual(vendored, original);
  assert.match(vendored, /dist\/vendor\/ghostty-web\.js$/);
  const slim = readFileSync(vendored, 'utf8');
  const full = readFileSync(original, 'utf8');
  assert.doesNotMatch(slim, PAYLOAD);
  assert.match(full, PAYLOAD);
  assert.ok(full.length - slim.length > 500_000, `only ${full.length - slim.length} characters were dropped`);
  // Everything else is byte for byte ghostty-web's build.
  assert.equal(full.replace(PAYLOAD, 'data:application/wasm;base64,'), slim);

  const { GhosttyEmulator } = await import('../../src/workers/ghostty-emulator.js');
  const { loadGhosttyModule } = await import('../../src/main/threads/wasm-module.js');
  const emulator = new GhosttyEmulator(await loadGhosttyModule(), { cols: 20, rows: 3, scrollbackBytes: 64 * 1024 });
  try {
    emulator.write(new TextEncoder().encode('hello \x1b[1mworld\x1b[0m'));
    assert.equal(emulator.plainLines()[0].trimEnd(), 'hello world');
  } finally {
    emulator.dispose();
  }
});

test("no patterm module imports ghostty-web's full build: only the vendored #ghostty-web", () => {
  const importers: string[] = [];
  let full: string[] = [];
  for (const file of readdirSync(COMPILED_SOURCES, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js')) continue;
    const text = readFileSync(join(COMPILED_SOURCES, file), 'utf8');
    if (/from '#ghostty-web'/.test(text)) importers.push(file);
    if (/(?:from|import\()\s*['"]ghostty-web['"]/.test(text)) full = [...full, file];
  }
  assert.deepEqual(full, []);
  assert.deepEqual(importers, ['workers/ghostty-emulator.js']);
});

test('vendor-ghostty refuses a ghostty-web build it does not recognise, and writes nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'patterm-vendor-'));
  try {
    const out = join(dir, 'out.js');
    const noPayload = join(dir, 'no-payload.js');
    writeFileSync(noPayload, 'export class Ghostty {}\n');
    let result = runScript(['--source', noPayload, '--out', out]);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /expected exactly one embedded ghostty-vt\.wasm .* in .*no-payload\.js; found none/);
    assert.equal(existsSync(out), false);

    const base64 = 'AGFzbQEAAAAB'.repeat(10_000);
    const twoPayloads = join(dir, 'two.js');
    writeFileSync(twoPayloads, `const a = "data:application/wasm;base64,${base64}";\nconst b = "data:application/wasm;base64,${base64}";\n`);
    result = runScript(['--source', twoPayloads, '--out', out]);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /found 120029, 120029/);

    const relative = join(dir, 'relative.js');
    writeFileSync(relative, `import { helper } from "./helper.js";\nconst a = "data:application/wasm;base64,${base64}";\n`);
    result = runScript(['--source', relative, '--out', out]);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /imports a file relative to itself \(import \{ helper \} from "\.\/helper\.js"/);
    assert.equal(existsSync(out), false);

    const good = join(dir, 'good.js');
    writeFileSync(good, `export const url = new URL("data:application/wasm;base64,${base64}", import.meta.url);\n`);
    result = runScript(['--source', good, '--out', out]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(readFileSync(out, 'utf8'), 'export const url = new URL("data:application/wasm;base64,", import.meta.url);\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
