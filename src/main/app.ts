/**
 * Boots patterm: coordinator, lifecycle, MCP server and TUI.
 * (The TUI and MCP issues fill in their parts.)
 */
import { Coordinator } from './coordinator.js';
import { Lifecycle } from './lifecycle.js';

export interface AppOptions {
  projectDir: string;
}

export async function runApp(options: AppOptions): Promise<void> {
  const coordinator = new Coordinator(options.projectDir);
  const lifecycle = new Lifecycle(coordinator);
  lifecycle.install();
  process.stderr.write('patterm: the TUI is not built yet\n');
  await lifecycle.shutdown(1);
}
