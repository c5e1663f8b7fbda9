import * as v from 'valibot';
import { defineTool, ok } from './tool-kit.js';
import { ExpectedRevisionSchema, ScratchpadContentSchema, ScratchpadNameSchema } from './scratchpad-schemas.js';

export const scratchpadAppend = defineTool({
  name: 'scratchpad_append',
  title: 'Append to a scratchpad',
  access: 'any',
  annotations: { readOnlyHint: false, destructiveHint: false },
  description:
    'Add text to the end of a scratchpad (creating it if needed), e.g. a line to a shared log or todo list. Include your own leading newline if you need one. Appends from several agents never lose each other; pass expected_revision only if your text depends on what was there. Returns the new revision.',
  schema: v.strictObject({
    name: ScratchpadNameSchema,
    content: ScratchpadContentSchema('Text to add at the end.'),
    expected_revision: ExpectedRevisionSchema,
  }),
  async run(args, { services }) {
    const change = await services.scratchpads.append(args.name, args.content, args.expected_revision);
    return ok({ name: change.name, revision: change.revision, size: change.size }, `appended to ${change.name} (now ${change.size} bytes), revision ${change.revision}.`);
  },
});
