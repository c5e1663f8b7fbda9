/**
 * Builds patterm's native addon (native/patterm-native.c, see there) into
 * dist/native/patterm-native.node with the C compiler and the local Node headers:
 * npm's nodedir when set (bootstrap.sh exports it), else the headers installed
 * next to the running node. No download, so it works offline. Skipped when the
 * output is newer than the source. A failed build warns and carries on: patterm
 * then runs without it and logs what that costs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'native', 'patterm-native.c');
const output = join(root, 'dist', 'native', 'patterm-native.node');

function headerDirs() {
  const candidates = [];
  const nodedir = process.env.npm_config_nodedir;
  if (nodedir && nodedir !== 'undefined') candidates.push(join(nodedir, 'include', 'node'), join(nodedir, 'src'));
  candidates.push(join(dirname(dirname(realpathSync(process.execPath))), 'include', 'node'));
  return candidates.filter((dir) => existsSync(join(dir, 'node_api.h')));
}

if (process.platform !== 'linux') {
  console.error('build-native: not Linux; the native addon is Linux-only, skipped');
} else if (existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs) {
  // up to date
} else {
  const headers = headerDirs()[0];
  if (!headers) {
    console.error('build-native: no Node headers (node_api.h) found in npm nodedir or next to node; patterm will run without its native addon');
  } else {
    mkdirSync(dirname(output), { recursive: true });
    // Built beside it and renamed over it: a running patterm has the old file mapped, and overwriting it in place would crash it.
    const building = `${output}.${process.pid}.tmp`;
    try {
      execFileSync(process.env.CC || 'cc', ['-O2', '-shared', '-fPIC', '-Wall', '-DNODE_GYP_MODULE_NAME=patterm_native', `-I${headers}`, '-o', building, source], { stdio: 'inherit' });
      renameSync(building, output);
    } catch (error) {
      rmSync(building, { force: true });
      console.error(`build-native: compiling ${source} failed (${error.message}); patterm will run without its native addon`);
    }
  }
}
