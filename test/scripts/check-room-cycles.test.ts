/**
 * The rooms of src/main depend one way. scripts/check-room-cycles.mjs is the check `pnpm test`
 * runs first: it must pass on the real tree and fail, naming both rooms and an import of each
 * edge, on any loop between two rooms, at any folder depth and of any length.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '../helpers/scratch-dir.js';

const SCRIPT = fileURLToPath(new URL('../../../scripts/check-room-cycles.mjs', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

function runCheck(root: string) {
  return spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8', cwd: REPO });
}

/** A tree of .ts files, each importing the paths given (relative, with .js, as the sources do). */
function tree(files: Record<string, string[]>): string {
  const root = scratchDir('patterm-rooms-');
  for (const [path, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), imports.map((spec) => `import { x } from '${spec}';\n`).join('') + 'export const x = 1;\n');
  }
  return root;
}

test('src/main has no rooms that import each other', () => {
  const result = runCheck('src/main');
  assert.equal(result.status, 0, result.stderr);
});

test('a two-way import between two rooms fails and names the rooms and an import of each edge', () => {
  const root = tree({
    'panes/pane.ts': ['../threads/host.js'],
    'threads/host.ts': ['../panes/pane.js'],
    'tui/view.ts': ['../panes/pane.js'],
  });
  const result = runCheck(root);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /in \.: panes, threads import each other/);
  assert.match(result.stderr, /panes -> threads: panes\/pane\.ts imports threads\/host\.ts/);
  assert.match(result.stderr, /threads -> panes: threads\/host\.ts imports panes\/pane\.ts/);
  assert.doesNotMatch(result.stderr, /tui/);
});

test('a loop through three rooms, nested one folder down, fails too', () => {
  const root = tree({
    'mcp/transport/socket.ts': ['../tools/dispatch.js'],
    'mcp/tools/dispatch.ts': ['../services/registry.js'],
    'mcp/services/registry.ts': ['../transport/socket.js'],
    'mcp/start.ts': ['./transport/socket.js'],
  });
  const result = runCheck(root);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /in mcp: services, tools, transport import each other/);
});

test('a loose file and a folder beside it are rooms of their own; one-way imports pass', () => {
  const root = tree({
    'coordinator.ts': ['./panes/pane.js', './process/allocator.js'],
    'panes/pane.ts': ['../threads/host.js', './pane-tree.js'],
    'panes/pane-tree.ts': [],
    'threads/host.ts': [],
    'process/allocator.ts': [],
    'process/lifecycle.ts': ['./allocator.js'],
  });
  assert.equal(runCheck(root).status, 0);
  writeFileSync(join(root, 'process/lifecycle.ts'), "import type { x } from '../coordinator.js';\nexport const y = 1;\n");
  const result = runCheck(root);
  assert.equal(result.status, 1, 'a type-only import is a dependency too');
  assert.match(result.stderr, /coordinator\.ts, process import each other/);
});
