import * as v from 'valibot';
import { defineTool, ok } from './tool-kit.js';
import { ScratchpadNameSchema } from './scratchpad-schemas.js';

export const scratchpadRead = defineTool({
  name: 'scratchpad_read',
  title: 'Read a scratchpad',
  access: 'any',
  annotations: { readOnlyHint: true },
  description: 'Read a scratchpad. Returns its content and its revision; pass that revision as expected_revision when you write or append, so a concurrent change by another agent is detected instead of overwritten.',
  schema: v.strictObject({ name: ScratchpadNameSchema }),
  async run(args, { services }) {
    const pad = await services.scratchpads.read(args.name, { forReply: true });
    return ok(
      { name: pad.name, content: pad.content, revision: pad.revision, size: pad.size, modified_at: pad.modifiedAt },
      `[${pad.name}, revision ${pad.revision}, ${pad.size} bytes]`,
      pad.content,
    );
  },
});
