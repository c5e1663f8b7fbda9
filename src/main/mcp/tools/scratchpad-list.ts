import * as v from 'valibot';
import { defineTool, ok } from './tool-kit.js';

export const scratchpadList = defineTool({
  name: 'scratchpad_list',
  title: 'List scratchpads',
  access: 'any',
  annotations: { readOnlyHint: true },
  description:
    "List the project's scratchpads: shared markdown notes that every agent in this project and the human can read and write (the human sees them in patterm's side rail). They persist across patterm runs.",
  schema: v.strictObject({}),
  async run(_args, { services }) {
    const entries = await services.scratchpads.list();
    const scratchpads = entries.map((entry) => ({ name: entry.name, size: entry.size, modified_at: entry.modifiedAt }));
    if (scratchpads.length === 0) return ok({ scratchpads }, 'no scratchpads yet.');
    const lines = scratchpads.map((pad) => `${pad.name}  ${pad.size} bytes  modified ${pad.modified_at}`);
    return ok({ scratchpads }, `${scratchpads.length} scratchpad${scratchpads.length === 1 ? '' : 's'}:`, lines.join('\n'));
  },
});
