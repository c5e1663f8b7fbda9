/**
 * Builds patterm's native addon (native/patterm-native.c and its C++ part
 * native/v8-memory-pressure.cc, see there) into
 * dist/native/patterm-native.node with the C compiler and the local Node headers:
 * npm's nodedir when set (bootstrap.sh exports it), else the headers installed
 * next to the running node. No download, so it works offline. Skipped when the
 * output is newer than its sources. A failed build warns and carries on: patterm
 * then runs without it and logs what that costs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cSource = join(root, 'native', 'patterm-native.c');
const cxxSource = join(root, 'native', 'v8-memory-pressure.cc');
const sources = [cSource, cxxSource];
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
} else if (existsSync(output) && sources.every((source) => statSync(output).mtimeMs >= statSync(source).mtimeMs)) {
  // up to date
} else {
  const headers = headerDirs()[0];
  if (!headers) {
    console.error('build-native: no Node headers (node_api.h) found in npm nodedir or next to node; patterm will run without its native addon');
  } else {
    mkdirSync(dirname(output), { recursive: true });
    // Built beside it and renamed over it: a running patterm has the old file mapped, and overwriting it in place would crash it.
    const building = `${output}.${process.pid}.tmp`;
    const objects = mkdtempSync(join(tmpdir(), 'patterm-native-'));
    const common = ['-O2', '-fPIC', '-Wall', '-DNODE_GYP_MODULE_NAME=patterm_native', `-I${headers}`];
    try {
      execFileSync(process.env.CC || 'cc', [...common, '-c', '-o', join(objects, 'c.o'), cSource], { stdio: 'inherit' });
      // v8.h needs C++17, as Node's own addon builds (common.gypi) ask for.
      execFileSync(process.env.CXX || 'c++', [...common, '-std=gnu++17', '-c', '-o', join(objects, 'cxx.o'), cxxSource], { stdio: 'inherit' });
      execFileSync(process.env.CXX || 'c++', ['-shared', '-o', building, join(objects, 'c.o'), join(objects, 'cxx.o')], { stdio: 'inherit' });
      renameSync(building, output);
    } catch (error) {
      rmSync(building, { force: true });
      console.error(`build-native: compiling ${sources.join(' and ')} failed (${error.message}); patterm will run without its native addon`);
    } finally {
      rmSync(objects, { recursive: true, force: true });
    }
  }
}
