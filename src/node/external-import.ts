/**
 * import() of a package kept outside patterm's bundles. Code that runs in a
 * vm.Script, as the app's bundle does when code-cache.ts loads it, has no
 * module loader behind its own import() (Node 20 rejects it without
 * --experimental-vm-modules), so such a loader installs one here first. The
 * slot is global: a bundle carries its own copy of this module.
 */
const IMPORTER = Symbol.for('patterm.externalImporter');

type Importer = (specifier: string) => Promise<unknown>;

export function importExternal<Module>(specifier: string): Promise<Module> {
  const importer = (globalThis as { [IMPORTER]?: Importer })[IMPORTER];
  return (importer ? importer(specifier) : import(specifier)) as Promise<Module>;
}

/** Makes importExternal use `importer`, an import() that runs in a real module. */
export function installExternalImporter(importer: Importer): void {
  (globalThis as { [IMPORTER]?: Importer })[IMPORTER] = importer;
}
