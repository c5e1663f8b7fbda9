import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../node/package-root.js';

export { PACKAGE_ROOT };

/** The launcher script: what a user runs, and what agents run as their MCP server (`mcp-stdio`). */
export const PATTERM_BIN = join(PACKAGE_ROOT, 'bin', 'patterm');

export const VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
