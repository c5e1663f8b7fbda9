#!/usr/bin/env node
/**
 * Fails when two rooms (folders, or loose files beside them) import each other, directly or
 * round a longer loop. Per-folder tsconfig references keep the layers of `src/` one way; inside
 * one layer, this keeps each room's dependencies one way too, at every folder depth.
 *
 * Usage: node scripts/check-room-cycles.mjs [dir ...]   (default: src/main)
 * Exit 0 when there is no cycle; 1 with each cycle and one import per edge on stderr.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const IMPORT_PATTERN = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)'/g;

/** Every .ts file under `dir`, as absolute paths. */
function sourceFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** The relative imports of one file, resolved to the .ts files they name. */
function importsOf(file) {
  const targets = [];
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT_PATTERN)) {
    targets.push(resolve(dirname(file), match[1].replace(/\.js$/, '.ts')));
  }
  return targets;
}

/** Strongly connected components of more than one node (Tarjan). */
function cyclesOf(nodes, edges) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), indices.get(next)));
      }
    }
    if (low.get(node) !== indices.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of nodes) if (!indices.has(node)) visit(node);
  return cycles;
}

/**
 * Checks every folder under `root`: its entries (subfolders and files) are the rooms, and an
 * import from anything inside one room to anything inside another is an edge between them.
 * Returns one description per cycle found.
 */
export function findRoomCycles(root) {
  const absoluteRoot = resolve(root);
  const files = sourceFiles(absoluteRoot);
  const imports = files.map((file) => [file, importsOf(file).filter((target) => target.startsWith(absoluteRoot + sep))]);
  const problems = [];
  const folders = [absoluteRoot, ...files.map(dirname)].filter((folder, at, all) => all.indexOf(folder) === at);
  for (const folder of folders.filter((path) => statSync(path).isDirectory())) {
    /** The entry of `folder` that holds `file`, or null when `file` is outside it. */
    const roomOf = (file) => (file.startsWith(folder + sep) ? relative(folder, file).split(sep)[0] : null);
    const edges = new Map();
    const rooms = new Set();
    for (const [file, targets] of imports) {
      const from = roomOf(file);
      if (from === null) continue;
      rooms.add(from);
      for (const target of targets) {
        const to = roomOf(target);
        if (to === null || to === from) continue;
        if (!edges.has(from)) edges.set(from, new Map());
        if (!edges.get(from).has(to)) edges.get(from).set(to, `${relative(absoluteRoot, file)} imports ${relative(absoluteRoot, target)}`);
      }
    }
    for (const cycle of cyclesOf([...rooms].sort(), edges)) {
      const where = relative(absoluteRoot, folder) || '.';
      const links = cycle.flatMap((from) => cycle.filter((to) => edges.get(from)?.has(to)).map((to) => `    ${from} -> ${to}: ${edges.get(from).get(to)}`));
      problems.push(`in ${where}: ${cycle.join(', ')} import each other\n${links.join('\n')}`);
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const roots = process.argv.slice(2);
  const problems = (roots.length > 0 ? roots : ['src/main']).flatMap((root) => findRoomCycles(root).map((problem) => `${root}: ${problem}`));
  if (problems.length > 0) {
    process.stderr.write(`check-room-cycles: rooms must depend one way; found ${problems.length} cycle(s):\n${problems.join('\n')}\n`);
    process.exit(1);
  }
}
