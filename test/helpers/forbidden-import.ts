/**
 * Runs a module script in a fresh Node process in which any import of a
 * package is an error naming the module that asked for it: how a test checks
 * that patterm's start-up module graph leaves a costly package to load later.
 */
import { spawnSync } from 'node:child_process';

/** A resolve hook that fails every specifier starting with `prefix`. */
function forbiddingHook(prefix: string): string {
  return `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier.startsWith(${JSON.stringify(prefix)})) throw new Error(${JSON.stringify(prefix)} + ' imported by ' + context.parentURL);
  return next(specifier, context);
}`)}`;
}

/** The same for require() (the CommonJS bundles), which Node 20's resolve hooks do not see. */
function forbiddingRequire(prefix: string): string {
  return `
const original = Module.prototype.require;
Module.prototype.require = function (id) {
  if (id.startsWith(${JSON.stringify(prefix)})) throw new Error(${JSON.stringify(prefix)} + ' required by ' + this.filename);
  return original.apply(this, arguments);
};`;
}

/** `script` (an ES module's source) run with imports and requires of `prefix` forbidden; `cwd` resolves its bare specifiers. */
export function runWithImportForbidden(prefix: string, script: string, cwd: string): { status: number | null; stderr: string } {
  const register = `import Module, { register } from 'node:module'; register(${JSON.stringify(forbiddingHook(prefix))});${forbiddingRequire(prefix)}`;
  const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stderr: result.stderr };
}
