import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/**
 * Root of the installed package (the folder holding package.json, presets/ and
 * bin/): the one place that knows how deep the compiled code sits in it.
 */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The launcher script: what a user runs, and what agents run as their MCP server (`mcp-stdio`). */
export const PATTERM_BIN = join(PACKAGE_ROOT, 'bin', 'patterm');

export const VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
