import * as v from 'valibot';
import { defineTool, ok } from './tool-kit.js';
import { ExpectedRevisionSchema, ScratchpadContentSchema, ScratchpadNameSchema } from './scratchpad-schemas.js';

export const scratchpadWrite = defineTool({
  name: 'scratchpad_write',
  title: 'Write a scratchpad',
  access: 'any',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  description:
    'Replace the whole content of a scratchpad (creating it if needed). The write is atomic. Pass expected_revision (from scratchpad_read) so that, if someone changed it in the meantime, you get an error instead of silently overwriting their update. Returns the new revision.',
  schema: v.strictObject({
    name: ScratchpadNameSchema,
    content: ScratchpadContentSchema('The new, complete content (markdown).'),
    expected_revision: ExpectedRevisionSchema,
  }),
  async run(args, { services }) {
    const change = await services.scratchpads.write(args.name, args.content, args.expected_revision);
    return ok({ name: change.name, revision: change.revision, size: change.size }, `wrote ${change.name} (${change.size} bytes), revision ${change.revision}.`);
  },
});
