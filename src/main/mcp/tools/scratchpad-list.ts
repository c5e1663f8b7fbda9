import * as v from 'valibot';
import { defineTool, ok } from '../tool-kit.js';

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
    const text = scratchpads.length === 0 ? 'no scratchpads yet.' : scratchpads.map((pad) => `${pad.name}  ${pad.size} bytes  modified ${pad.modified_at}`).join('\n');
    return ok({ scratchpads }, text);
  },
});
