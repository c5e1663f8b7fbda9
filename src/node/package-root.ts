import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Root of the installed package (the folder holding package.json, presets/ and
 * bin/): the one place that knows how deep the compiled code sits in it. Every
 * thread's code sits at that depth, as tsc's output (dist/src/<layer>/) and as
 * the bundles beside it.
 */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
