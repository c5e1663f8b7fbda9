/**
 * STOPGAP until src/main/presets/agent-launcher.ts lands: launches process
 * presets only, through the coordinator. app.ts switches to the real launcher
 * as soon as it exists; this file is then deleted.
 */
import type { AgentLauncher } from '../contracts.js';
import type { Coordinator } from '../coordinator.js';
import type { PresetCatalog } from '../presets/preset-catalog.js';

export function interimLauncher(coordinator: Coordinator, catalog: PresetCatalog): AgentLauncher {
  return {
    async spawnAgent() {
      throw new Error('agent presets need the agent launcher, which is not built yet');
    },
    async spawnProcess(request) {
      if (!request.preset) throw new Error('freeform argv is not supported by the interim launcher');
      const entry = catalog.findProcess(request.preset);
      if (!entry) throw new Error(`no process preset ${JSON.stringify(request.preset)}; known: ${catalog.describeProcesses()}`);
      const preset = entry.preset;
      const argv = preset.shell ? ['sh', '-lc', preset.argv[0]] : preset.argv;
      return coordinator.spawn({
        argv,
        kind: 'process',
        cwd: request.workingDir ?? preset.working_dir,
        env: { ...preset.env, ...request.env },
        name: request.name,
        parentId: request.parentId,
        owner: request.owner ?? 'user',
        presetName: entry.id,
      });
    },
    async submit() {
      throw new Error('submit needs the agent launcher');
    },
    chromeTrim: (_paneId, lines) => ({ lines, trimmedRows: [] }),
  };
}
